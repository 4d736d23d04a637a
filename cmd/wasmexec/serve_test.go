package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// These tests run the real binary: build it once, start `serve` as a child
// process, talk HTTP, kill it, start it again.

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wasmexec-bin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "wasmexec")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := pgtest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

type proc struct {
	cmd  *exec.Cmd
	base string
	logs *lockedLog
}

func freeAddr(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// MustServe starts `wasmexec serve` and waits until it serves runs
// (/readyz is 200). The server is in a process group of its own (pgid =
// its pid), as a shell's job would be.
func MustServe(tb testing.TB, dataDir string, args ...string) *proc {
	tb.Helper()
	testenv.ImageDir(tb, "js")
	addr := freeAddr(tb)
	cmd := exec.Command(binary, append([]string{"serve", "--addr", addr, "--data-dir", dataDir, "--images-dir", testenv.ImagesDir(), "--cache-dir", testenv.CacheDir(), "--pool-size", "1", "--tscheck-warm-dom=false"}, args...)...)
	cmd.Env = os.Environ()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logs := &lockedLog{done: make(chan struct{})}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	ready := make(chan struct{})
	go func() {
		defer close(logs.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "wasmexec ready") {
				close(ready)
			}
		}
	}()
	p := &proc{cmd: cmd, base: "http://" + addr, logs: logs}
	tb.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	select {
	case <-ready:
	case <-time.After(3 * time.Minute):
		tb.Fatalf("server not ready; log:\n%s", logs.String())
	}
	return p
}

func (p *proc) do(tb testing.TB, method, path, body string) (int, map[string]any) {
	tb.Helper()
	req, _ := http.NewRequest(method, p.base+path, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	json.Unmarshal(b, &m)
	return resp.StatusCode, m
}

// The README's curl example works against a real server, and the history of
// completed executions survives kill -9 and a restart.
func TestServeHistorySurvivesKill9(t *testing.T) {
	data := t.TempDir()
	p := MustServe(t, data)
	status, res := p.do(t, "POST", "/v1/evaluate", `{"language":"javascript","code":"console.log(\"hi\"); 6 * 7"}`)
	if status != 200 || res["value"] != float64(42) || res["stdout"] != "hi\n" {
		t.Fatalf("evaluate: %d %v", status, res)
	}
	id := res["executionId"].(string)
	if status, got := p.do(t, "GET", "/v1/executions/"+id, ""); status != 200 || got["value"] != float64(42) {
		t.Fatalf("get before kill: %d %v", status, got)
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()

	p2 := MustServe(t, data)
	status, got := p2.do(t, "GET", "/v1/executions/"+id, "")
	if status != 200 || got["value"] != float64(42) || got["stdout"] != "hi\n" {
		t.Fatalf("get after kill -9 and restart: %d %v", status, got)
	}
	status, list := p2.do(t, "GET", "/v1/executions?language=javascript", "")
	if status != 200 || len(list["executions"].([]any)) != 1 {
		t.Fatalf("list: %d %v", status, list)
	}
	if status, e := p2.do(t, "GET", "/v1/executions/exe_nope", ""); status != 404 || e["code"] != "not_found" {
		t.Fatalf("unknown id: %d %v", status, e)
	}
	// SIGTERM stops the server cleanly.
	p2.cmd.Process.Signal(syscall.SIGTERM)
	if err := p2.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p2.logs.String())
	}
}

// Records expire by TTL, also across a restart.
func TestServeTTLExpiry(t *testing.T) {
	data := t.TempDir()
	p := MustServe(t, data, "--execution-completed-ttl-ms", "1500")
	_, res := p.do(t, "POST", "/v1/evaluate", `{"language":"javascript","code":"1"}`)
	id := res["executionId"].(string)
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
	time.Sleep(1600 * time.Millisecond)
	p2 := MustServe(t, data, "--execution-completed-ttl-ms", "1500")
	status, e := p2.do(t, "GET", "/v1/executions/"+id, "")
	if status != 404 || e["code"] != "execution_expired" {
		t.Fatalf("after ttl: %d %v", status, e)
	}
}

