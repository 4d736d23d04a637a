#!/bin/sh
# numpy.distutils' "shared library" link for the static wasm32-wasi build:
# archives the objects instead (numpy.sh links them into python.wasm).
out=""; objs=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift;;
    *.o) objs="$objs $1";;
  esac
  shift
done
[ -n "$out" ] || { echo "ldshared: no -o" >&2; exit 1; }
rm -f "$out"
exec "${LLVM_BIN:-/usr/lib/llvm-16/bin}/llvm-ar" rcs "$out" $objs
