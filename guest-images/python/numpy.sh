# The numpy stage of the Python guest build, sourced by build.sh (numpy is
# part of every Python image).
#
# numpy 1.24.2 cross-compiled for wasm32-wasi with Debian's clang-16, for
# static linking into python.wasm: numpy's own build (numpy.distutils,
# `setup.py build --disable-optimization`) runs on the host with
# /usr/bin/python3.11 and the compiled CPython tree's wasm sysconfig, so its
# code generators (the .c.src templates, the API headers, config.h from
# compile/link checks against wasi-libc, Cython for numpy.random) all run on
# the host; tools/numpy_ldshared.sh turns each extension's "shared library"
# link into a static archive. No threads, no SIMD dispatch (baseline only),
# no BLAS (numpy's bundled lapack-lite), no Fortran.
#
# Result, kept in $WORK/numpy-KEY (KEY: this stage's inputs and the base
# key, since it compiles against the base tree's pyconfig.h):
#   lib/*.a           one archive per extension module, libnpymath, libnpyrandom
#   modules.txt       the extension modules' dotted names, one a line (build.sh
#                     makes them built-ins; wasmexec_driver finds them)
#   pkg/numpy/        the pure-Python package (tests, distutils, f2py left out)
#   tests/numpy/      numpy's test modules and their data (for the test runs)
#   host/numpy/       for building other extensions against this numpy on the
#                     host (pandas.sh, matplotlib.sh): the wasm32 headers
#                     (core/include), the Cython .pxd files, and an
#                     __init__.py whose get_include() names them
#
# Source: Debian bookworm's source package numpy 1:1.24.2-1+deb12u1 (orig
# tarball sha256-pinned); where the archive does not serve it, the same
# release's sdist from the Python package index (sha256-pinned too:
# extlibs.sh, fetch_upstream). WASMEXEC_NUMPY_SOURCE may name a tarball of
# upstream's tag v1.24.2 instead, made with
#   git archive --format=tar --prefix=numpy-1.24.2/ v1.24.2
# (also pinned below).

NUMPY_INPUTS=(numpy.sh extlibs.sh tools/numpy_ldshared.sh tools/numpy_fix_signatures.py tools/pypi_sdist.py)
NUMPY_TOOL_PKGS=(cython3 python3-setuptools libc++-16-dev-wasm32 libc++abi-16-dev-wasm32)
NP_PKG=numpy  NP_VER=1:1.24.2-1+deb12u1
NP_ORIG=numpy_1.24.2.orig.tar.xz
NP_SHA=a7c88b0cf7c7c5ea03a76593ce4065af3beb8f50c25db6a7ee72369b2c936c65
NP_GIT_SHA=bb83c2ed7fadd7f12f94044d21c756436d341a39c10cbf08f53f70e0e5bea7b3
NP_SDIST=numpy-1.24.2.tar.gz
NP_SDIST_SHA=003a9f530e880cb2cd177cba1af7220b9aa42def9c4afc2a2fc3ee6be7eb2b22

numpy_key() {
    {
        echo "base $1"
        (cd "$HERE" && sha256sum "${NUMPY_INPUTS[@]}")
        dpkg-query -W -f='${Package}=${Version}\n' "${NUMPY_TOOL_PKGS[@]}" 2>/dev/null || echo "dpkg-query failed"
    } | sha256sum | cut -c1-16
}

# numpy_source DIR: unpacks numpy-1.24.2 into DIR.
numpy_source() {
    local dir="$1" tarball
    if [ -n "${WASMEXEC_NUMPY_SOURCE:-}" ]; then
        [ -f "$WASMEXEC_NUMPY_SOURCE" ] || die "WASMEXEC_NUMPY_SOURCE=$WASMEXEC_NUMPY_SOURCE: no such file"
        local sha
        sha=$(sha256sum <"$WASMEXEC_NUMPY_SOURCE" | cut -c1-64)
        [ "$sha" = "$NP_GIT_SHA" ] || [ "$sha" = "$NP_SHA" ] || [ "$sha" = "$NP_SDIST_SHA" ] \
            || die "WASMEXEC_NUMPY_SOURCE: sha256 $sha is neither Debian's $NP_ORIG, the sdist $NP_SDIST nor git archive of v1.24.2"
        tarball="$WASMEXEC_NUMPY_SOURCE"
    else
        fetch_upstream $NP_PKG "$NP_VER" $NP_ORIG $NP_SHA numpy $NP_SDIST $NP_SDIST_SHA
        tarball=$SRC_TARBALL
    fi
    mkdir -p "$dir"
    tar -C "$dir" -xf "$tarball"
    [ -f "$dir/numpy-1.24.2/setup.py" ] || die "unexpected layout of $tarball (no numpy-1.24.2/setup.py)"
}