// Bad configuration refuses to start with a message naming the flag (and
// the variable it came from) and the accepted range.
func TestServeRefusesBadConfig(t *testing.T) {
	data := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		env  string
		want []string
	}{
		{"zero ttl", []string{"--execution-completed-ttl-ms", "0"}, "", []string{"--execution-completed-ttl-ms=0", "1 or more"}},
		{"negative cap", []string{"--execution-max-completed-executions", "-1"}, "", []string{"--execution-max-completed-executions=-1"}},
		{"bad env value", nil, "WASMEXEC_EXECUTION_LIVE_WARNING_THRESHOLD=lots", []string{"WASMEXEC_EXECUTION_LIVE_WARNING_THRESHOLD", "--execution-live-warning-threshold"}},
		{"corrupt database", []string{"--db", writeGarbage(t, data)}, "", []string{"database"}},
		{"no transpile workers", []string{"--ts-transpile-workers", "0"}, "", []string{"--ts-transpile-workers=0", "1 or more"}},
		{"zero transpile timeout", nil, "WASMEXEC_TRANSPILE_TIMEOUT_MS=0", []string{"--transpile-timeout-ms=0 (from WASMEXEC_TRANSPILE_TIMEOUT_MS)"}},
		{"negative timeout", []string{"--timeout-ms=-5"}, "", []string{"--timeout-ms=-5", "accepted 1..30000", "--max-timeout-ms"}},
		{"timeout from env", nil, "WASMEXEC_TIMEOUT_MS=-5", []string{"--timeout-ms=-5 (from WASMEXEC_TIMEOUT_MS)", "accepted 1..30000"}},
		{"timeout above max", []string{"--timeout-ms=60000"}, "", []string{"--timeout-ms=60000", "accepted 1..30000"}},
		{"unknown log level", []string{"--log-level=verbose"}, "", []string{"--log-level=verbose", "debug, info, warn or error"}},
		{"memory below the images' minimum", []string{"--memory-bytes=1"}, "", []string{"--memory-bytes=1", "accepted 33554432..268435456", "needs at least 33554432"}},
		{"memory above max", []string{"--memory-bytes=536870912"}, "", []string{"--memory-bytes=536870912", "at most --max-memory-bytes"}},
		{"max memory past wasm32", []string{"--max-memory-bytes=8589934592"}, "", []string{"--max-memory-bytes=8589934592", "4 GiB"}},
		{"zero fuel", []string{"--fuel=0"}, "", []string{"--fuel=0", "accepted 1.."}},
		{"zero queue", []string{"--max-queued=0"}, "", []string{"--max-queued=0", "1 or more"}},
		{"store sync", []string{"--store-sync=sometimes"}, "", []string{"--store-sync=sometimes", "normal or full"}},
		{"store kind", []string{"--store=mysql"}, "", []string{"--store=mysql", "sqlite, postgres or none"}},
		{"postgres without a url", []string{"--store", "postgres"}, "", []string{"--store=postgres", "needs --store-url", "WASMEXEC_STORE_URL"}},
		{"store url not postgres", []string{"--store", "postgres"}, "WASMEXEC_STORE_URL=mysql://u:hunter2@h/db", []string{"--store-url=mysql://u:xxxxx@h/db (from WASMEXEC_STORE_URL)", "postgres://"}},
		{"store url with sqlite", []string{"--store-url", "postgres://u:hunter2@h/db"}, "", []string{"--store-url=postgres://u:xxxxx@h/db", "--store postgres only"}},
		{"address", []string{"--addr=localhost"}, "", []string{"--addr=localhost", "HOST:PORT"}},
		{"checker memory", []string{"--tscheck-memory-bytes=1"}, "", []string{"--tscheck-memory-bytes=1", "0 (no cap)"}},
		{"process timeout", []string{"--process-timeout-ms=7200000"}, "", []string{"--process-timeout-ms=7200000", "--process-max-timeout-ms"}},
		{"shutdown grace", []string{"--shutdown-grace-ms=-1"}, "", []string{"--shutdown-grace-ms=-1", "accepted 0.."}},
		{"no images", []string{"--images-dir", data}, "", []string{"--images-dir=" + data, "no guest images", "make guest-images"}},
		{"not a number", []string{"--timeout-ms=soon"}, "", []string{`invalid value "soon" for flag -timeout-ms`}},
		{"network pattern", nil, "WASMEXEC_NETWORK_ALLOW=api.example.com,ftp://x", []string{"--network-allow=api.example.com,ftp://x (from WASMEXEC_NETWORK_ALLOW)", `"ftp://x"`, "http or https"}},
		{"network requests", []string{"--network-max-requests=0"}, "", []string{"--network-max-requests=0", "1 or more"}},
		{"stray argument", []string{"now"}, "", []string{`unexpected argument "now"`}},
		{"contexts memory too small for one", []string{"--contexts-memory-bytes=1048576"}, "", []string{"--contexts-memory-bytes=1048576", "too small for one live context", "accepted 134217728"}},
		{"contexts memory from env", nil, "WASMEXEC_CONTEXTS_MEMORY_BYTES=4096", []string{"--contexts-memory-bytes=4096 (from WASMEXEC_CONTEXTS_MEMORY_BYTES)", "too small"}},
		{"contexts disk", []string{"--contexts-max-disk-bytes=1000"}, "", []string{"--contexts-max-disk-bytes=1000", "accepted 1048576 or more"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			args := append([]string{"serve", "--addr", freeAddr(t), "--data-dir", data, "--images-dir", testenv.ImagesDir()}, tc.args...)
			cmd := exec.CommandContext(ctx, binary, args...)
			cmd.Env = os.Environ()
			if tc.env != "" {
				cmd.Env = append(cmd.Env, tc.env)
			}
			out, err := cmd.CombinedOutput()
			if ctx.Err() != nil {
				t.Fatalf("started with bad config; output:\n%s", out)
			}
			if err == nil {
				t.Fatalf("exit 0 with bad config; output:\n%s", out)
			}
			for _, want := range tc.want {
				if !strings.Contains(string(out), want) {
					t.Fatalf("message does not say %q:\n%s", want, out)
				}
			}
		})
	}
}

