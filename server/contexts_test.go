package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/engine"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/vfs"
)

var _ server.Contexts = (*contexts.Manager)(nil)

// otherFamily hands code to a second load of the JS image: a language of
// another guest family, so mismatches are testable without Python.
type otherFamily struct{}

func (otherFamily) Image() string { return "js-other" }
func (otherFamily) Prepare(ctx context.Context, req *wasmexec.Request) (*wasmexec.Prepared, error) {
	return &wasmexec.Prepared{Control: wasmexec.ControlRequest{Op: string(req.Kind), Code: req.Code, Filename: "other.js"}}, nil
}

type ctxServer struct {
	URL string
	M   *contexts.Manager
}

// mustContextServer serves a Runner (javascript, otherjs) and a contexts
// Manager with the given config and workspace quota.
func mustContextServer(tb testing.TB, cfg contexts.Config, quota, bodyLimit int64) *ctxServer {
	tb.Helper()
	r := testenv.Runner(tb, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName), "js-other": testenv.SecondImage(tb, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}, "otherjs": otherFamily{}},
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(tb), "contexts"), quota)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.Runner, cfg.Workspaces = r, ws
	m, err := contexts.Open(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Close)
	ts := httptest.NewServer(validated(tb, server.New(server.Config{Runner: r, Contexts: m, BodyLimit: bodyLimit}).Handler()))
	tb.Cleanup(ts.Close)
	return &ctxServer{URL: ts.URL, M: m}
}

type reply struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

// do sends a request with a raw path (nothing normalized) and reads the reply.
func do(tb testing.TB, method, url, body string) reply {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	if body != "" && method != http.MethodPut {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := reply{Status: resp.StatusCode, Header: resp.Header, Body: b}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(b, &r.JSON); err != nil {
			tb.Fatalf("%s %s: bad JSON %q", method, url, b)
		}
	}
	return r
}

func wantStatus(tb testing.TB, r reply, status int, code string) {
	tb.Helper()
	if r.Status != status || (code != "" && r.JSON["code"] != code) {
		tb.Fatalf("got %d %s, want %d %s", r.Status, r.Body, status, code)
	}
	if code != "" && r.JSON["message"] == "" {
		tb.Fatalf("error without a message: %s", r.Body)
	}
}

