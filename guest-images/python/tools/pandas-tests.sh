#!/usr/bin/env bash
# pandas' own tests, in the guest and natively.
#
#   guest-images/python/tools/pandas-tests.sh IMAGES_DIR OUT_DIR
#
# IMAGES_DIR holds the Python image (and js, pylibs as `make guest-images`
# makes them). The guest side runs each test module of SELECTION with
# pytest in its own run through `wasmexec exec` (in process, real engine),
# with a test-only copy of the pylibs image whose site/ adds Debian's
# pytest and hypothesis and pandas' test modules (from the pandas build,
# $PANDAS_DIR/tests). The native side runs the same modules of Debian's
# python3-pandas 1.5.3 with /usr/bin/python3.11. Both deselect the tests
# pandas marks slow, network, db or single_cpu.
# Needs: apt-get install python3-pytest python3-hypothesis python3-pandas
# python3-openpyxl python3-tabulate.
# Writes OUT_DIR/{guest,native}/MODULE.log and OUT_DIR/summary.txt, and
# prints the totals: guest passed / native passed.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
IMAGES="$(cd "$1" && pwd)"; OUT="$2"
SELECTION="${PANDAS_TESTS:-reshape/test_pivot.py reshape/merge/test_merge.py groupby/test_groupby.py
groupby/aggregate/test_aggregate.py resample/test_datetime_index.py window/test_rolling.py
tools/test_to_datetime.py frame/methods/test_describe.py io/formats/test_to_markdown.py
io/formats/test_format.py io/excel/test_openpyxl.py io/parser/common/test_common_basic.py
series/test_arithmetic.py frame/test_constructors.py indexing/test_loc.py}"
CACHE_DIR="${WASMEXEC_CACHE_DIR:-$HOME/.cache/wasmexec}"
PANDAS_DIR=$(ls -1dt "$CACHE_DIR"/work/python/pandas-*/ | grep -v pandas-build | head -1)
[ -f "$PANDAS_DIR/.complete" ] || { echo "no pandas build in $CACHE_DIR/work/python" >&2; exit 1; }
NATIVE=/usr/lib/python3/dist-packages/pandas
[ -d "$NATIVE/tests" ] || { echo "no python3-pandas (with tests) on the host" >&2; exit 1; }
mkdir -p "$OUT/guest" "$OUT/native" "$OUT/images"
for i in "$IMAGES"/*; do ln -sfn "$(readlink -f "$i")" "$OUT/images/$(basename "$i")"; done
rm -rf "$OUT/pylibs" "$OUT/images/pylibs"
cp -a "$(readlink -f "$IMAGES/pylibs")" "$OUT/pylibs"; chmod -R u+w "$OUT/pylibs"
S="$OUT/pylibs/site"
for p in pytest _pytest pluggy iniconfig hypothesis sortedcontainers py.py; do cp -a "/usr/lib/python3/dist-packages/$p" "$S/"; done
mkdir -p "$S/pandas_tests"; cp -a "$PANDAS_DIR/tests/pandas" "$S/pandas_tests/"
cp "$NATIVE/conftest.py" "$S/pandas_tests/pandas/conftest.py"
# pandas' markers (pyproject.toml's [tool.pytest.ini_options]), for -m.
printf '[pytest]\nmarkers =\n    single_cpu\n    slow\n    network\n    db\n    arm_slow\n    clipboard\n' >"$S/pandas_tests/pandas/pytest.ini"
ln -sfn "$OUT/pylibs" "$OUT/images/pylibs"
(cd "$ROOT" && go build -o "$OUT/wasmexec" ./cmd/wasmexec)
: >"$OUT/summary.txt"
gsum=0; nsum=0
count() { grep -E '(passed|failed|error).* in ' "$1" | tail -1 | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0; }
for f in $SELECTION; do
  n=$(echo "$f" | tr / _)
  code=$(sed "s|^SEL = .*|SEL = [\"$f\"]|" "$HERE/pandas_test_runner.py")
  "$OUT/wasmexec" exec --lang python --timeout-ms 1100000 --fuel 1000000000000000 \
      --memory-bytes 2147483648 --output-bytes 50000000 --images-dir "$OUT/images" \
      --cache-dir "$OUT/cache" "$code" >"$OUT/guest/$n.log" 2>&1 || true
  (cd /tmp && /usr/bin/python3.11 -m pytest -p no:cacheprovider -q -rf --no-header \
      -m 'not slow and not network and not db and not single_cpu' "$NATIVE/tests/$f") >"$OUT/native/$n.log" 2>&1 || true
  g=$(grep -E '(passed|failed|error).* in ' "$OUT/guest/$n.log" | tail -1 || true)
  nat=$(grep -E '(passed|failed|error).* in ' "$OUT/native/$n.log" | tail -1 || true)
  gsum=$((gsum + $(count "$OUT/guest/$n.log"))); nsum=$((nsum + $(count "$OUT/native/$n.log")))
  printf '%s\n  guest:  %s\n  native: %s\n' "$f" "$g" "$nat" | tee -a "$OUT/summary.txt"
done
printf 'pandas: %d passed in the guest, %d natively: %s%%\n' "$gsum" "$nsum" \
  "$(awk -v g="$gsum" -v n="$nsum" 'BEGIN { printf "%.1f", n ? 100 * g / n : 0 }')" | tee -a "$OUT/summary.txt"
