# The pandas stage of the Python guest build, sourced by build.sh.
#
# pandas 1.5.3 (Debian bookworm's version) cross-compiled for wasm32-wasi
# and linked statically into python.wasm, like numpy (numpy.sh): pandas'
# own setup.py runs on the host with /usr/bin/python3.11, the compiled
# CPython tree's wasm sysconfig, Debian's Cython (cython3, 0.29.32) and a
# build-time stand-in for numpy that names the wasm32 numpy's headers and
# .pxd files ($NUMPY_DIR/host); tools/ext_ldshared.sh records each
# extension's objects instead of linking and tools/ext_collect.py archives
# them once (several extensions compile the same np_datetime.c).
# pandas' pure-Python dependencies (python-dateutil, pytz, tzdata) come
# from the bundled layer (guest-images/pylibs).
#
# Result, kept in $WORK/pandas-KEY (KEY: this stage's inputs, the numpy
# stage's key and the base key):
#   lib/libpandas.a   the extension modules' objects
#   modules.txt       their dotted names
#   pkg/pandas/       the pure-Python package and its templates
#   tests/pandas/     pandas' tests (for the test runs)
#
# Source: Debian's source package pandas 1.5.3+dfsg-2 (orig tarball,
# sha256-pinned) when the archive serves it, else the sdist
# pandas-1.5.3.tar.gz from the Python package index (sha256-pinned).

PANDAS_INPUTS=(pandas.sh extlibs.sh extbuild.sh tools/ext_ldshared.sh tools/ext_collect.py tools/pypi_sdist.py)
PD_PKG=pandas  PD_VER=1.5.3+dfsg-2
PD_ORIG=pandas_1.5.3+dfsg.orig.tar.xz
PD_SHA=5c50f7c36d93ed1e6e41fdd6c1116def08dadbe64245365e3410009bcbb557f3
PD_SDIST=pandas-1.5.3.tar.gz
PD_SDIST_SHA=74a3fd7e5a7ec052f183273dc7b0acd3a863edf7520f5d3a1765c04ffdb3b0b1

# pandas' copies of numpy's datetime helpers (np_datetime.c,
# np_datetime_strings.c) have numpy's names with other signatures: in one
# python.wasm they would be one symbol. pandas' get their own names (a
# header forced into every pandas file, the Cython output included).
PD_RENAMED=(add_minutes_to_datetimestruct add_seconds_to_datetimestruct
            convert_pydatetime_to_datetimestruct get_datetime_iso_8601_strlen
            get_datetime_metadata_from_dtype get_datetimestruct_days is_leapyear
            make_iso_8601_datetime parse_iso_8601_datetime)

pandas_key() {
    {
        echo "base $1"
        echo "numpy $(numpy_key "$1")"
        (cd "$HERE" && sha256sum "${PANDAS_INPUTS[@]}")
        dpkg-query -W -f='${Package}=${Version}\n' cython3 python3-setuptools 2>/dev/null || echo "dpkg-query failed"
    } | sha256sum | cut -c1-16
}

# build_pandas BASE OUT: builds the stage into OUT (which must not exist).
build_pandas() {
    local base="$1" out="$2" pb="$WORK/pandas-build" src
    rm -rf "$pb"; mkdir -p "$pb/src" "$pb/logs"
    step "pandas: unpacking the source"
    fetch_upstream $PD_PKG "$PD_VER" $PD_ORIG $PD_SHA pandas $PD_SDIST $PD_SDIST_SHA
    tar -C "$pb/src" -xf "$SRC_TARBALL"
    src=$(dirname "$(echo "$pb"/src/*/setup.py)")
    [ -f "$src/pandas/_libs/lib.pyx" ] || die "unexpected layout of $SRC_TARBALL (no */pandas/_libs/lib.pyx)"
    local n
    {
        echo "/* pandas.sh: pandas' datetime helpers under their own names. */"
        for n in "${PD_RENAMED[@]}"; do echo "#define $n pandas_$n"; done
    } >"$pb/pandas_renames.h"
    # Functions defined in headers (and in Cython's verbatim C) that many
    # extensions include: natively each .so has its copy, linked into one
    # python.wasm they must be static to each file.
    sed -i 's#^void \*traced_\(malloc\|calloc\|realloc\)(#static void *traced_\1(#; s#^void traced_free(#static void traced_free(#' \
        "$src/pandas/_libs/src/klib/khash_python.h"
    sed -i 's|^    PyObject\* char_to_string(const char\* data) {$|    static PyObject* char_to_string(const char* data) {|' \
        "$src/pandas/_libs/tslibs/util.pxd"
    [ "$(grep -c '^static void \*\?traced_' "$src/pandas/_libs/src/klib/khash_python.h")" = 4 ] \
        && grep -q 'static PyObject\* char_to_string' "$src/pandas/_libs/tslibs/util.pxd" \
        || die "pandas: the static-helper edits did not apply"
    # The guest has no _ctypes (no libffi, no dlopen), and `import pandas`
    # reaches two modules that import ctypes at the top for code that
    # needs it only on Windows or for the interchange protocol's raw
    # buffers: they import it where it is used.
    sed -i 's|^import ctypes$|# import ctypes: where it is used (pandas.sh)|' \
        "$src/pandas/errors/__init__.py" "$src/pandas/core/interchange/from_dataframe.py"
    sed -i 's|^        message += f" ({ctypes.WinError()})"|        import ctypes\n\n&|' "$src/pandas/errors/__init__.py"
    sed -i 's|^    data_pointer = ctypes.cast($|    import ctypes\n\n&|' "$src/pandas/core/interchange/from_dataframe.py"
    [ "$(grep -c '^ *import ctypes$' "$src/pandas/errors/__init__.py" "$src/pandas/core/interchange/from_dataframe.py" | grep -c ':1$')" = 2 ] \
        || die "pandas: the ctypes edits did not apply"
    step "pandas: compiling (Cython and clang for wasm32-wasi; several minutes)"
    EXT_CFLAGS="-include $pb/pandas_renames.h" \
        ext_setup_build "$src" "$pb/logs/setup.log" "$NUMPY_DIR" build -j "$JOBS"
    local blib
    blib=$(echo "$src"/build/lib.*)
    [ -d "$blib/pandas" ] || die "pandas: setup.py build produced no package (see $pb/logs/setup.log)"
    step "pandas: collecting the archive, the module list and the package"
    local stage="$pb/out"
    run_logged "$pb/logs/collect.log" "$BUILD_PYTHON" "$HERE/tools/ext_collect.py" \
        "$EXT_RECORD" "$blib" "$stage" pandas pandas --data 'io/formats/templates/*'
    grep -qx 'pandas._libs.lib' "$stage/modules.txt" || die "pandas: no pandas._libs.lib among the modules"
    # One namespace with numpy: no symbol defined twice.
    check_symbols "$stage/lib/libpandas.a" "$NUMPY_DIR"/lib/*.a
    cp "$src/LICENSE" "$stage/LICENSE"
    touch "$stage/.complete"
    rm -rf "$out"
    mv "$stage" "$out"
    rm -rf "$pb"
}
