#!/bin/sh
# setuptools' "shared library" link (LDSHARED, and CXX, which distutils
# puts in its place for C++ extensions) for the static wasm32-wasi build:
# records the extension's objects in $EXT_LINK_RECORD, one line
# "OUTPUT OBJECT...", and writes an empty OUTPUT; tools/ext_collect.py
# then archives every object once (extensions that share a source, such as
# pandas' np_datetime.c, share its object: one namespace in python.wasm).
out=""; objs=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift;;
    *.o) objs="$objs $(readlink -f "$1")";;
  esac
  shift
done
[ -n "$out" ] || { echo "ext_ldshared: no -o" >&2; exit 1; }
[ -n "$EXT_LINK_RECORD" ] || { echo "ext_ldshared: EXT_LINK_RECORD is not set" >&2; exit 1; }
[ -n "$objs" ] || { echo "ext_ldshared: no objects for $out" >&2; exit 1; }
echo "$(readlink -f "$out")$objs" >>"$EXT_LINK_RECORD"
: >"$out"
