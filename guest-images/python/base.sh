# The "compiled CPython tree" stage of the Python guest build, sourced by
# build.sh: pinned sources, the four static dependencies, CPython patched
# (tools/patch_cpython.py), configured (Setup.local) and compiled.
#
# build.sh keeps the result in $WORK/base-KEY and reuses it for every build
# whose base key is the same. The key is the hash of exactly what this stage
# reads (BASE_INPUTS below, this file included, and the versions of
# BASE_TOOL_PKGS), so a change to the driver (wasmexec_driver.py,
# _wasmexecmodule.c, _wasmexec_fsguard.c, _wasmexec_linux.c), to tools/patch_stdlib.py,
# tools/wasm_assets.py, guest.json or build.sh itself reuses the tree and
# only recompiles the driver's modules and relinks. Anything this stage
# does with another file of this directory must add it to BASE_INPUTS (the
# key test in guest-images/scripts_test.go checks the list).
#
# Needs from build.sh: HERE WORK DL B JOBS BUILD_PYTHON LLVM_BIN, step, die,
# run_logged, make_python.

# Files of this directory the stage reads (relative to it).
BASE_INPUTS=(base.sh Setup.local tools/patch_cpython.py tools/debsrc_list.py
             sqlite/wasi_shim.h debian_patches_dropped.txt)
# Debian packages whose version changes what the stage produces.
BASE_TOOL_PKGS=(clang-16 lld-16 llvm-16 wasi-libc libclang-rt-16-dev-wasm32
                python3.11 gcc tcl)

# ---------------------------------------------------------------------------
# Pins: each package's Debian revision, its orig tarball and its Debian
# tarball (debian/, with the patch series), both checked by sha256. The
# revision is the newest bookworm serves as source (bookworm, -updates,
# -security): python3.11's and zlib's security revisions (3.11.2-6+deb12u9,
# 1:1.2.13.dfsg-1+deb12u1) are in bookworm-security's index but their
# source files are not served (404), so the point release's are pinned.
# A revision that leaves the archive fails the download: its Debian tarball
# is not shared with any other revision (see fetch_source).
PY_PKG=python3.11    PY_VER=3.11.2-6+deb12u8
PY_ORIG=python3.11_3.11.2.orig.tar.gz
PY_SHA=2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849
PY_DEB=python3.11_3.11.2-6+deb12u8.debian.tar.xz
PY_DEB_SHA=ece2d63c70ac0b7a401fbe6b51b0103be997c294a01a3865549be1862794ba97
ZLIB_PKG=zlib        ZLIB_VER=1:1.2.13.dfsg-1
ZLIB_ORIG=zlib_1.2.13.dfsg.orig.tar.bz2
ZLIB_SHA=71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1
ZLIB_DEB=zlib_1.2.13.dfsg-1.debian.tar.xz
ZLIB_DEB_SHA=f66cf3d4f2d7defcd4d1fd1fb0a11ee39f1e01b42ec7d059c9dc5c1695133c44
SQLITE_PKG=sqlite3   SQLITE_VER=3.40.1-2+deb12u2
SQLITE_ORIG=sqlite3_3.40.1.orig.tar.xz
SQLITE_SHA=aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655
SQLITE_DEB=sqlite3_3.40.1-2+deb12u2.debian.tar.xz
SQLITE_DEB_SHA=0843bc12e4364076477935ce313a6d0796fd899a989ff18ebb6545540e10e4ca
BZIP2_PKG=bzip2      BZIP2_VER=1.0.8-5
BZIP2_ORIG=bzip2_1.0.8.orig.tar.gz
BZIP2_SHA=ab5a03176ee106d3f0fa90e381da478ddae405918153cca248e682cd0c4a2269
BZIP2_DEB=bzip2_1.0.8-5.debian.tar.bz2
BZIP2_DEB_SHA=d68c6eba11d70e14319e24ef1451880a03023b2b75364646adb117086db36039
XZ_PKG=xz-utils      XZ_VER=5.4.1-1+deb12u2
XZ_ORIG=xz-utils_5.4.1.orig.tar.xz
XZ_SHA=5d9827aa1875b21c288f78864bb26d2650b436ea8d2cad364e4921eb6266a5a5
XZ_DEB=xz-utils_5.4.1-1+deb12u2.debian.tar.xz
XZ_DEB_SHA=7e0b1d1448520ea4f88ec05136a88f07564cc4a1abd6dfcf53c1f822a3e4f64f

PYSRC="$B/src/Python-3.11.2"

# base_key: the hash of the stage's inputs (16 hex digits).
base_key() {
    {
        (cd "$HERE" && sha256sum "${BASE_INPUTS[@]}")
        dpkg-query -W -f='${Package}=${Version}\n' "${BASE_TOOL_PKGS[@]}" 2>/dev/null || echo "dpkg-query failed"
        uname -m
    } | sha256sum | cut -c1-16
}

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

