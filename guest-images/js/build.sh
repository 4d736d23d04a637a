#!/usr/bin/env bash
# build.sh OUTDIR: the JavaScript guest (goja + driver) for wasip1.
set -euo pipefail
out=${1:?usage: build.sh OUTDIR}
echo "==> [js] go build GOOS=wasip1 GOARCH=wasm"
GOOS=wasip1 GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$out/js.wasm" .
cat > "$out/guest.json" <<'JSON'
{
  "name": "js",
  "wasm": "js.wasm",
  "argv": ["js"],
  "env": {},
  "preopens": {},
  "minMemoryBytes": 16777216,
  "oomExitCode": 2
}
JSON
echo "==> [js] $(du -h "$out/js.wasm" | cut -f1) js.wasm"
