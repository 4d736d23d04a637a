#!/usr/bin/env bash
# Build the CPython 3.11 wasm32-wasi guest image for wasmexec.
#
#   guest-images/python/build.sh OUTDIR
#
# Everything is built from Debian bookworm's pinned source packages with
# Debian's clang-16/lld-16/wasi-libc; see README.md beside this file.
# Scratch work: ${WASMEXEC_CACHE_DIR:-$HOME/.cache/wasmexec}/work/python
# (downloaded source packages are kept there, keyed by version).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# ---------------------------------------------------------------------------
# Pins. The orig tarballs are also checked by sha256, so a rebuilt Debian
# revision with the same upstream tarball is accepted only if it is the same
# bytes (see fetch_source).
PY_PKG=python3.11    PY_VER=3.11.2-6+deb12u8
PY_ORIG=python3.11_3.11.2.orig.tar.gz
PY_SHA=2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849
ZLIB_PKG=zlib        ZLIB_VER=1:1.2.13.dfsg-1
ZLIB_ORIG=zlib_1.2.13.dfsg.orig.tar.bz2
ZLIB_SHA=71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1
SQLITE_PKG=sqlite3   SQLITE_VER=3.40.1-2+deb12u2
SQLITE_ORIG=sqlite3_3.40.1.orig.tar.xz
SQLITE_SHA=aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655
BZIP2_PKG=bzip2      BZIP2_VER=1.0.8-5
BZIP2_ORIG=bzip2_1.0.8.orig.tar.gz
BZIP2_SHA=ab5a03176ee106d3f0fa90e381da478ddae405918153cca248e682cd0c4a2269
XZ_PKG=xz-utils      XZ_VER=5.4.1-1+deb12u1
XZ_ORIG=xz-utils_5.4.1.orig.tar.xz
XZ_SHA=5d9827aa1875b21c288f78864bb26d2650b436ea8d2cad364e4921eb6266a5a5

# Debian packages the build needs on the build machine.
TOOL_PKGS=(clang-16 lld-16 llvm-16 wasi-libc libclang-rt-16-dev-wasm32
           python3.11 make gcc libc6-dev tcl xz-utils bzip2 binaryen)

BUILD_PYTHON=/usr/bin/python3.11
LLVM_BIN=/usr/lib/llvm-16/bin
# Fixed timestamp for everything that records one (__DATE__, zip entries).
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC PYTHONHASHSEED=0
umask 022

# ---------------------------------------------------------------------------
step() { echo "==> [python] $*"; }
die()  { echo "error: [python] $*" >&2; exit 1; }

