#!/usr/bin/env bash
# Build the CPython 3.11 wasm32-wasi guest image for wasmexec.
#
#   guest-images/python/build.sh OUTDIR
#   guest-images/python/build.sh --base-key    (prints the key described below)
#
# Everything is built from Debian bookworm's pinned source packages with
# Debian's clang-16/lld-16/wasi-libc; see README.md beside this file.
#
# Two stages:
# 1. The compiled CPython tree (base.sh): sources, dependencies, CPython
#    patched, configured and compiled. Kept in
#    ${WASMEXEC_CACHE_DIR:-$HOME/.cache/wasmexec}/work/python/base-KEY, where
#    KEY hashes only that stage's inputs (base.sh says which), and reused.
# 2. The image (this file): a copy of that tree, the driver's C modules
#    dropped in, `make` (recompiles them and relinks python.wasm), the
#    stdlib zip with the driver, OUTDIR assembled.
# So a change to the driver (or to anything else outside the base's inputs)
# costs stage 2 only: about a minute instead of a full build.
#
# Scratch work: .../work/python/build (downloaded source packages are kept
# in .../work/python/dl, keyed by version; the build tree is removed when the
# build ends, except its logs when it failed).
#
# Needs the Debian packages in TOOL_PKGS below; missing ones are installed
# with apt-get, which needs root (it says so, with the list, before it does).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Debian packages the build needs on the build machine.
TOOL_PKGS=(clang-16 lld-16 llvm-16 wasi-libc libclang-rt-16-dev-wasm32
           python3.11 make gcc libc6-dev tcl xz-utils bzip2 binaryen
           cython3 python3-setuptools python3-pip libc++-16-dev-wasm32 libc++abi-16-dev-wasm32
           python3-setuptools-scm python3-certifi python3-cppy pkgconf patch
           python3-matplotlib)

BUILD_PYTHON=/usr/bin/python3.11
LLVM_BIN=/usr/lib/llvm-16/bin
# Fixed timestamp for everything that records one (__DATE__, zip entries).
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC PYTHONHASHSEED=0
umask 022

CACHE_DIR="${WASMEXEC_CACHE_DIR:-${HOME:-/root}/.cache/wasmexec}"
WORK="$CACHE_DIR/work/python"
DL="$WORK/dl"            # downloaded source packages, kept between builds
B="$WORK/build"          # wiped at every build
JOBS="$(nproc 2>/dev/null || echo 2)"
# How many compiled trees (base-KEY, ~NNN MB each) to keep.
KEEP_BASES=2

# ---------------------------------------------------------------------------
step() { echo "==> [python] $*"; }
die()  { echo "error: [python] $*" >&2; exit 1; }

# Run a command with its output going to a log; on failure show the tail.
# (Run as a background job so that `set -e` stays in force inside shell
# functions; in an `if`/`||` context bash would ignore it.)
run_logged() {
    local log="$1"; shift
    local rc=0
    "$@" >"$log" 2>&1 &
    wait $! || rc=$?
    if [ $rc -ne 0 ]; then
        echo "---- last lines of $log ----" >&2
        tail -n 40 "$log" >&2
        die "failed: $* (exit $rc; full log: $log)"
    fi
}

# make_python runs CPython's `make` in the build directory (the current
# directory), for both stages.
make_python() {
    # Route every modifying WASI call through _wasmexec_fsguard.c (only for
    # the final link: configure's link tests must not see these flags).
    local wrap="" f
    for f in path_open fd_close fd_renumber fd_write fd_pwrite fd_allocate \
             fd_filestat_set_size fd_filestat_set_times path_create_directory \
             path_remove_directory path_unlink_file path_filestat_set_times \
             path_symlink path_rename path_link; do
        wrap="$wrap,--wrap=__wasi_$f"
    done
    # libc's localtime_r and localtime with the zone TZ names
    # (_wasmexecmodule.c).
    wrap="$wrap,--wrap=localtime_r,--wrap=localtime"
    # A WASI reactor (no _start): the engine calls _initialize and
    # wasmexec_init once per image, snapshots the memory, and starts every
    # guest in wasmexec_serve (README.md, "Snapshot").
    # EXTRA_LINK: objects and archives linked into python.wasm as well
    # (numpy's, when it is built: numpy.sh).
    # sys.version's build information as Debian writes it (base.sh).
    python_buildinfo
    run_logged "$B/logs/make.log" make -j"$JOBS" LINKFORSHARED="-mexec-model=reactor -Wl${wrap} ${EXTRA_LINK:-}" \
        "${PY_BUILDINFO[@]}"
}

