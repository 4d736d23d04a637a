# A library's own tests, in the guest and natively: the part numpy-tests.sh
# and pandas-tests.sh share, sourced by them once they have set
#   LIB          numpy or pandas (its build stage: $CACHE/work/python/LIB-*)
#   SELECTION    test modules, relative to NATIVE_TESTS
#   NATIVE       Debian's package directory; NATIVE_TESTS where its tests are
#   NATIVE_ARGS  extra pytest arguments for the native run (an array)
#   PYTEST_INI   the pytest.ini the guest's copy of the tests gets
#   RUNNER       the guest's pytest driver (SEL = [...] is substituted)
# and IMAGES, OUT from their arguments. The guest side runs each module
# with pytest in its own run through `wasmexec exec` (in process, real
# engine), with a test-only copy of the pylibs image whose site/ adds
# Debian's pytest and hypothesis and the library's test modules (from its
# build, LIB_DIR/tests). The native side runs the same modules with
# /usr/bin/python3.11. Writes OUT/{guest,native}/MODULE.log and
# OUT/summary.txt, and prints the totals: guest passed / native passed.
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
CACHE_DIR="${WASMEXEC_CACHE_DIR:-$HOME/.cache/wasmexec}"
LIB_DIR=$(ls -1dt "$CACHE_DIR"/work/python/"$LIB"-*/ | grep -v "$LIB-build" | head -1)
[ -f "$LIB_DIR/.complete" ] || { echo "no $LIB build in $CACHE_DIR/work/python" >&2; exit 1; }
[ -d "$NATIVE_TESTS" ] || { echo "no python3-$LIB (with tests) on the host" >&2; exit 1; }
mkdir -p "$OUT/guest" "$OUT/native" "$OUT/images"
# The test images: the given ones, with pylibs replaced by a copy + test tools.
for i in "$IMAGES"/*; do ln -sfn "$(readlink -f "$i")" "$OUT/images/$(basename "$i")"; done
rm -rf "$OUT/pylibs" "$OUT/images/pylibs"
cp -a "$(readlink -f "$IMAGES/pylibs")" "$OUT/pylibs"; chmod -R u+w "$OUT/pylibs"
S="$OUT/pylibs/site"
for p in pytest _pytest pluggy iniconfig hypothesis sortedcontainers py.py; do cp -a "/usr/lib/python3/dist-packages/$p" "$S/"; done
mkdir -p "$S/${LIB}_tests"; cp -a "$LIB_DIR/tests/$LIB" "$S/${LIB}_tests/"
cp "$NATIVE/conftest.py" "$S/${LIB}_tests/$LIB/conftest.py"
printf '%b' "$PYTEST_INI" >"$S/${LIB}_tests/$LIB/pytest.ini"
ln -sfn "$OUT/pylibs" "$OUT/images/pylibs"
(cd "$ROOT" && go build -o "$OUT/wasmexec" ./cmd/wasmexec)
: >"$OUT/summary.txt"
gsum=0; nsum=0
count() { grep -E '(passed|failed|error).* in ' "$1" | tail -1 | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0; }
for f in $SELECTION; do
  n=$(echo "$f" | tr / _)
  code=$(sed "s|^SEL = .*|SEL = [\"$f\"]|" "$RUNNER")
  "$OUT/wasmexec" exec --lang python --timeout-ms 1100000 --fuel 1000000000000000 \
      --memory-bytes 2147483648 --output-bytes 50000000 --images-dir "$OUT/images" \
      --cache-dir "$OUT/cache" "$code" >"$OUT/guest/$n.log" 2>&1 || true
  (cd /tmp && /usr/bin/python3.11 -m pytest -p no:cacheprovider -q -rf --no-header "${NATIVE_ARGS[@]}" \
      "$NATIVE_TESTS/$f") >"$OUT/native/$n.log" 2>&1 || true
  g=$(grep -E '(passed|failed|error).* in ' "$OUT/guest/$n.log" | tail -1 || true)
  nat=$(grep -E '(passed|failed|error).* in ' "$OUT/native/$n.log" | tail -1 || true)
  gsum=$((gsum + $(count "$OUT/guest/$n.log"))); nsum=$((nsum + $(count "$OUT/native/$n.log")))
  printf '%s\n  guest:  %s\n  native: %s\n' "$f" "$g" "$nat" | tee -a "$OUT/summary.txt"
done
printf '%s: %d passed in the guest, %d natively: %s%%\n' "$LIB" "$gsum" "$nsum" \
  "$(awk -v g="$gsum" -v n="$nsum" 'BEGIN { printf "%.1f", n ? 100 * g / n : 0 }')" | tee -a "$OUT/summary.txt"
