#!/usr/bin/env bash
# stdlib-tests.sh: CPython's own tests of a selection of stdlib modules, run
# natively (/usr/bin/python3.11) and in the Python guest through the HTTP
# API, with the counts side by side (docs/PYTHON.md has the last figures).
#
#   scripts/stdlib-tests.sh [OUT_DIR]        (default build/stdlib-tests)
#   MODULES="test_json test_re" scripts/stdlib-tests.sh   (another selection)
#
# The tests are Debian's libpython3.11-testsuite of the revision the
# guest's CPython comes from (PY_VER in guest-images/python/base.sh; fetched
# with apt-get download into OUT_DIR; its test/support comes from the
# installed libpython3.11-stdlib), the images those of build/images (or
# WASMEXEC_IMAGES_DIR). It builds bin/wasmexec, starts it on a free port
# with limits large enough for test suites (15 min per module, 1 GiB),
# uploads the test package to a context in one archive request and runs
# each module in it (reset between modules), then the same module
# natively. Output: a line per module, the ratio of the tests that pass
# natively which also pass in the guest, the rest by cause, and
# OUT_DIR/results.json.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(mkdir -p "${1:-$ROOT/build/stdlib-tests}" && cd "${1:-$ROOT/build/stdlib-tests}" && pwd)"
IMAGES="${WASMEXEC_IMAGES_DIR:-$ROOT/build/images}"
# Modules chosen to cover the stdlib agents use most (data formats, text,
# numbers, containers, dates, files, archives, compression, typing, async)
# and the language core every program exercises (built-ins, str, bytes,
# containers, numbers, formatting, classes, exceptions, generators,
# scopes, the grammar); all run natively in under a minute each. (Not test_asyncio, which CPython
# skips whole where there are no sockets, as on WASI.) The tests of Debian's
# complexity fixes that never end on a host python3.11 older than the
# guest's revision (in test_posixpath and test_htmlparser) are deselected on
# both sides (DESELECT in scripts/stdlib_tests.py).
MODULES="${MODULES:-test_json test_re test_string test_textwrap test_difflib test_unicodedata
test_base64 test_binascii test_struct test_csv test_html test_htmlparser test_urlparse
test_math test_cmath test_fractions test_statistics test_random test_decimal test_int test_float
test_collections test_itertools test_functools test_heapq test_bisect test_operator test_copy
test_dataclasses test_enum test_typing test_abc test_contextlib test_pprint test_reprlib
test_datetime test_calendar test_time test_zoneinfo
test_pathlib test_posixpath test_glob test_fnmatch test_shutil test_tempfile test_os
test_zipfile test_tarfile test_gzip test_zlib test_bz2 test_lzma
test_hashlib test_hmac test_secrets test_uuid test_pickle
test_ast test_tokenize test_argparse test_configparser test_shlex test_string_literals
test_builtin test_unicode test_bytes test_bool test_long test_format test_fstring
test_dict test_list test_tuple test_set test_sort test_slice test_range test_iter test_unpack
test_types test_class test_descr test_super test_property test_scope test_exceptions
test_generators test_with test_grammar test_syntax}"

command -v apt-get >/dev/null || { echo "stdlib-tests: needs Debian's apt-get (libpython3.11-testsuite)" >&2; exit 1; }
[ -x /usr/bin/python3.11 ] && [ -d /usr/lib/python3.11/test/support ] || { echo "stdlib-tests: needs Debian's python3.11 (libpython3.11-stdlib)" >&2; exit 1; }
[ -f "$IMAGES/python/guest.json" ] || { echo "stdlib-tests: no Python image in $IMAGES (make guest-images)" >&2; exit 1; }

# The test package: Debian's testsuite with the installed test/support.
TESTS="$OUT/lib"
if [ ! -f "$TESTS/.complete" ]; then
    rm -rf "$OUT/deb" "$TESTS"; mkdir -p "$OUT/deb" "$TESTS"
    PY_VER=$(sed -n 's/^PY_PKG=python3.11 *PY_VER=//p' "$ROOT/guest-images/python/base.sh")
    (cd "$OUT/deb" && apt-get download "libpython3.11-testsuite=$PY_VER" >/dev/null 2>&1 \
        || apt-get download libpython3.11-testsuite >/dev/null)
    dpkg-deb -x "$OUT"/deb/libpython3.11-testsuite_*.deb "$OUT/deb/x"
    cp -a "$OUT/deb/x/usr/lib/python3.11/test" "$TESTS/"
    cp -a /usr/lib/python3.11/test/. "$TESTS/test/"
    find "$TESTS" -name __pycache__ -prune -exec rm -rf {} +
    tar czf "$OUT/test.tgz" -C "$TESTS" test
    dpkg-deb -f "$OUT"/deb/libpython3.11-testsuite_*.deb Version >"$TESTS/.complete"
fi
echo "stdlib-tests: libpython3.11-testsuite $(cat "$TESTS/.complete"), guest image $(readlink -f "$IMAGES/python")"

(cd "$ROOT" && go build -o "$OUT/wasmexec" ./cmd/wasmexec)
PORT=$(/usr/bin/python3.11 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$OUT/wasmexec" serve --addr "127.0.0.1:$PORT" --images-dir "$IMAGES" --data-dir "$OUT/data" \
    --timeout-ms 900000 --max-timeout-ms 900000 --fuel 10000000000000000 --max-fuel 10000000000000000 \
    --memory-bytes 1073741824 --max-memory-bytes 1073741824 --body-limit-bytes 67108864 \
    --workspace-quota-bytes 1073741824 --workspace-max-files 20000 --pool-size 0 \
    --context-hibernate-after-ms 0 --tscheck-workers 0 >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
    kill -0 $SERVER 2>/dev/null || { tail -20 "$OUT/server.log" >&2; exit 1; }
    sleep 1
done
# shellcheck disable=SC2086
/usr/bin/python3.11 "$ROOT/scripts/stdlib_tests.py" --server "http://127.0.0.1:$PORT" --tests "$TESTS" \
    --archive "$OUT/test.tgz" --out "$OUT" $MODULES
