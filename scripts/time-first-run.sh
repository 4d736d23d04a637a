#!/usr/bin/env bash
# time-first-run.sh [WORKDIR]: times the first `make run` of a fresh clone
# of this repository's HEAD, with empty wasmexec, Go, npm and pip caches
# under WORKDIR (default /tmp/wasmexec-first-run), as docs/OPERATIONS.md
# reports it: the seconds until a JavaScript `6*7` and a Python
# `import pandas` first answer (polled every 5 s), with the load average.
# Debian's build packages are not removed: their install comes on top.
set -u
R=${1:-/tmp/wasmexec-first-run}
PORT=${PORT:-18099}
repo=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$R"; mkdir -p "$R"
export WASMEXEC_CACHE_DIR=$R/cache GOCACHE=$R/gocache GOMODCACHE=$R/gomod \
  npm_config_cache=$R/npm PIP_CACHE_DIR=$R/pip WASMEXEC_ADDR=127.0.0.1:$PORT
git clone -q "$repo" "$R/clone"
cd "$R/clone"
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "start $(date -u +%T) $(git log --oneline -1) load $(load)" | tee "$R/timeline"
make run >"$R/makerun.log" 2>&1 &
t0=$SECONDS js="" py=""
answers() { curl -s -m "$1" "localhost:$PORT/v1/evaluate" -d "$2" | grep -q "$3"; }
while [ -z "$js" ] || [ -z "$py" ]; do
  now=$((SECONDS - t0))
  if [ -z "$js" ] && answers 5 '{"language":"javascript","code":"6*7"}' '"value":42'; then
    js=$now; echo "first JavaScript answer ${now}s load $(load)" | tee -a "$R/timeline"
  fi
  if [ -z "$py" ] && answers 60 '{"language":"python","code":"import pandas as pd\nint(pd.Series([1,2]).sum())"}' '"value":3'; then
    py=$now; echo "first Python (pandas) answer ${now}s load $(load)" | tee -a "$R/timeline"
  fi
  [ "$now" -gt 5400 ] && { echo "gave up after ${now}s (see $R/makerun.log)" | tee -a "$R/timeline"; break; }
  sleep 5
done
grep -E '^make run: .*(built in|ready after)' "$R/makerun.log" | tee -a "$R/timeline"
# The server make run became (its working directory is the clone).
for p in $(pgrep -f "wasmexec serve"); do
  [ "$(readlink "/proc/$p/cwd")" = "$R/clone" ] && kill "$p"
done
true