[ $# -eq 1 ] && [ -n "$1" ] || die "usage: $0 OUTDIR"
mkdir -p "$1" || die "cannot create $1"
OUTDIR="$(cd "$1" && pwd)"

CACHE_DIR="${WASMEXEC_CACHE_DIR:-${HOME:-/root}/.cache/wasmexec}"
WORK="$CACHE_DIR/work/python"
DL="$WORK/dl"            # downloaded source packages, kept between builds
B="$WORK/build"          # wiped at every build
JOBS="$(nproc 2>/dev/null || echo 2)"
T0=$SECONDS

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

step "checking toolchain packages"
missing=()
for p in "${TOOL_PKGS[@]}"; do
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    step "installing missing packages: ${missing[*]}"
    [ "$(id -u)" = 0 ] || die "packages missing and not root: ${missing[*]} (apt-get install them)"
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
# Source packages: a private apt configuration with deb-src entries derived
# from the system's own Debian entries (the system config is never touched).
APTDIR="$WORK/apt"
apt_private() {
    apt-get -o Dir::Etc::SourceList="$APTDIR/sources.list" \
            -o Dir::Etc::SourceParts=/dev/null \
            -o Dir::State::Lists="$APTDIR/lists" \
            -o Dir::Cache="$APTDIR/cache" \
            -o APT::Sandbox::User=root \
            "$@"
}
APT_UPDATED=0
apt_private_update() {
    [ $APT_UPDATED = 1 ] && return 0
    mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial"
    "$BUILD_PYTHON" "$HERE/tools/debsrc_list.py" >"$APTDIR/sources.list" \
        || die "could not derive deb-src entries from the system apt sources"
    run_logged "$APTDIR/update.log" apt_private update
    APT_UPDATED=1
}

# fetch_source PKG VERSION ORIG SHA256 -> sets SRC_TARBALL
fetch_source() {
    local pkg="$1" ver="$2" orig="$3" sha="$4"
    local dir="$DL/${pkg}_${ver//:/%}"
    if [ -f "$dir/$orig" ] && echo "$sha  $dir/$orig" | sha256sum -c --status; then
        SRC_TARBALL="$dir/$orig"; return 0
    fi
    apt_private_update
    rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
    if ! (cd "$dir.tmp" && apt_private source --download-only "$pkg=$ver" >"$dir.tmp/get.log" 2>&1); then
        # The pinned revision may have left the archive; the upstream tarball
        # is shared by every Debian revision, so accept it from the current
        # one if it is bit-identical.
        echo "    warning: $pkg=$ver not available; trying current revision (sha256-checked)" >&2
        (cd "$dir.tmp" && apt_private source --download-only "$pkg" >>"$dir.tmp/get.log" 2>&1) \
            || { tail -n 5 "$dir.tmp/get.log" >&2; die "cannot download source package $pkg=$ver"; }
    fi
    [ -f "$dir.tmp/$orig" ] || die "source package $pkg=$ver has no $orig"
    echo "$sha  $dir.tmp/$orig" | sha256sum -c --status \
        || die "$orig: sha256 mismatch (expected $sha)"
    rm -rf "$dir"; mv "$dir.tmp" "$dir"
    SRC_TARBALL="$dir/$orig"
}

step "fetching sources"
fetch_source $PY_PKG "$PY_VER" $PY_ORIG $PY_SHA;                 PY_TAR=$SRC_TARBALL
fetch_source $ZLIB_PKG "$ZLIB_VER" $ZLIB_ORIG $ZLIB_SHA;         ZLIB_TAR=$SRC_TARBALL
fetch_source $SQLITE_PKG "$SQLITE_VER" $SQLITE_ORIG $SQLITE_SHA; SQLITE_TAR=$SRC_TARBALL
fetch_source $BZIP2_PKG "$BZIP2_VER" $BZIP2_ORIG $BZIP2_SHA;     BZIP2_TAR=$SRC_TARBALL
fetch_source $XZ_PKG "$XZ_VER" $XZ_ORIG $XZ_SHA;                 XZ_TAR=$SRC_TARBALL

# ---------------------------------------------------------------------------
step "unpacking sources"
rm -rf "$B"
mkdir -p "$B/src" "$B/deps/include" "$B/deps/lib" "$B/sysroot/include" "$B/sysroot/lib" "$B/logs"
tar -C "$B/src" -xzf "$PY_TAR"
tar -C "$B/src" -xjf "$ZLIB_TAR"
tar -C "$B/src" -xJf "$SQLITE_TAR"
tar -C "$B/src" -xzf "$BZIP2_TAR"
tar -C "$B/src" -xJf "$XZ_TAR"
PYSRC="$B/src/Python-3.11.2"
[ -d "$PYSRC" ] || die "unexpected layout of $PY_ORIG"

# A sysroot of two symlinks keeps Debian's clang away from the host's
# /usr/include and makes configure see only wasm libraries.
ln -s /usr/include/wasm32-wasi "$B/sysroot/include/wasm32-wasi"
ln -s /usr/lib/wasm32-wasi "$B/sysroot/lib/wasm32-wasi"

WASI_CC="$LLVM_BIN/clang --target=wasm32-wasi --sysroot=$B/sysroot"
# Strip build paths from anything that records them.
PREFIX_MAP="-ffile-prefix-map=$B=/build"
DEPS_CFLAGS="-O2 $PREFIX_MAP"
export AR="$LLVM_BIN/llvm-ar" RANLIB="$LLVM_BIN/llvm-ranlib"

# ---------------------------------------------------------------------------
build_zlib() {
    cd "$B/src/zlib-1.2.13.dfsg"
    CC="$WASI_CC" CFLAGS="$DEPS_CFLAGS" CHOST=wasm32-wasi \
        ./configure --static --prefix="$B/deps"
    make -j"$JOBS" libz.a
    cp zlib.h zconf.h "$B/deps/include/"
    cp libz.a "$B/deps/lib/"
}

build_sqlite() {
    local s="$B/src/sqlite3-3.40.1"
    # The orig tarball is the full tree: generate the amalgamation with the
    # native toolchain (lemon, mkkeywordhash, tclsh), then cross-compile it.
    mkdir -p "$s/native"
    cd "$s/native"
    env -u AR -u RANLIB CC=gcc CFLAGS=-O1 ../configure --disable-tcl --disable-readline \
        --disable-shared >/dev/null
    make sqlite3.c >/dev/null
    $WASI_CC $DEPS_CFLAGS -include "$HERE/sqlite/wasi_shim.h" \
        -D_WASI_EMULATED_MMAN -D_WASI_EMULATED_GETPID \
        -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_OMIT_WAL \
        -DSQLITE_MAX_MMAP_SIZE=0 -DSQLITE_TEMP_STORE=3 -DSQLITE_DEFAULT_MEMSTATUS=0 \
        -DSQLITE_ENABLE_MATH_FUNCTIONS \
        -c sqlite3.c -o sqlite3.o
    "$AR" rcD "$B/deps/lib/libsqlite3.a" sqlite3.o
    cp sqlite3.h sqlite3ext.h "$B/deps/include/"
}

build_bzip2() {
    cd "$B/src/bzip2-1.0.8"
    make -j"$JOBS" libbz2.a CC="$WASI_CC" AR="$AR" RANLIB="$RANLIB" \
        CFLAGS="$DEPS_CFLAGS -D_FILE_OFFSET_BITS=64"
    cp libbz2.a "$B/deps/lib/"
    cp bzlib.h "$B/deps/include/"
}

build_xz() {
    cd "$B/src/xz-5.4.1"
    # Single-threaded builds use sigprocmask(), which WASI lacks: skip it.
    sed -i 's|^#if !(defined(_WIN32) && !defined(__CYGWIN__))$|& \&\& !defined(__wasi__)|' \
        src/common/mythread.h
    grep -q '!defined(__wasi__)' src/common/mythread.h || { echo "mythread.h edit failed"; exit 1; }
    CC="$WASI_CC" CFLAGS="$DEPS_CFLAGS" ./configure --host=wasm32-unknown-wasi \
        --build="$(uname -m)-pc-linux-gnu" --prefix="$B/deps" \
        --disable-shared --enable-static --disable-threads \
        --disable-xz --disable-xzdec --disable-lzmadec --disable-lzmainfo \
        --disable-lzma-links --disable-scripts --disable-doc --disable-nls \
        --disable-symbol-versions --disable-rpath
    make -j"$JOBS" -C src/liblzma
    make -C src/liblzma install
}

# The four dependencies are independent: build them two at a time (the
# SQLite amalgamation is one big translation unit and dominates).
step "building sqlite3 amalgamation (in the background)"
( build_sqlite ) >"$B/logs/sqlite.log" 2>&1 & SQLITE_PID=$!
step "building zlib"
run_logged "$B/logs/zlib.log" build_zlib
step "building bzip2"
run_logged "$B/logs/bzip2.log" build_bzip2
step "building xz (liblzma)"
run_logged "$B/logs/xz.log" build_xz
step "building sqlite3 (waiting for it)"
if ! wait $SQLITE_PID; then
    tail -n 40 "$B/logs/sqlite.log" >&2
    die "sqlite3 build failed (full log: $B/logs/sqlite.log)"
fi

# ---------------------------------------------------------------------------
step "configuring CPython"
cp "$HERE/_wasmexecmodule.c" "$HERE/_wasmexec_fsguard.c" "$PYSRC/Modules/"
# `make wasm_stdlib` runs our wrapper around the upstream script, which
# writes the zip reproducibly (see tools/wasm_assets.py).
mv "$PYSRC/Tools/wasm/wasm_assets.py" "$PYSRC/Tools/wasm/wasm_assets_upstream.py"
cp "$HERE/tools/wasm_assets.py" "$PYSRC/Tools/wasm/wasm_assets.py"
export WASMEXEC_BUILD_ROOT="$B"
mkdir -p "$PYSRC/builddir/wasi/Modules" "$B/pkgconfig-empty"
# makesetup reads Setup.local from the build directory.
cp "$HERE/Setup.local" "$PYSRC/builddir/wasi/Modules/Setup.local"
cd "$PYSRC/builddir/wasi"
# Dependencies are given explicitly; pkg-config sees nothing else.
run_logged "$B/logs/configure.log" env \
    CONFIG_SITE="$PYSRC/Tools/wasm/config.site-wasm32-wasi" \
    CC="$WASI_CC" CPP="$WASI_CC -E" \
    CFLAGS="-Wno-error=int-conversion $PREFIX_MAP" \
    CPPFLAGS="-I$B/deps/include" LDFLAGS="-L$B/deps/lib" \
    AR="$AR" RANLIB="$RANLIB" READELF=true \
    PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$B/pkgconfig-empty" \
    ZLIB_CFLAGS="-I$B/deps/include" ZLIB_LIBS="-L$B/deps/lib -lz" \
    BZIP2_CFLAGS="-I$B/deps/include" BZIP2_LIBS="-L$B/deps/lib -lbz2" \
    LIBLZMA_CFLAGS="-I$B/deps/include" LIBLZMA_LIBS="-L$B/deps/lib -llzma" \
    LIBSQLITE3_CFLAGS="-I$B/deps/include" \
    LIBSQLITE3_LIBS="-L$B/deps/lib -lsqlite3 -lwasi-emulated-mman" \
    ../../configure \
        --host=wasm32-unknown-wasi --build="$(uname -m)-pc-linux-gnu" \
        --with-build-python="$BUILD_PYTHON" --prefix=/usr/local \
        --disable-test-modules --without-ensurepip

for m in zlib _sqlite3 _bz2 _lzma; do
    grep -q "^MODULE_$(echo "$m" | tr a-z A-Z)_STATE=yes" Makefile \
        || die "configure did not enable module $m (see $B/logs/configure.log)"
done
grep -q '_wasmexecmodule' Makefile || die "Modules/Setup.local (_wasmexec) was not picked up"

step "building CPython (python.wasm)"
# Route every modifying WASI call through _wasmexec_fsguard.c (only for the
# final link: configure's link tests must not see these flags).
WRAP=""
for f in path_open fd_close fd_renumber fd_write fd_pwrite fd_allocate \
         fd_filestat_set_size fd_filestat_set_times path_create_directory \
         path_remove_directory path_unlink_file path_filestat_set_times \
         path_symlink path_rename path_link; do
    WRAP="$WRAP,--wrap=__wasi_$f"
done
run_logged "$B/logs/make.log" make -j"$JOBS" LINKFORSHARED="-Wl${WRAP}"

step "building the stdlib zip"
# WASI fixes to the stdlib (asyncio without socketpair), then the driver,
# which ships inside the zip as bytecode next to the stdlib.
run_logged "$B/logs/patch_stdlib.log" "$BUILD_PYTHON" "$HERE/tools/patch_stdlib.py" "$PYSRC/Lib"
cp "$HERE/wasmexec_driver.py" "$PYSRC/Lib/wasmexec_driver.py"
run_logged "$B/logs/wasm_stdlib.log" make wasm_stdlib

# ---------------------------------------------------------------------------
step "assembling $OUTDIR"
[ -f python.wasm ] || die "python.wasm was not produced"
grep -q __wrap___wasi_path_open python.wasm \
    || die "python.wasm lacks the read-only guard (_wasmexec_fsguard.c not linked with --wrap)"
STAGE="$B/out"
rm -rf "$STAGE"; mkdir -p "$STAGE/lib"
"$LLVM_BIN/llvm-strip" --strip-debug -o "$B/python.stripped.wasm" python.wasm
# Binaryen's wasm-opt -O3 on the linked module: 6-8% less guest CPU on
# make bench's Python kernels (median, paired runs in bare wasmtime), 13%
# smaller. (On the Go-built JS guest it measured no gain, so that image
# doesn't use it.)
step "optimizing python.wasm with Binaryen's wasm-opt -O3 (6-8% less guest CPU, measured)"
command -v wasm-opt >/dev/null || die "missing wasm-opt (Debian package binaryen)"
run_logged "$B/logs/wasm-opt.log" wasm-opt -O3 --enable-bulk-memory --enable-sign-ext \
    --enable-nontrapping-float-to-int --enable-mutable-globals \
    "$B/python.stripped.wasm" -o "$STAGE/python.wasm"
cp -a usr/local/lib/. "$STAGE/lib/"
cp "$HERE/guest.json" "$STAGE/guest.json"
# Smoke check of the artefacts' shape (running needs the wasmexec host).
"$BUILD_PYTHON" - "$STAGE" <<'EOF'
import json, sys, zipfile, pathlib
out = pathlib.Path(sys.argv[1])
g = json.loads((out / "guest.json").read_text())
assert (out / g["wasm"]).is_file()
names = set(zipfile.ZipFile(out / "lib/python311.zip").namelist())
for need in ("os.pyc", "encodings/__init__.pyc", "json/__init__.pyc",
             "sqlite3/__init__.pyc", "wasmexec_driver.pyc"):
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
i, imports = 8, set()
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
    i = end
for f in ("recv", "send", "write", "read"):
    assert ("wasmexec", f) in imports, "python.wasm does not import wasmexec." + f
EOF
find "$STAGE" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$OUTDIR"
rm -rf "$OUTDIR/python.wasm" "$OUTDIR/lib" "$OUTDIR/guest.json"
cp -a "$STAGE/." "$OUTDIR/"
step "done in $((SECONDS - T0))s: $(du -h "$OUTDIR/python.wasm" | cut -f1) python.wasm, $(du -h "$OUTDIR/lib/python311.zip" | cut -f1) python311.zip"