func TestContextsOverHTTP(t *testing.T) {
	s := mustContextServer(t, contexts.Config{}, 0, 0)
	r := do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"agent-1","language":"javascript"}`)
	wantStatus(t, r, 201, "")
	if r.JSON["contextId"] != "agent-1" || r.JSON["state"] != "idle" || r.JSON["language"] != "javascript" || r.JSON["createdAtMs"] == nil {
		t.Fatalf("create: %s", r.Body)
	}
	r = do(t, "POST", s.URL+"/v1/contexts", `{"language":"javascript"}`)
	wantStatus(t, r, 201, "")
	generated := r.JSON["contextId"].(string)
	if !strings.HasPrefix(generated, "ctx_") {
		t.Fatalf("generated id %q", generated)
	}
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"agent-1","language":"javascript"}`), 409, "context_conflict")

	r = do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"agent-1","code":"x = 1"}`)
	wantStatus(t, r, 200, "")
	r = do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"agent-1","code":"x += 1; x"}`)
	if r.Status != 200 || r.JSON["value"] != float64(2) || r.JSON["contextId"] != "agent-1" {
		t.Fatalf("evaluate: %d %s", r.Status, r.Body)
	}
	r = do(t, "POST", s.URL+"/v1/execute", `{"language":"javascript","contextId":"agent-1","code":"console.log(x * 10)"}`)
	if r.Status != 200 || r.JSON["stdout"] != "20\n" {
		t.Fatalf("execute: %d %s", r.Status, r.Body)
	}
	r = do(t, "GET", s.URL+"/v1/contexts/agent-1", "")
	if r.Status != 200 || r.JSON["runs"] != float64(3) || r.JSON["lastCompletedAtMs"] == nil || r.JSON["workspace"] == nil {
		t.Fatalf("get: %d %s", r.Status, r.Body)
	}
	r = do(t, "GET", s.URL+"/v1/contexts", "")
	list, _ := r.JSON["contexts"].([]any)
	if r.Status != 200 || len(list) != 2 {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}

	// A timeout inside the context resets it; the next call works.
	r = do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"agent-1","code":"while (true) {}","timeoutMs":200}`)
	if r.Status != 200 || r.JSON["outcome"] != "timed_out" || r.JSON["contextReset"] != true {
		t.Fatalf("timeout: %d %s", r.Status, r.Body)
	}
	r = do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"agent-1","code":"typeof x"}`)
	if r.Status != 200 || r.JSON["value"] != "undefined" {
		t.Fatalf("after the timeout: %d %s", r.Status, r.Body)
	}

	// Reset clears the state.
	do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"agent-1","code":"y = 1"}`)
	r = do(t, "POST", s.URL+"/v1/contexts/agent-1/reset", "")
	if r.Status != 200 || r.JSON["state"] != "idle" || r.JSON["resets"] != float64(2) {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	r = do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"agent-1","code":"y"}`)
	if errData, _ := r.JSON["error"].(map[string]any); r.Status != 200 || r.JSON["outcome"] != "failed" || errData["name"] != "ReferenceError" {
		t.Fatalf("after reset: %d %s", r.Status, r.Body)
	}

	// Delete, then everything about it is a 404.
	wantStatus(t, do(t, "DELETE", s.URL+"/v1/contexts/agent-1", ""), 204, "")
	for _, tc := range []struct{ method, path, body string }{
		{"GET", "/v1/contexts/agent-1", ""},
		{"DELETE", "/v1/contexts/agent-1", ""},
		{"POST", "/v1/contexts/agent-1/reset", ""},
		{"POST", "/v1/evaluate", `{"language":"javascript","contextId":"agent-1","code":"1"}`},
		{"POST", "/v1/execute", `{"language":"javascript","contextId":"agent-1","code":"1"}`},
		{"GET", "/v1/contexts/agent-1/files", ""},
		{"GET", "/v1/contexts/agent-1/files/a.txt", ""},
		{"PUT", "/v1/contexts/agent-1/files/a.txt", "x"},
		{"DELETE", "/v1/contexts/agent-1/files/a.txt", ""},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			wantStatus(t, do(t, tc.method, s.URL+tc.path, tc.body), 404, "context_not_found")
		})
	}
}

