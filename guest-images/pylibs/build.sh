#!/usr/bin/env bash
# Build the bundled pure-Python library layer of the Python guest.
#
#   guest-images/pylibs/build.sh OUTDIR
#
# Downloads the Debian bookworm binary packages pinned in packages.txt
# (by version and sha256) with a private apt configuration (the system's
# is never changed), unpacks them with dpkg-deb, keeps their Python
# packages (C extensions dropped: the guest can't load them), turns
# Debian's tzdata into the `tzdata` package zoneinfo reads, and compiles
# the bytecode once with the build's python3.11 (unchecked-hash .pycs,
# fixed SOURCE_DATE_EPOCH: reproducible). The engine mounts OUTDIR/site
# read-only at /usr/local/lib/python3.11/dist-packages and puts it on
# sys.path (languages/python/extension.go). See README.md.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
step() { echo "==> [pylibs] $*"; }
die()  { echo "error: [pylibs] $*" >&2; exit 1; }
[ $# -eq 1 ] && [ -n "$1" ] || die "usage: $0 OUTDIR"
mkdir -p "$1"
OUTDIR="$(cd "$1" && pwd)"
export SOURCE_DATE_EPOCH=1700000000 LC_ALL=C TZ=UTC PYTHONHASHSEED=0
umask 022
BUILD_PYTHON=/usr/bin/python3.11
CACHE_DIR="${WASMEXEC_CACHE_DIR:-${HOME:-/root}/.cache/wasmexec}"
WORK="$CACHE_DIR/work/pylibs"
DL="$WORK/debs"          # downloaded packages, kept between builds
APTDIR="$WORK/apt"
T0=$SECONDS

step "checking tools"
for t in "$BUILD_PYTHON" dpkg-deb apt-get sha256sum; do
    command -v "$t" >/dev/null || die "missing $t (Debian packages python3.11, dpkg, apt)"
done
mkdir -p "$DL" "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$WORK/.lock"
    flock 9
fi

apt_private() {
    apt-get -o Dir::Etc::SourceList="$APTDIR/sources.list" \
            -o Dir::Etc::SourceParts=/dev/null \
            -o Dir::State::Lists="$APTDIR/lists" \
            -o Dir::State::status=/dev/null \
            -o Dir::Cache="$APTDIR/cache" \
            -o APT::Sandbox::User=root \
            "$@"
}
UPDATED=0
apt_update() {
    [ $UPDATED = 1 ] && return 0
    # The system's Debian entries as binary `deb` lines.
    "$BUILD_PYTHON" "$HERE/../python/tools/debsrc_list.py" | sed 's/^deb-src /deb /' >"$APTDIR/sources.list" \
        || die "could not derive apt entries from the system apt sources"
    apt_private update >"$WORK/update.log" 2>&1 || { tail -n 5 "$WORK/update.log" >&2; die "apt-get update failed (log $WORK/update.log)"; }
    UPDATED=1
}

step "fetching packages"
debs=()
while read -r pkg ver sha; do
    case "$pkg" in ''|'#'*) continue ;; esac
    name=${pkg%%:*}
    f="$DL/${name}_${ver//:/%}.deb"
    if ! { [ -f "$f" ] && echo "$sha  $f" | sha256sum -c --status; }; then
        apt_update
        tmp=$(mktemp -d "$DL/.get-XXXXXX")
        (cd "$tmp" && apt_private download "$pkg=$ver" >"$tmp/get.log" 2>&1) \
            || { tail -n 5 "$tmp/get.log" >&2; rm -rf "$tmp"; die "cannot download $pkg=$ver (has it left the archive? update packages.txt)"; }
        got=$(ls "$tmp"/*.deb)
        echo "$sha  $got" | sha256sum -c --status || { rm -rf "$tmp"; die "$pkg=$ver: sha256 mismatch (expected $sha)"; }
        mv "$got" "$f"; rm -rf "$tmp"
    fi
    debs+=("$name $ver $f")
done <"$HERE/packages.txt"

step "unpacking ${#debs[@]} packages"
B="$WORK/build"
rm -rf "$B"; mkdir -p "$B/site" "$B/x"
trap 'rm -rf "$B"' EXIT
for d in "${debs[@]}"; do
    read -r name ver f <<<"$d"
    rm -rf "$B/x"; mkdir "$B/x"
    dpkg-deb -x "$f" "$B/x"
    if [ "$name" = tzdata ]; then
        "$BUILD_PYTHON" "$HERE/make_tzdata.py" "$B/x/usr/share/zoneinfo" "$B/site" "$ver"
        continue
    fi
    src="$B/x/usr/lib/python3/dist-packages"
    [ -d "$src" ] || die "$name has no usr/lib/python3/dist-packages"
    cp -a "$src/." "$B/site/"
done
# What the guest can't use or doesn't need: C extensions, bytecode of
# another build, the test suites of the two largest packages.
find "$B/site" -name '*.so' -delete
find "$B/site" -name __pycache__ -prune -exec rm -rf {} +
find "$B/site/sympy" "$B/site/networkx" -depth -type d \( -name tests -o -name benchmarks \) -exec rm -rf {} +
"$BUILD_PYTHON" "$HERE/patch_layer.py" "$B/site"
# Links become copies: the layer holds regular files and directories only.
find "$B/site" -type l | while read -r l; do t=$(readlink -f "$l"); rm "$l"; cp "$t" "$l"; done

step "compiling bytecode"
"$BUILD_PYTHON" -I -m compileall -q -q -j 1 --invalidation-mode unchecked-hash \
    -d /usr/local/lib/python3.11/dist-packages "$B/site" || true

step "writing the manifest"
"$BUILD_PYTHON" - "$B/site" "$HERE/packages.txt" >"$B/manifest.json" <<'PY'
import json, pathlib, re, sys
site = pathlib.Path(sys.argv[1])
debs = {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) == 3 and not f[0].startswith("#"):
        debs[f[0].split(":")[0]] = {"deb": f[0].split(":")[0], "debVersion": f[1], "sha256": f[2]}
dists = []
for info in sorted(site.glob("*.dist-info")) + sorted(site.glob("*.egg-info")):
    meta = info / "METADATA" if (info / "METADATA").exists() else info / "PKG-INFO"
    if not meta.exists():
        meta = info if info.is_file() else None
    if meta is None:
        continue
    text = meta.read_text(errors="replace")
    name = re.search(r"^Name: (.*)$", text, re.M).group(1).strip()
    version = re.search(r"^Version: (.*)$", text, re.M).group(1).strip()
    dists.append({"name": name, "version": version})
json.dump({"debs": sorted(debs.values(), key=lambda d: d["deb"]), "python": dists}, sys.stdout, indent=2)
print()
PY

step "assembling $OUTDIR"
find "$B/site" "$B/manifest.json" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
rm -rf "$OUTDIR/site" "$OUTDIR/manifest.json"
cp -a "$B/site" "$B/manifest.json" "$OUTDIR/"
step "done in $((SECONDS - T0))s: $(du -sh "$OUTDIR/site" | cut -f1) in $(find "$OUTDIR/site" -type f | wc -l) files"
