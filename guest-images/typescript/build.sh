#!/usr/bin/env bash
# build.sh OUTDIR — fetch the official TypeScript compilers from the npm
# registry and lay out the image the tscheck workers load: typescript@7.0.2
# (the native compiler, the default checker) and typescript@5.9.3 (the last
# JavaScript one, run in goja for requests that pin 5.9):
#
#   OUTDIR/ts7/tsc            TypeScript 7's native executable, from its platform
#                             package @typescript/typescript-linux-<arch>
#   OUTDIR/ts7/lib.*.d.ts     its standard libs (it requires them next to itself)
#   OUTDIR/ts7/VERSION        "7.0.2"
#   OUTDIR/typescript.js      the 5.9 compiler API (package lib/typescript.js), run in goja
#   OUTDIR/lib/lib.*.d.ts     the standard lib declaration files (served as /lib/... in memory)
#   OUTDIR/tsc.js             the CLI, for tests comparing against `node tsc.js`
#                             (a shim to lib/tsc.js → lib/_tsc.js, so tsc finds lib/*.d.ts)
#   OUTDIR/VERSION            "5.9.3"
#   OUTDIR/SHA256SUMS         checksums of every file above
#
# Deterministic: every tarball is pinned by its sha512 integrity and extracted
# unmodified; the image is assembled in a staging directory and swapped in at
# the end, so a failed build never leaves a half-written OUTDIR.
# Needs: bash, npm, node, tar, sha256sum.
set -euo pipefail

TS_VERSION=5.9.3
TS_INTEGRITY='sha512-jl1vZzPDinLr9eUt3J/t7V6FgNEw9QjvBPdysz9KfQDD41fQrC2Y4vKQdiaUpFT4bXlb1RHhLpp8wtm6M5TgSw=='

TS7_VERSION=7.0.2
TS7_INTEGRITY='sha512-8FYau96o3NKOhbjKi/qNvG/W5jhzxkbdm5sj9AbZ/5T5sWqn3hJgLfGx27sRKZWTvyzCP8dLRBTf5tBTSRVUNA=='
# The native executable comes from the platform package npm would install
# as typescript's optional dependency; one integrity per supported machine.
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) TS7_PLATFORM=linux-x64
    TS7_PLATFORM_INTEGRITY='sha512-EYdf2cNg7rgCWJnxCdJ+F3V39O8ihb37eHAu1LK8oAFizgTQbPOK7zHHXbPt8rX24COqODXeI3sIf0fCXG7H/A==' ;;
  Linux-aarch64 | Linux-arm64) TS7_PLATFORM=linux-arm64
    TS7_PLATFORM_INTEGRITY='sha512-Qh4eU4/y3yDjnfjjyPYihMj5/ODIlmt+Bzu17OI+fiSRDW57QmU5SiN63exPRNJPKUzcc1INa1NXdrJ+MqHjUQ==' ;;
  *) TS7_PLATFORM="" ;;
esac

