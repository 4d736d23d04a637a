#!/usr/bin/env bash
# build-cached.sh NAME: build guest image NAME once per hash of its inputs.
#
# The inputs are every file under guest-images/NAME plus the Go toolchain
# version. The result lives outside the clone, in
# $WASMEXEC_CACHE_DIR/images/NAME-HASH (default ~/.cache/wasmexec), and
# build/images/NAME in the clone is a symlink to it. A changed input gives a
# new hash and so a rebuild; an unchanged one costs a hash of a few files.
set -euo pipefail
name=${1:?usage: build-cached.sh NAME}
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/guest-images/$name
cache=${WASMEXEC_CACHE_DIR:-$HOME/.cache/wasmexec}
[ -x "$src/build.sh" ] || { echo "build-cached: $src/build.sh is missing or not executable" >&2; exit 1; }

hash=$( { (cd "$src" && find . -type f ! -name '*.md' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum); go version; } | sha256sum | cut -c1-16)
out=$cache/images/$name-$hash
mkdir -p "$cache/images" "$root/build/images"
if [ ! -f "$out/.complete" ]; then
  echo "==> [$name] building guest image (inputs $hash; cached in $out)"
  start=$(date +%s)
  tmp=$(mktemp -d "$cache/images/.$name-$hash-XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  (cd "$src" && ./build.sh "$tmp")
  touch "$tmp/.complete"
  rm -rf "$out"
  mv "$tmp" "$out"
  trap - EXIT
  echo "==> [$name] built in $(( $(date +%s) - start ))s"
else
  echo "==> [$name] guest image up to date ($hash)"
fi
ln -sfn "$out" "$root/build/images/$name"
