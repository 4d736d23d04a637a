# The matplotlib stage of the Python guest build, sourced by build.sh:
# matplotlib 3.6.3 (Agg only) and its compiled dependencies, for static
# linking into python.wasm like numpy (numpy.sh) and pandas (pandas.sh).
#
#   freetype 2.12.1   Debian's source package with Debian's patches, static,
#                     configured as Debian does (no bzip2, no harfbuzz; also
#                     no png, brotli or zlib: matplotlib reads plain TTFs)
#   qhull 2020.2      Debian's source package, libqhull_r only
#   Pillow 9.4.0      Debian's source package, the core only: _imaging,
#                     _imagingmath, _imagingmorph with zlib (PNG); no JPEG,
#                     TIFF, WebP, FreeType, LCMS, Tk
#   kiwisolver 1.4.4  the sdist (Debian's orig tarball is not served here;
#                     fetch_upstream tries it first); C++ with Debian's cppy
#   matplotlib 3.6.3  the sdist likewise; system freetype and qhull, no LTO,
#                     no _tkagg, Agg the default backend
#
# All C++ here is compiled for a guest without exception handling: a throw
# ends the run (cxx_nothrow.cpp, linked by build.sh). Fonts: the DejaVu,
# STIX and Computer Modern files matplotlib bundles, which are what Debian's
# python-matplotlib-data ships (byte-identical), so text renders as with
# Debian's matplotlib.
#
# Result, kept in $WORK/matplotlib-KEY:
#   lib/*.a           libfreetype, libqhull_r, libpil, libkiwi, libmpl
#   modules.txt       the extension modules' dotted names
#   pkg/              matplotlib, mpl_toolkits, PIL, kiwisolver (pure Python)
#   mpl-data/         matplotlib's data (a real directory: matplotlib opens
#                     its files by path), put into the image's lib/
#   tests/            matplotlib's tests and baseline images

MPL_INPUTS=(matplotlib.sh extlibs.sh extbuild.sh tools/ext_ldshared.sh tools/ext_collect.py
            tools/pypi_sdist.py tools/numpy_fix_signatures.py tools/patch_matplotlib.py
            tools/patch_freetype.py tools/mpl_fontlist.py)
MPL_TOOL_PKGS=(cython3 python3-setuptools python3-setuptools-scm python3-certifi python3-cppy
               pkgconf python3-matplotlib)
FT_PKG=freetype      FT_VER=2.12.1+dfsg-5+deb12u4
FT_ORIG=freetype_2.12.1+dfsg.orig.tar.xz
FT_SHA=7dedb6b9adf331559daea614a83b8de42a753e685ec8e1c4bdb4529eb880b0d1
FT_DEB=freetype_2.12.1+dfsg-5+deb12u4.debian.tar.xz
FT_DEB_SHA=c625a97a78e4c74acd32e5b63b3973c9ea8a5c3d7b7f8f7c02def4421589c61b
QH_PKG=qhull         QH_VER=2020.2-5
QH_ORIG=qhull_2020.2.orig.tar.gz
QH_SHA=b5c2d7eb833278881b952c8a52d20179eab87766b00b865000469a45c1838b7e
PIL_PKG=pillow       PIL_VER=9.4.0-1.1+deb12u1
PIL_ORIG=pillow_9.4.0.orig.tar.xz
PIL_SHA=0a58ccfbd002838b32e21773bfdaa954a2de08d1f04b87b63d14e751fec3264d
PIL_SDIST=Pillow-9.4.0.tar.gz
PIL_SDIST_SHA=a1c2d7780448eb93fbcc3789bf3916aa5720d942e37945f4056680317f1cd23e
KIWI_PKG=kiwisolver  KIWI_VER=1.4.4-1
KIWI_ORIG=kiwisolver_1.4.4.orig.tar.xz
KIWI_SHA=458af4e5421863b20e6e3f209d11ff51e9775f574144d9e358221d6d3e276b13
KIWI_SDIST=kiwisolver-1.4.4.tar.gz
KIWI_SDIST_SHA=d41997519fcba4a1e46eb4a2fe31bc12f0ff957b2b81bac28db24744f333e955
MPL_PKG=matplotlib   MPL_VER=3.6.3-1
MPL_ORIG=matplotlib_3.6.3.orig.tar.xz
MPL_SHA=4d2ea974d72109a1742fbc40969cff6e85ac24177eb8e729d2aeb148a965c588
MPL_SDIST=matplotlib-3.6.3.tar.gz
MPL_SDIST_SHA=1f4d69707b1677560cd952544ee4962f68ff07952fb9069ff8c12b56353cb8c9

