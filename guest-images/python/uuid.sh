# The libuuid stage of the Python guest build, sourced by build.sh.
#
# CPython's C _uuid module (Modules/_uuidmodule.c) over libuuid, linked
# into python.wasm as a built-in, as Debian's python3.11 has it (there a
# shared module linked to libuuid1). libuuid comes from Debian's
# util-linux source package (the orig tarball and the Debian tarball
# sha256-pinned, Debian's patch series applied: two of its patches change
# libuuid). Only libuuid's sources are compiled, with uuid/config.h
# instead of util-linux's configure (which probes the host) and
# uuid/wasi_shim.h for what wasi-libc lacks: random bytes come from WASI's
# random_get; there are no network interfaces, so uuid1's node is random
# (multicast bit set, RFC 4122 4.5), as on Linux without one; libuuid's
# clock file (/var/lib/libuuid/clock.txt) can't be created in the guest,
# so the clock sequence lives in the guest's memory and
# uuid_generate_time_safe says "not safe" (uuid1().is_safe is
# SafeUUID.unsafe), as on Linux without uuidd or that file.
#
# Result, kept in $WORK/uuid-KEY (KEY: this stage's inputs and the base
# key, since _uuidmodule.c compiles against the base tree's pyconfig.h):
#   lib/libuuid.a   libuuid's objects and _uuidmodule.o
#   modules.txt     _uuid

UUID_INPUTS=(uuid.sh uuid/config.h uuid/wasi_shim.h)
UL_PKG=util-linux  UL_VER=2.38.1-5+deb12u3
UL_ORIG=util-linux_2.38.1.orig.tar.xz
UL_SHA=60492a19b44e6cf9a3ddff68325b333b8b52b6c59ce3ebd6a0ecaa4c5117e84f
UL_DEB=util-linux_2.38.1-5+deb12u3.debian.tar.xz
UL_DEB_SHA=d46b85313f536fc4831a69ba3fa2c8160450b5b26c7c5dfafce4f078fe4f205c
# libuuid_la_SOURCES of libuuid/src/Makemodule.am (the .c files).
UL_SOURCES=(libuuid/src/clear.c libuuid/src/compare.c libuuid/src/copy.c
            libuuid/src/gen_uuid.c libuuid/src/isnull.c libuuid/src/pack.c
            libuuid/src/parse.c libuuid/src/unpack.c libuuid/src/unparse.c
            libuuid/src/uuid_time.c libuuid/src/predefined.c
            lib/randutils.c lib/md5.c lib/sha1.c)

uuid_key() {
    {
        echo "base $1"
        (cd "$HERE" && sha256sum "${UUID_INPUTS[@]}")
    } | sha256sum | cut -c1-16
}

# build_uuid BASE OUT: builds the stage into OUT (which must not exist).
build_uuid() {
    local base="$1" out="$2" ub="$WORK/uuid-build" src f p rest
    local pysrc="$base/src/Python-3.11.2"
    rm -rf "$ub"; mkdir -p "$ub/src" "$ub/obj" "$ub/include/uuid" "$ub/sysroot/include" "$ub/sysroot/lib"
    step "libuuid: unpacking util-linux's source and Debian's patches"
    fetch_source $UL_PKG "$UL_VER" $UL_ORIG $UL_SHA $UL_DEB $UL_DEB_SHA
    tar -C "$ub/src" -xf "$SRC_TARBALL"
    src="$ub/src/util-linux-2.38.1"
    [ -f "$src/libuuid/src/gen_uuid.c" ] || die "unexpected layout of $SRC_TARBALL (no util-linux-2.38.1/libuuid/src/gen_uuid.c)"
    tar -C "$src" -xf "$DEB_TARBALL"
    # The whole series, as dpkg-source applies it. (Unlike base.sh's
    # apply_debian_series, patches to configure.ac are fine here: this
    # stage never runs configure.)
    while read -r p rest; do
        case "$p" in ''|'#'*) continue;; esac
        [ -z "$rest" ] || die "util-linux: series line '$p $rest': patch options are not supported"
        patch -d "$src" -p1 -N -F0 -E -t --no-backup-if-mismatch -s -i "debian/patches/$p" \
            || die "util-linux: Debian patch $p does not apply"
    done <"$src/debian/patches/series"
    ln -s /usr/include/wasm32-wasi "$ub/sysroot/include/wasm32-wasi"
    ln -s /usr/lib/wasm32-wasi "$ub/sysroot/lib/wasm32-wasi"
    local cc=("$LLVM_BIN/clang" --target=wasm32-wasi --sysroot="$ub/sysroot" -O2 -ffile-prefix-map="$ub=/build")
    step "libuuid: compiling"
    # util-linux's include/c.h wants grp.h and pwd.h; nothing libuuid uses
    # is in them.
    mkdir -p "$ub/shim"
    : >"$ub/shim/grp.h"; : >"$ub/shim/pwd.h"
    # randutils seeds rand() with getpid(): wasi-libc's emulated one, which
    # python.wasm links already (-lwasi-emulated-getpid).
    for f in "${UL_SOURCES[@]}"; do
        "${cc[@]}" -D_WASI_EMULATED_GETPID -include "$HERE/uuid/config.h" -include "$HERE/uuid/wasi_shim.h" -I"$ub/shim" \
            -I"$src/include" -I"$src/libuuid/src" -c "$src/$f" -o "$ub/obj/$(basename "$f" .c).o" \
            || die "libuuid: compiling $f failed"
    done
    cp "$src/libuuid/src/uuid.h" "$ub/include/uuid/uuid.h"
    "${cc[@]}" -DPy_BUILD_CORE_BUILTIN -DHAVE_UUID_UUID_H -DHAVE_UUID_GENERATE_TIME_SAFE \
        -I"$ub/include" -I"$pysrc/builddir/wasi" -I"$pysrc/Include" -I"$pysrc/Include/internal" \
        -c "$pysrc/Modules/_uuidmodule.c" -o "$ub/obj/_uuidmodule.o" || die "compiling _uuidmodule.c failed"
    mkdir -p "$ub/out/lib"
    "$LLVM_BIN/llvm-ar" rcs "$ub/out/lib/libuuid.a" "$ub"/obj/*.o || die "libuuid: llvm-ar failed"
    echo _uuid >"$ub/out/modules.txt"
    touch "$ub/out/.complete"
    rm -rf "$out"; mv "$ub/out" "$out"
    rm -rf "$ub"
}
