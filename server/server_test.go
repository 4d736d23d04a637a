package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/pipeline"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/server"
)

func MustServer(tb testing.TB, cfg testenv.RunnerConfig, bodyLimit int64) *httptest.Server {
	tb.Helper()
	ts, _ := MustServerRunner(tb, cfg, bodyLimit)
	return ts
}

// MustServerRunner is MustServer that also returns the runner, to poll its
// state (JavaScript and TypeScript, transpiled in this process).
func MustServerRunner(tb testing.TB, cfg testenv.RunnerConfig, bodyLimit int64) (*httptest.Server, *pipeline.Pipeline) {
	tb.Helper()
	cfg.Images = map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName)}
	cfg.Languages = map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}, wasmexec.TypeScript: ts.Driver{}}
	r := testenv.Runner(tb, cfg)
	srv := httptest.NewServer(validated(tb, server.New(server.Config{Runner: r, BodyLimit: bodyLimit}).Handler()))
	tb.Cleanup(srv.Close)
	return srv, r
}

// waitUntil polls cond until it holds (or fails tb after a minute).
func waitUntil(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	poll.Until(tb, time.Minute, what, cond)
}

func post(tb testing.TB, url, body string) (*http.Response, map[string]any) {
	tb.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		tb.Fatalf("response is not JSON: %v", err)
	}
	return resp, m
}

func TestEvaluateOverHTTP(t *testing.T) {
	ts := MustServer(t, testenv.RunnerConfig{}, 0)
	resp, m := post(t, ts.URL+"/v1/evaluate", `{"language":"javascript","code":"console.log('hi'); 1+1"}`)
	if resp.StatusCode != 200 || m["value"] != float64(2) || m["outcome"] != "succeeded" || m["stdout"] != "hi\n" {
		t.Fatalf("%d %v", resp.StatusCode, m)
	}
	if id, _ := m["executionId"].(string); !strings.HasPrefix(id, "exe_") {
		t.Fatalf("executionId = %v", m["executionId"])
	}
	resp, m = post(t, ts.URL+"/v1/execute", `{"language":"javascript","code":"console.log(process.argv.slice(2).join(' ')); stdin.read()","args":["a","b"],"stdin":"zz"}`)
	if resp.StatusCode != 200 || m["stdout"] != "a b\n" || m["value"] != nil {
		t.Fatalf("%d %v", resp.StatusCode, m)
	}
	// A guest failure is a 200 with a failed outcome, not an HTTP error.
	resp, m = post(t, ts.URL+"/v1/evaluate", `{"language":"javascript","code":"throw new Error('x')"}`)
	if resp.StatusCode != 200 || m["outcome"] != "failed" {
		t.Fatalf("%d %v", resp.StatusCode, m)
	}
}

