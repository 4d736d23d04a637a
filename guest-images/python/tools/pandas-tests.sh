#!/usr/bin/env bash
# pandas' own tests, in the guest and natively (tools/lib-tests.sh).
#
#   guest-images/python/tools/pandas-tests.sh IMAGES_DIR OUT_DIR
#
# IMAGES_DIR holds the Python image (and js, pylibs as `make guest-images`
# makes them). The native side is Debian's python3-pandas 1.5.3. Both
# deselect the tests pandas marks slow, network, db or single_cpu.
# Needs: apt-get install python3-pytest python3-hypothesis python3-pandas
# python3-openpyxl python3-tabulate.
set -euo pipefail
IMAGES="$(cd "$1" && pwd)"; OUT="$2"
LIB=pandas
SELECTION="${PANDAS_TESTS:-reshape/test_pivot.py reshape/merge/test_merge.py groupby/test_groupby.py
groupby/aggregate/test_aggregate.py resample/test_datetime_index.py window/test_rolling.py
tools/test_to_datetime.py frame/methods/test_describe.py io/formats/test_to_markdown.py
io/formats/test_format.py io/excel/test_openpyxl.py io/parser/common/test_common_basic.py
series/test_arithmetic.py frame/test_constructors.py indexing/test_loc.py}"
NATIVE=/usr/lib/python3/dist-packages/pandas
NATIVE_TESTS=$NATIVE/tests
NATIVE_ARGS=(-m 'not slow and not network and not db and not single_cpu')
# pandas' markers (pyproject.toml's [tool.pytest.ini_options]), for -m.
PYTEST_INI='[pytest]\nmarkers =\n    single_cpu\n    slow\n    network\n    db\n    arm_slow\n    clipboard\n'
RUNNER="$(dirname "${BASH_SOURCE[0]}")/pandas_test_runner.py"
# shellcheck source=lib-tests.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib-tests.sh"