matplotlib_key() {
    {
        echo "base $1"
        echo "numpy $(numpy_key "$1")"
        (cd "$HERE" && sha256sum "${MPL_INPUTS[@]}")
        dpkg-query -W -f='${Package}=${Version}\n' "${MPL_TOOL_PKGS[@]}" 2>/dev/null || echo "dpkg-query failed"
    } | sha256sum | cut -c1-16
}

# unpack TARBALL DIR MARKER: unpacks into DIR and prints the one top
# directory that holds MARKER.
unpack() {
    local tb="$1" dir="$2" marker="$3" top
    mkdir -p "$dir"
    tar -C "$dir" -xf "$tb"
    top=$(ls -d "$dir"/*/"$marker" 2>/dev/null | head -1)
    top=${top%/"$marker"}
    [ -e "$top/$marker" ] || die "unexpected layout of $tb (no */$marker)"
    echo "$top"
}

build_freetype() {
    local mb="$1" src deps="$1/deps"
    fetch_source $FT_PKG "$FT_VER" $FT_ORIG $FT_SHA
    local debtar
    debtar="$(dirname "$SRC_TARBALL")/$FT_DEB"
    echo "$FT_DEB_SHA  $debtar" | sha256sum -c --status || die "$FT_DEB: missing or sha256 mismatch"
    src=$(unpack "$SRC_TARBALL" "$mb/src/ft" builds/unix/configure)
    tar -C "$src" -xf "$debtar"
    # Debian's patches, in Debian's order (its build is what matplotlib's
    # text is compared with), except those only for the demos and docs
    # (other orig tarballs of the source package).
    while read -r p; do
        case "$p" in ''|'#'*) continue;; esac
        grep '^+++ ' "$src/debian/patches/$p" | grep -qvE '^\+\+\+ b/(ft2demos|ft2docs)/' || continue
        patch -d "$src" -p1 --batch --quiet <"$src/debian/patches/$p" || die "freetype: Debian patch $p does not apply"
    done <"$src/debian/patches/series"
    # No setjmp/longjmp on wasm32-wasi (tools/patch_freetype.py says how).
    "$BUILD_PYTHON" "$HERE/tools/patch_freetype.py" "$src" "$mb/ftshim"
    # zlib: CPython's (the base tree's). Without it FreeType compiles its
    # own copy of zlib's inflate with zlib's global names, which clash with
    # CPython's in one python.wasm. AR/RANLIB: LLVM's, which index wasm
    # objects (the host's don't).
    (cd "$src" && env CC="$WASI_CC" CFLAGS="-O2 -I$mb/ftshim -ffile-prefix-map=$WORK=/build" \
        AR="$LLVM_BIN/llvm-ar" RANLIB="$LLVM_BIN/llvm-ranlib" \
        PKG_CONFIG_LIBDIR="$mb/pkgconfig-empty" PKG_CONFIG_PATH= \
        ZLIB_CFLAGS="-I$BASE/deps/include" ZLIB_LIBS="-L$BASE/deps/lib -lz" \
        ./configure --host=wasm32-unknown-wasi --build="$(uname -m)-pc-linux-gnu" \
            --prefix="$deps" --disable-shared --enable-static \
            --without-bzip2 --without-harfbuzz --without-png --without-brotli \
            --with-zlib=yes --without-librsvg \
        && make -j"$JOBS" && make install)
    [ -f "$deps/lib/libfreetype.a" ] && [ -f "$deps/lib/pkgconfig/freetype2.pc" ] || die "freetype: not installed"
    # No zlib of its own (see above).
    ! "$LLVM_BIN/llvm-nm" --defined-only -g "$deps/lib/libfreetype.a" 2>/dev/null | grep -qE ' T (inflate|crc32)' \
        || die "freetype: built with its own copy of zlib"
}

