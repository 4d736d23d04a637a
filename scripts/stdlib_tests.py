#!/usr/bin/python3.11
"""CPython's own tests of stdlib modules, natively and in the Python guest.

Run by scripts/stdlib-tests.sh, which fetches Debian's test package, starts
a wasmexec server and passes them here:

    stdlib_tests.py --server URL --tests DIR --archive TGZ --out DIR MODULE...

For each module (a name under test., e.g. test_json) the same harness runs
the module's unittest suite (a) natively: /usr/bin/python3.11 with DIR on
PYTHONPATH, and (b) in the guest: POST /v1/execute in a Python context
whose workspace holds the test package (PUT /v1/contexts/:id/files?archive
with TGZ), reset between modules. It writes OUT/results.json (per module
and side: tests run, passed, skipped, the failures and errors with their
last line) and prints guest/native counts and the ratio of tests passed.

    stdlib_tests.py --summary OUT/results.json MODULE...

prints the same counts for some modules of an earlier run (an older,
smaller selection) without running anything.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

# Tests left out on both sides, with the reason. Debian's test package has
# tests of its security fixes in it, and a test of a complexity fix never
# ends on an interpreter without the fix: the guest has all of them (it is
# built with the series of the test package's revision), but this host's
# python3.11 may be an older revision. The ones that never end there go
# here.
DESELECT = {
    "test.test_posixpath.PosixCommonTest.test_expandvars_large":
        "quadratic without CVE-2025-6075.patch (3.11.2-6+deb12u7), which an older host lacks",
    "test.test_htmlparser.HTMLParserTestCase.test_eof_no_quadratic_complexity":
        "quadratic without CVE-2025-6069.patch (3.11.2-6+deb12u7), which an older host lacks",
}

# The harness: run test.MODULE's suite, report counts and failures. The
# same code natively and in the guest (where MODULE comes in inputs).
HARNESS = r'''
import io, json, sys, time, traceback, unittest
try:
    name, deselect = inputs["module"], set(inputs["deselect"])
except NameError:
    name, deselect = sys.argv[1], set(sys.argv[2:])

def without(suite):
    out = unittest.TestSuite()
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            out.addTest(without(t))
        elif t.id() not in deselect:
            out.addTest(t)
    return out

def last_line(tb):
    lines = [l for l in tb.strip().splitlines() if l.strip()]
    return lines[-1][:300] if lines else ""

class Result(unittest.TextTestResult):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.ok = []

    def addSuccess(self, test):
        super().addSuccess(test)
        self.ok.append(test.id())

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.ok.append(test.id())

out = {"module": name}
t0 = time.time()
try:
    suite = without(unittest.defaultTestLoader.loadTestsFromName("test." + name))
    res = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0, resultclass=Result).run(suite)
    out["run"] = res.testsRun
    out["ok"] = res.ok
    out["failures"] = [[t.id(), last_line(tb)] for t, tb in res.failures]
    out["errors"] = [[getattr(t, "id", lambda: str(t))(), last_line(tb)] for t, tb in res.errors]
    out["skipped"] = [[t.id(), str(why)[:200]] for t, why in res.skipped]
    out["unexpectedSuccesses"] = len(res.unexpectedSuccesses)
except BaseException as e:
    out["loadError"] = "".join(traceback.format_exception_only(type(e), e)).strip()[:500]
out["seconds"] = round(time.time() - t0, 2)
sys.stdout.write("\n@@RESULT@@" + json.dumps(out) + "\n")
sys.stdout.flush()
'''


def passed(r):
    return set(r.get("ok") or ())


def why(r, test):
    """Why test did not pass in the run r: its failure's or error's last
    line, its skip reason, or the module's crash."""
    if "run" not in r:
        return "module: " + (r.get("crash") or r.get("loadError") or "?").splitlines()[-1][:200]
    # A subtest's id is the test's and its message or parameters:
    # "TEST [msg]", "TEST (x=1)".
    def same(t):
        return t == test or t.endswith(test) or t.startswith((test + " (", test + " ["))
    for kind in ("failures", "errors"):
        for t, line in r.get(kind) or ():
            if same(t):
                return kind[:-1] + ": " + line
    for t, reason in r.get("skipped") or ():
        if same(t):
            return "skipped: " + reason
    for kind in ("errors",):   # class- or module-level errors (setUpClass)
        for t, line in r.get(kind) or ():
            if "setUpClass" in t or "setUpModule" in t:
                return kind[:-1] + ": " + line
    return "not run"


def parse(stdout):
    for line in reversed(stdout.splitlines()):
        if line.startswith("@@RESULT@@"):
            return json.loads(line[len("@@RESULT@@"):])
    return None


def native(module, tests, timeout, scratch):
    # In an empty directory of its own, as the guest's workspace is (some
    # tests look at every entry of the working directory).
    cwd = tempfile.mkdtemp(dir=scratch)
    env = dict(os.environ, PYTHONPATH=tests, PYTHONDONTWRITEBYTECODE="1", TZ="UTC", TMPDIR=cwd)
    try:
        p = subprocess.run(["/usr/bin/python3.11", "-c", HARNESS, module, *DESELECT], env=env, cwd=cwd,
                           capture_output=True, text=True, timeout=timeout, errors="replace")
        r = parse(p.stdout)
        if r is None:
            r = {"module": module, "crash": (p.stderr or p.stdout)[-500:]}
    except subprocess.TimeoutExpired:
        r = {"module": module, "crash": "timed out after %ds" % timeout}
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    return r