# shellcheck source=base.sh
. "$HERE/base.sh"
# shellcheck source=extlibs.sh
. "$HERE/extlibs.sh"
# shellcheck source=numpy.sh
. "$HERE/numpy.sh"
# shellcheck source=extbuild.sh
. "$HERE/extbuild.sh"
# shellcheck source=pandas.sh
. "$HERE/pandas.sh"
# shellcheck source=matplotlib.sh
. "$HERE/matplotlib.sh"
# shellcheck source=uuid.sh
. "$HERE/uuid.sh"

if [ "${1:-}" = "--base-key" ]; then
    base_key
    exit 0
fi
[ $# -eq 1 ] && [ -n "$1" ] || die "usage: $0 OUTDIR"
mkdir -p "$1" || die "cannot create $1"
OUTDIR="$(cd "$1" && pwd)"

# ---------------------------------------------------------------------------
mkdir -p "$WORK"
# One build at a time per work dir (the image cache may start several).
if command -v flock >/dev/null 2>&1; then
    exec 9>"$WORK/.lock"
    if ! flock -n 9; then
        step "waiting for another build using $WORK"
        flock 9
    fi
fi
T0=$SECONDS

# The build tree is scratch: removed when the build ends; a failed build
# keeps only its logs (the error message points at them).
trap 'if [ -d "$B" ]; then find "$B" -mindepth 1 -maxdepth 1 ! -name logs -exec rm -rf {} +; fi' EXIT

step "checking toolchain packages"
missing=()
for p in "${TOOL_PKGS[@]}"; do
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || die "missing Debian packages: ${missing[*]}; installing them needs root: run as root, or first: sudo apt-get install ${missing[*]}"
    step "installing missing Debian packages as root (apt-get install, log $WORK/apt-install.log): ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    APT_WAIT=(-o DPkg::Lock::Timeout=600)
    if ! apt-get "${APT_WAIT[@]}" install -y --no-install-recommends "${missing[@]}" >"$WORK/apt-install.log" 2>&1; then
        apt-get "${APT_WAIT[@]}" update >/dev/null 2>&1 || true
        apt-get "${APT_WAIT[@]}" install -y --no-install-recommends "${missing[@]}" >"$WORK/apt-install.log" 2>&1 \
            || { tail -n 20 "$WORK/apt-install.log" >&2; die "could not install: ${missing[*]}"; }
    fi
fi
for f in "$LLVM_BIN/clang" "$LLVM_BIN/wasm-ld" "$LLVM_BIN/llvm-ar" "$LLVM_BIN/llvm-ranlib" \
         "$LLVM_BIN/llvm-strip" /usr/lib/wasm32-wasi/libc.a /usr/include/wasm32-wasi/stdio.h \
         "$BUILD_PYTHON" /usr/bin/tclsh; do
    [ -e "$f" ] || die "missing $f (is its Debian package installed?)"
done
ls /usr/lib/llvm-16/lib/clang/16/lib/wasi/libclang_rt.builtins-wasm32.a >/dev/null 2>&1 \
    || die "missing libclang_rt.builtins-wasm32.a (package libclang-rt-16-dev-wasm32)"

mkdir -p "$DL"

# ---------------------------------------------------------------------------
# Stage 1: the compiled CPython tree, built in $B and renamed into place
# (the rename is atomic; a build that fails or is interrupted leaves only
# $B's logs, and the next build starts $B afresh).
KEY=$(base_key)
BASE="$WORK/base-$KEY"
if [ -f "$BASE/.complete" ]; then
    step "reusing the compiled CPython tree (base $KEY)"
else
    step "building the compiled CPython tree (base $KEY; reused until base.sh's inputs change)"
    build_base
    cd "$HERE"
    # What the image stage never reads: sources of other platforms, the
    # docs, the tests (not in the zip) and libpython (re-archived anyway,
    # as the driver's objects are new).
    rm -rf "$PYSRC/Doc" "$PYSRC/Mac" "$PYSRC/PC" "$PYSRC/Lib/test" \
        "$PYSRC/builddir/wasi/libpython3.11.a"
    touch "$B/.complete"
    rm -rf "$BASE"
    mv "$B" "$BASE"
    # Older trees: keep the newest few (each is a full build's work).
    { ls -1dt "$WORK"/base-*/ 2>/dev/null || true; } | tail -n +$((KEEP_BASES + 1)) | while read -r old; do
        step "removing an older compiled tree: ${old%/}"
        rm -rf "$old"
    done
fi
touch "$BASE" # most recently used, for the pruning above

# ---------------------------------------------------------------------------
# The extension libraries' stages (numpy.sh, ...), each cached in
# $WORK/NAME-KEY like the base, KEY hashing its inputs and the base key.
# stage_cached NAME KEYFN BUILDFN: sets DIR to the stage's result.
stage_cached() {
    local name="$1" keyfn="$2" buildfn="$3" t
    DIR="$WORK/$name-$("$keyfn" "$KEY")"
    if [ -f "$DIR/.complete" ]; then
        step "reusing $name's build ($DIR)"
    else
        t=$SECONDS
        "$buildfn" "$BASE" "$DIR"
        step "$name built in $((SECONDS - t))s"
    fi
    touch "$DIR"
    { ls -1dt "$WORK/$name"-*/ 2>/dev/null | grep -v "$name-build" || true; } | tail -n +$((KEEP_BASES + 1)) | while read -r old; do
        rm -rf "$old"
    done
}
stage_cached numpy numpy_key build_numpy; NUMPY_DIR=$DIR
stage_cached pandas pandas_key build_pandas; PANDAS_DIR=$DIR
stage_cached matplotlib matplotlib_key build_matplotlib; MPL_DIR=$DIR
stage_cached uuid uuid_key build_uuid; UUID_DIR=$DIR
check_symbols "$UUID_DIR/lib/libuuid.a" "$NUMPY_DIR"/lib/*.a "$PANDAS_DIR"/lib/*.a "$MPL_DIR"/lib/*.a
EXT_DIRS=("$NUMPY_DIR" "$PANDAS_DIR" "$MPL_DIR")

# ---------------------------------------------------------------------------
# Stage 2: the image, in a copy of the tree at the same path it was built
# at (its Makefile names absolute paths; cp -a keeps the timestamps, so
# make sees only what changed).
step "copying the compiled CPython tree"
rm -rf "$B"
cp -a "$BASE" "$B"
rm -f "$B/.complete"
mkdir -p "$B/logs"
BUILDDIR="$PYSRC/builddir/wasi"
[ -f "$BUILDDIR/Makefile" ] || die "the compiled tree $BASE has no $BUILDDIR/Makefile; remove $BASE and build again"

step "building CPython (python.wasm) with the driver's modules"
cp "$HERE/_wasmexecmodule.c" "$HERE/_wasmexec_fsguard.c" "$HERE/_wasmexec_linux.c" "$PYSRC/Modules/"
cd "$BUILDDIR"
step "compiling the extension libraries' inittab"
write_inittab "$B/extlibs_inittab.c" "${EXT_DIRS[@]/%//modules.txt}"
# uuid.sh's _uuid has a top-level name, which write_inittab (extlibs.sh)
# doesn't take: its entry is added to the same table here.
[ "$(cat "$UUID_DIR/modules.txt")" = _uuid ] || die "$UUID_DIR/modules.txt is not just _uuid"
sed -i 's|^static struct _inittab extlibs_inittab\[\] = {$|extern PyObject *PyInit__uuid(void);\n&\n    {"_uuid", PyInit__uuid},|' \
    "$B/extlibs_inittab.c"
grep -q '{"_uuid", PyInit__uuid}' "$B/extlibs_inittab.c" || die "could not add _uuid to the inittab"
"$LLVM_BIN/clang" --target=wasm32-wasi --sysroot="$B/sysroot" -O2 -I"$BUILDDIR" -I"$PYSRC/Include" \
    -c "$B/extlibs_inittab.c" -o "$B/extlibs_inittab.o" || die "compiling the inittab failed"
# The C++ runtime's throw, for C++ compiled without exception support
# (cxx_nothrow.cpp says why).
"$LLVM_BIN/clang++" --target=wasm32-wasi --sysroot="$B/sysroot" -O2 -fno-exceptions \
    -isystem /usr/include/wasm32-wasi/c++/v1 -Drestrict=__restrict -I"$BUILDDIR" -I"$PYSRC/Include" \
    -c "$HERE/cxx_nothrow.cpp" -o "$B/cxx_nothrow.o" || die "compiling cxx_nothrow.cpp failed"
EXTRA_LINK="$B/extlibs_inittab.o $B/cxx_nothrow.o"
# Copies of the stages' archives, each given a symbol index by LLVM's
# ranlib: one made by a library's own build (freetype's configure picks
# the host's ar and ranlib, which can't index wasm objects) has none, and
# wasm-ld refuses an archive without one.
mkdir -p "$B/extlib"
for d in "${EXT_DIRS[@]}"; do
    for a in "$d"/lib/*.a; do
        c="$B/extlib/$(basename "$d" | sed 's/-[0-9a-f]*$//')-$(basename "$a")"
        cp "$a" "$c"
        "$LLVM_BIN/llvm-ranlib" "$c" || die "llvm-ranlib $a failed"
        EXTRA_LINK="$EXTRA_LINK $c"
    done
done
EXTRA_LINK="$EXTRA_LINK $UUID_DIR/lib/libuuid.a"
EXTRA_LINK="$EXTRA_LINK -lc++ -lc++abi -lc-printscan-long-double"
make_python

if grep -aq 'signature_mismatch:' python.wasm; then
    die "python.wasm has calls with mismatched signatures (wasm-ld made them traps): $(grep -ao 'signature_mismatch:[A-Za-z0-9_]*' python.wasm | sort -u | tr '\n' ' ')"
fi

step "building the stdlib zip"
# WASI fixes to the stdlib (asyncio without socketpair), then the driver,
# which ships inside the zip as bytecode next to the stdlib.
run_logged "$B/logs/patch_stdlib.log" "$BUILD_PYTHON" "$HERE/tools/patch_stdlib.py" "$PYSRC/Lib"
cp "$HERE/wasmexec_driver.py" "$PYSRC/Lib/wasmexec_driver.py"
# Rich outputs (display(), plt.show()), imported by the driver.
cp "$HERE/_wasmexec_display.py" "$PYSRC/Lib/_wasmexec_display.py"
# Stand-ins for C modules WASI can't have, which libraries import at the
# top (stdlib/*.py say which and why).
cp "$HERE"/stdlib/*.py "$PYSRC/Lib/"
# `make wasm_stdlib` runs our wrapper around the upstream script, which
# writes the zip reproducibly (see tools/wasm_assets.py).
mv "$PYSRC/Tools/wasm/wasm_assets.py" "$PYSRC/Tools/wasm/wasm_assets_upstream.py"
cp "$HERE/tools/wasm_assets.py" "$PYSRC/Tools/wasm/wasm_assets.py"
export WASMEXEC_BUILD_ROOT="$B"
run_logged "$B/logs/wasm_stdlib.log" make wasm_stdlib
for d in "${EXT_DIRS[@]}"; do
    step "adding $(basename "$d" | sed 's/-[0-9a-f]*$//')'s package to the stdlib zip"
    run_logged "$B/logs/zip_$(basename "$d").log" "$BUILD_PYTHON" "$HERE/tools/zip_add_package.py" \
        usr/local/lib/python311.zip "$d/pkg"
done

# ---------------------------------------------------------------------------
step "assembling $OUTDIR"
[ -f python.wasm ] || die "python.wasm was not produced"
grep -q __wrap___wasi_path_open python.wasm \
    || die "python.wasm lacks the read-only guard (_wasmexec_fsguard.c not linked with --wrap)"
STAGE="$B/out"
rm -rf "$STAGE"; mkdir -p "$STAGE/lib"
"$LLVM_BIN/llvm-strip" --strip-debug -o "$B/python.stripped.wasm" python.wasm
# Post-link passes run on every image build (stage 2), never in the cached
# tree. Binaryen's wasm-opt -O3: 6-8% less guest CPU on make bench's Python
# kernels (median, paired runs in bare wasmtime), 13% smaller. (On the
# Go-built JS guest it measured no gain, so that image doesn't use it.)
step "optimizing python.wasm with Binaryen's wasm-opt -O3"
command -v wasm-opt >/dev/null || die "missing wasm-opt (Debian package binaryen)"
run_logged "$B/logs/wasm-opt.log" wasm-opt -O3 --enable-bulk-memory --enable-sign-ext \
    --enable-nontrapping-float-to-int --enable-mutable-globals \
    "$B/python.stripped.wasm" -o "$STAGE/python.wasm"
cp -a usr/local/lib/. "$STAGE/lib/"
# root/ is the guest's "/" (a read-only preopen): paths outside the other
# preopens resolve there, so a missing one is ENOENT as on Linux (not
# wasi-libc's ENOTCAPABLE), os.listdir("/") shows where things are and
# os.chdir("/") works. Its directories are where the other preopens sit.
mkdir -p "$STAGE/root/workspace" "$STAGE/root/usr/local/lib" "$STAGE/root/usr/share/zoneinfo"
# matplotlib's data, opened by path (tools/patch_matplotlib.py).
cp -a "$MPL_DIR/mpl-data" "$STAGE/lib/mpl-data"
cp "$HERE/guest.json" "$STAGE/guest.json"
# Smoke check of the artefacts' shape (running needs the wasmexec host).
"$BUILD_PYTHON" - "$STAGE" <<'EOF'
import json, sys, zipfile, pathlib
out = pathlib.Path(sys.argv[1])
g = json.loads((out / "guest.json").read_text())
assert (out / g["wasm"]).is_file()
names = set(zipfile.ZipFile(out / "lib/python311.zip").namelist())
for need in ("os.pyc", "encodings/__init__.pyc", "json/__init__.pyc",
             "sqlite3/__init__.pyc", "wasmexec_driver.pyc", "_wasmexec_display.pyc"):
    assert need in names, need

# The control channel imports (docs/PROTOCOL.md) must be there.
data = (out / g["wasm"]).read_bytes()
def leb(i):
    r = s = 0
    while True:
        b = data[i]; i += 1
        r |= (b & 0x7F) << s; s += 7
        if b < 0x80:
            return r, i
def name(i):
    n, i = leb(i)
    return data[i:i + n].decode(), i + n
i, imports, exports = 8, set(), set()
while i < len(data):
    sid = data[i]; size, i = leb(i + 1); end = i + size
    if sid == 2:
        count, i = leb(i)
        for _ in range(count):
            mod, i = name(i); field, i = name(i); kind = data[i]; i += 1
            if kind == 0:
                _, i = leb(i)
            elif kind == 1:
                i += 1; flags = data[i]; _, i = leb(i + 1)
                if flags & 1: _, i = leb(i)
            elif kind == 2:
                flags = data[i]; _, i = leb(i + 1)
                if flags & 1: _, i = leb(i)
            else:
                i += 2
            imports.add((mod, field))
    elif sid == 7:
        count, i = leb(i)
        for _ in range(count):
            field, i = name(i); i += 1; _, i = leb(i)
            exports.add(field)
    i = end
for f in ("recv", "send", "write", "read"):
    assert ("wasmexec", f) in imports, "python.wasm does not import wasmexec." + f
for f in g["init"] + [g["entry"]]:
    assert f in exports, "python.wasm does not export " + f + " (not linked as a reactor?)"
EOF
find "$STAGE" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$OUTDIR"
rm -rf "$OUTDIR/python.wasm" "$OUTDIR/lib" "$OUTDIR/root" "$OUTDIR/guest.json"
cp -a "$STAGE/." "$OUTDIR/"
cd "$HERE"
rm -rf "$B"
step "done in $((SECONDS - T0))s: $(du -h "$OUTDIR/python.wasm" | cut -f1) python.wasm, $(du -h "$OUTDIR/lib/python311.zip" | cut -f1) python311.zip"