func TestContextErrorsOverHTTP(t *testing.T) {
	s := mustContextServer(t, contexts.Config{MaxContexts: 2}, 0, 4096)
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"c1","language":"javascript","env":{"A":"1"}}`), 201, "")
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"bad id", "POST", "/v1/contexts", `{"contextId":"a/b","language":"javascript"}`, 400, "invalid_argument"},
		{"unknown language", "POST", "/v1/contexts", `{"language":"cobol"}`, 400, "invalid_argument"},
		{"unknown field", "POST", "/v1/contexts", `{"language":"javascript","lang":"x"}`, 400, "invalid_argument"},
		{"malformed JSON", "POST", "/v1/contexts", `{"language":`, 400, "invalid_argument"},
		{"fuel at creation", "POST", "/v1/contexts", `{"language":"javascript","limits":{"fuel":5}}`, 400, "invalid_argument"},
		{"memory too small", "POST", "/v1/contexts", `{"language":"javascript","limits":{"memoryBytes":1000}}`, 400, "invalid_argument"},
		{"language mismatch", "POST", "/v1/evaluate", `{"language":"otherjs","contextId":"c1","code":"1"}`, 409, "context_language_mismatch"},
		{"different env", "POST", "/v1/evaluate", `{"language":"javascript","contextId":"c1","code":"1","env":{"A":"2"}}`, 400, "invalid_argument"},
		{"different memory", "POST", "/v1/evaluate", `{"language":"javascript","contextId":"c1","code":"1","limits":{"memoryBytes":67108864}}`, 400, "invalid_argument"},
		{"unknown context", "POST", "/v1/evaluate", `{"language":"javascript","contextId":"nope","code":"1"}`, 404, "context_not_found"},
		{"bad files path", "POST", "/v1/evaluate", `{"language":"javascript","contextId":"c1","code":"1","files":{"../x":"y"}}`, 400, "invalid_argument"},
		{"unknown route", "GET", "/v1/contexts/c1/nope", "", 404, "not_found"},
		{"wrong method", "PATCH", "/v1/contexts/c1", "", 405, "method_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantStatus(t, do(t, tc.method, s.URL+tc.path, tc.body), tc.status, tc.code)
		})
	}
	// No language: the first run pins it.
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"x"}`), 201, "")
	wantStatus(t, do(t, "DELETE", s.URL+"/v1/contexts/x", ""), 204, "")
	// The same env is fine.
	r := do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"c1","code":"process.env.A","env":{"A":"1"}}`)
	if r.Status != 200 || r.JSON["value"] != "1" {
		t.Fatalf("same env: %d %s", r.Status, r.Body)
	}
	// MaxContexts: 429 with Retry-After.
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"c2","language":"javascript"}`), 201, "")
	r = do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"c3","language":"javascript"}`)
	wantStatus(t, r, 429, "overloaded")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
}

// Beyond QueueDepth waiting requests a context answers 429.
func TestContextQueueOverHTTP(t *testing.T) {
	s := mustContextServer(t, contexts.Config{QueueDepth: 1}, 0, 0)
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"q","language":"javascript"}`), 201, "")
	var wg sync.WaitGroup
	wg.Go(func() {
		do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"q","code":"await new Promise(r => setTimeout(r, 500))"}`)
	})
	waitState(t, s, "q", func(m map[string]any) bool { return m["state"] == "running" })
	wg.Go(func() { do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"q","code":"1"}`) })
	waitState(t, s, "q", func(m map[string]any) bool { return m["queued"] == float64(1) })
	r := do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"q","code":"1"}`)
	wantStatus(t, r, 429, "overloaded")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	wg.Wait()
}

func waitState(tb testing.TB, s *ctxServer, id string, cond func(map[string]any) bool) {
	tb.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := do(tb, "GET", s.URL+"/v1/contexts/"+id, "")
		if cond(r.JSON) {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("context %s never got there: %s", id, r.Body)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestContextFilesOverHTTP(t *testing.T) {
	// Room for three entries that hold no bytes (data/, sub/, the etc-link
	// symlink) and 1000 bytes; the body limit is 1000 more.
	const room = 3 * vfs.DefaultEntryBytes
	s := mustContextServer(t, contexts.Config{}, room+1000, room+2000)
	base := s.URL + "/v1/contexts/f/files"
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"f","language":"javascript"}`), 201, "")

	r := do(t, "PUT", base+"/data/a.txt", "hello\x00binary")
	if r.Status != 200 || r.JSON["path"] != "data/a.txt" || r.JSON["size"] != float64(12) || r.JSON["type"] != "file" {
		t.Fatalf("put: %d %s", r.Status, r.Body)
	}
	r = do(t, "GET", base+"/data/a.txt", "")
	if r.Status != 200 || string(r.Body) != "hello\x00binary" || r.Header.Get("Content-Type") != "application/octet-stream" {
		t.Fatalf("get: %d %q %s", r.Status, r.Body, r.Header.Get("Content-Type"))
	}
	// The code sees it; what the code writes comes back.
	r = do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"f","code":"fs.writeFileSync('out.txt', fs.readFileSync('/workspace/data/a.txt', 'utf8').toUpperCase()); 1"}`)
	wantStatus(t, r, 200, "")
	if r = do(t, "GET", base+"/out.txt", ""); string(r.Body) != "HELLO\x00BINARY" {
		t.Fatalf("out.txt: %d %q", r.Status, r.Body)
	}
	r = do(t, "GET", base, "")
	entries, _ := r.JSON["entries"].([]any)
	var names []string
	for _, e := range entries {
		names = append(names, e.(map[string]any)["path"].(string))
	}
	sort.Strings(names)
	if r.Status != 200 || strings.Join(names, ",") != "data,out.txt" {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	if r = do(t, "GET", base+"?dir=data", ""); r.Status != 200 || len(r.JSON["entries"].([]any)) != 1 {
		t.Fatalf("list data: %d %s", r.Status, r.Body)
	}
	if r = do(t, "GET", base+"/?dir=/workspace/data", ""); r.Status != 200 || len(r.JSON["entries"].([]any)) != 1 {
		t.Fatalf("list via files/: %d %s", r.Status, r.Body)
	}
	wantStatus(t, do(t, "DELETE", base+"/out.txt", ""), 204, "")
	wantStatus(t, do(t, "GET", base+"/out.txt", ""), 404, "not_found")
	wantStatus(t, do(t, "DELETE", base+"/out.txt", ""), 404, "not_found")
	wantStatus(t, do(t, "GET", base+"?dir=nope", ""), 404, "not_found")
	wantStatus(t, do(t, "GET", base+"/data", ""), 400, "invalid_argument")

	// Quota and body limit are both 413.
	wantStatus(t, do(t, "PUT", base+"/big.bin", strings.Repeat("b", room)), 413, "payload_too_large")
	wantStatus(t, do(t, "PUT", base+"/huge.bin", strings.Repeat("b", room+3000)), 413, "payload_too_large")
	// A run over the quota is failed/quota_exceeded and rolled back.
	r = do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"f","code":"fs.writeFileSync('flood.bin', 'z'.repeat(20000))"}`)
	if errData, _ := r.JSON["error"].(map[string]any); r.Status != 200 || r.JSON["outcome"] != "failed" || errData["code"] != "quota_exceeded" {
		t.Fatalf("run over quota: %d %s", r.Status, r.Body)
	}
	wantStatus(t, do(t, "GET", base+"/flood.bin", ""), 404, "not_found")

	// Confinement: traversal, absolute paths, NUL, symlinks.
	dir, err := s.M.WorkspaceDir("f")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "etc-link")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/../../x", "/a/../../x", "/%2e%2e/x", "/..%2fx", "/%2Fetc%2Fpasswd", "/a%00b", "/etc-link/passwd", "/etc-link", "/workspace%2f..%2fetc"} {
		t.Run(p, func(t *testing.T) {
			wantStatus(t, do(t, "GET", base+p, ""), 400, "invalid_argument")
			wantStatus(t, do(t, "PUT", base+p, "x"), 400, "invalid_argument")
		})
	}
	wantStatus(t, do(t, "GET", base+"?dir=..", ""), 400, "invalid_argument")
	wantStatus(t, do(t, "GET", base+"?dir=etc-link", ""), 400, "invalid_argument")
	if _, err := os.Stat("/x"); err == nil {
		t.Fatal("a file escaped to /x")
	}
	// An encoded slash inside a name is a directory separator after decoding.
	if r = do(t, "PUT", base+"/sub%2Fname.txt", "s"); r.Status != 200 || r.JSON["path"] != "sub/name.txt" {
		t.Fatalf("encoded slash: %d %s", r.Status, r.Body)
	}
	// Deleting the symlink removes the link only.
	wantStatus(t, do(t, "DELETE", base+"/etc-link", ""), 204, "")
	if _, err := os.Stat("/etc/hostname"); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// Without a contexts manager, the routes answer 501 and contextId is 400.