build_qhull() {
    local mb="$1" src deps="$1/deps" f
    fetch_source $QH_PKG "$QH_VER" $QH_ORIG $QH_SHA
    src=$(unpack "$SRC_TARBALL" "$mb/src/qh" src/libqhull_r/libqhull_r.h)
    mkdir -p "$mb/qhobj" "$deps/include/libqhull_r" "$deps/lib"
    for f in "$src"/src/libqhull_r/*.c; do
        $WASI_CC -O2 -I"$mb/ftshim" -ffile-prefix-map="$WORK=/build" -c "$f" -o "$mb/qhobj/$(basename "${f%.c}").o"
    done
    "$LLVM_BIN/llvm-ar" rcs "$deps/lib/libqhull_r.a" "$mb"/qhobj/*.o
    cp "$src"/src/libqhull_r/*.h "$deps/include/libqhull_r/"
}

# fix_signatures DIR LOG: tools/numpy_fix_signatures.py on sources that
# aren't numpy's: the unused parameters it adds are plain comments here
# (it writes numpy's NPY_UNUSED).
fix_signatures() {
    local dir="$1" log="$2" f
    run_logged "$log" "$BUILD_PYTHON" "$HERE/tools/numpy_fix_signatures.py" "$dir"
    grep -rl 'NPY_UNUSED(wasm_pad' "$dir" 2>/dev/null | while read -r f; do
        sed -i 's|NPY_UNUSED(\(wasm_pad[0-9]*\))|/* \1 */|g' "$f"
    done
}