func writeGarbage(tb testing.TB, dir string) string {
	p := filepath.Join(dir, "corrupt.db")
	if err := os.WriteFile(p, []byte(strings.Repeat("this is not sqlite ", 500)), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// TypeScript end to end through the real binary: run (transpiled, positions
// mapped back to the .ts source) and check (official compiler in worker
// processes started as `wasmexec tscheck-worker`).
func TestServeTypeScript(t *testing.T) {
	testenv.BuiltDir(t, "typescript", "typescript.js")
	p := MustServe(t, t.TempDir())
	p.waitPart(t, "typescriptCheck")
	status, res := p.do(t, "POST", "/v1/evaluate", `{"language":"typescript","code":"interface P { x: number }\nconst p: P = { x: 41 }\np.x + 1"}`)
	if status != 200 || res["value"] != float64(42) {
		t.Fatalf("evaluate: %d %v", status, res)
	}
	_, res = p.do(t, "POST", "/v1/evaluate", `{"language":"typescript","code":"type T = { a: string }\n\nfunction f(t: T): never {\n  throw new Error('at line 4 of the TS')\n}\nf({ a: 'x' })"}`)
	if e, _ := res["error"].(map[string]any); res["outcome"] != "failed" || !strings.Contains(e["stack"].(string), "main.ts:4:") {
		t.Fatalf("exception stack not mapped to TS line 4: %v", res)
	}
	_, res = p.do(t, "POST", "/v1/evaluate", `{"language":"typescript","code":"const s = 1;\nconst t = \"😀\" +;"}`)
	e, _ := res["error"].(map[string]any)
	if res["outcome"] != "failed" || e["code"] != "syntax_error" {
		t.Fatalf("syntax error: %v", res)
	}
	if d, _ := e["details"].(map[string]any); d["line"] != float64(2) || d["column"] != float64(17) {
		t.Fatalf("syntax error position: %v", e)
	}

	// Valid TypeScript that a lexer-based guard once refused runs.
	for _, tc := range []struct {
		name, code string
		want       float64
	}{
		{"call with 2,100 arguments", "function count(...xs: number[]): number { return xs.length }\ncount(" + numbers(2100, "%d") + ")", 2100},
		{"let with 2,100 declarators", "let " + numbers(2100, "v%[1]d: number = %[1]d") + ";\nv0 + v2099", 2099},
		{"division at a line start", "const total: number = 12;\ntotal\n/ \"abc\".length / 2", 2},
		{"division by a parenthesized name at a line start", "const sum: number = 12, count: number = 3;\nsum\n/ (count) / 2", 2},
	} {
		body, _ := json.Marshal(map[string]string{"language": "typescript", "code": tc.code})
		if status, res := p.do(t, "POST", "/v1/evaluate", string(body)); status != 200 || res["value"] != tc.want {
			t.Errorf("%s: %d %v", tc.name, status, res)
		}
	}
	// Code that crashes esbuild costs only its own request: a transpile
	// worker overflows its stack (or overruns), the run fails with
	// transpile_failed, and the next request is served.
	deep, _ := json.Marshal(map[string]string{"language": "typescript", "code": strings.Repeat("(", 500_000) + "1" + strings.Repeat(")", 500_000)})
	_, res = p.do(t, "POST", "/v1/evaluate", string(deep))
	if e, _ := res["error"].(map[string]any); res["outcome"] != "failed" || e["code"] != "transpile_failed" {
		t.Fatalf("deeply nested code: %v", res)
	}
	if status, res := p.do(t, "POST", "/v1/evaluate", `{"language":"typescript","code":"const x: number = 1;\nx + 1"}`); status != 200 || res["value"] != float64(2) {
		t.Fatalf("after a transpile worker died: %d %v", status, res)
	}

	// TypeScript 7 by default; 5.9 when the request pins it (its workers
	// start on that first request).
	for _, tc := range []struct{ name, version, want string }{
		{"default", "", "7.0.2"},
		{"7", "7", "7.0.2"},
		{"5.9", "5.9", "5.9.3"},
	} {
		body, _ := json.Marshal(map[string]any{"code": "let x: number = \"a\";", "compilerOptions": map[string]any{"strict": true}, "typescriptVersion": tc.version})
		status, chk := p.do(t, "POST", "/v1/typescript/check", string(body))
		diags, _ := chk["diagnostics"].([]any)
		if status != 200 || chk["outcome"] != "succeeded" || chk["hasErrors"] != true || len(diags) != 1 || chk["typeScriptVersion"] != tc.want {
			t.Fatalf("%s: check: %d %v", tc.name, status, chk)
		}
		d := diags[0].(map[string]any)
		if d["code"] != float64(2322) || d["line"] != float64(1) || d["column"] != float64(5) || d["category"] != "error" {
			t.Fatalf("%s: diagnostic: %v", tc.name, d)
		}
		if status, got := p.do(t, "GET", "/v1/executions/"+chk["executionId"].(string), ""); status != 200 || got["kind"] != "typescript_check" {
			t.Fatalf("%s: check not recorded: %d %v", tc.name, status, got)
		}
	}
	status, info := p.do(t, "GET", "/v1/typescript", "")
	if vs, _ := info["versions"].([]any); status != 200 || info["default"] != "7" || len(vs) != 2 ||
		vs[0].(map[string]any)["ready"] != true || vs[1].(map[string]any)["ready"] != true {
		t.Fatalf("GET /v1/typescript: %d %v", status, info)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"neither code nor files", `{}`, ""},
		{"both code and files", `{"code":"1","files":{"/a.ts":"1"}}`, ""},
		{"unknown compiler option", `{"code":"1","compilerOptions":{"strictest":true}}`, "strictest"},
		{"bad target", `{"code":"1","compilerOptions":{"target":"es1999"}}`, "target"},
		{"removed option", `{"code":"1","compilerOptions":{"baseUrl":"."}}`, `Use '"paths"`},
		{"5.9: unknown compiler option", `{"code":"1","typescriptVersion":"5.9","compilerOptions":{"strictest":true}}`, "strictest"},
		{"unknown version", `{"code":"1","typescriptVersion":"4.2"}`, "typescriptVersion"},
		{"malformed", `{"code":`, ""},
	} {
		status, e := p.do(t, "POST", "/v1/typescript/check", tc.body)
		if msg, _ := e["message"].(string); status != 400 || e["code"] != "invalid_argument" || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %d %v", tc.name, status, e)
		}
	}
}

