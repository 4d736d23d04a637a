package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/auth"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/templates"
	"github.com/wasmexec/wasmexec/vfs"
)

// lastRunner is the runner of the last mustFrontServer (to poll its state).
var lastRunner *pipeline.Pipeline

// memHistory keeps completed executions in memory (the persist step).
type memHistory struct {
	mu   sync.Mutex
	byID map[string]*wasmexec.Result
	ids  []string
}

func (h *memHistory) save(ctx context.Context, r *wasmexec.Result, _ []wasmexec.Event, _ bool) error {
	if r.Tenant == "" {
		r.Tenant = wasmexec.TenantID(ctx) // as the binary's persist does
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.byID[r.ExecutionID] = r
	h.ids = append([]string{r.ExecutionID}, h.ids...)
	return nil
}

func (h *memHistory) Get(_ context.Context, id string) (*wasmexec.Result, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.byID[id]; r != nil {
		return r, nil
	}
	return nil, wasmexec.Errorf(wasmexec.ENotFound, "execution %s not found", id)
}

func (h *memHistory) List(_ context.Context, f wasmexec.HistoryFilter) (*wasmexec.HistoryPage, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := &wasmexec.HistoryPage{NextCursor: ""}
	for _, id := range h.ids {
		p.Executions = append(p.Executions, h.byID[id])
	}
	return p, nil
}

func (h *memHistory) Delete(_ context.Context, id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byID[id] == nil {
		return wasmexec.Errorf(wasmexec.ENotFound, "execution %s not found", id)
	}
	delete(h.byID, id)
	return nil
}

func (h *memHistory) Output(ctx context.Context, id, after string, limit int) (*wasmexec.Replay, error) {
	if _, err := h.Get(ctx, id); err != nil {
		return nil, err
	}
	return &wasmexec.Replay{Events: []wasmexec.Event{}}, nil
}

const keysFile = `{
  "tenants": {
    "acme": {"maxContexts": 2, "maxWorkspaceBytes": 100, "maxProcesses": 1, "maxTemplates": 1},
    "globex": {"maxConcurrentRuns": 1, "maxRunsPerMinute": 3},
    "zero": {"maxContexts": 0, "maxRunsPerMinute": 0, "maxProcesses": 0, "maxTemplates": 0},
    "initech": {"maxWorkspaceBytes": 100, "maxTemplateBytes": 1000}
  },
  "keys": [
    {"tenant": "acme", "key": "acme-key-0123456789"},
    {"tenant": "globex", "sha256": "SHA"},
    {"tenant": "zero", "key": "zero-key-0123456789"},
    {"tenant": "initech", "key": "initech-key-0123456789"}
  ]
}`

// MustKeys writes a keys file and loads it.
func MustKeys(tb testing.TB) (*auth.Keys, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "keys.json")
	if err := os.WriteFile(path, []byte(strings.Replace(keysFile, "SHA", auth.HashKey("globex-key-0123456789"), 1)), 0o600); err != nil {
		tb.Fatal(err)
	}
	k, err := auth.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	return k, path
}

func mustTenantServer(tb testing.TB) string {
	tb.Helper()
	return mustFrontServer(tb, true, nil)
}

// mustFrontServer serves JavaScript, contexts, an in-memory history,
// API keys (keysFile) when withKeys, and the event hub when not nil.
func mustFrontServer(tb testing.TB, withKeys bool, hub *events.Hub) string {
	tb.Helper()
	h := &memHistory{byID: map[string]*wasmexec.Result{}}
	tenants := server.NewTenants()
	r := testenv.Runner(tb, testenv.RunnerConfig{
		Tenants:   tenants,
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
		Store:     testenv.StoreFunc(h.save),
		Events:    eventLog(hub),
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(tb), "contexts"), 0)
	if err != nil {
		tb.Fatal(err)
	}
	var cfg server.Config
	tpl, err := templates.Open(templates.Config{Runner: r, OnEvent: func(typ string, t *wasmexec.Template) { cfg.TemplateEvent(typ, t) }})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(tpl.Close)
	r.SetTemplates(tpl)
	m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: ws, Templates: tpl})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Close)
	procs, err := processes.New(processes.Config{Runner: r, MaxProcesses: 8, Workspace: m.WorkspaceDir, Quota: m.ProcessQuota})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(procs.Close)
	lastRunner = r
	cfg = server.Config{Runner: r, Contexts: m, History: h, Processes: procs, NPM: installedNPM{}, Tenants: tenants, Templates: tpl}
	if hub != nil { // not a nil *Hub in the interface
		cfg.Events = hub
	}
	if withKeys {
		cfg.Auth, _ = MustKeys(tb)
	}
	ts := httptest.NewServer(validated(tb, server.New(cfg).Handler()))
	tb.Cleanup(ts.Close)
	return ts.URL
}

