package python_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/pipeline"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/python"
)

func MustRunner(tb testing.TB) *pipeline.Pipeline {
	tb.Helper()
	return testenv.Runner(tb, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{python.ImageName: testenv.Image(tb, python.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.Python: python.Driver{}},
	})
}

func MustRun(tb testing.TB, r *pipeline.Pipeline, req wasmexec.Request) *wasmexec.Result {
	tb.Helper()
	if req.Kind == "" {
		req.Kind = wasmexec.KindEvaluate
	}
	req.Language = wasmexec.Python
	res, err := r.Run(context.Background(), &req, wasmexec.RunOptions{})
	if err != nil {
		tb.Fatalf("run %q: %v", req.Code, err)
	}
	return res
}

func wantOutcome(tb testing.TB, res *wasmexec.Result, outcome wasmexec.Outcome, code string) {
	tb.Helper()
	if res.Outcome != outcome || (code != "" && (res.Error == nil || res.Error.Code != code)) {
		tb.Fatalf("got %s %+v, want %s %s", res.Outcome, res.Error, outcome, code)
	}
}

// Evaluate has notebook-cell semantics.
func TestREPLValues(t *testing.T) {
	r := MustRunner(t)
	for _, tc := range []struct{ code, value, stdout string }{
		{"1+1", "2", ""},
		{"x = 1", "", ""},
		{"print(3)", "", "3\n"},
		{`[1, {"a": None}]`, `[1,{"a":null}]`, ""},
		{"import math\nr = 2\nmath.floor(math.pi * r * r)", "12", ""},
		{"(1, 'two', 3.5, True)", `[1,"two",3.5,true]`, ""},
	} {
		res := MustRun(t, r, wasmexec.Request{Code: tc.code})
		wantOutcome(t, res, wasmexec.Succeeded, "")
		got := string(res.Value)
		if got == "null" {
			got = ""
		}
		if got != tc.value || *res.Stdout != tc.stdout {
			t.Errorf("%q: value %s stdout %q, want %s %q", tc.code, res.Value, *res.Stdout, tc.value, tc.stdout)
		}
	}
	res := MustRun(t, r, wasmexec.Request{Code: "object()"})
	var marker map[string]string
	if json.Unmarshal(res.Value, &marker) != nil || marker["$type"] != "object" || !strings.HasPrefix(marker["$repr"], "<object object") {
		t.Errorf("non-JSON value fallback: %s", res.Value)
	}
}

// The stdlib smoke list runs in the guest.
func TestStdlibSmoke(t *testing.T) {
	r := MustRunner(t)
	code := `
import json, re, math, datetime, collections, decimal, hashlib, random, statistics, zlib, sqlite3, csv, dataclasses, asyncio, io
ok = []
ok.append(json.loads(json.dumps({"a": [1]}))["a"][0] == 1 and "json")
ok.append(re.sub(r"\d+", "#", "a1b22") == "a#b#" and "re")
ok.append(math.isclose(math.sqrt(2) ** 2, 2) and "math")
ok.append(datetime.date(2024, 2, 28) + datetime.timedelta(days=1) == datetime.date(2024, 2, 29) and "datetime")
ok.append(collections.Counter("aab")["a"] == 2 and "collections")
ok.append(str(decimal.Decimal("0.1") + decimal.Decimal("0.2")) == "0.3" and "decimal")
ok.append(hashlib.sha256(b"x").hexdigest().startswith("2d711642") and "hashlib")
ok.append(0 <= random.random() < 1 and "random")
ok.append(statistics.median([3, 1, 2]) == 2 and "statistics")
ok.append(zlib.decompress(zlib.compress(b"z" * 100)) == b"z" * 100 and "zlib")
db = sqlite3.connect(":memory:"); db.execute("create table t (x)"); db.execute("insert into t values (41)")
ok.append(db.execute("select x + 1 from t").fetchone()[0] == 42 and "sqlite3")
ok.append(list(csv.reader(io.StringIO("a,b\n1,2")))[1] == ["1", "2"] and "csv")
@dataclasses.dataclass
class P:
    x: int
ok.append(dataclasses.asdict(P(1)) == {"x": 1} and "dataclasses")
async def main():
    await asyncio.sleep(0.01)
    return "asyncio"
ok.append(asyncio.run(main()))
ok`
	res := MustRun(t, r, wasmexec.Request{Code: code})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	want := `["json","re","math","datetime","collections","decimal","hashlib","random","statistics","zlib","sqlite3","csv","dataclasses","asyncio"]`
	if string(res.Value) != want {
		t.Fatalf("smoke list: %s", res.Value)
	}
}

