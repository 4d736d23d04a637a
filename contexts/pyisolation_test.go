package contexts_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// secret is in the inputs and stdin of the run that earlier runs try to
// hijack or spy on.
const secret = "sk-SECRET-4711"

func pyRun(tb testing.TB, m *contexts.Manager, id, code string) *wasmexec.Result {
	tb.Helper()
	return MustRun(tb, m, id, wasmexec.Request{Language: wasmexec.Python, Code: code})
}

// The control channel and the driver are out of reach of user code:
// _wasmexec (recv/send) can't be imported, the driver isn't a module user
// code can find or import, and its frames end the stack user code sees.
func TestPythonDriverUnreachable(t *testing.T) {
	testenv.ImageDir(t, pythonImage)
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "u", Language: wasmexec.Python})
	wantValue(t, pyRun(t, m, "u", `
import sys, traceback
me = sys._getframe().f_code.co_filename
found = []
for name in ("_wasmexec", "wasmexec_driver"):
    if name in sys.modules:
        found.append(name + " in sys.modules")
    try:
        __import__(name)
        found.append(name + " imported")
    except ImportError:
        pass
try:
    sys._getframe(1)
    found.append("sys._getframe(1) at top level")
except ValueError:
    pass
def files():
    out, f = [], sys._getframe()
    while f is not None:
        out.append(f.f_code.co_filename)
        f = f.f_back
    return out
found += [f for f in files() if f != me]
found += [s.filename for s in traceback.extract_stack() if s.filename != me]
found`), `[]`)
	wantValue(t, pyRun(t, m, "u", "1+1"), "2")
}