// installedNPM stands in for the npm service (the guard around it is what
// the tenancy tests test): every install succeeds at once.
type installedNPM struct{}

func (installedNPM) Install(context.Context, string, *wasmexec.NPMInstallRequest) (*wasmexec.NPMInstallResult, error) {
	return &wasmexec.NPMInstallResult{Result: &wasmexec.Result{ExecutionID: wasmexec.NewID("exe"), Kind: wasmexec.KindNPMInstall, Language: wasmexec.JavaScript, Outcome: wasmexec.Succeeded}, Installed: []wasmexec.NPMPackage{}}, nil
}

// as sends a request with an API key.
func as(tb testing.TB, key, method, url, body string) reply {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" && method != http.MethodPut {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.WriteString(string(buf[:n]))
		if err != nil {
			break
		}
	}
	r := reply{Status: resp.StatusCode, Header: resp.Header, Body: []byte(b.String())}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(r.Body, &r.JSON)
	}
	return r
}

const (
	acme   = "acme-key-0123456789"
	globex = "globex-key-0123456789"
	zero   = "zero-key-0123456789"
	// initech has a maxWorkspaceBytes of 100 and no other quota.
	initech = "initech-key-0123456789"
)

func TestAuthRequired(t *testing.T) {
	url := mustTenantServer(t)
	for _, tc := range []struct{ name, key string }{{"no key", ""}, {"wrong key", "acme-key-0123456780"}, {"hash as key", auth.HashKey(globex)}} {
		t.Run(tc.name, func(t *testing.T) {
			r := as(t, tc.key, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`)
			wantStatus(t, r, 401, "unauthorized")
			if r.Header.Get("WWW-Authenticate") == "" || strings.Contains(string(r.Body), "acme") {
				t.Fatalf("%s %s", r.Header, r.Body)
			}
		})
	}
	// A basic-auth header or a lower-case scheme.
	req, _ := http.NewRequest("GET", url+"/v1/contexts", nil)
	req.Header.Set("Authorization", "bearer "+acme)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("lower-case bearer: %v %v", resp, err)
	}
	for _, p := range []string{"/healthz", "/readyz", "/openapi.json"} {
		wantStatus(t, as(t, "", "GET", url+p, ""), 200, "")
	}
	wantStatus(t, as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), 200, "")
	wantStatus(t, as(t, globex, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), 200, "")
}

// Another tenant's context, file or execution answers exactly like an
// unknown one.
func TestTenantIsolation(t *testing.T) {
	url := mustTenantServer(t)
	wantStatus(t, as(t, acme, "POST", url+"/v1/contexts", `{"contextId":"a1","language":"javascript"}`), 201, "")
	wantStatus(t, as(t, acme, "PUT", url+"/v1/contexts/a1/files/x.txt", "hi"), 200, "")
	run := as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"6*7"}`)
	wantStatus(t, run, 200, "")
	exe := run.JSON["executionId"].(string)
	wantStatus(t, as(t, acme, "GET", url+"/v1/executions/"+exe, ""), 200, "")

	same := func(t *testing.T, method, path, body, unknownPath string) {
		t.Helper()
		theirs := as(t, globex, method, url+path, body)
		unknown := as(t, globex, method, url+unknownPath, body)
		if theirs.Status != 404 || theirs.Status != unknown.Status || theirs.JSON["code"] != unknown.JSON["code"] ||
			strings.ReplaceAll(string(unknown.Body), "nope", "a1") != string(theirs.Body) &&
				strings.ReplaceAll(string(unknown.Body), "exe_nope", exe) != string(theirs.Body) {
			t.Fatalf("%s %s: another tenant's %d %s, unknown %d %s", method, path, theirs.Status, theirs.Body, unknown.Status, unknown.Body)
		}
	}
	same(t, "GET", "/v1/contexts/a1", "", "/v1/contexts/nope")
	same(t, "DELETE", "/v1/contexts/a1", "", "/v1/contexts/nope")
	same(t, "POST", "/v1/contexts/a1/reset", "", "/v1/contexts/nope/reset")
	same(t, "GET", "/v1/contexts/a1/files/x.txt", "", "/v1/contexts/nope/files/x.txt")
	same(t, "GET", "/v1/contexts/a1/files", "", "/v1/contexts/nope/files")
	same(t, "PUT", "/v1/contexts/a1/files/y.txt", "z", "/v1/contexts/nope/files/y.txt")
	same(t, "POST", "/v1/evaluate", `{"language":"javascript","contextId":"a1","code":"1"}`, "/v1/evaluate")
	same(t, "GET", "/v1/executions/"+exe, "", "/v1/executions/exe_nope")
	same(t, "GET", "/v1/executions/"+exe+"/output", "", "/v1/executions/exe_nope/output")

	if r := as(t, globex, "GET", url+"/v1/contexts", ""); len(r.JSON["contexts"].([]any)) != 0 {
		t.Fatalf("globex lists acme's contexts: %s", r.Body)
	}
	if r := as(t, globex, "GET", url+"/v1/executions", ""); strings.Contains(string(r.Body), exe) {
		t.Fatalf("globex lists acme's executions: %s", r.Body)
	}
	if r := as(t, acme, "GET", url+"/v1/executions", ""); !strings.Contains(string(r.Body), exe) {
		t.Fatalf("acme does not list its execution: %s", r.Body)
	}
	wantStatus(t, as(t, acme, "GET", url+"/v1/contexts/a1/files/x.txt", ""), 200, "")
}

func TestTenantQuotas(t *testing.T) {
	url := mustTenantServer(t)
	quota := func(t *testing.T, r reply, name string) {
		t.Helper()
		wantStatus(t, r, 429, "quota_exceeded")
		if !strings.Contains(r.JSON["message"].(string), name) || r.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: %s retry-after %q", name, r.Body, r.Header.Get("Retry-After"))
		}
	}
	t.Run("maxContexts", func(t *testing.T) {
		wantStatus(t, as(t, acme, "POST", url+"/v1/contexts", `{"contextId":"q1","language":"javascript"}`), 201, "")
		wantStatus(t, as(t, acme, "POST", url+"/v1/contexts", `{"contextId":"q2","language":"javascript"}`), 201, "")
		quota(t, as(t, acme, "POST", url+"/v1/contexts", `{"contextId":"q3","language":"javascript"}`), "maxContexts")
		wantStatus(t, as(t, acme, "DELETE", url+"/v1/contexts/q2", ""), 204, "")
		wantStatus(t, as(t, acme, "POST", url+"/v1/contexts", `{"contextId":"q3","language":"javascript"}`), 201, "")
	})
	t.Run("maxWorkspaceBytes", func(t *testing.T) {
		wantStatus(t, as(t, acme, "PUT", url+"/v1/contexts/q1/files/a", strings.Repeat("a", 10)), 200, "")
		quota(t, as(t, acme, "PUT", url+"/v1/contexts/q3/files/b", strings.Repeat("b", 200)), "maxWorkspaceBytes")
		// Code that writes past the quota finishes, but the next run in
		// the tenant's contexts is refused until files are deleted.
		wantStatus(t, as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","contextId":"q1","code":"fs.writeFileSync('big', 'x'.repeat(500)); 1"}`), 200, "")
		quota(t, as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","contextId":"q1","code":"1"}`), "maxWorkspaceBytes")
		quota(t, as(t, acme, "POST", url+"/v1/contexts/q1/npm/install", `{"packages":["left"]}`), "maxWorkspaceBytes")
		wantStatus(t, as(t, acme, "DELETE", url+"/v1/contexts/q1/files/big", ""), 204, "")
		wantStatus(t, as(t, acme, "POST", url+"/v1/contexts/q1/npm/install", `{"packages":["left"]}`), 200, "")
		// Its record's kind is one the document and the list filter know.
		wantStatus(t, as(t, acme, "GET", url+"/v1/executions?kind=npm_install", ""), 200, "")
		wantStatus(t, as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","contextId":"q1","code":"1"}`), 200, "")
	})
	t.Run("maxRunsPerMinute", func(t *testing.T) {
		for i := 0; i < 3; i++ {
			wantStatus(t, as(t, globex, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), 200, "")
		}
		r := as(t, globex, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`)
		quota(t, r, "maxRunsPerMinute")
		if ra := r.Header.Get("Retry-After"); ra == "1" || ra == "0" {
			t.Logf("Retry-After %s (the window frees within a minute)", ra)
		}
		// A process spawn starts code too: it counts against the rate.
		quota(t, as(t, globex, "POST", url+"/v1/processes", `{"language":"javascript","code":"1"}`), "maxRunsPerMinute")
	})
	t.Run("zero allows nothing", func(t *testing.T) {
		quota(t, as(t, zero, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), "maxRunsPerMinute")
		quota(t, as(t, zero, "POST", url+"/v1/contexts", `{"language":"javascript"}`), "maxContexts")
		quota(t, as(t, zero, "POST", url+"/v1/processes", `{"language":"javascript","code":"1"}`), "maxProcesses")
	})
}

func TestRequestID(t *testing.T) {
	url := mustFrontServer(t, false, nil)
	for _, tc := range []struct{ name, sent, want string }{
		{"kept", "abc-123_x.y:z", "abc-123_x.y:z"},
		{"generated", "", "req_"},
		{"malformed replaced", "bad id\twith tab", "req_"},
		{"too long replaced", strings.Repeat("a", 200), "req_"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", url+"/v1/contexts/nope", nil)
			if tc.sent != "" {
				req.Header.Set("X-Request-Id", tc.sent)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := resp.Header.Get("X-Request-Id"); !strings.HasPrefix(got, tc.want) || (tc.want == "req_" && len(got) < 10) {
				t.Fatalf("X-Request-Id %q", got)
			}
		})
	}
}

func TestTenantProcesses(t *testing.T) {
	hub := events.New(0)
	url := mustFrontServer(t, true, hub)
	stream := MustEvents(t, url+"/v1/events?type=process.spawned,process.exited", acme, "")
	r := as(t, acme, "POST", url+"/v1/processes", `{"language":"javascript","code":"stdin.read(); console.log('bye')"}`)
	wantStatus(t, r, 201, "")
	pid := int64(r.JSON["pid"].(float64))
	path := fmt.Sprintf("/v1/processes/%d", pid)
	unknown := fmt.Sprintf("/v1/processes/%d", pid+1000)
	for _, suffix := range []string{"", "/wait?timeoutMs=0", "/output", "/stdin/close"} {
		method := "GET"
		if suffix == "/stdin/close" {
			method = "POST"
		}
		theirs := as(t, globex, method, url+path+suffix, "")
		other := as(t, globex, method, url+unknown+suffix, "")
		if theirs.Status != 404 || strings.ReplaceAll(string(other.Body), strconv.FormatInt(pid+1000, 10), strconv.FormatInt(pid, 10)) != string(theirs.Body) {
			t.Fatalf("%s: another tenant's %d %s, unknown %d %s", suffix, theirs.Status, theirs.Body, other.Status, other.Body)
		}
	}
	if l := as(t, globex, "GET", url+"/v1/processes", ""); len(l.JSON["processes"].([]any)) != 0 {
		t.Fatalf("globex lists acme's process: %s", l.Body)
	}
	if l := as(t, acme, "GET", url+"/v1/processes", ""); len(l.JSON["processes"].([]any)) != 1 {
		t.Fatalf("acme's list: %s", l.Body)
	}
	r = as(t, acme, "POST", url+"/v1/processes", `{"language":"javascript","code":"1"}`)
	wantStatus(t, r, 429, "quota_exceeded")
	if !strings.Contains(r.JSON["message"].(string), "maxProcesses") {
		t.Fatalf("%s", r.Body)
	}
	wantStatus(t, as(t, acme, "POST", url+path+"/stdin/close", ""), 200, "")
	if e := stream.next(t); e.Type != "process.spawned" || e.Data["pid"] != float64(pid) {
		t.Fatalf("spawned: %v", e)
	}
	if e := stream.next(t); e.Type != "process.exited" || e.Data["outcome"] != "exited" || e.Data["exitCode"] != float64(0) {
		t.Fatalf("exited: %v", e)
	}
	// Exited, it no longer counts against maxProcesses.
	wantStatus(t, as(t, acme, "POST", url+"/v1/processes", `{"language":"javascript","code":"1"}`), 201, "")
}

func TestTenantMaxConcurrentRuns(t *testing.T) {
	url := mustFrontServer(t, true, nil)
	r := lastRunner
	done := make(chan reply, 1)
	go func() {
		done <- as(t, globex, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"const t = Date.now(); while (Date.now() - t < 1500) {}"}`)
	}()
	waitUntil(t, "the first run to start", func() bool { return r.Live() == 1 })
	q := as(t, globex, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`)
	wantStatus(t, q, 429, "quota_exceeded")
	if !strings.Contains(q.JSON["message"].(string), "maxConcurrentRuns") {
		t.Fatalf("%s", q.Body)
	}
	// Another tenant is not held back.
	wantStatus(t, as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), 200, "")
	if first := <-done; first.Status != 200 {
		t.Fatalf("the first run: %d %s", first.Status, first.Body)
	}
}

// eventLog is hub as an events.Log (nil when there is none).
func eventLog(hub *events.Hub) events.Log {
	if hub == nil {
		return nil
	}
	return hub
}