// Each guard of the engine holds for Python code too.
func TestGuards(t *testing.T) {
	r := MustRunner(t)
	t.Run("fuel", func(t *testing.T) {
		wantOutcome(t, MustRun(t, r, wasmexec.Request{Code: "while True:\n    pass", Limits: wasmexec.Limits{Fuel: 1_000_000_000}}), wasmexec.Failed, wasmexec.CodeCPULimit)
	})
	t.Run("deadline", func(t *testing.T) {
		wantOutcome(t, MustRun(t, r, wasmexec.Request{Code: "import time\nwhile True:\n    time.sleep(0.05)", TimeoutMs: 500}), wasmexec.TimedOut, "")
		wantOutcome(t, MustRun(t, r, wasmexec.Request{Code: "import time\ntime.sleep(3600)", TimeoutMs: 300}), wasmexec.TimedOut, "")
	})
	t.Run("memory bomb", func(t *testing.T) {
		wantOutcome(t, MustRun(t, r, wasmexec.Request{Code: "a = []\nwhile True:\n    a.append(bytearray(1 << 20))", Limits: wasmexec.Limits{MemoryBytes: 64 << 20}}), wasmexec.Failed, wasmexec.CodeMemoryLimit)
		res := MustRun(t, r, wasmexec.Request{Code: "1+1"})
		if string(res.Value) != "2" {
			t.Fatalf("after the bomb: %s %+v", res.Outcome, res.Error)
		}
	})
	t.Run("output flood", func(t *testing.T) {
		res := MustRun(t, r, wasmexec.Request{Code: "while True:\n    print('x' * 1000)", Limits: wasmexec.Limits{OutputBytes: 64 << 10}})
		wantOutcome(t, res, wasmexec.Failed, wasmexec.CodeOutputLimit)
		if !res.StdoutTruncated || len(*res.Stdout) != 64<<10 {
			t.Fatalf("truncated=%v len=%d", res.StdoutTruncated, len(*res.Stdout))
		}
	})
	t.Run("deep recursion", func(t *testing.T) {
		wantOutcome(t, MustRun(t, r, wasmexec.Request{Code: "def f(n):\n    return f(n + 1)\nf(0)"}), wasmexec.Failed, wasmexec.CodeStackOverflow)
	})
	t.Run("host file read", func(t *testing.T) {
		for _, p := range []string{"/etc/passwd", "../../../etc/passwd", "/proc/self/environ", testenv.RepoRoot() + "/go.mod"} {
			res := MustRun(t, r, wasmexec.Request{Code: "open(" + strconvQuote(p) + ").read()"})
			wantOutcome(t, res, wasmexec.Failed, wasmexec.CodeException)
		}
	})
	t.Run("host env", func(t *testing.T) {
		t.Setenv("WASMEXEC_TEST_SECRET", "host-secret")
		res := MustRun(t, r, wasmexec.Request{Code: "import os\ndict(os.environ)", Env: map[string]string{"GREETING": "hi"}})
		if strings.Contains(string(res.Value), "host-secret") || !strings.Contains(string(res.Value), `"GREETING":"hi"`) {
			t.Fatalf("environ: %s", res.Value)
		}
	})
}

func TestExceptionsStdinExitArgs(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: "def f():\n    raise ValueError('bad value')\n\nf()"})
	wantOutcome(t, res, wasmexec.Failed, wasmexec.CodeException)
	if res.Error.Name != "ValueError" || res.Error.Message != "bad value" || !strings.Contains(res.Error.Stack, "line 2") || strings.Contains(res.Error.Stack, "wasmexec_driver") {
		t.Fatalf("exception: %+v", res.Error)
	}
	wantOutcome(t, MustRun(t, r, wasmexec.Request{Code: "def ("}), wasmexec.Failed, wasmexec.CodeSyntaxError)
	res = MustRun(t, r, wasmexec.Request{Code: "a = input()\nb = input()\n[a, b]", Stdin: "one\ntwo\n"})
	if string(res.Value) != `["one","two"]` {
		t.Fatalf("stdin: %s %+v", res.Value, res.Error)
	}
	res = MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: "import sys\nprint(sys.argv[1:])\nsys.exit(3)", Args: []string{"a", "b"}})
	if res.ExitCode != 3 || res.Outcome != wasmexec.Failed || *res.Stdout != "['a', 'b']\n" {
		t.Fatalf("exit: %d %s %q", res.ExitCode, res.Outcome, *res.Stdout)
	}
	res = MustRun(t, r, wasmexec.Request{Code: "inputs['n'] * 2", Inputs: json.RawMessage(`{"n": 21}`)})
	if string(res.Value) != "42" {
		t.Fatalf("inputs: %s %+v", res.Value, res.Error)
	}
	wantOutcome(t, MustRun(t, r, wasmexec.Request{Code: "inputs['n'] = 1", Inputs: json.RawMessage(`{"n": 21}`)}), wasmexec.Failed, wasmexec.CodeException)
}

