package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/pipeline/pipelinetest"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/vfs"
)

// The fast tier: the front door (keys, tenancy, quotas, events) over a
// pipeline whose driver is a fake (pipelinetest): each test here runs in
// milliseconds. The same behaviours are tested against real guests in
// tenancy_test.go and events_test.go.

// fakeJS is the JavaScript driver's control request, for the fake image.
type fakeJS struct{}

func (fakeJS) Image() string { return pipelinetest.Image }
func (fakeJS) Prepare(ctx context.Context, req *wasmexec.Request) (*wasmexec.Prepared, error) {
	return js.Driver{}.Prepare(ctx, req)
}

// mustFakeServer serves one-shot and context runs over the fake driver,
// with the test's API keys; the pipeline and the guard share one Tenants.
func mustFakeServer(tb testing.TB, hub *events.Hub) (string, *pipeline.Pipeline) {
	tb.Helper()
	tenants := server.NewTenants()
	cfg := pipeline.Config{
		Driver:    &pipelinetest.Driver{},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: fakeJS{}},
		Policy:    wasmexec.DefaultPolicy(),
		Tenants:   tenants,
	}
	if hub != nil {
		cfg.Events = hub
	}
	p, err := pipeline.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ws, err := vfs.NewManager(tb.TempDir(), 0)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{Runner: p, Workspaces: ws})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Close)
	keys, _ := MustKeys(tb)
	scfg := server.Config{Runner: p, Contexts: m, Auth: keys, Tenants: tenants}
	if hub != nil {
		scfg.Events = hub
	}
	ts := httptest.NewServer(validated(tb, server.New(scfg).Handler()))
	tb.Cleanup(ts.Close)
	return ts.URL, p
}

// One-shot runs count against their tenant's maxConcurrentRuns in the
// pipeline's admission: a second run while one is under way is a 429, and
// another tenant is not affected. The first run blocks until its client
// goes, which cancels it and frees its slot.
func TestFakeTenantConcurrentRuns(t *testing.T) {
	url, p := mustFakeServer(t, nil)
	ctx, leave := context.WithCancel(context.Background())
	defer leave()
	req, err := http.NewRequestWithContext(ctx, "POST", url+"/v1/evaluate", strings.NewReader(`{"language":"javascript","code":"block","timeoutMs":20000}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+globex)
	req.Header.Set("Content-Type", "application/json")
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	waitUntil(t, "the first run to hold its slot", func() bool { return p.Live() == 1 })
	wantQuota(t, as(t, globex, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), "maxConcurrentRuns")
	wantStatus(t, as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), 200, "")
	leave()
	if err := <-done; err == nil {
		t.Fatal("the blocked run answered before its client left")
	}
	waitUntil(t, "the blocked run to free its slot", func() bool { return p.Live() == 0 })
	wantStatus(t, as(t, globex, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), 200, "")
}

// The pipeline publishes a run's events with its tenant: another tenant's
// stream never sees them.
func TestFakeRunEventsStayWithTheirTenant(t *testing.T) {
	hub := events.New(0)
	url, _ := mustFakeServer(t, hub)
	theirs := MustEvents(t, url+"/v1/events", globex, "")
	mine := MustEvents(t, url+"/v1/events", acme, "")
	wantStatus(t, as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), 200, "")
	if e := mine.next(t); e.Type != "execution.started" {
		t.Fatalf("first event %v", e)
	}
	wantStatus(t, as(t, globex, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"2"}`), 200, "")
	if e := theirs.next(t); e.Type != "execution.started" || e.Data["executionId"] == nil {
		t.Fatalf("globex's first event %v", e)
	}
	waitUntil(t, "four events", func() bool { return hub.Last(context.Background()) == 4 })
}

// wantQuota checks a 429 quota_exceeded naming quota name, with Retry-After.
func wantQuota(t *testing.T, r reply, name string) {
	t.Helper()
	wantStatus(t, r, 429, "quota_exceeded")
	if !strings.Contains(r.JSON["message"].(string), name) || r.Header.Get("Retry-After") == "" {
		t.Fatalf("%s: %s retry-after %q", name, r.Body, r.Header.Get("Retry-After"))
	}
}

// A context is its tenant's: another tenant is answered as if it did not
// exist, whatever it asks of it, and never lists it.
func TestFakeContextsStayWithTheirTenant(t *testing.T) {
	url, _ := mustFakeServer(t, nil)
	wantStatus(t, as(t, acme, "POST", url+"/v1/contexts", `{"contextId":"a1","language":"javascript"}`), 201, "")
	if r := as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","contextId":"a1","code":"42"}`); r.Status != 200 || r.JSON["value"] != float64(42) {
		t.Fatalf("acme's run in its context: %d %s", r.Status, r.Body)
	}
	for _, tc := range []struct{ method, path, body string }{
		{"GET", "/v1/contexts/a1", ""},
		{"POST", "/v1/evaluate", `{"language":"javascript","contextId":"a1","code":"1"}`},
		{"PUT", "/v1/contexts/a1/files/x.txt", "theirs"},
		{"DELETE", "/v1/contexts/a1", ""},
	} {
		wantStatus(t, as(t, globex, tc.method, url+tc.path, tc.body), 404, "context_not_found")
	}
	if r := as(t, globex, "GET", url+"/v1/contexts", ""); len(r.JSON["contexts"].([]any)) != 0 {
		t.Fatalf("globex lists acme's contexts: %s", r.Body)
	}
	wantStatus(t, as(t, acme, "GET", url+"/v1/contexts/a1", ""), 200, "")
}

// A server without a Runner yet (loading its guest images) answers runs
// 503 unavailable, saying why.
func TestNoRunnerIsLoading(t *testing.T) {
	ts := httptest.NewServer(validated(t, server.New(server.Config{}).Handler()))
	t.Cleanup(ts.Close)
	for _, path := range []string{"/v1/evaluate", "/v1/execute"} {
		r := as(t, "", "POST", ts.URL+path, `{"language":"javascript","code":"1"}`)
		wantStatus(t, r, 503, "unavailable")
		if msg, _ := r.JSON["message"].(string); !strings.Contains(msg, "still loading") {
			t.Fatalf("%s: %s", path, r.Body)
		}
	}
}
