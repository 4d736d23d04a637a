package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/pipeline"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/vfs"
)

func MustRunner(tb testing.TB, poolSize int) *pipeline.Pipeline {
	tb.Helper()
	return testenv.Runner(tb, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
		PoolSize:  poolSize,
	})
}

func MustRun(tb testing.TB, r *pipeline.Pipeline, req wasmexec.Request) *wasmexec.Result {
	tb.Helper()
	if req.Kind == "" {
		req.Kind = wasmexec.KindEvaluate
	}
	if req.Language == "" {
		req.Language = wasmexec.JavaScript
	}
	res, err := r.Run(context.Background(), &req, wasmexec.RunOptions{})
	if err != nil {
		tb.Fatalf("run %q: %v", req.Code, err)
	}
	return res
}

func wantFailure(tb testing.TB, res *wasmexec.Result, outcome wasmexec.Outcome, code string) {
	tb.Helper()
	if res.Outcome != outcome {
		tb.Fatalf("outcome = %s, want %s (error %+v)", res.Outcome, outcome, res.Error)
	}
	if code != "" && (res.Error == nil || res.Error.Code != code) {
		tb.Fatalf("error = %+v, want code %s", res.Error, code)
	}
}

func TestEvaluateValue(t *testing.T) {
	r := MustRunner(t, 0)
	for _, tc := range []struct {
		name, code, want string
	}{
		{"arithmetic", "1+1", "2"},
		{"object", "({a: [1, 'x', null], b: true})", `{"a":[1,"x",null],"b":true}`},
		{"undefined members dropped", "({a: undefined, f() {}, b: 1})", `{"b":1}`},
		{"bigint marker", "2n ** 70n", `{"$type":"bigint","$repr":"1180591620717411303424n"}`},
		{"nan marker", "0/0", `{"$type":"number","$repr":"NaN"}`},
		{"function marker", "function add(a, b) { return a + b }; add", `{"$type":"function","$repr":"[Function: add]"}`},
		{"cycle marker", "const o = {n: 1}; o.self = o; o", `{"n":1,"self":{"$type":"circular","$repr":"[Circular]"}}`},
		{"date as ISO string", "new Date(0)", `"1970-01-01T00:00:00.000Z"`},
		{"map entries", "new Map([['k', 1]])", `{"$type":"Map","entries":[["k",1]]}`},
		{"top-level await", "const v = await new Promise(r => setTimeout(() => r(41), 20)); v + 1", "42"},
		{"promise completion awaited", "Promise.resolve(7)", "7"},
		{"timers run to completion", "let n = 0, m = 0; const done = new Promise(r => { const t = setInterval(() => { if (++n === 3) { clearInterval(t); setTimeout(() => r([n, m]), 5) } }, 5) }); queueMicrotask(() => m = 100); await done", `[3,100]`},
		{"inputs read-only", "'use strict'; let e = ''; try { inputs.a = 2 } catch (x) { e = x.name } [inputs.a, e, Object.isFrozen(inputs)]", `[1,"TypeError",true]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Code: tc.code, Inputs: json.RawMessage(`{"a":1}`)})
			if res.Outcome != wasmexec.Succeeded {
				t.Fatalf("outcome %s: %+v", res.Outcome, res.Error)
			}
			if string(res.Value) != tc.want {
				t.Fatalf("value = %s, want %s", res.Value, tc.want)
			}
		})
	}
	t.Run("undefined has no value", func(t *testing.T) {
		res := MustRun(t, r, wasmexec.Request{Code: "let x = 1"})
		if res.Outcome != wasmexec.Succeeded || res.Value != nil {
			t.Fatalf("got %s %s", res.Outcome, res.Value)
		}
	})
}

func TestConsoleAndExecute(t *testing.T) {
	r := MustRunner(t, 0)
	res := MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: "console.log('out', 1, {a: 2}); console.error('err'); console.warn('w'); console.info(process.argv.slice(2).join(','))", Args: []string{"x", "y"}})
	if res.Outcome != wasmexec.Succeeded || *res.Stdout != "out 1 {\"a\":2}\nx,y\n" || *res.Stderr != "err\nw\n" {
		t.Fatalf("got %s stdout %q stderr %q", res.Outcome, *res.Stdout, *res.Stderr)
	}
	if res.Value != nil {
		t.Fatalf("execute returned a value: %s", res.Value)
	}
	res = MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: "console.log('bye'); process.exit(3); console.log('never')"})
	if res.Outcome != wasmexec.Failed || res.ExitCode != 3 || res.Error.Code != wasmexec.CodeExit || *res.Stdout != "bye\n" {
		t.Fatalf("exit: got %s %d %+v %q", res.Outcome, res.ExitCode, res.Error, *res.Stdout)
	}
	res = MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: "throw new Error('x')"})
	if res.Outcome != wasmexec.Failed || res.ExitCode != 1 {
		t.Fatalf("uncaught exception in execute: %s exit %d", res.Outcome, res.ExitCode)
	}
	res = MustRun(t, r, wasmexec.Request{Code: "console.log('quiet'); console.error('loud'); 1", Output: wasmexec.OutputOptions{Capture: wasmexec.CaptureStderr}})
	if res.Stdout != nil || res.Stderr == nil || *res.Stderr != "loud\n" {
		t.Fatalf("capture=stderr: stdout %v stderr %v", res.Stdout, res.Stderr)
	}
}

// A runaway loop is stopped by fuel: failed/cpu_limit.
func TestGuardFuel(t *testing.T) {
	r := MustRunner(t, 0)
	res := MustRun(t, r, wasmexec.Request{Code: "while (true) {}", Limits: wasmexec.Limits{Fuel: 500_000_000}})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeCPULimit)
	if res.FuelConsumed < 500_000_000 {
		t.Fatalf("fuelConsumed %d below the budget", res.FuelConsumed)
	}
}

// A guest that keeps sleeping is stopped by the wall-clock deadline.
func TestGuardDeadline(t *testing.T) {
	r := MustRunner(t, 0)
	t.Run("sleep loop", func(t *testing.T) {
		res := MustRun(t, r, wasmexec.Request{Code: "const s = ms => new Promise(r => setTimeout(r, ms)); while (true) await s(20)", TimeoutMs: 300})
		wantFailure(t, res, wasmexec.TimedOut, "")
	})
	t.Run("one long sleep", func(t *testing.T) {
		start := time.Now()
		res := MustRun(t, r, wasmexec.Request{Code: "setTimeout(() => {}, 3600e3)", TimeoutMs: 300})
		wantFailure(t, res, wasmexec.TimedOut, "")
		if time.Since(start) > 20*time.Second {
			t.Fatalf("an hour-long sleep was not interrupted")
		}
	})
	t.Run("busy loop with plenty of fuel", func(t *testing.T) {
		res := MustRun(t, r, wasmexec.Request{Code: "while (true) {}", TimeoutMs: 300})
		wantFailure(t, res, wasmexec.TimedOut, "")
	})
}

// A context cancel (client gone) ends the run as cancelled.
func TestGuardCancel(t *testing.T) {
	r := MustRunner(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	res, err := r.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: "while (true) {}"}, wasmexec.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantFailure(t, res, wasmexec.Cancelled, "")
}

// A memory bomb hits the limiter: failed/memory_limit; the host is fine and
// the next run works.
func TestGuardMemory(t *testing.T) {
	r := MustRunner(t, 0)
	res := MustRun(t, r, wasmexec.Request{Code: "const a = []; while (true) a.push(new Array(1e6).fill(1.5))", Limits: wasmexec.Limits{MemoryBytes: 64 << 20}})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeMemoryLimit)
	res = MustRun(t, r, wasmexec.Request{Code: "new Array(1e9).fill(0).length", Limits: wasmexec.Limits{MemoryBytes: 64 << 20}})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeMemoryLimit)
	res = MustRun(t, r, wasmexec.Request{Code: "1+1"})
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != "2" {
		t.Fatalf("run after memory bomb: %s %s", res.Outcome, res.Value)
	}
}

// A program whose live heap fits well within the limit runs to the end:
// the guest's collector stops the world to mark, so the heap stays at the
// soft limit instead of outgrowing it while a concurrent cycle drags on
// (this Map of 200,000 objects ended in memory_limit at 256 MiB then).
func TestGuardHeapWithinTheLimitFits(t *testing.T) {
	r := MustRunner(t, 0)
	res := MustRun(t, r, wasmexec.Request{Code: `const m = new Map(); for (let i = 0; i < 200000; i++) m.set("k" + i, {v: i}); let s = 0; for (const [k, v] of m) s += v.v; s`})
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != "19999900000" {
		t.Fatalf("%s %s %+v", res.Outcome, res.Value, res.Error)
	}
}

// An output flood is capped: failed/output_limit with the captured prefix
// and stdoutTruncated.
func TestGuardOutputFlood(t *testing.T) {
	r := MustRunner(t, 0)
	const limit = 64 << 10
	res := MustRun(t, r, wasmexec.Request{Code: "while (true) console.log('x'.repeat(1000))", Limits: wasmexec.Limits{OutputBytes: limit}})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeOutputLimit)
	if !res.StdoutTruncated || len(*res.Stdout) != limit {
		t.Fatalf("stdoutTruncated=%v len=%d, want true %d", res.StdoutTruncated, len(*res.Stdout), limit)
	}
}

// Runaway recursion is a catchable-by-the-host stack_overflow, not a crash.
func TestGuardRecursion(t *testing.T) {
	r := MustRunner(t, 0)
	res := MustRun(t, r, wasmexec.Request{Code: "function f(n) { return f(n + 1) + 1 } f(0)"})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeStackOverflow)
	if strings.Count(res.Error.Stack, "\n") > 40 {
		t.Fatalf("stack not capped: %d lines", strings.Count(res.Error.Stack, "\n"))
	}
}

func TestException(t *testing.T) {
	r := MustRunner(t, 0)
	res := MustRun(t, r, wasmexec.Request{Code: "function thrower() {\n  throw new RangeError('bad range')\n}\nthrower()"})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeException)
	if res.Error.Name != "RangeError" || res.Error.Message != "bad range" || !strings.Contains(res.Error.Stack, "main.js:2:") {
		t.Fatalf("error = %+v", res.Error)
	}
	res = MustRun(t, r, wasmexec.Request{Code: "throw 'plain string'"})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeException)
	if res.Error.Message != "plain string" {
		t.Fatalf("thrown string: %+v", res.Error)
	}
	res = MustRun(t, r, wasmexec.Request{Code: "let = ;"})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeSyntaxError)
	res = MustRun(t, r, wasmexec.Request{Code: "await Promise.reject(new TypeError('nope'))"})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeException)
	if res.Error.Name != "TypeError" {
		t.Fatalf("rejected await: %+v", res.Error)
	}
}

func TestStdin(t *testing.T) {
	r := MustRunner(t, 0)
	res := MustRun(t, r, wasmexec.Request{Code: "const a = stdin.readLine(); const b = stdin.readLine(); [a, b, stdin.read(), stdin.readLine()]", Stdin: "first\nsecond\nrest of it"})
	if want := `["first","second","rest of it",null]`; string(res.Value) != want {
		t.Fatalf("value = %s, want %s", res.Value, want)
	}
}

// The host's environment never reaches a guest; the request's env does.
func TestEnvIsolation(t *testing.T) {
	t.Setenv("WASMEXEC_TEST_SECRET", "host-secret")
	r := MustRunner(t, 0)
	res := MustRun(t, r, wasmexec.Request{Code: "JSON.stringify(process.env)", Env: map[string]string{"GREETING": "hi"}})
	var env map[string]string
	if err := json.Unmarshal([]byte(mustString(t, res.Value)), &env); err != nil {
		t.Fatal(err)
	}
	if _, leaked := env["WASMEXEC_TEST_SECRET"]; leaked {
		t.Fatalf("host env leaked: %v", env)
	}
	if env["GREETING"] != "hi" || env["HOME"] != "/workspace" {
		t.Fatalf("env = %v", env)
	}
	// The image's GODEBUG is the guest runtime's setting, not the program's.
	if _, leaked := env["GODEBUG"]; leaked {
		t.Fatalf("the guest runtime's GODEBUG reached the program: %v", env)
	}
	if len(env) > 8 {
		t.Fatalf("unexpected env entries: %v", env)
	}
}

// No host file is readable: only the run's own workspace is mounted.
func TestFileSystemIsolation(t *testing.T) {
	r := MustRunner(t, 0)
	for _, p := range []string{"/etc/passwd", "../../../../etc/passwd", "/proc/self/environ", "/", "/workspace/../etc/hostname", testenv.RepoRoot() + "/go.mod"} {
		res := MustRun(t, r, wasmexec.Request{Code: "fs.readFileSync(" + jsString(p) + ", 'utf8')"})
		if res.Outcome != wasmexec.Failed || res.Error.Code != wasmexec.CodeException {
			t.Errorf("read %s: %s %s", p, res.Outcome, res.Value)
		}
	}
	res := MustRun(t, r, wasmexec.Request{Code: "fs.readFileSync('data/in.txt', 'utf8') + fs.readdirSync('/workspace').join(',')", Files: map[string]string{"data/in.txt": "seeded "}})
	if string(res.Value) != `"seeded data"` {
		t.Fatalf("workspace file: %s %+v", res.Value, res.Error)
	}
	// Each one-shot run gets a fresh workspace.
	MustRun(t, r, wasmexec.Request{Code: "fs.writeFileSync('left.txt', 'x')"})
	res = MustRun(t, r, wasmexec.Request{Code: "fs.existsSync('left.txt')"})
	if string(res.Value) != "false" {
		t.Fatalf("a file from an earlier run is visible")
	}
}

// Pre-started guests are used once each; many concurrent runs stay isolated.
func TestPoolIsolationAndConcurrency(t *testing.T) {
	r := MustRunner(t, 2)
	var wg sync.WaitGroup
	errs := make(chan string, 32)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := MustRun(t, r, wasmexec.Request{Code: "globalThis.seen = (globalThis.seen || 0) + 1; seen + inputs.i", Inputs: json.RawMessage(`{"i":` + itoa(i) + `}`)})
			if string(res.Value) != itoa(i+1) {
				errs <- "run " + itoa(i) + " got " + string(res.Value)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestLimitsValidation(t *testing.T) {
	r := MustRunner(t, 0)
	for _, tc := range []struct {
		name string
		req  wasmexec.Request
	}{
		{"memory above max", wasmexec.Request{Limits: wasmexec.Limits{MemoryBytes: 1 << 40}}},
		{"memory below guest minimum", wasmexec.Request{Limits: wasmexec.Limits{MemoryBytes: 1 << 20}}},
		{"fuel above max", wasmexec.Request{Limits: wasmexec.Limits{Fuel: 1 << 62}}},
		{"timeout above max", wasmexec.Request{TimeoutMs: 10 * 60 * 1000}},
		{"bad env name", wasmexec.Request{Env: map[string]string{"A=B": "x"}}},
		{"unknown language", wasmexec.Request{Language: "cobol"}},
		{"inputs not an object", wasmexec.Request{Inputs: json.RawMessage(`[1]`)}},
		{"bad capture", wasmexec.Request{Output: wasmexec.OutputOptions{Capture: "some"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.Kind, req.Code = wasmexec.KindEvaluate, "1"
			if req.Language == "" {
				req.Language = wasmexec.JavaScript
			}
			_, err := r.Run(context.Background(), &req, wasmexec.RunOptions{})
			if wasmexec.ErrorCode(err) != wasmexec.EInvalid {
				t.Fatalf("err = %v, want invalid_argument", err)
			}
		})
	}
}

func mustString(tb testing.TB, raw json.RawMessage) string {
	tb.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		tb.Fatalf("value %s is not a string", raw)
	}
	return s
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// Guests start from a snapshot of an initialized runtime; each must still
// get its own random seed and its own environment.
func TestSnapshotGuestsAreIndependent(t *testing.T) {
	r := MustRunner(t, 0)
	seen := map[string]bool{}
	for i := 0; i < 5; i++ {
		res := MustRun(t, r, wasmexec.Request{Code: "[Math.random(), process.env.N]", Env: map[string]string{"N": itoa(i)}})
		var v []any
		if err := json.Unmarshal(res.Value, &v); err != nil || len(v) != 2 {
			t.Fatalf("value %s: %v", res.Value, err)
		}
		if v[1] != itoa(i) {
			t.Fatalf("run %d sees env N=%v", i, v[1])
		}
		seen[itoa(int(v[0].(float64)*1e9))] = true
	}
	if len(seen) != 5 {
		t.Fatalf("Math.random repeats across guests: %v", seen)
	}
}

func TestFormatAndCwd(t *testing.T) {
	r := MustRunner(t, 0)
	res := MustRun(t, r, wasmexec.Request{Code: "const helper = 2; exports.a = 1; module.exports.b = helper * 21; module.exports", Format: "commonjs"})
	if string(res.Value) != `{"a":1,"b":42}` {
		t.Fatalf("commonjs: %s %+v", res.Value, res.Error)
	}
	res = MustRun(t, r, wasmexec.Request{Code: "require('left-pad')", Format: "commonjs"})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeException)
	res = MustRun(t, r, wasmexec.Request{Code: "[__dirname, fs.readFileSync('b.txt', 'utf8')]", Cwd: "sub", Files: map[string]string{"sub/b.txt": "in sub"}})
	if string(res.Value) != `["/workspace/sub","in sub"]` {
		t.Fatalf("cwd: %s %+v", res.Value, res.Error)
	}
	for _, cwd := range []string{"/etc", "../x", "/workspace/../etc"} {
		if _, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: "1", Cwd: cwd}, wasmexec.RunOptions{}); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
			t.Errorf("cwd %q: %v", cwd, err)
		}
	}
}

// A one-shot run that fills its workspace past the quota is stopped while
// it runs: failed/quota_exceeded.
func TestGuardWorkspaceQuota(t *testing.T) {
	img := testenv.Image(t, js.ImageName)
	ws, err := vfs.NewManager(testenv.ScratchDir(t), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:     map[string]*engine.Image{js.ImageName: img},
		Languages:  map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
		Workspaces: ws,
	})
	res := MustRun(t, r, wasmexec.Request{Code: "const chunk = 'x'.repeat(64 << 10); for (let i = 0; ; i++) fs.writeFileSync('f' + i, chunk)", TimeoutMs: 20000})
	wantFailure(t, res, wasmexec.Failed, wasmexec.CodeQuotaExceeded)
	res = MustRun(t, r, wasmexec.Request{Code: "fs.writeFileSync('small', 'ok'); fs.readFileSync('small', 'utf8')"})
	if string(res.Value) != `"ok"` {
		t.Fatalf("a run within the quota: %s %+v", res.Value, res.Error)
	}
}