// The stdlib is read-only to the guest: writes fail and nothing persists.
func TestStdlibReadOnly(t *testing.T) {
	r := MustRunner(t)
	zip := filepath.Join(testenv.ImageDir(t, python.ImageName), "lib", "python311.zip")
	before := fileSum(t, zip)
	for _, code := range []string{
		"open('/usr/local/lib/python311.zip', 'ab').write(b'x')",
		"open('/usr/local/lib/python311.zip', 'w')",
		"import os\nos.remove('/usr/local/lib/python311.zip')",
		"import os\nos.rename('/usr/local/lib/python311.zip', '/usr/local/lib/x.zip')",
		"open('/usr/local/lib/new.py', 'w').write('x')",
		"import os\nos.mkdir('/usr/local/lib/d')",
		"import os\nfd = os.open('/usr/local/lib/python311.zip', os.O_WRONLY)\nos.write(fd, b'x')",
		"import os\nos.truncate('/usr/local/lib/python311.zip', 0)",
	} {
		res := MustRun(t, r, wasmexec.Request{Code: code})
		if res.Outcome != wasmexec.Failed {
			t.Errorf("%q succeeded", code)
		}
	}
	if fileSum(t, zip) != before {
		t.Fatal("the stdlib zip changed")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(zip), "new.py")); err == nil {
		t.Fatal("a file was created in the stdlib dir")
	}
	res := MustRun(t, r, wasmexec.Request{Code: "import json\njson.dumps([1])"})
	if string(res.Value) != `"[1]"` {
		t.Fatalf("stdlib after the attempts: %s %+v", res.Value, res.Error)
	}
}

func fileSum(tb testing.TB, path string) [32]byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return sha256.Sum256(b)
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// The guest has no network: every way in says so in plain words, with the
// exception types library code catches (OSError, socket.gaierror, URLError),
// instead of "module '_socket' has no attribute 'getaddrinfo'".
func TestNoNetworkSaysSo(t *testing.T) {
	r := MustRunner(t)
	code := `
import asyncio, errno, http.client, socket, urllib.error, urllib.request
got = {}
def attempt(name, f, want):
    try:
        f()
        got[name] = "no error"
    except want as e:
        got[name] = str(e)
    except BaseException as e:
        got[name] = "wrong type " + type(e).__name__ + ": " + str(e)
attempt("getaddrinfo", lambda: socket.getaddrinfo("example.com", 80), socket.gaierror)
attempt("gethostbyname", lambda: socket.gethostbyname("example.com"), socket.gaierror)
attempt("create_connection", lambda: socket.create_connection(("example.com", 80)), OSError)
attempt("socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM), OSError)
attempt("socketpair", lambda: socket.socketpair(), OSError)
attempt("urlopen", lambda: urllib.request.urlopen("http://example.com/"), urllib.error.URLError)
attempt("http.client", lambda: http.client.HTTPConnection("example.com").request("GET", "/"), OSError)
async def conn(host):
    await asyncio.open_connection(host, 80)
attempt("asyncio name", lambda: asyncio.run(conn("example.com")), OSError)
attempt("asyncio address", lambda: asyncio.run(conn("127.0.0.1")), OSError)
got["gethostname"] = socket.gethostname()
got`
	res := MustRun(t, r, wasmexec.Request{Code: code})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	var got map[string]string
	if err := json.Unmarshal(res.Value, &got); err != nil || len(got) != 10 {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	for name, msg := range got {
		switch name {
		case "gethostname":
			if msg != "localhost" {
				t.Errorf("socket.gethostname() = %q", msg)
			}
			continue
		case "urlopen", "http.client":
			// HTTP(S) goes through the host (docs/NETWORK.md): without
			// network.allow the host says why.
			if !strings.Contains(msg, "network access is not enabled for this run (network.allow is empty)") {
				t.Errorf("%s: %q does not say the run has no network", name, msg)
			}
			continue
		}
		if !strings.Contains(msg, "no network in this sandbox: Python code here has no sockets and no DNS") {
			t.Errorf("%s: %q does not say there is no network", name, msg)
		}
	}
	for name, want := range map[string]string{
		"getaddrinfo": "can't resolve 'example.com' (socket.getaddrinfo)",
		"socket":      "can't create a socket (socket.socket)",
		"urlopen":     "<urlopen error ",
	} {
		if !strings.Contains(got[name], want) {
			t.Errorf("%s: %q lacks %q", name, got[name], want)
		}
	}

	// Uncaught, the run fails with that message and the exception's name.
	res = MustRun(t, r, wasmexec.Request{Code: "import urllib.request\nurllib.request.urlopen('https://example.com/')"})
	wantOutcome(t, res, wasmexec.Failed, wasmexec.CodeException)
	if res.Error.Name != "URLError" || !strings.Contains(res.Error.Message, "network access is not enabled for this run") {
		t.Fatalf("uncaught urlopen: %+v", res.Error)
	}
}
