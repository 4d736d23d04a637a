#!/usr/bin/env bash
# numpy's own tests, in the guest and natively.
#
#   guest-images/python/tools/numpy-tests.sh IMAGES_DIR OUT_DIR
#
# IMAGES_DIR holds the Python image (and js, pylibs as `make guest-images`
# makes them). The guest side runs each
# test module of SELECTION with pytest in its own run through
# `wasmexec exec` (in process, real engine), with a test-only copy of the
# pylibs image whose site/ adds Debian's pytest, hypothesis and numpy's test
# modules (from the numpy build, $NUMPY_DIR/tests). The native side runs
# the same modules of Debian's python3-numpy 1.24.2 with /usr/bin/python3.11.
# Needs: apt-get install python3-pytest python3-hypothesis python3-numpy.
# Writes OUT_DIR/{guest,native}/MODULE.log and OUT_DIR/summary.txt, and
# prints the totals: guest passed / native passed.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
IMAGES="$(cd "$1" && pwd)"; OUT="$2"
SELECTION="core/tests/test_multiarray.py core/tests/test_umath.py core/tests/test_numeric.py
core/tests/test_indexing.py core/tests/test_ufunc.py core/tests/test_dtype.py core/tests/test_shape_base.py
linalg/tests/test_linalg.py fft/tests/test_pocketfft.py fft/tests/test_helper.py
random/tests/test_generator_mt19937.py random/tests/test_random.py lib/tests/test_function_base.py"
CACHE_DIR="${WASMEXEC_CACHE_DIR:-$HOME/.cache/wasmexec}"
NUMPY_DIR=$(ls -1dt "$CACHE_DIR"/work/python/numpy-*/ | grep -v numpy-build | head -1)
[ -f "$NUMPY_DIR/.complete" ] || { echo "no numpy build in $CACHE_DIR/work/python" >&2; exit 1; }
NATIVE=/usr/lib/python3/dist-packages/numpy
[ -d "$NATIVE/core/tests" ] || { echo "no python3-numpy (with tests) on the host" >&2; exit 1; }
mkdir -p "$OUT/guest" "$OUT/native" "$OUT/images"
# The test images: the given ones, with pylibs replaced by a copy + test tools.
for i in "$IMAGES"/*; do ln -sfn "$(readlink -f "$i")" "$OUT/images/$(basename "$i")"; done
rm -rf "$OUT/pylibs" "$OUT/images/pylibs"
cp -a "$(readlink -f "$IMAGES/pylibs")" "$OUT/pylibs"; chmod -R u+w "$OUT/pylibs"
S="$OUT/pylibs/site"
for p in pytest _pytest pluggy iniconfig hypothesis sortedcontainers py.py; do cp -a "/usr/lib/python3/dist-packages/$p" "$S/"; done
mkdir -p "$S/numpy_tests"; cp -a "$NUMPY_DIR/tests/numpy" "$S/numpy_tests/"
cp "$NATIVE/conftest.py" "$S/numpy_tests/numpy/conftest.py"
printf '[pytest]\n' >"$S/numpy_tests/numpy/pytest.ini"
ln -sfn "$OUT/pylibs" "$OUT/images/pylibs"
(cd "$ROOT" && go build -o "$OUT/wasmexec" ./cmd/wasmexec)
: >"$OUT/summary.txt"
gsum=0; nsum=0
count() { grep -E '(passed|failed|error).* in ' "$1" | tail -1 | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0; }
for f in $SELECTION; do
  n=$(echo "$f" | tr / _)
  code=$(sed "s|^SEL = .*|SEL = [\"$f\"]|" "$HERE/numpy_test_runner.py")
  "$OUT/wasmexec" exec --lang python --timeout-ms 1100000 --fuel 1000000000000000 \
      --memory-bytes 2147483648 --output-bytes 50000000 --images-dir "$OUT/images" \
      --cache-dir "$OUT/cache" "$code" >"$OUT/guest/$n.log" 2>&1 || true
  (cd /tmp && /usr/bin/python3.11 -m pytest -p no:cacheprovider -q -rf --no-header "$NATIVE/$f") >"$OUT/native/$n.log" 2>&1 || true
  g=$(grep -E '(passed|failed|error).* in ' "$OUT/guest/$n.log" | tail -1 || true)
  nat=$(grep -E '(passed|failed|error).* in ' "$OUT/native/$n.log" | tail -1 || true)
  gsum=$((gsum + $(count "$OUT/guest/$n.log"))); nsum=$((nsum + $(count "$OUT/native/$n.log")))
  printf '%s\n  guest:  %s\n  native: %s\n' "$f" "$g" "$nat" | tee -a "$OUT/summary.txt"
done
printf 'numpy: %d passed in the guest, %d natively: %s%%\n' "$gsum" "$nsum" \
  "$(awk -v g="$gsum" -v n="$nsum" 'BEGIN { printf "%.1f", n ? 100 * g / n : 0 }')" | tee -a "$OUT/summary.txt"