func TestHTTPErrors(t *testing.T) {
	ts := MustServer(t, testenv.RunnerConfig{}, 4096)
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"malformed JSON", "POST", "/v1/evaluate", `{"language":`, 400, "invalid_argument"},
		{"not an object", "POST", "/v1/evaluate", `[1,2]`, 400, "invalid_argument"},
		{"empty body", "POST", "/v1/evaluate", ``, 400, "invalid_argument"},
		{"trailing data", "POST", "/v1/evaluate", `{"language":"javascript","code":"1"} {}`, 400, "invalid_argument"},
		{"unknown language", "POST", "/v1/evaluate", `{"language":"cobol","code":"1"}`, 400, "invalid_argument"},
		{"missing language", "POST", "/v1/evaluate", `{"code":"1"}`, 400, "invalid_argument"},
		{"missing code", "POST", "/v1/evaluate", `{"language":"javascript"}`, 400, "invalid_argument"},
		{"code wrong type", "POST", "/v1/evaluate", `{"language":"javascript","code":1}`, 400, "invalid_argument"},
		{"timeout wrong type", "POST", "/v1/evaluate", `{"language":"javascript","code":"1","timeoutMs":"soon"}`, 400, "invalid_argument"},
		{"limits wrong type", "POST", "/v1/evaluate", `{"language":"javascript","code":"1","limits":5}`, 400, "invalid_argument"},
		{"args wrong type", "POST", "/v1/execute", `{"language":"javascript","code":"1","args":"a b"}`, 400, "invalid_argument"},
		{"unknown field", "POST", "/v1/evaluate", `{"language":"javascript","code":"1","tiemout":5}`, 400, "invalid_argument"},
		{"memory above max", "POST", "/v1/evaluate", `{"language":"javascript","code":"1","limits":{"memoryBytes":1099511627776}}`, 400, "invalid_argument"},
		{"fuel above max", "POST", "/v1/evaluate", `{"language":"javascript","code":"1","limits":{"fuel":9000000000000000000}}`, 400, "invalid_argument"},
		{"negative timeout", "POST", "/v1/evaluate", `{"language":"javascript","code":"1","timeoutMs":-5}`, 400, "invalid_argument"},
		{"timeout above max", "POST", "/v1/evaluate", `{"language":"javascript","code":"1","timeoutMs":99999999}`, 400, "invalid_argument"},
		{"inputs not object", "POST", "/v1/evaluate", `{"language":"javascript","code":"1","inputs":"x"}`, 400, "invalid_argument"},
		{"body over cap", "POST", "/v1/evaluate", `{"language":"javascript","code":"` + strings.Repeat("x", 8000) + `"}`, 413, "payload_too_large"},
		{"unknown route", "GET", "/v1/nope", ``, 404, "not_found"},
		{"wrong method", "GET", "/v1/evaluate", ``, 405, "method_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, ts.URL+tc.path, strings.NewReader(tc.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e struct{ Code, Message string }
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
				t.Fatalf("error body is not JSON: %v", err)
			}
			if resp.StatusCode != tc.status || e.Code != tc.code || e.Message == "" {
				t.Fatalf("got %d %+v, want %d %s", resp.StatusCode, e, tc.status, tc.code)
			}
		})
	}
}

// Beyond MaxConcurrent runs, requests wait QueueTimeout, then get 429 with
// Retry-After.
func TestOverload(t *testing.T) {
	ts, r := MustServerRunner(t, testenv.RunnerConfig{MaxConcurrent: 1, QueueTimeout: 100 * time.Millisecond}, 0)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		post(t, ts.URL+"/v1/evaluate", `{"language":"javascript","code":"const t = Date.now(); while (Date.now() - t < 1500) {}"}`)
	}()
	waitUntil(t, "the first run to hold the slot", func() bool { return r.Live() == 1 })
	resp, m := post(t, ts.URL+"/v1/evaluate", `{"language":"javascript","code":"1"}`)
	if resp.StatusCode != 429 || m["code"] != "overloaded" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("got %d %v retry-after %q", resp.StatusCode, m, resp.Header.Get("Retry-After"))
	}
	wg.Wait()
	resp, _ = post(t, ts.URL+"/v1/evaluate", `{"language":"javascript","code":"1"}`)
	if resp.StatusCode != 200 {
		t.Fatalf("after the load: %d", resp.StatusCode)
	}
}

func TestHealth(t *testing.T) {
	ts := MustServer(t, testenv.RunnerConfig{}, 0)
	for _, p := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", p, resp.StatusCode)
		}
	}
}

// Beyond MaxQueued waiting requests, more are refused at once (no waiting,
// no memory piling up).
func TestOverloadQueueBound(t *testing.T) {
	ts, r := MustServerRunner(t, testenv.RunnerConfig{MaxConcurrent: 1, MaxQueued: 1, QueueTimeout: 5 * time.Second}, 0)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ { // one running, one waiting
		wg.Add(1)
		go func() {
			defer wg.Done()
			post(t, ts.URL+"/v1/evaluate", `{"language":"javascript","code":"const t = Date.now(); while (Date.now() - t < 1000) {}"}`)
		}()
		waitUntil(t, "the run to hold its slot or wait", func() bool { return r.Live()+r.Queued() == int64(i+1) })
	}
	start := time.Now()
	resp, m := post(t, ts.URL+"/v1/evaluate", `{"language":"javascript","code":"1"}`)
	if resp.StatusCode != 429 || m["code"] != "overloaded" {
		t.Fatalf("got %d %v", resp.StatusCode, m)
	}
	if time.Since(start) > 4*time.Second {
		t.Fatalf("a request over the queue bound waited for the queue timeout")
	}
	wg.Wait()
}
