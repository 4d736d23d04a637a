# The cross-compiling setup.py run shared by the stages after numpy's
# (pandas.sh, matplotlib.sh), sourced by build.sh; part of their inputs.
#
# Needs from build.sh: BASE WORK HERE LLVM_BIN BUILD_PYTHON, run_logged, die.

# ext_setup_build SRC LOG NPDIR BUILDARGS...: runs SRC/setup.py with the
# cross-compiling environment (clang for wasm32-wasi, the wasm sysconfig,
# the numpy stand-in, ext_ldshared.sh as the linker). Sets EXT_RECORD.
ext_setup_build() {
    local src="$1" log="$2" npdir="$3"; shift 3
    local pysrc="$BASE/src/Python-3.11.2"
    local pyb="$pysrc/builddir/wasi" pylib sysroot="$src/../sysroot"
    pylib=$(echo "$pyb"/build/lib.*)
    [ -f "$pylib/_sysconfigdata__wasi_wasm32-wasi.py" ] || die "no wasm sysconfig data in $pylib"
    mkdir -p "$sysroot/include" "$sysroot/lib"
    ln -sfn /usr/include/wasm32-wasi "$sysroot/include/wasm32-wasi"
    ln -sfn /usr/include/wasm32-wasi/c++ "$sysroot/include/c++"
    ln -sfn /usr/lib/wasm32-wasi "$sysroot/lib/wasm32-wasi"
    sysroot=$(cd "$sysroot" && pwd)
    # setuptools checks setup_requires by installed metadata (matplotlib
    # names numpy there), and would fetch numpy itself without it.
    local meta="$src/../hostmeta/numpy-1.24.2.dist-info"
    mkdir -p "$meta"
    printf 'Metadata-Version: 2.1\nName: numpy\nVersion: 1.24.2\n' >"$meta/METADATA"
    EXT_RECORD="$src/../link-record.txt"
    : >"$EXT_RECORD"
    EXT_RECORD=$(readlink -f "$EXT_RECORD")
    # -Drestrict: CPython's WASI pthread stubs use C's restrict, also in C++.
    # -DNPY_NO_SIGNAL: numpy's npy_interrupt.h needs setjmp.h otherwise (WASI
    # has none), as numpy.sh builds numpy itself.
    # CXX: distutils links a C++ extension with CXX in LDSHARED's place
    # (it compiles every source with CC, which picks the language by suffix).
    (cd "$src" && run_logged "$log" env \
        SETUPTOOLS_USE_DISTUTILS=stdlib \
        _PYTHON_SYSCONFIGDATA_NAME=_sysconfigdata__wasi_wasm32-wasi \
        PYTHONPATH="$pylib:$npdir/host:$(dirname "$meta")" \
        CC="$LLVM_BIN/clang --target=wasm32-wasi --sysroot=$sysroot" \
        CXX="$HERE/tools/ext_ldshared.sh" \
        CFLAGS="-I$pyb -I$pysrc/Include -O2 -DNPY_NO_SIGNAL -Drestrict=__restrict -Wno-error=int-conversion -Wno-implicit-function-declaration -ffile-prefix-map=$WORK=/build ${EXT_CFLAGS:-}" \
        LDSHARED="$HERE/tools/ext_ldshared.sh" LDFLAGS= LLVM_BIN="$LLVM_BIN" \
        EXT_LINK_RECORD="$EXT_RECORD" \
        AR="$LLVM_BIN/llvm-ar" ARFLAGS=rcs \
        "$BUILD_PYTHON" setup.py "$@")
}


# check_symbols ARCHIVE OTHER...: fails the build when ARCHIVE defines a
# global symbol twice, or one that an OTHER archive defines too: linked
# into one python.wasm they would clash (wasm-ld refuses, or the archive
# order picks one silently).
check_symbols() {
    local a="$1" nm="$LLVM_BIN/llvm-nm" dups; shift
    dups=$("$nm" --defined-only -g "$a" 2>/dev/null | awk 'NF==3 && $2 ~ /[TDBR]/ {print $3}' | sort | uniq -d)
    [ -z "$dups" ] || die "$(basename "$a") defines these more than once: $(echo $dups | head -c 400)"
    [ $# -gt 0 ] || return 0
    dups=$(comm -12 <("$nm" --defined-only -g "$a" 2>/dev/null | awk 'NF==3 && $2 ~ /[TDBR]/ {print $3}' | sort -u) \
        <("$nm" --defined-only -g "$@" 2>/dev/null | awk 'NF==3 && $2 ~ /[TDBR]/ {print $3}' | sort -u))
    [ -z "$dups" ] || die "$(basename "$a") defines symbols that other extension libraries define: $(echo $dups | head -c 400)"
}