# build_matplotlib BASE OUT: builds the stage into OUT (which must not exist).
build_matplotlib() {
    local base="$1" out="$2" mb="$WORK/matplotlib-build" src blib
    local missing=() p
    for p in "${MPL_TOOL_PKGS[@]}"; do
        [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] || die "matplotlib needs the Debian packages: ${missing[*]} (apt-get install ${missing[*]})"
    rm -rf "$mb"; mkdir -p "$mb/src" "$mb/logs" "$mb/deps" "$mb/pkgconfig-empty" "$mb/sysroot/include" "$mb/sysroot/lib"
    ln -s /usr/include/wasm32-wasi "$mb/sysroot/include/wasm32-wasi"
    ln -s /usr/lib/wasm32-wasi "$mb/sysroot/lib/wasm32-wasi"
    WASI_CC="$LLVM_BIN/clang --target=wasm32-wasi --sysroot=$mb/sysroot"
    local stage="$mb/out"
    mkdir -p "$stage/lib"

    step "matplotlib: building freetype (Debian's source and patches)"
    run_logged "$mb/logs/freetype.log" build_freetype "$mb"
    step "matplotlib: building qhull (libqhull_r)"
    run_logged "$mb/logs/qhull.log" build_qhull "$mb"
    cp "$mb/deps/lib/libfreetype.a" "$mb/deps/lib/libqhull_r.a" "$stage/lib/"
    # ftshim: the setjmp.h that qhull was compiled with (its struct holds a
    # jmp_buf), also for matplotlib's qhull wrapper.
    local deps_cflags="-I$mb/ftshim -I$mb/deps/include -I$mb/deps/include/freetype2"
    # The libraries matplotlib links natively live in python.wasm here:
    # no global symbol of theirs may clash with numpy's or CPython's zlib.
    check_symbols "$stage/lib/libfreetype.a" "$NUMPY_DIR"/lib/*.a "$BASE/deps/lib/libz.a"

    step "matplotlib: building Pillow's core"
    fetch_upstream $PIL_PKG "$PIL_VER" $PIL_ORIG $PIL_SHA Pillow $PIL_SDIST $PIL_SDIST_SHA
    src=$(unpack "$SRC_TARBALL" "$mb/src/pil" src/_imaging.c)
    # No Tk in the guest (the module dlopens Tk at run time).
    sed -i 's|^        self._update_extension("PIL._imagingtk", tk_libs)$|        self._remove_extension("PIL._imagingtk")|' "$src/setup.py"
    grep -q '_remove_extension("PIL._imagingtk")' "$src/setup.py" || die "Pillow: setup.py edit failed"
    # Nor the build Python's own prefix (/usr/include: the host's headers).
    sed -i -e 's|^        _add_directory(library_dirs, os.path.join(sys.prefix, "lib"))$|        pass  # wasm32-wasi: not the build host'"'"'s prefix|' \
        -e 's|^        _add_directory(include_dirs, os.path.join(sys.prefix, "include"))$|        pass  # wasm32-wasi: not the build host'"'"'s prefix|' "$src/setup.py"
    [ "$(grep -c "not the build host's prefix" "$src/setup.py")" = 2 ] || die "Pillow: setup.py prefix edit failed"
    fix_signatures "$src/src" "$mb/logs/pil_signatures.log"
    EXT_CFLAGS="" ZLIB_ROOT="$BASE/deps" PKG_CONFIG_LIBDIR="$mb/pkgconfig-empty" PKG_CONFIG_PATH= \
        ext_setup_build "$src" "$mb/logs/pil.log" "$NUMPY_DIR" \
        build_ext --disable-platform-guessing --disable-jpeg --disable-tiff --disable-freetype \
            --disable-lcms --disable-webp --disable-webpmux --disable-jpeg2000 --disable-imagequant \
            --disable-xcb --disable-raqm -j "$JOBS" build
    blib=$(echo "$src"/build/lib.*)
    run_logged "$mb/logs/pil_collect.log" "$BUILD_PYTHON" "$HERE/tools/ext_collect.py" \
        "$EXT_RECORD" "$blib" "$stage" pil PIL
    grep -qx 'PIL._imaging' "$stage/modules.txt" || die "Pillow: no PIL._imaging"
    cp "$src/LICENSE" "$stage/LICENSE.Pillow"

    step "matplotlib: building kiwisolver"
    fetch_upstream $KIWI_PKG "$KIWI_VER" $KIWI_ORIG $KIWI_SHA kiwisolver $KIWI_SDIST $KIWI_SDIST_SHA
    src=$(unpack "$SRC_TARBALL" "$mb/src/kiwi" py/src/kiwisolver.cpp)
    fix_signatures "$src/py" "$mb/logs/kiwi_signatures.log"
    SETUPTOOLS_SCM_PRETEND_VERSION=1.4.4 ext_setup_build "$src" "$mb/logs/kiwi.log" "$NUMPY_DIR" build -j "$JOBS"
    blib=$(echo "$src"/build/lib.*)
    run_logged "$mb/logs/kiwi_collect.log" "$BUILD_PYTHON" "$HERE/tools/ext_collect.py" \
        "$EXT_RECORD" "$blib" "$stage" kiwi kiwisolver
    cp "$src/LICENSE" "$stage/LICENSE.kiwisolver"

    step "matplotlib: building matplotlib (several minutes)"
    fetch_upstream $MPL_PKG "$MPL_VER" $MPL_ORIG $MPL_SHA matplotlib $MPL_SDIST $MPL_SDIST_SHA
    src=$(unpack "$SRC_TARBALL" "$mb/src/mpl" setupext.py)
    run_logged "$mb/logs/mpl_patch.log" "$BUILD_PYTHON" "$HERE/tools/patch_matplotlib.py" "$src"
    fix_signatures "$src/src" "$mb/logs/mpl_signatures.log"
    EXT_CFLAGS="$deps_cflags" PKG_CONFIG_LIBDIR="$mb/deps/lib/pkgconfig" PKG_CONFIG_PATH= \
        SETUPTOOLS_SCM_PRETEND_VERSION=3.6.3 \
        ext_setup_build "$src" "$mb/logs/mpl.log" "$NUMPY_DIR" build -j "$JOBS"
    blib=$(echo "$src"/build/lib.*)
    run_logged "$mb/logs/mpl_collect.log" "$BUILD_PYTHON" "$HERE/tools/ext_collect.py" \
        "$EXT_RECORD" "$blib" "$stage" mpl matplotlib mpl_toolkits
    grep -qx 'matplotlib.ft2font' "$stage/modules.txt" || die "matplotlib: no matplotlib.ft2font"
    local a
    for a in pil kiwi mpl; do
        check_symbols "$stage/lib/lib$a.a" "$NUMPY_DIR"/lib/*.a "$BASE/deps/lib/libz.a" \
            $(ls "$stage"/lib/*.a | grep -v "/lib$a.a$")
    done
    # matplotlib's data as a directory. Its fonts (DejaVu, STIX, Computer
    # Modern) are the ones Debian's matplotlib uses: python-matplotlib-data
    # ships these very files (byte-identical), not fonts-dejavu-core's.
    cp -a "$blib/matplotlib/mpl-data" "$stage/mpl-data"
    grep -qx '#backend: Agg' "$stage/mpl-data/matplotlibrc" || die "matplotlib: Agg is not the default backend in matplotlibrc"
    # The guest's configuration and cache directory, with its font list
    # (tools/patch_matplotlib.py says why).
    mkdir -p "$stage/mpl-data/guest"
    run_logged "$mb/logs/mpl_fontlist.log" "$BUILD_PYTHON" "$HERE/tools/mpl_fontlist.py" \
        "$stage/mpl-data" "$stage/mpl-data/guest/fontlist-v330.json"
    cp "$src/LICENSE/LICENSE" "$stage/LICENSE.matplotlib" 2>/dev/null || true
    touch "$stage/.complete"
    rm -rf "$out"
    mv "$stage" "$out"
    rm -rf "$mb"
}