// numbers joins format applied to 0..n-1 with ", ".
func numbers(n int, format string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(format, i)
	}
	return strings.Join(parts, ", ")
}

// /metrics reports live work, pools and the store; Python runs through the
// real binary.
func TestServeMetricsAndPython(t *testing.T) {
	testenv.ImageDir(t, "python")
	p := MustServe(t, t.TempDir())
	status, res := p.do(t, "POST", "/v1/evaluate", `{"language":"python","code":"import json\njson.loads('[1, 2]')[1] * 21"}`)
	if status != 200 || res["value"] != float64(42) {
		t.Fatalf("python evaluate: %d %v", status, res)
	}
	resp, err := http.Get(p.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{"wasmexec_runs_live 0", "wasmexec_store_executions 1", `wasmexec_pool_hits_total{image="python"}`,
		"# HELP wasmexec_run_duration_seconds ", "# TYPE wasmexec_run_duration_seconds histogram",
		`wasmexec_run_duration_seconds_count{kind="evaluate",language="python",outcome="succeeded"} 1`,
		`wasmexec_queue_wait_seconds_count{kind="evaluate",language="python",outcome="succeeded"} 1`,
		"# TYPE wasmexec_store_write_seconds histogram", `wasmexec_guest_starts_total{image="python",snapshot="true",source=`,
		`wasmexec_http_requests_total{method="POST",route="/v1/evaluate",status="200"} 1`, "# TYPE wasmexec_contexts_live gauge"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics lack %q:\n%s", want, b)
		}
	}
}