// Each way a run could arm itself against the next one fails: the next run
// (with a secret in its inputs and stdin) runs its own code and gets its
// own answer, nothing an earlier run left behind sees the secret, and
// nothing reached the driver's frames, functions or globals.
func TestPythonHijackAttempts(t *testing.T) {
	testenv.ImageDir(t, pythonImage)
	m := MustManager(t, contexts.Config{}, 0)
	for _, tc := range []struct {
		name, arm string
	}{
		{"driver module and control channel", `
import sys
def evil(*a, **k):
    stash.append(repr(a))
    return b'{"status":"ok","hasValue":true,"value":"forged"}'
for name in ("wasmexec_driver", "_wasmexec"):
    mod = sys.modules.get(name)
    if mod is not None:
        stash.append("found " + name)
        for attr in dir(mod):
            setattr(mod, attr, evil)
`},
		{"frames, tracebacks and callouts", `
import sys
def evil(*a, **k):
    stash.append(repr(a))
    raise SystemExit(0)
def patch(g):
    if g is not globals():
        for k in list(g):
            if callable(g[k]) and k != "__builtins__":
                g[k] = evil
                stash.append("patched " + k)
def walk(f):
    while f is not None:
        patch(f.f_globals)
        f = f.f_back
walk(sys._getframe())
try:
    raise RuntimeError("x")
except RuntimeError as e:
    t = e.__traceback__
    while t is not None:
        walk(t.tb_frame)
        t = t.tb_next
class R:
    def __repr__(self):
        walk(sys._getframe())
        return "R"
R()
`},
		{"trace and profile hooks", `
import sys
def spy(frame, event, arg):
    stash.append((frame.f_code.co_filename, repr(frame.f_locals)[:2000], repr(arg)[:2000]))
    return spy
sys.settrace(spy)
sys.setprofile(spy)
`},
		{"audit hooks", `
import sys
sys.addaudithook(lambda event, args: stash.append((event, repr(args)[:2000])))
`},
		{"gc and subclasses", `
import gc, sys
for probe in (gc.get_objects, lambda: gc.get_referrers(sys.modules), lambda: gc.get_referents(sys.modules)):
    try:
        probe()
        stash.append("gc worked")
    except RuntimeError:
        pass
def classes(c, seen):
    for s in type.__subclasses__(c):
        if s not in seen:
            seen.add(s)
            classes(s, seen)
    return seen
for c in classes(object, set()):
    for k, v in vars(c).items():
        if hasattr(v, "__globals__") and c.__module__ == "wasmexec_driver":
            stash.append("driver function " + k)
            v.__globals__["_serve_one"] = lambda raw: stash.append(raw)
`},
		{"builtins, json and ast", `
import builtins, _json, json, _ast
def spy(name, orig):
    def f(*a, **k):
        stash.append((name,) + tuple(x for x in a if x.__class__ is str))
        return orig(*a, **k)
    return f
for name in ("isinstance", "issubclass", "compile", "eval", "exec", "repr", "str", "len", "id", "getattr", "__import__"):
    setattr(builtins, name, spy(name, getattr(builtins, name)))
_json.make_scanner = spy("make_scanner", _json.make_scanner)
json.loads = spy("loads", json.loads)
_ast.Expr.__init__ = spy("Expr", _ast.Expr.__init__)
_ast.Module.__init__ = spy("Module", _ast.Module.__init__)
`},
		{"standard streams", `
import sys
sys.stdout.write = lambda s: stash.append(s)
sys.stdin.read = lambda *a: stash.append("read")
try:
    sys.stdout.buffer.write = lambda b: stash.append(b)  # a C type: refused
except AttributeError:
    stash.append("refused")
`},
		{"error formatting", `
import traceback, linecache, sys
orig = traceback.TracebackException.__init__
def spy(self, *a, **k):
    stash.append(repr(getattr(sys.modules["__main__"], "inputs", None)))
    return orig(self, *a, **k)
traceback.TracebackException.__init__ = spy
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := "h-" + strings.NewReplacer(" ", "-", ",", "").Replace(tc.name)
			MustCreate(t, m, wasmexec.ContextSpec{ContextID: id, Language: wasmexec.Python})
			arm := pyRun(t, m, id, "stash = []\n"+tc.arm)
			if arm.Outcome != wasmexec.Succeeded {
				t.Fatalf("arming: %s %+v", arm.Outcome, arm.Error)
			}
			// The victim: its own code runs and gives its own answer.
			inputs, _ := json.Marshal(map[string]string{"apiKey": secret})
			res := MustRun(t, m, id, wasmexec.Request{Language: wasmexec.Python, Inputs: inputs, Stdin: secret + "\n",
				Code: "print('victim ran')\ninputs['apiKey'][-4:]"})
			wantValue(t, res, `"4711"`)
			if res.Stdout == nil || *res.Stdout != "victim ran\n" {
				t.Fatalf("victim stdout: %v", res.Stdout)
			}
			// A failing victim: its error is formatted after its inputs are gone.
			res = MustRun(t, m, id, wasmexec.Request{Language: wasmexec.Python, Inputs: inputs, Code: "x = inputs['apiKey']\n1/0"})
			if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Name != "ZeroDivisionError" {
				t.Fatalf("failing victim: %s %+v", res.Outcome, res.Error)
			}
			// What the earlier run's code saw.
			check := pyRun(t, m, id, strings.ReplaceAll(`
import sys
_r = getattr(sys.modules["builtins"], "repr")
seen = _r(stash)
["SECRET" in seen, "forged" in seen, "patched" in seen, "driver function" in seen, "gc worked" in seen,
 "found " in seen, sys.gettrace() is None and sys.getprofile() is None, "/wasmexec_driver" in seen]`,
				"SECRET", secret))
			wantValue(t, check, "[false,false,false,false,false,false,true,false]")
			wantValue(t, pyRun(t, m, id, "1+1"), "2")
		})
	}
}

// Deep recursion through C under a raised recursion limit is a
// stack_overflow the context survives: a RecursionError the driver reports
// (the guest lives on, state intact) where the interpreter's C-stack check
// sees it coming, and otherwise a guest that ran out of stack and is
// replaced (contextReset).
func TestPythonDeepRecursionThroughC(t *testing.T) {
	testenv.ImageDir(t, pythonImage)
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "r", Language: wasmexec.Python})
	pyRun(t, m, "r", "import sys\nsys.setrecursionlimit(10**6)\nkept = 41")
	for _, code := range []string{
		"class A:\n    def __getattr__(self, name):\n        return getattr(self, name + 'x')\nA().foo",
		"x = []\nfor i in range(100000):\n    x = [x]\nrepr(x)",
		"def f(n):\n    return sorted([n], key=lambda v: f(v + 1))\nf(0)",
	} {
		res := pyRun(t, m, "r", code)
		if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeStackOverflow || res.ContextReset {
			t.Fatalf("%q: %s %+v contextReset=%v", code, res.Outcome, res.Error, res.ContextReset)
		}
		wantValue(t, pyRun(t, m, "r", "kept + 1"), "42")
	}
	// Pure-Python recursion isn't limited by the C stack.
	wantValue(t, pyRun(t, m, "r", "def g(n):\n    return n if n == 0 else g(n - 1)\ng(20000)"), "0")

	// Recursion the interpreter doesn't count against the C stack: the
	// compiler's own (the C stack in linear memory runs out), and C code
	// whose frames are mostly on wasmtime's native stack (the JSON encoder
	// on deeply nested data).
	for _, code := range []string{
		"compile('1' + '+1' * 200000, 'deep', 'eval')",
		"import json\nx = []\nfor i in range(50000):\n    x = [x]\njson.dumps(x)",
	} {
		pyRun(t, m, "r", "import sys\nsys.setrecursionlimit(10**6)")
		res := pyRun(t, m, "r", code)
		if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeStackOverflow || !res.ContextReset {
			t.Fatalf("%q: %s %+v contextReset=%v", code, res.Outcome, res.Error, res.ContextReset)
		}
		wantValue(t, pyRun(t, m, "r", "1+1"), "2")
	}
	if d := mustGet(t, m, "r"); d.State != wasmexec.ContextIdle || d.Resets != 2 {
		t.Fatalf("descriptor: %+v", d)
	}
}