func TestContextsDisabled(t *testing.T) {
	ts := MustServer(t, testenv.RunnerConfig{}, 0)
	wantStatus(t, do(t, "GET", ts.URL+"/v1/contexts", ""), 501, "not_implemented")
	wantStatus(t, do(t, "PUT", ts.URL+"/v1/contexts/a/files/x", "x"), 501, "not_implemented")
	wantStatus(t, do(t, "POST", ts.URL+"/v1/evaluate", `{"language":"javascript","contextId":"a","code":"1"}`), 400, "invalid_argument")
}

// BenchmarkContextEvaluateHTTP measures POST /v1/evaluate of a trivial
// expression in an existing JS context over HTTP (keep-alive, loopback),
// with a 64 MiB workspace quota on. Reports p50/p99 in ms.
func BenchmarkContextEvaluateHTTP(b *testing.B) {
	s := mustContextServer(b, contexts.Config{}, 64<<20, 0)
	do(b, "POST", s.URL+"/v1/contexts", `{"contextId":"bench","language":"javascript"}`)
	body := `{"language":"javascript","contextId":"bench","code":"1+1"}`
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	one := func() {
		resp, err := client.Post(s.URL+"/v1/evaluate", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	for range 20 {
		one()
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		one()
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.90), "p90-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}