# fetch_source PKG VERSION ORIG SHA256 [DEBTAR DEBSHA256]
#   -> sets SRC_TARBALL (and DEB_TARBALL when DEBTAR is given)
# With DEBTAR the revision's Debian tarball is pinned too, and only the
# pinned revision will do.
fetch_source() {
    local pkg="$1" ver="$2" orig="$3" sha="$4" deb="${5:-}" debsha="${6:-}"
    local dir="$DL/${pkg}_${ver//:/%}"
    DEB_TARBALL=
    if [ -f "$dir/$orig" ] && echo "$sha  $dir/$orig" | sha256sum -c --status \
        && { [ -z "$deb" ] || echo "$debsha  $dir/$deb" | sha256sum -c --status; }; then
        SRC_TARBALL="$dir/$orig"; [ -z "$deb" ] || DEB_TARBALL="$dir/$deb"; return 0
    fi
    apt_private_update
    rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
    if ! (cd "$dir.tmp" && apt_private source --download-only "$pkg=$ver" >"$dir.tmp/get.log" 2>&1); then
        [ -z "$deb" ] || { tail -n 5 "$dir.tmp/get.log" >&2
            die "cannot download source package $pkg=$ver (pin a revision the archive serves: apt-get showsrc $pkg)"; }
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
    if [ -n "$deb" ]; then
        [ -f "$dir.tmp/$deb" ] || die "source package $pkg=$ver has no $deb"
        echo "$debsha  $dir.tmp/$deb" | sha256sum -c --status \
            || die "$deb: sha256 mismatch (expected $debsha)"
    fi
    rm -rf "$dir"; mv "$dir.tmp" "$dir"
    SRC_TARBALL="$dir/$orig"
    [ -z "$deb" ] || DEB_TARBALL="$dir/$deb"
}

# apply_debian_series PKG SRCDIR DEBTAR: unpacks DEBTAR's debian/ into
# SRCDIR and applies debian/patches/series in order, as dpkg-source does
# for a 3.0 (quilt) package (patch -p1, no fuzz), except the patches
# debian_patches_dropped.txt names for PKG (each with its reason). Fails
# when a patch doesn't apply, when a dropped one is no longer in the series,
# and when a patch it applies changes configure.ac (configure is not
# regenerated). The list of what was applied and dropped is in
# $B/logs/debian-patches-PKG.log.
apply_debian_series() {
    local pkg="$1" src="$2" debtar="$3" p rest reason
    local log="$B/logs/debian-patches-$pkg.log" list="$HERE/debian_patches_dropped.txt"
    local -A drop=()
    rm -rf "$src/debian"
    tar -C "$src" -xf "$debtar"
    [ -f "$src/debian/patches/series" ] || die "$pkg: $debtar has no debian/patches/series"
    while read -r p rest reason; do
        case "$p" in ''|'#'*) continue;; esac
        [ "$p" = "$pkg" ] || continue
        [ -n "$reason" ] || die "$list: $pkg $rest has no reason"
        grep -qxF "$rest" "$src/debian/patches/series" \
            || die "$list: $pkg's patch $rest is not in its series (any more): remove the entry"
        drop[$rest]=$reason
    done <"$list"
    : >"$log"
    while read -r p rest; do
        case "$p" in ''|'#'*) continue;; esac
        [ -z "$rest" ] || die "$pkg: series line '$p $rest': patch options are not supported"
        if [ -n "${drop[$p]:-}" ]; then
            echo "dropped $p: ${drop[$p]}" >>"$log"
            continue
        fi
        if grep -qE '^\+\+\+ ([^/[:space:]]+/)?configure\.(ac|in)([[:space:]]|$)' "$src/debian/patches/$p"; then
            die "$pkg: Debian patch $p changes configure.ac, which this build does not regenerate: drop it in $list with the reason, or regenerate configure"
        fi
        patch -d "$src" -p1 -N -F0 -E -t --no-backup-if-mismatch -s -i "debian/patches/$p" >>"$log" 2>&1 \
            || die "$pkg: Debian patch $p does not apply (log $log)"
        echo "applied $p" >>"$log"
    done <"$src/debian/patches/series"
}

# python_buildinfo: the make arguments that put the build information into
# sys.version as Debian's build does (its reproducible-buildinfo.diff with
# BUILD_DATE/BUILD_TIME from debian/rules): the date and time of the pinned
# revision's changelog entry, in UTC. Upstream's "main" (the git branch of
# a source tree that is no checkout) becomes the revision's tag in Debian's
# packaging repository, debian/VERSION, so the revision itself is visible:
# "3.11.2 (debian/3.11.2-6+deb12u8, May 12 2026, 05:17:27) [Clang 16.0.6 ]".
# Reads $PYSRC/debian/changelog, so both stages get the same values.
python_buildinfo() {
    local cl="$PYSRC/debian/changelog" top when
    top=$(head -n 1 "$cl") || die "no $cl"
    [ "$top" != "${top#"$PY_PKG ($PY_VER) "}" ] || die "$cl is not $PY_PKG $PY_VER's (first line: $top)"
    when=$(sed -n '/^ -- .*>  /{s///p;q}' "$cl")
    [ -n "$when" ] || die "no date in $cl's first entry"
    PY_BUILDINFO=("GITTAG=echo debian/$PY_VER"
                  "BUILD_DATE=$(LC_ALL=C date -u -d "$when" '+%b %e %Y')"
                  "BUILD_TIME=$(LC_ALL=C date -u -d "$when" '+%H:%M:%S')")
}

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

