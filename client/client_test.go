package client_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/client"
	"github.com/wasmexec/wasmexec/client/clienttest"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// must(f())(t) is f's value, or fails t with f's error.
func must[T any](v T, err error) func(*testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// A context forks with its state and files; a hibernated one restores on
// its next run; a deleted file is gone.
func TestContextLifecycle(t *testing.T) {
	c, ctx := client.New(serverURL), testCtx(t)
	must(c.CreateContext(ctx, &wasmexec.ContextSpec{ContextID: "life", Language: wasmexec.Python}))(t)
	t.Cleanup(func() { c.DeleteContext(context.Background(), "life") })
	must(c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.Python, ContextID: "life", Code: "x = 41"}))(t)
	must(c.WriteFile(ctx, "life", "dir/a.txt", []byte("a")))(t)

	fork := must(c.ForkContext(ctx, "life", "life-fork"))(t)
	t.Cleanup(func() { c.DeleteContext(context.Background(), "life-fork") })
	if fork.ContextID != "life-fork" {
		t.Fatalf("fork: %+v", fork)
	}
	res := must(c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.Python, ContextID: "life-fork", Code: "x + 1"}))(t)
	if string(res.Value) != "42" {
		t.Fatalf("the fork's x + 1 = %s (%+v)", res.Value, res.Error)
	}
	if b := must(c.ReadFile(ctx, "life-fork", "dir/a.txt"))(t); string(b) != "a" {
		t.Fatalf("the fork's file: %q", b)
	}

	h := must(c.HibernateContext(ctx, "life"))(t)
	if !h.Hibernated {
		t.Fatalf("hibernate: %+v", h)
	}
	res = must(c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.Python, ContextID: "life", Code: "x"}))(t)
	if string(res.Value) != "41" {
		t.Fatalf("after hibernation x = %s", res.Value)
	}
	if d := must(c.Context(ctx, "life"))(t); d.Hibernated || d.RestoredAtMs == 0 {
		t.Fatalf("after a run on a hibernated context: %+v", d)
	}

	if err := c.DeleteFile(ctx, "life", "dir/a.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReadFile(ctx, "life", "dir/a.txt"); client.Code(err) != "not_found" {
		t.Fatalf("read a deleted file: %v", err)
	}
	if es := must(c.ListFiles(ctx, "life", "dir"))(t); len(es) != 0 {
		t.Fatalf("dir after the delete: %+v", es)
	}
}

