#!/usr/bin/env bash
# run.sh: what `make run` does. Serve what is ready, build the rest behind.
#
# On a fresh machine the Python image takes many minutes to build, while
# JavaScript needs only the server binary and the js image. So:
#   1. the server binary, the js image and the TypeScript checker image
#      (mostly downloads) are built at once, side by side;
#   2. the Python image and its library layer (pylibs) are built in the
#      background, side by side, at a lower priority (nice) so that step 1
#      keeps the CPU; their output goes to build/logs/NAME.log, their step lines
#      ("[step k/n, elapsed, about m:ss left]") to stderr as well, and
#      their progress to build/images/.status/NAME.json;
#   3. as soon as step 1 is done the server starts: it serves JavaScript
#      and TypeScript, answers a Python run with 503 and a Retry-After
#      (the build's estimate) until the image is built, then loads it;
#      /readyz shows each language's state.
# An image that is up to date costs a hash of its inputs (build-cached.sh),
# so a second make run starts in seconds. docs/OPERATIONS.md has the
# figures.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/wasmexec}
mkdir -p bin build/logs build/images
say() { echo "make run: $*" >&2; }
start=$SECONDS

# build NAME [nice]: build-cached.sh NAME, its output to build/logs/NAME.log
# and its step lines to stderr.
build() {
  local name=$1 nice=${2:-0} log=build/logs/$1.log
  WASMEXEC_BUILD_LOG=$PWD/$log nice -n "$nice" guest-images/build-cached.sh "$name" 2>&1 |
    tee "$log" | grep --line-buffered -E '^==> \[' | sed -u "s/^/make run: /" >&2
}

have() { [ -x "guest-images/$1/build.sh" ]; }

# 2. The background builds (they outlive this script: it becomes the
# server). Both at once: the layer is mostly downloads, Python mostly
# compiling; the server loads Python once both are done.
if have python; then
  if have pylibs; then
    (build pylibs 10 || say "pylibs failed (build/logs/pylibs.log); Python is served without the bundled libraries") </dev/null &
  fi
  (build python 10 || say "the Python image failed to build (build/logs/python.log); /readyz says so") </dev/null &
  say "building the Python image in the background (build/logs/python.log; progress on stderr and in /readyz)"
fi

# 1. The foreground: binary, js and the checker side by side.
(go build -o "$BIN" ./cmd/wasmexec 2>&1 | sed -u "s/^/make run: go build: /" >&2; exit "${PIPESTATUS[0]}") &
gobuild=$!
build js &
js=$!
ts=""
if have typescript; then
  build typescript &
  ts=$!
fi
failed=0
wait "$gobuild" || { say "the server binary failed to build"; failed=1; }
wait "$js" || { say "the js image failed to build (build/logs/js.log)"; failed=1; }
if [ -n "$ts" ] && ! wait "$ts"; then
  say "the TypeScript checker image failed to build (build/logs/typescript.log); /v1/typescript/check stays unavailable"
fi
[ "$failed" = 0 ] || exit 1
say "server and js image ready after $((SECONDS - start))s; starting the server"

# 3. The server (it compiles each image once into the module cache as it
# loads it).
exec "$BIN" serve --images-dir build/images "$@"