log() { echo "typescript-image: $*" >&2; }
die() { echo "typescript-image: error: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
OUTDIR=$1
for tool in npm node tar sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found in PATH (needed to fetch typescript@$TS_VERSION)"
done

# A symlinked OUTDIR (e.g. build/images/typescript → a cache entry) is built
# in place at its target.
if [ -L "$OUTDIR" ]; then
  OUTDIR=$(readlink -f "$OUTDIR") || die "cannot resolve symlink $1"
fi
mkdir -p "$(dirname "$OUTDIR")"
OUTDIR=$(cd "$(dirname "$OUTDIR")" && pwd)/$(basename "$OUTDIR")
WORK=$(mktemp -d "${OUTDIR}.build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# fetch SPEC INTEGRITY DIR: npm pack SPEC, verify the tarball's sha512
# against INTEGRITY, extract it unmodified into DIR (DIR/package/...).
fetch() {
  local spec=$1 want=$2 dir=$3 tarball got
  log "fetching $spec with npm pack"
  mkdir -p "$dir"
  if ! (cd "$dir" && npm pack "$spec" --silent >"$dir/pack.out" 2>"$dir/pack.err"); then
    cat "$dir/pack.err" >&2
    die "npm pack $spec failed (is the npm registry reachable?)"
  fi
  tarball="$dir/$(tail -n1 "$dir/pack.out")"
  [ -f "$tarball" ] || die "npm pack did not produce $tarball"
  log "verifying $spec integrity"
  got=$(node -e '
    const c = require("crypto"), fs = require("fs");
    process.stdout.write("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"));
  ' "$tarball")
  [ "$got" = "$want" ] || die "$spec: tarball integrity mismatch: got $got, want $want"
  tar -xzf "$tarball" -C "$dir" || die "cannot extract $tarball"
}

[ -n "$TS7_PLATFORM" ] || die "no TypeScript 7 native package for $(uname -s)-$(uname -m) (supported: Linux x86_64, aarch64)"
fetch "typescript@$TS_VERSION" "$TS_INTEGRITY" "$WORK/ts5"
PKG="$WORK/ts5/package"
PKGVER=$(node -p 'require(process.argv[1]).version' "$PKG/package.json")
[ "$PKGVER" = "$TS_VERSION" ] || die "package.json says version $PKGVER, want $TS_VERSION"
fetch "typescript@$TS7_VERSION" "$TS7_INTEGRITY" "$WORK/ts7"
fetch "@typescript/typescript-$TS7_PLATFORM@$TS7_VERSION" "$TS7_PLATFORM_INTEGRITY" "$WORK/ts7native"
PKG7="$WORK/ts7native/package"
for p in "$WORK/ts7/package" "$PKG7"; do
  v=$(node -p 'require(process.argv[1]).version' "$p/package.json")
  [ "$v" = "$TS7_VERSION" ] || die "$p/package.json says version $v, want $TS7_VERSION"
done
# The platform package must be the one typescript@7 itself depends on.
node -e '
  const [main, plat] = process.argv.slice(1).map(p => require(p));
  if ((main.optionalDependencies || {})[plat.name] !== plat.version) { console.error(plat.name + "@" + plat.version + " is not an optional dependency of typescript@" + main.version); process.exit(1); }
' "$WORK/ts7/package/package.json" "$PKG7/package.json" || die "platform package mismatch"

STAGE="$WORK/image"
mkdir -p "$STAGE/lib"
cp "$PKG/lib/typescript.js" "$STAGE/typescript.js"
cp "$PKG"/lib/lib.*.d.ts "$STAGE/lib/"
cp "$PKG/lib/tsc.js" "$PKG/lib/_tsc.js" "$STAGE/lib/"
cp "$PKG/LICENSE.txt" "$STAGE/LICENSE.txt"
cat >"$STAGE/tsc.js" <<'SHIM'
// Generated by guest-images/typescript/build.sh: runs the unmodified CLI in
// lib/ (tsc looks for lib.*.d.ts next to its own file).
module.exports = require("./lib/tsc.js");
SHIM
echo "$TS_VERSION" >"$STAGE/VERSION"
mkdir -p "$STAGE/ts7"
cp "$PKG7/lib/tsc" "$PKG7"/lib/lib.d.ts "$PKG7"/lib/lib.*.d.ts "$STAGE/ts7/"
cp "$WORK/ts7/package/LICENSE" "$STAGE/ts7/LICENSE"
cp "$PKG7/NOTICE.txt" "$STAGE/ts7/NOTICE.txt"
echo "$TS7_VERSION" >"$STAGE/ts7/VERSION"
NLIB=$(ls "$STAGE"/lib/lib.*.d.ts | wc -l)
[ "$NLIB" -gt 50 ] || die "only $NLIB lib.*.d.ts files found in the package"
[ -f "$STAGE/lib/lib.es2022.full.d.ts" ] && [ -f "$STAGE/lib/lib.dom.d.ts" ] || die "lib.es2022.full.d.ts or lib.dom.d.ts missing"

log "checking the CLI runs"
got=$(node "$STAGE/tsc.js" --version) || die "node tsc.js --version failed"
[ "$got" = "Version $TS_VERSION" ] || die "tsc.js --version printed '$got'"

log "checking the TypeScript 7 executable runs"
got=$("$STAGE/ts7/tsc" --version) || die "ts7/tsc --version failed"
[ "$got" = "Version $TS7_VERSION" ] || die "ts7/tsc --version printed '$got'"
[ -f "$STAGE/ts7/lib.es2022.d.ts" ] && [ -f "$STAGE/ts7/lib.dom.d.ts" ] || die "ts7: lib.es2022.d.ts or lib.dom.d.ts missing"

(cd "$STAGE" && find . -type f ! -name SHA256SUMS | LC_ALL=C sort | sed 's|^\./||' | xargs sha256sum >SHA256SUMS)
# Fixed modes and mtimes, so the tree is byte-for-byte and metadata reproducible.
find "$STAGE" -type d -exec chmod 0755 {} +
find "$STAGE" -type f -exec chmod 0644 {} +
chmod 0755 "$STAGE/ts7/tsc"
find "$STAGE" -exec touch -h -d @315532800 {} +

log "installing into $OUTDIR"
rm -rf "$OUTDIR.old"
[ -e "$OUTDIR" ] && mv "$OUTDIR" "$OUTDIR.old"
mv "$STAGE" "$OUTDIR"
rm -rf "$OUTDIR.old"
log "done: typescript $TS7_VERSION ($TS7_PLATFORM) and $TS_VERSION, $NLIB lib files, $(du -sh "$OUTDIR" | cut -f1) in $OUTDIR"
