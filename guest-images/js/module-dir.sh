#!/usr/bin/env bash
# module-dir.sh MODULE: prints the directory of MODULE (at the version
# guest-images/js/go.mod requires) in the Go module cache, downloading it
# first: `go list -m` names a directory only once the module is in the
# cache, and on a fresh machine it isn't yet.
set -euo pipefail
cd "$(dirname "$0")"
mod=${1:?usage: module-dir.sh MODULE}
GOFLAGS=-mod=mod go mod download "$mod"
dir=$(GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' "$mod")
[ -d "$dir" ] || { echo "module-dir.sh: $mod's source was not found after go mod download (is the Go module proxy reachable?)" >&2; exit 1; }
echo "$dir"
