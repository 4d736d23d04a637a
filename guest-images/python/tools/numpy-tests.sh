#!/usr/bin/env bash
# numpy's own tests, in the guest and natively (tools/lib-tests.sh).
#
#   guest-images/python/tools/numpy-tests.sh IMAGES_DIR OUT_DIR
#
# IMAGES_DIR holds the Python image (and js, pylibs as `make guest-images`
# makes them). The native side is Debian's python3-numpy 1.24.2.
# Needs: apt-get install python3-pytest python3-hypothesis python3-numpy.
set -euo pipefail
IMAGES="$(cd "$1" && pwd)"; OUT="$2"
LIB=numpy
SELECTION="core/tests/test_multiarray.py core/tests/test_umath.py core/tests/test_numeric.py
core/tests/test_indexing.py core/tests/test_ufunc.py core/tests/test_dtype.py core/tests/test_shape_base.py
linalg/tests/test_linalg.py fft/tests/test_pocketfft.py fft/tests/test_helper.py
random/tests/test_generator_mt19937.py random/tests/test_random.py lib/tests/test_function_base.py"
NATIVE=/usr/lib/python3/dist-packages/numpy
NATIVE_TESTS=$NATIVE
NATIVE_ARGS=()
PYTEST_INI='[pytest]\n'
RUNNER="$(dirname "${BASH_SOURCE[0]}")/numpy_test_runner.py"
# shellcheck source=lib-tests.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib-tests.sh"