// A process is listed while it runs, its output replays from the live
// log, and its record can be deleted once it exited.
func TestProcessListReplayDelete(t *testing.T) {
	c, ctx := client.New(serverURL), testCtx(t)
	p := must(c.Spawn(ctx, &wasmexec.SpawnRequest{Language: wasmexec.Python, Code: "import sys\nfor line in sys.stdin:\n    print(line.strip().upper(), flush=True)"}))(t)
	listed := false
	for _, q := range must(c.Processes(ctx))(t) {
		listed = listed || q.PID == p.PID
	}
	if !listed {
		t.Fatalf("process %d is not listed", p.PID)
	}
	if err := c.WriteStdin(ctx, p.PID, []byte("one\ntwo\n")); err != nil {
		t.Fatal(err)
	}
	var got string
	var after string
	poll.Until(t, 30*time.Second, "the process's output", func() bool {
		r := must(c.ProcessOutput(ctx, p.PID, client.ReplayOptions{After: after, MaxBytes: 4}))(t)
		for _, e := range r.Events {
			got += string(e.Chunk)
		}
		after = r.NextCursor
		return got == "ONE\nTWO\n"
	})
	if got != "ONE\nTWO\n" {
		t.Fatalf("live replay: %q", got)
	}
	if err := c.DeleteExecution(ctx, p.ExecutionID); client.Code(err) != "conflict" {
		t.Fatalf("delete a running process's record: %v", err)
	}
	must(c.CloseStdin(ctx, p.PID))(t)
	if w := must(c.Wait(ctx, p.PID, 30*time.Second))(t); w.State != wasmexec.ProcessExited {
		t.Fatalf("wait: %+v", w)
	}
	r := must(c.ExecutionOutput(ctx, p.ExecutionID, client.ReplayOptions{Limit: 1}))(t)
	if len(r.Events) != 1 || !r.HasMore {
		t.Fatalf("a page of one: %+v", r)
	}
	if err := c.DeleteExecution(ctx, p.ExecutionID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Execution(ctx, p.ExecutionID); client.Code(err) != "not_found" {
		t.Fatalf("a deleted record: %v", err)
	}
}

func TestCheckTypeScript(t *testing.T) {
	c, ctx := client.New(serverURL), testCtx(t)
	res := must(c.CheckTypeScript(ctx, &client.CheckRequest{
		Files:           map[string]string{"/a.ts": "export const n: number = 1", "/main.ts": "import { n } from './a'\nconst s: string = n\nfetch"},
		FilePath:        "/main.ts",
		CompilerOptions: map[string]any{"lib": []string{"es2022"}},
	}))(t)
	if res.Outcome != wasmexec.Succeeded || !res.HasErrors || len(res.Diagnostics) != 2 || res.ExecutionID == "" || res.TypeScriptVersion == "" {
		t.Fatalf("check: %+v", res)
	}
	if d := res.Diagnostics[0]; d.Code != 2322 || d.Line != 2 || d.FilePath != "/main.ts" {
		t.Fatalf("first diagnostic: %+v", d)
	}
	if _, err := c.CheckTypeScript(ctx, &client.CheckRequest{Code: "1", CompilerOptions: map[string]any{"baseUrl": "."}}); client.Code(err) != "invalid_argument" {
		t.Fatalf("a removed option: %v", err)
	}
	info := must(c.TypeScript(ctx))(t)
	if info.Default != "7" || len(info.Versions) == 0 {
		t.Fatalf("versions: %+v", info)
	}
}

// The output callbacks see what the result holds, whether the server
// streams the run or answers it with JSON.
func TestRunCallbacks(t *testing.T) {
	c, ctx := client.New(serverURL), testCtx(t)
	var out, errs bytes.Buffer
	res := must(c.Execute(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, Code: "console.log('a'); console.error('b'); console.log('c')"},
		client.OnStdout(func(b []byte) { out.Write(b) }), client.OnStderr(func(b []byte) { errs.Write(b) })))(t)
	if res.Outcome != wasmexec.Succeeded || out.String() != *res.Stdout || errs.String() != *res.Stderr || out.String() != "a\nc\n" {
		t.Fatalf("callbacks %q %q, result %+v", out.String(), errs.String(), res)
	}
	if _, err := c.Evaluate(ctx, &wasmexec.Request{Language: "cobol", Code: "1"}, client.OnStdout(func([]byte) {})); client.Code(err) != "invalid_argument" {
		t.Fatalf("a bad request with callbacks: %v", err)
	}
}

// A streamed run delivers its output as it is written, before the result.
func TestRunStreams(t *testing.T) {
	ctx := testCtx(t)
	req, _ := http.NewRequestWithContext(ctx, "POST", serverURL+"/v1/evaluate", strings.NewReader(`{"language":"javascript","code":"1"}`))
	req.Header.Set("Accept", "text/event-stream")
	resp := must(http.DefaultClient.Do(req))(t)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Skipf("the server answers a run asking for text/event-stream with %s: streamed runs are not in this server yet", ct)
	}
	c := client.New(serverURL)
	var chunks []string
	res := must(c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, Code: "console.log('first'); await new Promise(r => setTimeout(r, 100)); console.log('second'); 7"},
		client.OnStdout(func(b []byte) { chunks = append(chunks, string(b)) })))(t)
	if len(chunks) != 2 || chunks[0] != "first\n" || string(res.Value) != "7" {
		t.Fatalf("chunks %q, result %+v", chunks, res)
	}
}

// dropFirst cuts the first response whose path ends in suffix after its
// first output event, as a proxy or a network would.
type dropFirst struct {
	suffix string
	mu     sync.Mutex
	done   bool
}

func (d *dropFirst) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || !strings.HasSuffix(req.URL.Path, d.suffix) {
		return resp, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.done {
		d.done = true
		resp.Body = &cutBody{ReadCloser: resp.Body}
	}
	return resp, nil
}

type cutBody struct {
	io.ReadCloser
	seen []byte
	cut  bool
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.cut {
		return 0, errors.New("connection reset (by the test)")
	}
	n, err := b.ReadCloser.Read(p)
	b.seen = append(b.seen, p[:n]...)
	if i := bytes.Index(b.seen, []byte("event: output")); i >= 0 {
		if j := bytes.Index(b.seen[i:], []byte("\n\n")); j >= 0 {
			b.cut = true
			return i + j + 2 - (len(b.seen) - n), nil
		}
	}
	return n, err
}