# build_numpy BASE OUT: builds the stage into OUT (which must not exist).
build_numpy() {
    local base="$1" out="$2"
    local nb="$WORK/numpy-build"
    local pysrc="$base/src/Python-3.11.2"
    local pyb="$pysrc/builddir/wasi"
    local missing=() p
    for p in "${NUMPY_TOOL_PKGS[@]}"; do
        [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] || die "numpy needs the Debian packages: ${missing[*]} (apt-get install ${missing[*]})"
    rm -rf "$nb"; mkdir -p "$nb/sysroot/include" "$nb/sysroot/lib" "$nb/logs"
    step "numpy: unpacking the source"
    numpy_source "$nb/src"
    local src="$nb/src/numpy-1.24.2"
    # wasm32 is numpy's NPY_CPU_WASM (it only knows Emscripten's macro).
    sed -i 's|^#elif defined(__EMSCRIPTEN__)$|#elif defined(__EMSCRIPTEN__) \|\| defined(__wasm__)|' \
        "$src/numpy/core/include/numpy/npy_cpu.h"
    grep -q 'defined(__wasm__)' "$src/numpy/core/include/numpy/npy_cpu.h" || die "numpy: npy_cpu.h edit failed"
    # C functions whose parameter count differs from how CPython calls them
    # (harmless natively; on wasm such an indirect call traps).
    run_logged "$nb/logs/fix_signatures.log" "$BUILD_PYTHON" "$HERE/tools/numpy_fix_signatures.py" "$src/numpy"
    # Static linking puts numpy.random's two copies of distributions.c in
    # one namespace: mtrand's (compiled with NP_RANDOM_LEGACY, `long`, which
    # is 32-bit on wasm32) and libnpyrandom's (int64_t). The linker would
    # keep one for both (wrong results, signature traps): mtrand's copy gets
    # its own names, by a header forced into every file and active only
    # where NP_RANDOM_LEGACY is defined (mtrand's sources).
    local dist="$src/numpy/random/src/distributions/distributions.c"
    {
        echo "/* numpy.sh: mtrand's legacy distributions.c under its own names. */"
        echo "#ifdef NP_RANDOM_LEGACY"
        grep -E '^[A-Za-z].*\brandom_[a-z0-9_]+\(' "$dist" | grep -v '^static' \
            | grep -oE '\brandom_[a-z0-9_]+\(' | tr -d '(' | sort -u \
            | sed 's/.*/#define & np_legacy_&/'
        echo "#endif"
    } >"$nb/np_random_legacy.h"
    [ "$(grep -c '^#define' "$nb/np_random_legacy.h")" -ge 60 ] \
        || die "numpy: expected ~66 functions in distributions.c, found $(grep -c '^#define' "$nb/np_random_legacy.h")"
    # A sysroot of symlinks: wasi-libc and Debian's wasm32 libc++ headers.
    ln -s /usr/include/wasm32-wasi "$nb/sysroot/include/wasm32-wasi"
    ln -s /usr/include/wasm32-wasi/c++ "$nb/sysroot/include/c++"
    ln -s /usr/lib/wasm32-wasi "$nb/sysroot/lib/wasm32-wasi"
    local pylib
    pylib=$(echo "$pyb"/build/lib.*)
    [ -f "$pylib/_sysconfigdata__wasi_wasm32-wasi.py" ] || die "numpy: no wasm sysconfig data in $pylib"
    step "numpy: compiling (numpy.distutils on the host, clang for wasm32-wasi; several minutes)"
    # -Drestrict: CPython's WASI pthread stubs use C's restrict, also in
    # numpy's C++ files. No signals on WASI (NPY_NO_SIGNAL...).
    (cd "$src" && run_logged "$nb/logs/setup.log" env \
        SETUPTOOLS_USE_DISTUTILS=stdlib \
        _PYTHON_SYSCONFIGDATA_NAME=_sysconfigdata__wasi_wasm32-wasi PYTHONPATH="$pylib" \
        CC="$LLVM_BIN/clang --target=wasm32-wasi --sysroot=$nb/sysroot" \
        CXX="$LLVM_BIN/clang++" \
        CFLAGS="-I$pyb -I$pysrc/Include -O2 -DNPY_NO_SIGNAL -D__NPY_PRIVATE_NO_SIGNAL -Drestrict=__restrict -Wno-error=int-conversion -Wno-implicit-function-declaration -ffile-prefix-map=$nb=/build -include $nb/np_random_legacy.h" \
        LDSHARED="$HERE/tools/numpy_ldshared.sh" LDFLAGS= LLVM_BIN="$LLVM_BIN" \
        AR="$LLVM_BIN/llvm-ar" ARFLAGS=rcs \
        NPY_DISABLE_SVML=1 NPY_BLAS_ORDER= NPY_LAPACK_ORDER= BLAS=None LAPACK=None ATLAS=None \
        "$BUILD_PYTHON" setup.py build --disable-optimization -j "$JOBS")
    local blib
    blib=$(echo "$src"/build/lib.*)
    [ -d "$blib/numpy" ] || die "numpy: setup.py build produced no package (see $nb/logs/setup.log)"
    step "numpy: collecting archives, the module list and the package"
    local stage="$nb/out"
    mkdir -p "$stage/lib" "$stage/pkg" "$stage/tests"
    "$BUILD_PYTHON" - "$blib" "$stage" <<'EOF' || die "numpy: collecting the build failed"
import os, pathlib, shutil, sys
blib, stage = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
SUFFIX = ".cpython-311-wasm32-wasi.so"
mods = []
for so in sorted(blib.rglob("*" + SUFFIX)):
    dotted = ".".join(so.relative_to(blib).with_name(so.name[:-len(SUFFIX)]).parts)
    mods.append(dotted)
    shutil.copy(so, stage / "lib" / ("libnp_" + dotted.replace(".", "_") + ".a"))
    so.unlink()
need = {"numpy.core._multiarray_umath", "numpy.linalg._umath_linalg",
        "numpy.fft._pocketfft_internal", "numpy.random._generator",
        "numpy.random.mtrand", "numpy.random.bit_generator"}
missing = need - set(mods)
assert not missing, "numpy: missing extension modules: %s" % sorted(missing)
(stage / "modules.txt").write_text("".join(m + "\n" for m in mods))
skip_top = {"distutils", "f2py", "_pyinstaller", "tests"}
for p in sorted((blib / "numpy").rglob("*")):
    rel = p.relative_to(blib)
    parts = rel.parts
    if p.is_dir():
        continue
    if "tests" in parts:
        dest = stage / "tests" / rel
    elif len(parts) > 1 and parts[1] in skip_top:
        continue
    elif p.suffix not in (".py",) or p.name in ("setup.py", "conftest.py"):
        continue
    else:
        dest = stage / "pkg" / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(p, dest)
# What other extensions build against: the headers generated for wasm32
# (sizeof(long) == 4 there, unlike the host's numpy) and the .pxd files.
# `setup.py build` leaves the headers where they are: the static ones in
# the source tree, the generated ones (_numpyconfig.h, the API tables) in
# build/src.*.
src = blib.parent.parent
host = stage / "host" / "numpy"
inc = host / "core" / "include"
shutil.copytree(src / "numpy" / "core" / "include", inc)
for h in sorted(src.glob("build/src.*/numpy/core/include/numpy/*.h")):
    if h.name != "config.h":
        shutil.copy(h, inc / "numpy" / h.name)
for pxd in (src / "numpy").glob("*.pxd"):
    shutil.copy(pxd, host / pxd.name)
(host / "__init__.py").write_text(
    "# Build-time stand-in for numpy (numpy.sh): headers of the wasm32 build.\n"
    "import os\n__version__ = '1.24.2'\n"
    "def get_include():\n"
    "    return os.path.join(os.path.dirname(__file__), 'core', 'include')\n")
assert (host / "core/include/numpy/_numpyconfig.h").is_file()
assert (host / "__init__.pxd").is_file()
print(len(mods), "modules")
EOF
    cp "$nb"/src/numpy-1.24.2/build/temp.*/libnpymath.a "$nb"/src/numpy-1.24.2/build/temp.*/libnpyrandom.a "$stage/lib/" \
        || die "numpy: libnpymath.a/libnpyrandom.a not built"
    cp "$src/LICENSE.txt" "$stage/LICENSE.txt"
    touch "$stage/.complete"
    rm -rf "$out"
    mv "$stage" "$out"
    rm -rf "$nb"
}