def call(server, method, path, body=None, content_type="application/json", timeout=1200):
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    req = urllib.request.Request(server + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def guest(module, server, ctx, timeout_ms, fuel, memory):
    call(server, "POST", "/v1/contexts/%s/reset" % ctx, {})
    status, res = call(server, "POST", "/v1/execute", {
        "language": "python", "contextId": ctx, "code": HARNESS, "inputs": {"module": module, "deselect": list(DESELECT)},
        "timeoutMs": timeout_ms, "limits": {"fuel": fuel, "outputBytes": 10 << 20},
    })
    if status != 200:
        return {"module": module, "crash": "HTTP %d: %s" % (status, res)}
    r = parse(res.get("stdout") or "")
    if r is None:
        err = res.get("error") or {}
        r = {"module": module, "crash": "%s: %s %s" % (res.get("outcome"), err.get("code"), (err.get("message") or "")[:300])}
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server")
    ap.add_argument("--tests", help="directory holding the test package")
    ap.add_argument("--archive", help="the test package as a .tgz (test/...)")
    ap.add_argument("--out")
    ap.add_argument("--summary", metavar="RESULTS_JSON",
                    help="run nothing: print the counts of an earlier run's results.json for MODULE... "
                         "(e.g. an older selection, a subset of that run's)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per module and side")
    ap.add_argument("--memory", type=int, default=1 << 30)
    ap.add_argument("--fuel", type=int, default=10**16)
    ap.add_argument("modules", nargs="+")
    a = ap.parse_args()
    if a.summary:
        with open(a.summary) as f:
            results = json.load(f)
        missing = [m for m in a.modules if m not in results]
        if missing:
            sys.exit("not in %s: %s" % (a.summary, " ".join(missing)))
        summarize({m: results[m] for m in a.modules}, a.summary)
        return
    if not (a.server and a.tests and a.archive and a.out):
        ap.error("--server, --tests, --archive and --out are needed to run the tests")
    os.makedirs(a.out, exist_ok=True)

    status, ctx = call(a.server, "POST", "/v1/contexts", {"language": "python", "limits": {"memoryBytes": a.memory}, "env": {"TZ": "UTC"}})
    if status != 201:
        sys.exit("create context: %d %s" % (status, ctx))
    cid = ctx["contextId"]
    with open(a.archive, "rb") as f:
        status, up = call(a.server, "PUT", "/v1/contexts/%s/files?archive=tgz" % cid, f.read(), "application/octet-stream")
    if status != 200:
        sys.exit("upload the test package: %d %s" % (status, up))
    print("uploaded the test package: %d files in one request" % up["files"], flush=True)

    results = {}
    for m in a.modules:
        t0 = time.time()
        n = native(m, a.tests, a.timeout, a.out)
        t1 = time.time()
        g = guest(m, a.server, cid, a.timeout * 1000, a.fuel, a.memory)
        t2 = time.time()
        results[m] = {"native": n, "guest": g}
        pn, pg = passed(n), passed(g)
        both = pn & pg
        results[m]["lost"] = {t: why(g, t) for t in sorted(pn - pg)}
        print("%-28s native %4d/%-4d guest %4d/%-4d  (%.0fs / %.0fs)%s" % (
            m, len(pn), n.get("run", 0), len(both), g.get("run", 0), t1 - t0, t2 - t1,
            "  " + (g.get("crash") or g.get("loadError") or "")[:100] if "run" not in g else ""), flush=True)
    call(a.server, "DELETE", "/v1/contexts/%s" % cid)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    summarize(results, os.path.join(a.out, "results.json"))


def summarize(results, path):
    """Prints the totals of results (module -> native, guest, lost)."""
    for r in results.values():  # by this script's rules (an older run's may differ)
        r["lost"] = {t: why(r["guest"], t) for t in sorted(passed(r["native"]) - passed(r["guest"]))}
    tn = sum(len(passed(r["native"])) for r in results.values())
    tg = sum(len(passed(r["native"]) & passed(r["guest"])) for r in results.values())
    ratio = 100.0 * tg / tn if tn else 0.0
    print("\n%d modules: %d tests pass natively, %d of them in the guest: %.1f%%" % (len(results), tn, tg, ratio))
    # The tests CPython itself skips on WASI (the test says the platform
    # lacks what it needs: subprocess, threads, symlinks, chmod, users, ...)
    # are not applicable there; the rest is the guest's fidelity.
    skipped = sum(1 for r in results.values() for why in r["lost"].values()
                  if why.startswith("skipped:") or why.startswith("module: unittest.case.SkipTest"))
    applicable = tn - skipped
    print("of the %d that CPython does not skip on WASI: %d pass in the guest: %.1f%%" % (
        applicable, tg, 100.0 * tg / applicable if applicable else 0.0))
    causes = {}
    for m, r in results.items():
        for t, reason in r["lost"].items():
            causes.setdefault(reason, []).append(t)
    print("\ntests that pass natively but not in the guest, by cause:")
    for reason, ts in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        print("%5d  %s   e.g. %s" % (len(ts), reason[:160], ts[0]))
    print("details: %s" % path)


main()