// A process's output stream whose connection drops resumes after the last
// event it delivered: every line once, in order.
func TestFollowOutputResumes(t *testing.T) {
	ctx := testCtx(t)
	c := client.New(serverURL, client.WithHTTPClient(&http.Client{Transport: &dropFirst{suffix: "/output/stream"}}))
	p := must(c.Spawn(ctx, &wasmexec.SpawnRequest{Language: wasmexec.JavaScript, Code: "let i = 0; const t = setInterval(() => { console.log('line ' + ++i); if (i === 5) clearInterval(t) }, 30)"}))(t)
	s := must(c.FollowOutput(ctx, p.PID, ""))(t)
	defer s.Close()
	var lines []string
	for {
		e, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if e.Event == "output" {
			ev, err := client.DecodeOutput(e)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, strings.TrimSpace(string(ev.Chunk)))
		}
	}
	if strings.Join(lines, ",") != "line 1,line 2,line 3,line 4,line 5" || s.Reconnects != 1 {
		t.Fatalf("lines %q after %d reconnections", lines, s.Reconnects)
	}
}

// Installs add packages to a context's workspace; a package the registry
// lacks is a failed result, not an error.
func TestInstalls(t *testing.T) {
	c, ctx := client.New(serverURL), testCtx(t)
	must(c.CreateContext(ctx, &wasmexec.ContextSpec{ContextID: "inst-js", Language: wasmexec.JavaScript}))(t)
	t.Cleanup(func() { c.DeleteContext(context.Background(), "inst-js") })
	npm := must(c.NPMInstall(ctx, "inst-js", &wasmexec.NPMInstallRequest{Packages: []string{"is-number@7.0.0"}}))(t)
	skipOffline(t, npm.Result)
	if npm.Outcome != wasmexec.Succeeded || len(npm.Installed) != 1 || npm.Installed[0].Version != "7.0.0" {
		t.Fatalf("npm install: %+v %+v", npm.Result, npm.Installed)
	}
	res := must(c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, ContextID: "inst-js", Code: "require('is-number')(5)"}))(t)
	if string(res.Value) != "true" {
		t.Fatalf("require an installed package: %s %+v", res.Value, res.Error)
	}
	bad := must(c.NPMInstall(ctx, "inst-js", &wasmexec.NPMInstallRequest{Packages: []string{"this-package-does-not-exist-wasmexec-0"}}))(t)
	if bad.Outcome != wasmexec.Failed {
		t.Fatalf("an unknown package: %+v", bad.Result)
	}

	must(c.CreateContext(ctx, &wasmexec.ContextSpec{ContextID: "inst-py", Language: wasmexec.Python}))(t)
	t.Cleanup(func() { c.DeleteContext(context.Background(), "inst-py") })
	pip := must(c.PipInstall(ctx, "inst-py", &wasmexec.PipInstallRequest{Packages: []string{"tabulate==0.9.0"}}))(t)
	skipOffline(t, pip.Result)
	if pip.Outcome != wasmexec.Succeeded || len(pip.Installed) != 1 {
		t.Fatalf("pip install: %+v %+v", pip.Result, pip.Installed)
	}
	res = must(c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.Python, ContextID: "inst-py", Code: "import tabulate\ntabulate.__version__"}))(t)
	if string(res.Value) != `"0.9.0"` {
		t.Fatalf("import an installed package: %s %+v", res.Value, res.Error)
	}
}

// skipOffline skips when an install failed because the registry could
// not be reached (a machine without the network).
func skipOffline(t *testing.T, r *wasmexec.Result) {
	t.Helper()
	if r.Outcome == wasmexec.Succeeded || r.Error == nil {
		return
	}
	m := strings.ToLower(r.Error.Message)
	for _, s := range []string{"dial tcp", "no such host", "connection refused", "network is unreachable", "i/o timeout", "tls handshake"} {
		if strings.Contains(m, s) {
			t.Skipf("the package registry is unreachable: %s", r.Error.Message)
		}
	}
}

// A server with keys: the key opens it, its absence or another key is
// unauthorized.
func TestAPIKey(t *testing.T) {
	srv, err := clienttest.StartWithKey()
	if errors.Is(err, clienttest.ErrSkip) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := testCtx(t)
	res := must(client.New(srv.URL, client.WithAPIKey(clienttest.TestKey)).Evaluate(ctx, &wasmexec.Request{Language: wasmexec.Python, Code: "1 + 1"}))(t)
	if string(res.Value) != "2" {
		t.Fatalf("with the key: %+v", res)
	}
	for _, key := range []string{"", "another-key-0123456789"} {
		_, err := client.New(srv.URL, client.WithAPIKey(key)).Contexts(ctx)
		var e *client.Error
		if !errors.As(err, &e) || e.Code != "unauthorized" || e.Status != http.StatusUnauthorized {
			t.Fatalf("key %q: %v", key, err)
		}
	}
}
