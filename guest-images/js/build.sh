#!/usr/bin/env bash
# build.sh OUTDIR: the JavaScript guest (goja + driver) for wasip1.
#
# Start-up matters (every one-shot run starts a fresh guest), so the build
# trims two package inits that cost ~2 ms per start: goja's parser tables are
# made lazy (patch-goja.py, applied to a private copy of goja) and pprof,
# which goja imports only for its profiler, is replaced by pprofstub/.
# esbuild (ES modules and TypeScript files are converted to CommonJS in the
# guest) is patched to keep top-level await in CommonJS (patch-esbuild.py).
# goja parses a program's source map when a position first needs it
# (patch-goja-sourcemap.py): every converted module carries one. Regular
# expressions get Unicode property escapes, \p{L}, and a source as engines
# write it (patch-goja-regexp.py). A later cell may declare a top-level
# let/const/class again, replacing the binding, as in Chrome DevTools'
# console (patch-goja-repl.py). for-of over an array makes no iterator
# result objects (patch-goja-iter.py). An array's length, and a function's
# length and name until something looks at its properties, stay out of
# the object's property map, which is made on the first property
# (patch-goja-lean.py): mathjs's live heap went from 96 to 70 MiB.
set -euo pipefail
out=${1:?usage: build.sh OUTDIR}
here=$(pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

echo "==> [js] preparing a patched copy of goja"
gojadir=$("$here/module-dir.sh" github.com/dop251/goja)
cp -r "$gojadir" "$work/goja"
chmod -R u+w "$work/goja"
python3 -B "$here/patch-goja.py" "$work/goja/parser/lexer.go"
python3 -B "$here/patch-goja-sourcemap.py" "$work/goja"
python3 -B "$here/patch-goja-repl.py" "$work/goja"
python3 -B "$here/patch-goja-regexp.py" "$work/goja" "$here"
python3 -B "$here/patch-goja-iter.py" "$work/goja"
python3 -B "$here/patch-goja-lean.py" "$work/goja"
esbuilddir=$("$here/module-dir.sh" github.com/evanw/esbuild)
cp -r "$esbuilddir" "$work/esbuild"
chmod -R u+w "$work/esbuild"
python3 "$here/patch-esbuild.py" "$work/esbuild/internal/js_parser/js_parser_lower.go"
cp go.mod "$work/go.mod"
cp go.sum "$work/go.sum"
go mod edit -modfile "$work/go.mod" -replace "github.com/dop251/goja=$work/goja" -replace "github.com/evanw/esbuild=$work/esbuild" -replace "github.com/google/pprof=$here/pprofstub"

# The vendored JavaScript lives in the repository's third_party/ (each
# directory with its LICENSE and PROVENANCE); third_party.txt says where
# each file goes among the built-ins. go:embed reads builtins/ from the
# package's own directory, so the build works in a copy of it with the
# vendored files added (and their licences, under builtins/licenses/).
echo "==> [js] adding the vendored JavaScript of third_party.txt"
root=$(cd "$here/../.." && pwd)
src=$work/src
mkdir -p "$src"
cp -R "$here/." "$src/"
while read -r from to; do
  if [ -d "$root/third_party/$from" ]; then
    mkdir -p "$src/builtins/$to"
    cp -R "$root/third_party/$from/." "$src/builtins/$to/"
  else
    mkdir -p "$(dirname "$src/builtins/$to")"
    cp "$root/third_party/$from" "$src/builtins/$to"
  fi
  lib=${from%%/*}
  mkdir -p "$src/builtins/licenses/$lib"
  cp "$root/third_party/$lib/LICENSE" "$src/builtins/licenses/$lib/LICENSE"
done < <(sed -e 's/#.*//' "$here/third_party.txt" | awk NF)

echo "==> [js] go build GOOS=wasip1 GOARCH=wasm"
(cd "$src" && GOOS=wasip1 GOARCH=wasm go build -modfile "$work/go.mod" -buildmode=c-shared -trimpath -ldflags="-s -w" -o "$out/js.wasm" .)
# GODEBUG=gcstoptheworld=1: the guest's Go collector marks with the world
# stopped. Its concurrent mark can't run beside the program in a guest with
# one thread and no preemption: the program did the marking itself, in
# assists, with write barriers on, and the collector's CPU limiter turned
# the assists off, so the heap outgrew the soft memory limit while a cycle
# dragged on. Loading mathjs took 81-97 G fuel and peaked at 227 MiB of
# Go memory at the 256 MiB limit (memory_limit in about one load in four);
# stopped-world it takes 48 G, the same in every run, and peaks at 177 MiB.
# Go reads the setting once, when the runtime starts (the image's
# snapshot); the driver leaves it out of process.env (environ.go).
cat > "$out/guest.json" <<'JSON'
{
  "name": "js",
  "wasm": "js.wasm",
  "argv": ["js"],
  "env": {"GODEBUG": "gcstoptheworld=1"},
  "preopens": {},
  "minMemoryBytes": 33554432,
  "oomExitCode": 2,
  "init": ["_initialize", "wasmexec_init"],
  "entry": "wasmexec_serve",
  "snapshot": true,
  "snapshotWarmUp": true,
  "suspend": true
}
JSON
echo "==> [js] $(du -h "$out/js.wasm" | cut -f1) js.wasm"