# ---------------------------------------------------------------------------
# build_base: builds the compiled tree in $B (which it wipes first). What is
# left in $B holds nothing derived from a file outside BASE_INPUTS: the
# driver's C modules are compiled with the rest (the Makefile needs them)
# and their objects, sources and python.wasm are removed afterwards.
build_base() {
    step "fetching sources"
    fetch_source $PY_PKG "$PY_VER" $PY_ORIG $PY_SHA $PY_DEB $PY_DEB_SHA
    PY_TAR=$SRC_TARBALL         PY_DEBTAR=$DEB_TARBALL
    fetch_source $ZLIB_PKG "$ZLIB_VER" $ZLIB_ORIG $ZLIB_SHA $ZLIB_DEB $ZLIB_DEB_SHA
    ZLIB_TAR=$SRC_TARBALL       ZLIB_DEBTAR=$DEB_TARBALL
    fetch_source $SQLITE_PKG "$SQLITE_VER" $SQLITE_ORIG $SQLITE_SHA $SQLITE_DEB $SQLITE_DEB_SHA
    SQLITE_TAR=$SRC_TARBALL     SQLITE_DEBTAR=$DEB_TARBALL
    fetch_source $BZIP2_PKG "$BZIP2_VER" $BZIP2_ORIG $BZIP2_SHA $BZIP2_DEB $BZIP2_DEB_SHA
    BZIP2_TAR=$SRC_TARBALL      BZIP2_DEBTAR=$DEB_TARBALL
    fetch_source $XZ_PKG "$XZ_VER" $XZ_ORIG $XZ_SHA $XZ_DEB $XZ_DEB_SHA
    XZ_TAR=$SRC_TARBALL         XZ_DEBTAR=$DEB_TARBALL

    step "unpacking sources"
    rm -rf "$B"
    mkdir -p "$B/src" "$B/deps/include" "$B/deps/lib" "$B/sysroot/include" "$B/sysroot/lib" "$B/logs"
    tar -C "$B/src" -xzf "$PY_TAR"
    tar -C "$B/src" -xjf "$ZLIB_TAR"
    tar -C "$B/src" -xJf "$SQLITE_TAR"
    tar -C "$B/src" -xzf "$BZIP2_TAR"
    tar -C "$B/src" -xJf "$XZ_TAR"
    [ -d "$PYSRC" ] || die "unexpected layout of $PY_ORIG"

    step "applying Debian's patch series (less debian_patches_dropped.txt)"
    apply_debian_series $PY_PKG "$PYSRC" "$PY_DEBTAR"
    apply_debian_series $ZLIB_PKG "$B/src/zlib-1.2.13.dfsg" "$ZLIB_DEBTAR"
    apply_debian_series $SQLITE_PKG "$B/src/sqlite3-3.40.1" "$SQLITE_DEBTAR"
    apply_debian_series $BZIP2_PKG "$B/src/bzip2-1.0.8" "$BZIP2_DEBTAR"
    apply_debian_series $XZ_PKG "$B/src/xz-5.4.1" "$XZ_DEBTAR"

    # A sysroot of two symlinks keeps Debian's clang away from the host's
    # /usr/include and makes configure see only wasm libraries.
    ln -s /usr/include/wasm32-wasi "$B/sysroot/include/wasm32-wasi"
    ln -s /usr/lib/wasm32-wasi "$B/sysroot/lib/wasm32-wasi"

    WASI_CC="$LLVM_BIN/clang --target=wasm32-wasi --sysroot=$B/sysroot"
    # Strip build paths from anything that records them.
    PREFIX_MAP="-ffile-prefix-map=$B=/build"
    DEPS_CFLAGS="-O2 $PREFIX_MAP"
    export AR="$LLVM_BIN/llvm-ar" RANLIB="$LLVM_BIN/llvm-ranlib"

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

    step "configuring CPython"
    # Exact edits to the interpreter: the driver's frames end the stack user
    # code sees, and a C-stack check behind the recursion limit.
    run_logged "$B/logs/patch_cpython.log" "$BUILD_PYTHON" "$HERE/tools/patch_cpython.py" "$PYSRC"
    cp "$HERE/_wasmexecmodule.c" "$HERE/_wasmexec_fsguard.c" "$HERE/_wasmexec_linux.c" "$PYSRC/Modules/"
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

    step "compiling CPython"
    cd "$PYSRC/builddir/wasi"
    make_python
    rm -f python.wasm Modules/_wasmexecmodule.o Modules/_wasmexec_fsguard.o Modules/_wasmexec_linux.o \
        "$PYSRC/Modules/_wasmexecmodule.c" "$PYSRC/Modules/_wasmexec_fsguard.c" "$PYSRC/Modules/_wasmexec_linux.c"
    # The dependencies' sources: only their installed libraries are used.
    rm -rf "$B"/src/zlib-* "$B"/src/sqlite3-* "$B"/src/bzip2-* "$B"/src/xz-*
}
