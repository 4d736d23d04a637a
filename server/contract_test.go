package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/auth"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/store"
	"github.com/wasmexec/wasmexec/vfs"
)

// The contract test: a corpus of good and bad requests sent to a server
// with every service (real guests, a real SQLite history, processes,
// contexts; fake checker and installers), where every response is
// validated against the OpenAPI document (validated) and every request
// too: a request the server accepts (2xx) must be one the document
// accepts, and one the document refuses must be refused (4xx). So the
// document can be neither looser nor tighter than the handlers.

const (
	contractKey  = "contract-key-0123456789"
	contractZero = "contract-zero-0123456789"
)

// contractChecker answers like the TypeScript checker would.
type contractChecker struct{}

func (contractChecker) Check(_ context.Context, req *wasmexec.TypeScriptCheckRequest) (any, error) {
	if strings.Contains(req.Code, "bad") {
		return map[string]any{"outcome": "succeeded", "hasErrors": true, "typeScriptVersion": "7.0.2", "diagnostics": []map[string]any{
			{"code": 2322, "category": "error", "message": "Type 'string' is not assignable to type 'number'.", "filePath": "main.ts", "line": 1, "column": 7},
		}}, nil
	}
	return map[string]any{"outcome": "succeeded", "hasErrors": false, "typeScriptVersion": "7.0.2", "diagnostics": []any{}}, nil
}

// contractInstaller completes installs at once and stores their records,
// so history pages hold npm_install and pip_install records.
type contractInstaller struct{ st *store.Store }

func (i contractInstaller) record(ctx context.Context, kind wasmexec.Kind, lang wasmexec.Language, id string) (*wasmexec.Result, error) {
	out := "resolved\n"
	now := wasmexec.Millis(time.Now())
	rec := &wasmexec.Result{ExecutionID: wasmexec.NewID("exe"), Kind: kind, Language: lang, ContextID: id, Outcome: wasmexec.Succeeded, Stdout: &out, StartedAtMs: now, CompletedAtMs: now, Extra: json.RawMessage(`{"installed":[]}`), Tenant: wasmexec.TenantID(ctx)}
	return rec, i.st.Save(ctx, rec, nil, false)
}

func (i contractInstaller) Install(ctx context.Context, id string, _ *wasmexec.NPMInstallRequest) (*wasmexec.NPMInstallResult, error) {
	rec, err := i.record(ctx, wasmexec.KindNPMInstall, wasmexec.JavaScript, id)
	return &wasmexec.NPMInstallResult{Result: rec, Installed: []wasmexec.NPMPackage{{Name: "left-pad", Version: "1.3.0", Integrity: "sha512-x", Path: "node_modules/left-pad"}}}, err
}

type contractPip struct{ contractInstaller }

func (p contractPip) Install(ctx context.Context, id string, _ *wasmexec.PipInstallRequest) (*wasmexec.PipInstallResult, error) {
	rec, err := p.record(ctx, wasmexec.KindPipInstall, wasmexec.Python, id)
	return &wasmexec.PipInstallResult{Result: rec, Installed: []wasmexec.PipPackage{{Name: "purefn", Version: "1.0", SHA256: "ab"}}}, err
}

// mustContractServer serves the whole API with API keys: contractKey
// (no quotas) and contractZero (every quota 0).
func mustContractServer(tb testing.TB) string {
	tb.Helper()
	st, err := store.Open(context.Background(), store.Config{Path: filepath.Join(tb.TempDir(), "wasmexec.db")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	tenants := server.NewTenants()
	r := testenv.Runner(tb, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName), python.ImageName: testenv.Image(tb, python.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}, wasmexec.TypeScript: ts.Driver{}, wasmexec.Python: python.Driver{}},
		Store:     st,
		Tenants:   tenants,
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(tb), "contexts"), 1<<20)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: ws})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Close)
	procs, err := processes.New(processes.Config{Runner: r, MaxProcesses: 8, Workspace: m.WorkspaceDir, Quota: m.ProcessQuota})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(procs.Close)
	path := filepath.Join(tb.TempDir(), "keys.json")
	keysJSON := `{"tenants":{"open":{},"zero":{"maxContexts":0,"maxRunsPerMinute":0,"maxProcesses":0}},"keys":[{"tenant":"open","key":"` + contractKey + `"},{"tenant":"zero","key":"` + contractZero + `"}]}`
	if err := os.WriteFile(path, []byte(keysJSON), 0o600); err != nil {
		tb.Fatal(err)
	}
	keys, err := auth.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	inst := contractInstaller{st: st}
	cfg := server.Config{
		Runner: r, Contexts: m, History: st, Processes: procs, Checker: contractChecker{},
		CheckerInfo: func() any { return map[string]any{"default": "7", "versions": []string{"7", "5.9"}} },
		NPM:         inst, Pip: contractPip{inst}, Auth: keys, Tenants: tenants, BodyLimit: 1 << 20,
	}
	ts := httptest.NewServer(validated(tb, server.New(cfg).Handler()))
	tb.Cleanup(ts.Close)
	return ts.URL
}

// contractCase is one request of the corpus and the status it must get.
type contractCase struct {
	name        string
	method      string
	path        string // {exe}, {pid}, {done} (an exited pid) are filled in
	body        string
	contentType string // default application/json when there is a body
	key         string // default contractKey; "-" for none
	accept      string
	status      int
}

func TestContract(t *testing.T) {
	url := mustContractServer(t)
	vars := contractSetup(t, url)
	cases := contractCorpus()
	if len(cases) < 150 {
		t.Fatalf("the corpus has %d requests; it must have at least 150", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path
			for k, v := range vars {
				path = strings.ReplaceAll(path, "{"+k+"}", v)
			}
			req, err := http.NewRequest(tc.method, url+path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			ct := tc.contentType
			if ct == "" && tc.body != "" {
				ct = "application/json"
			}
			if ct != "" && ct != "-" {
				req.Header.Set("Content-Type", ct)
			}
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			switch tc.key {
			case "":
				req.Header.Set("Authorization", "Bearer "+contractKey)
			case "-":
			default:
				req.Header.Set("Authorization", "Bearer "+tc.key)
			}
			docErr := validateRequest(t, req, tc.body)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("%s %s: %d %.300s, want %d", tc.method, path, resp.StatusCode, b, tc.status)
			}
			switch {
			case resp.StatusCode < 300 && docErr != nil:
				t.Errorf("the server took a request the document refuses: %v", docErr)
			case docErr != nil && resp.StatusCode >= 500:
				t.Errorf("a request the document refuses is a %d: %s", resp.StatusCode, b)
			}
		})
	}
}

// validateRequest checks req against the document: nil when it matches,
// else why not. A request to no documented operation doesn't match.
func validateRequest(tb testing.TB, req *http.Request, body string) error {
	_, router := MustSpec(tb)
	m := req.Clone(context.Background())
	if i := strings.Index(m.URL.Path, "/files/"); i >= 0 && strings.HasPrefix(m.URL.Path, "/v1/contexts/") {
		m.URL.Path = m.URL.Path[:i+len("/files/")] + url.PathEscape(m.URL.Path[i+len("/files/"):])
		m.URL.RawPath = ""
	}
	m.Body = io.NopCloser(strings.NewReader(body))
	route, params, err := router.FindRoute(m)
	if err != nil {
		return err
	}
	return openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request: m, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	})
}

// contractSetup makes what the corpus refers to: contexts c1 (javascript)
// and py1 (python) with files, an execution with retained events (exe), a
// running processes (pid, pid2) and an exited one (done).
func contractSetup(t *testing.T, url string) map[string]string {
	t.Helper()
	send := func(method, path, body string) reply {
		return as(t, contractKey, method, url+path, body)
	}
	wantStatus(t, send("POST", "/v1/contexts", `{"contextId":"c1","language":"javascript"}`), 201, "")
	wantStatus(t, send("POST", "/v1/contexts", `{"contextId":"py1","language":"python"}`), 201, "")
	wantStatus(t, send("POST", "/v1/contexts", `{"contextId":"c3","language":"javascript"}`), 201, "")
	wantStatus(t, send("PUT", "/v1/contexts/c1/files/dir/a.txt", "hello"), 200, "")
	wantStatus(t, send("PUT", "/v1/contexts/c1/files/main.js", "console.log('from main')"), 200, "")
	wantStatus(t, send("PUT", "/v1/contexts/c1/files/gone/x.txt", "x"), 200, "")
	r := send("POST", "/v1/evaluate", `{"language":"javascript","code":"console.log('a'); 1","output":{"retainEvents":true}}`)
	wantStatus(t, r, 200, "")
	exe := r.JSON["executionId"].(string)
	r = send("POST", "/v1/processes", `{"language":"javascript","code":"stdin.read(); console.log('bye')","timeoutMs":30000}`)
	wantStatus(t, r, 201, "")
	pid := strconv.FormatInt(int64(r.JSON["pid"].(float64)), 10)
	// pid2 outlives its stdin (SIGTERM closes it), so that SIGKILL after
	// SIGTERM finds it running, within the signal's grace.
	r = send("POST", "/v1/processes", `{"language":"javascript","code":"stdin.read(); await new Promise(r => setTimeout(r, 30000))","timeoutMs":30000}`)
	wantStatus(t, r, 201, "")
	pid2 := strconv.FormatInt(int64(r.JSON["pid"].(float64)), 10)
	r = send("POST", "/v1/processes", `{"language":"javascript","code":"console.log('done')"}`)
	wantStatus(t, r, 201, "")
	done := strconv.FormatInt(int64(r.JSON["pid"].(float64)), 10)
	wantStatus(t, send("GET", "/v1/processes/"+done+"/wait?timeoutMs=30000", ""), 200, "")
	waitUntil(t, "the exited process to be exited", func() bool {
		return send("GET", "/v1/processes/"+done, "").JSON["state"] == "exited"
	})
	wantStatus(t, send("POST", "/v1/contexts/py1/pip/install", `{"packages":["purefn"]}`), 200, "")
	return map[string]string{"exe": exe, "pid": pid, "pid2": pid2, "done": done}
}

func contractCorpus() []contractCase {
	const js = `"language":"javascript"`
	cs := []contractCase{
		// The probes and the document.
		{name: "healthz", method: "GET", path: "/healthz", key: "-", status: 200},
		{name: "readyz", method: "GET", path: "/readyz", key: "-", status: 200},
		{name: "openapi", method: "GET", path: "/openapi.json", key: "-", status: 200},
		{name: "metrics not enabled", method: "GET", path: "/metrics", key: "-", status: 501},
		{name: "malformed query", method: "GET", path: "/healthz?a=%%%", key: "-", status: 400},

		// Keys.
		{name: "no key", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1"}`, key: "-", status: 401},
		{name: "wrong key", method: "GET", path: "/v1/contexts", key: "wrong-key-0123456789", status: 401},
		{name: "no key mcp", method: "POST", path: "/mcp", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, key: "-", status: 401},
		{name: "oauth resource metadata", method: "GET", path: "/.well-known/oauth-protected-resource", key: "-", status: 404},
		{name: "oauth server metadata", method: "GET", path: "/.well-known/oauth-authorization-server", key: "-", status: 404},
		{name: "quota runs", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1"}`, key: contractZero, status: 429},
		{name: "quota contexts", method: "POST", path: "/v1/contexts", body: `{` + js + `}`, key: contractZero, status: 429},

		// Runs.
		{name: "evaluate", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"6*7"}`, status: 200},
		{name: "execute", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"console.log(process.argv.length)","args":["a"],"stdin":"x"}`, status: 200},
		{name: "typescript", method: "POST", path: "/v1/evaluate", body: `{"language":"typescript","code":"const n: number = 2; n"}`, status: 200},
		{name: "python", method: "POST", path: "/v1/evaluate", body: `{"language":"python","code":"1+1"}`, status: 200},
		{name: "python execute", method: "POST", path: "/v1/execute", body: `{"language":"python","code":"import sys; sys.exit(3)"}`, status: 200},
		{name: "binary stdout", method: "POST", path: "/v1/execute", body: `{"language":"python","code":"import sys; sys.stdout.buffer.write(bytes([0xff,0xfe]))"}`, status: 200},
		{name: "guest exception", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"throw new Error('x')"}`, status: 200},
		{name: "syntax error", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"let let"}`, status: 200},
		{name: "timeout", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"for(;;){}","timeoutMs":100}`, status: 200},
		{name: "inputs", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"inputs.a.b","inputs":{"a":{"b":[1,"x",null,true]}}}`, status: 200},
		{name: "env", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"process.env.A","env":{"A":"1"}}`, status: 200},
		{name: "files", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"1","files":{"a.txt":"x"}}`, status: 200},
		{name: "filePath without code", method: "POST", path: "/v1/execute", body: `{` + js + `,"filePath":"main.js","files":{"main.js":"console.log(1)"}}`, status: 200},
		{name: "filePath with empty code", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"","filePath":"main.js","files":{"main.js":"console.log(1)"}}`, status: 200},
		{name: "code and filePath", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"1","filePath":"main.js","files":{"main.js":"1"}}`, status: 400},
		{name: "tsconfigPath", method: "POST", path: "/v1/execute", body: `{"language":"typescript","filePath":"m.ts","tsconfigPath":"tsconfig.json","files":{"m.ts":"console.log(1 as number)","tsconfig.json":"{}"}}`, status: 200},
		{name: "capture none", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"console.log(1)","output":{"capture":"none"}}`, status: 200},
		{name: "capture stderr", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","output":{"capture":"stderr","retainEvents":true}}`, status: 200},
		{name: "limits", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","limits":{"fuel":1000000000,"memoryBytes":67108864,"outputBytes":1024}}`, status: 200},
		{name: "zero limits", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","limits":{"fuel":0},"timeoutMs":0}`, status: 200},
		{name: "format module", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"export const a = 1","format":"module"}`, status: 200},
		{name: "cwd", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"1","cwd":"sub"}`, status: 200},
		{name: "output limit", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"console.log('x'.repeat(5000))","limits":{"outputBytes":100}}`, status: 200},
		{name: "in a context", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"globalThis.k = 1","contextId":"c1"}`, status: 200},
		{name: "context filePath", method: "POST", path: "/v1/execute", body: `{` + js + `,"filePath":"main.js","contextId":"c1"}`, status: 200},
		{name: "context timeout resets", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"for(;;){}","contextId":"c3","timeoutMs":100}`, status: 200},
		{name: "stream evaluate", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"console.log(1); 2"}`, accept: "text/event-stream", status: 200},
		{name: "stream execute", method: "POST", path: "/v1/execute", body: `{"language":"python","code":"print(1)"}`, accept: "text/event-stream", status: 200},
		{name: "stream in a context", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","contextId":"c1"}`, accept: "text/event-stream", status: 200},
		{name: "stream unknown language", method: "POST", path: "/v1/evaluate", body: `{"language":"cobol","code":"1"}`, accept: "text/event-stream", status: 400},
		{name: "stream unknown context", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","contextId":"nope"}`, accept: "text/event-stream", status: 404},
		{name: "missing language", method: "POST", path: "/v1/evaluate", body: `{"code":"1"}`, status: 400},
		{name: "unknown language", method: "POST", path: "/v1/evaluate", body: `{"language":"cobol","code":"1"}`, status: 400},
		{name: "empty language", method: "POST", path: "/v1/evaluate", body: `{"language":"","code":"1"}`, status: 400},
		{name: "missing code", method: "POST", path: "/v1/evaluate", body: `{` + js + `}`, status: 400},
		{name: "empty code", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":""}`, status: 400},
		{name: "code not string", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":1}`, status: 400},
		{name: "unknown field", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","tiemout":1}`, status: 400},
		{name: "malformed JSON", method: "POST", path: "/v1/evaluate", body: `{"language":`, status: 400},
		{name: "array body", method: "POST", path: "/v1/evaluate", body: `[1]`, status: 400},
		{name: "trailing data", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1"} {}`, status: 400},
		{name: "empty body", method: "POST", path: "/v1/evaluate", status: 400},
		{name: "negative timeout", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","timeoutMs":-1}`, status: 400},
		{name: "timeout over max", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","timeoutMs":99999999}`, status: 400},
		{name: "timeout fraction", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","timeoutMs":1.5}`, status: 400},
		{name: "timeout string", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","timeoutMs":"1"}`, status: 400},
		{name: "negative memory", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","limits":{"memoryBytes":-1}}`, status: 400},
		{name: "negative fuel", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","limits":{"fuel":-1}}`, status: 400},
		{name: "negative output", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","limits":{"outputBytes":-1}}`, status: 400},
		{name: "memory over max", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","limits":{"memoryBytes":1099511627776}}`, status: 400},
		{name: "unknown limit", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","limits":{"cpu":1}}`, status: 400},
		{name: "limits not object", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","limits":5}`, status: 400},
		{name: "inputs string", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","inputs":"x"}`, status: 400},
		{name: "inputs array", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","inputs":[1]}`, status: 400},
		{name: "env not strings", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","env":{"A":1}}`, status: 400},
		{name: "args not array", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"1","args":"a"}`, status: 400},
		{name: "files not strings", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"1","files":{"a":1}}`, status: 400},
		{name: "bad capture", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","output":{"capture":"some"}}`, status: 400},
		{name: "unknown output field", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","output":{"keep":true}}`, status: 400},
		{name: "bad format", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","format":"amd"}`, status: 400},
		// Python runs a workspace file as __main__: a missing one is the
		// run's FileNotFoundError, as `python a.py` says.
		{name: "filePath for python, missing", method: "POST", path: "/v1/execute", body: `{"language":"python","filePath":"a.py"}`, status: 200},
		{name: "filePath escaping the workspace", method: "POST", path: "/v1/execute", body: `{"language":"python","filePath":"../a.py"}`, status: 400},
		{name: "packages not strings", method: "POST", path: "/v1/execute", body: `{` + js + `,"code":"1","packages":[1]}`, status: 400},
		{name: "network allowing nothing", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","network":{}}`, status: 200},
		{name: "network off", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","network":{"allow":["example.com"]}}`, status: 400},
		{name: "secret without hosts", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","secrets":{"K":{"value":"v"}}}`, status: 400},
		{name: "context id pattern", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","contextId":"no such"}`, status: 404},
		{name: "unknown context", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","contextId":"nope"}`, status: 404},
		{name: "context language mismatch", method: "POST", path: "/v1/evaluate", body: `{"language":"python","code":"1","contextId":"c1"}`, status: 409},
		{name: "context env fixed", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"1","contextId":"c1","env":{"A":"1"}}`, status: 400},
		{name: "invalid UTF-8", method: "POST", path: "/v1/evaluate", body: "{\"language\":\"javascript\",\"code\":\"\xff\"}", status: 400},
		{name: "too large", method: "POST", path: "/v1/evaluate", body: `{` + js + `,"code":"` + strings.Repeat("x", 1<<20) + `"}`, status: 413},
		{name: "wrong method evaluate", method: "GET", path: "/v1/evaluate", status: 405},
		{name: "no route", method: "GET", path: "/v1/nope", status: 404},

		// TypeScript check.
		{name: "check", method: "POST", path: "/v1/typescript/check", body: `{"code":"const n: number = 1"}`, status: 200},
		{name: "check diagnostics", method: "POST", path: "/v1/typescript/check", body: `{"code":"const n: number = 'bad'","compilerOptions":{"strict":true,"paths":{"a":["b"]}},"typescriptVersion":"5.9"}`, status: 200},
		{name: "check files", method: "POST", path: "/v1/typescript/check", body: `{"files":{"a.ts":"export {}"},"filePath":"a.ts"}`, status: 200},
		{name: "check empty code with files", method: "POST", path: "/v1/typescript/check", body: `{"code":"","files":{"a.ts":"export {}"}}`, status: 200},
		{name: "check neither", method: "POST", path: "/v1/typescript/check", body: `{}`, status: 400},
		{name: "check both", method: "POST", path: "/v1/typescript/check", body: `{"code":"1","files":{"a.ts":"1"}}`, status: 400},
		{name: "check empty files", method: "POST", path: "/v1/typescript/check", body: `{"files":{}}`, status: 400},
		{name: "check negative timeout", method: "POST", path: "/v1/typescript/check", body: `{"code":"1","timeoutMs":-1}`, status: 400},
		{name: "check unknown field", method: "POST", path: "/v1/typescript/check", body: `{"code":"1","strict":true}`, status: 400},
		{name: "check compilerOptions array", method: "POST", path: "/v1/typescript/check", body: `{"code":"1","compilerOptions":[1]}`, status: 400},
		{name: "typescript info", method: "GET", path: "/v1/typescript", status: 200},

		// Contexts.
		{name: "create", method: "POST", path: "/v1/contexts", body: `{"contextId":"made-1",` + js + `,"env":{"A":"1"},"limits":{"memoryBytes":67108864}}`, status: 201},
		{name: "create generated id", method: "POST", path: "/v1/contexts", body: `{"language":"python"}`, status: 201},
		{name: "create unpinned", method: "POST", path: "/v1/contexts", body: `{"contextId":"unpinned","language":""}`, status: 201},
		{name: "create no language", method: "POST", path: "/v1/contexts", body: `{"contextId":"unpinned2"}`, status: 201},
		{name: "create duplicate", method: "POST", path: "/v1/contexts", body: `{"contextId":"c1",` + js + `}`, status: 409},
		{name: "create bad id", method: "POST", path: "/v1/contexts", body: `{"contextId":"a b",` + js + `}`, status: 400},
		{name: "create long id", method: "POST", path: "/v1/contexts", body: `{"contextId":"` + strings.Repeat("a", 65) + `",` + js + `}`, status: 400},
		{name: "create fuel", method: "POST", path: "/v1/contexts", body: `{` + js + `,"limits":{"fuel":1}}`, status: 400},
		{name: "create outputBytes", method: "POST", path: "/v1/contexts", body: `{` + js + `,"limits":{"outputBytes":1}}`, status: 400},
		{name: "create unknown language", method: "POST", path: "/v1/contexts", body: `{"language":"ruby"}`, status: 400},
		{name: "create unknown field", method: "POST", path: "/v1/contexts", body: `{` + js + `,"timeoutMs":1}`, status: 400},
		{name: "list", method: "GET", path: "/v1/contexts", status: 200},
		{name: "get", method: "GET", path: "/v1/contexts/c1", status: 200},
		{name: "get unknown", method: "GET", path: "/v1/contexts/nope", status: 404},
		{name: "get bad id", method: "GET", path: "/v1/contexts/a%20b", status: 404},
		{name: "patch", method: "PATCH", path: "/v1/contexts/c1", status: 405},
		{name: "put contexts", method: "PUT", path: "/v1/contexts", status: 405},
		{name: "reset", method: "POST", path: "/v1/contexts/c3/reset", status: 200},
		{name: "reset unknown", method: "POST", path: "/v1/contexts/nope/reset", status: 404},
		{name: "hibernate", method: "POST", path: "/v1/contexts/c3/hibernate", status: 200},
		{name: "fork", method: "POST", path: "/v1/contexts/c1/fork", body: `{"contextId":"c1-fork"}`, status: 201},
		{name: "fork no body", method: "POST", path: "/v1/contexts/c1/fork", status: 201},
		{name: "fork duplicate", method: "POST", path: "/v1/contexts/c1/fork", body: `{"contextId":"c1"}`, status: 409},
		{name: "fork bad id", method: "POST", path: "/v1/contexts/c1/fork", body: `{"contextId":"a/b"}`, status: 400},
		{name: "fork unknown field", method: "POST", path: "/v1/contexts/c1/fork", body: `{"id":"x"}`, status: 400},
		{name: "fork unknown", method: "POST", path: "/v1/contexts/nope/fork", status: 404},
		{name: "delete", method: "DELETE", path: "/v1/contexts/made-1", status: 204},
		{name: "delete again", method: "DELETE", path: "/v1/contexts/made-1", status: 404},

		// Files.
		{name: "read", method: "GET", path: "/v1/contexts/c1/files/dir/a.txt", status: 200},
		{name: "read dir", method: "GET", path: "/v1/contexts/c1/files/dir", status: 400},
		{name: "list dir/", method: "GET", path: "/v1/contexts/c1/files/dir/", status: 200},
		{name: "list files/", method: "GET", path: "/v1/contexts/c1/files/", status: 200},
		{name: "list ?dir", method: "GET", path: "/v1/contexts/c1/files?dir=dir", status: 200},
		{name: "list root", method: "GET", path: "/v1/contexts/c1/files", status: 200},
		{name: "list missing dir", method: "GET", path: "/v1/contexts/c1/files?dir=nope", status: 404},
		{name: "list a file", method: "GET", path: "/v1/contexts/c1/files?dir=dir/a.txt", status: 400},
		{name: "read missing", method: "GET", path: "/v1/contexts/c1/files/nope.txt", status: 404},
		{name: "read escape", method: "GET", path: "/v1/contexts/c1/files/..%2F..%2Fetc%2Fpasswd", status: 400},
		{name: "read NUL", method: "GET", path: "/v1/contexts/c1/files/a%00b", status: 400},
		{name: "read unknown context", method: "GET", path: "/v1/contexts/nope/files/a.txt", status: 404},
		{name: "write", method: "PUT", path: "/v1/contexts/c1/files/new/b.bin", body: "\x00\x01\xff", contentType: "application/octet-stream", status: 200},
		{name: "write no type", method: "PUT", path: "/v1/contexts/c1/files/c.txt", body: "plain", contentType: "-", status: 200},
		{name: "write JSON string", method: "PUT", path: "/v1/contexts/c1/files/j.txt", body: `"line\n"`, contentType: "application/json", status: 200},
		{name: "write JSON object", method: "PUT", path: "/v1/contexts/c1/files/package.json", body: `{"name":"x"}`, contentType: "application/json", status: 200},
		{name: "write over quota", method: "PUT", path: "/v1/contexts/c1/files/big", body: strings.Repeat("x", 1<<20-1), contentType: "application/octet-stream", status: 413},
		{name: "write escape", method: "PUT", path: "/v1/contexts/c1/files/..%2Fx", body: "x", contentType: "application/octet-stream", status: 400},
		{name: "write unknown context", method: "PUT", path: "/v1/contexts/nope/files/x", body: "x", contentType: "application/octet-stream", status: 404},
		{name: "delete file", method: "DELETE", path: "/v1/contexts/c1/files/c.txt", status: 204},
		{name: "delete tree", method: "DELETE", path: "/v1/contexts/c1/files/gone", status: 204},
		{name: "delete missing file", method: "DELETE", path: "/v1/contexts/c1/files/c.txt", status: 404},
		{name: "delete root", method: "DELETE", path: "/v1/contexts/c1/files/", status: 400},
		{name: "post file", method: "POST", path: "/v1/contexts/c1/files/a", status: 405},

		// Installs.
		{name: "npm install", method: "POST", path: "/v1/contexts/c1/npm/install", body: `{"packages":["left-pad@1.3.0"],"dev":true,"timeoutMs":1000}`, status: 200},
		{name: "npm install no body", method: "POST", path: "/v1/contexts/c1/npm/install", status: 200},
		{name: "npm unknown field", method: "POST", path: "/v1/contexts/c1/npm/install", body: `{"pkgs":["x"]}`, status: 400},
		{name: "npm packages not array", method: "POST", path: "/v1/contexts/c1/npm/install", body: `{"packages":"x"}`, status: 400},
		{name: "npm unknown context", method: "POST", path: "/v1/contexts/nope/npm/install", body: `{"packages":["x"]}`, status: 404},
		{name: "pip install", method: "POST", path: "/v1/contexts/py1/pip/install", body: `{"packages":["purefn==1.0"],"upgrade":true}`, status: 200},
		{name: "pip unknown field", method: "POST", path: "/v1/contexts/py1/pip/install", body: `{"pkgs":["x"]}`, status: 400},
		{name: "pip javascript context", method: "POST", path: "/v1/contexts/c1/pip/install", body: `{"packages":["x"]}`, status: 409},
		{name: "pip no body", method: "POST", path: "/v1/contexts/py1/pip/install", status: 400},

		// History.
		{name: "history", method: "GET", path: "/v1/executions", status: 200},
		{name: "history page", method: "GET", path: "/v1/executions?limit=2", status: 200},
		{name: "history pip", method: "GET", path: "/v1/executions?kind=pip_install", status: 200},
		{name: "history npm", method: "GET", path: "/v1/executions?kind=npm_install", status: 200},
		{name: "history process", method: "GET", path: "/v1/executions?kind=process&outcome=exited", status: 200},
		{name: "history language", method: "GET", path: "/v1/executions?language=python&contextId=py1", status: 200},
		{name: "history unknown kind", method: "GET", path: "/v1/executions?kind=compile", status: 400},
		{name: "history unknown outcome", method: "GET", path: "/v1/executions?outcome=ok", status: 400},
		{name: "history unknown language", method: "GET", path: "/v1/executions?language=go", status: 400},
		{name: "history bad limit", method: "GET", path: "/v1/executions?limit=0", status: 400},
		{name: "history limit word", method: "GET", path: "/v1/executions?limit=ten", status: 400},
		{name: "history bad cursor", method: "GET", path: "/v1/executions?after=zzz", status: 400},
		{name: "history malformed query", method: "GET", path: "/v1/executions?after=%%%", status: 400},
		{name: "execution", method: "GET", path: "/v1/executions/{exe}", status: 200},
		{name: "execution with code", method: "GET", path: "/v1/executions/{exe}?include=code", status: 200},
		{name: "execution bad include", method: "GET", path: "/v1/executions/{exe}?include=all", status: 400},
		{name: "execution unknown", method: "GET", path: "/v1/executions/exe_nope", status: 404},
		{name: "replay", method: "GET", path: "/v1/executions/{exe}/output", status: 200},
		{name: "replay page", method: "GET", path: "/v1/executions/{exe}/output?after=c0&limit=1&maxBytes=10", status: 200},
		{name: "replay bad cursor", method: "GET", path: "/v1/executions/{exe}/output?after=zzz", status: 400},
		{name: "replay malformed cursor", method: "GET", path: "/v1/executions/{exe}/output?after=%%%", status: 400},
		{name: "replay bad maxBytes", method: "GET", path: "/v1/executions/{exe}/output?maxBytes=-1", status: 400},
		{name: "replay unknown", method: "GET", path: "/v1/executions/exe_nope/output", status: 404},
		{name: "delete execution", method: "DELETE", path: "/v1/executions/{exe}", status: 204},
		{name: "delete execution again", method: "DELETE", path: "/v1/executions/{exe}", status: 404},

		// Processes.
		{name: "spawn", method: "POST", path: "/v1/processes", body: `{` + js + `,"code":"1","args":["a"],"env":{"A":"b"},"timeoutMs":5000}`, status: 201},
		{name: "spawn file", method: "POST", path: "/v1/processes", body: `{` + js + `,"file":"main.js","contextId":"c1"}`, status: 201},
		{name: "spawn neither", method: "POST", path: "/v1/processes", body: `{` + js + `}`, status: 400},
		{name: "spawn both", method: "POST", path: "/v1/processes", body: `{` + js + `,"code":"1","file":"main.js","contextId":"c1"}`, status: 400},
		{name: "spawn unknown language", method: "POST", path: "/v1/processes", body: `{"language":"go","code":"1"}`, status: 400},
		{name: "spawn unknown field", method: "POST", path: "/v1/processes", body: `{` + js + `,"code":"1","stdin":"x"}`, status: 400},
		{name: "spawn negative timeout", method: "POST", path: "/v1/processes", body: `{` + js + `,"code":"1","timeoutMs":-1}`, status: 400},
		{name: "spawn unknown context", method: "POST", path: "/v1/processes", body: `{` + js + `,"code":"1","contextId":"nope"}`, status: 404},
		{name: "processes", method: "GET", path: "/v1/processes", status: 200},
		{name: "process", method: "GET", path: "/v1/processes/{pid}", status: 200},
		{name: "process exited", method: "GET", path: "/v1/processes/{done}", status: 200},
		{name: "process not a number", method: "GET", path: "/v1/processes/abc", status: 404},
		{name: "process zero", method: "GET", path: "/v1/processes/0", status: 404},
		{name: "process unknown", method: "GET", path: "/v1/processes/999999", status: 404},
		{name: "stdin raw", method: "POST", path: "/v1/processes/{pid}/stdin", body: "abc", contentType: "application/octet-stream", status: 200},
		{name: "stdin JSON", method: "POST", path: "/v1/processes/{pid}/stdin", body: `{"data":"ZGVm","encoding":"base64"}`, status: 200},
		{name: "stdin bad base64", method: "POST", path: "/v1/processes/{pid}/stdin", body: `{"data":"%%","encoding":"base64"}`, status: 400},
		{name: "stdin bad encoding", method: "POST", path: "/v1/processes/{pid}/stdin", body: `{"data":"x","encoding":"hex"}`, status: 400},
		{name: "stdin no data", method: "POST", path: "/v1/processes/{pid}/stdin", body: `{}`, status: 400},
		{name: "stdin exited", method: "POST", path: "/v1/processes/{done}/stdin", body: "x", contentType: "application/octet-stream", status: 409},
		{name: "output", method: "GET", path: "/v1/processes/{done}/output", status: 200},
		{name: "output page", method: "GET", path: "/v1/processes/{done}/output?limit=1&maxBytes=1", status: 200},
		{name: "output bad cursor", method: "GET", path: "/v1/processes/{done}/output?after=x", status: 400},
		{name: "output bad limit", method: "GET", path: "/v1/processes/{done}/output?limit=-1", status: 400},
		{name: "stream exited", method: "GET", path: "/v1/processes/{done}/output/stream", status: 200},
		{name: "stream bad cursor", method: "GET", path: "/v1/processes/{done}/output/stream?after=zzz", status: 400},
		{name: "wait exited", method: "GET", path: "/v1/processes/{done}/wait?timeoutMs=1000", status: 200},
		{name: "wait running", method: "GET", path: "/v1/processes/{pid}/wait?timeoutMs=0", status: 200},
		{name: "wait over max", method: "GET", path: "/v1/processes/{pid}/wait?timeoutMs=600001", status: 400},
		{name: "wait negative", method: "GET", path: "/v1/processes/{pid}/wait?timeoutMs=-1", status: 400},
		{name: "signal bad", method: "POST", path: "/v1/processes/{pid}/signal", body: `{"signal":"SIGHUP"}`, status: 400},
		{name: "signal unknown field", method: "POST", path: "/v1/processes/{pid}/signal", body: `{"sig":"SIGTERM"}`, status: 400},
		{name: "signal exited", method: "POST", path: "/v1/processes/{done}/signal", body: `{"signal":"SIGKILL"}`, status: 409},
		{name: "close stdin", method: "POST", path: "/v1/processes/{pid}/stdin/close", status: 200},
		{name: "signal no body", method: "POST", path: "/v1/processes/{pid2}/signal", status: 200},
		{name: "signal", method: "POST", path: "/v1/processes/{pid2}/signal", body: `{"signal":"SIGKILL"}`, status: 200},
		{name: "delete process", method: "DELETE", path: "/v1/processes/{pid}", status: 405},

		// Lifecycle events: not enabled on this server.
		{name: "events not enabled", method: "GET", path: "/v1/events", status: 501},

		// MCP's transport.
		{name: "mcp get", method: "GET", path: "/mcp", status: 405},
		{name: "mcp delete", method: "DELETE", path: "/mcp", status: 405},
		{name: "mcp not enabled", method: "POST", path: "/mcp", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, status: 501},
	}
	return cs
}

// A 401 says plainly that the server takes a bearer API key and has no
// OAuth authorization server, so OAuth-capable MCP clients don't start a
// discovery that can't succeed; the discovery documents are 404s that
// say the same, without a key.
func TestUnauthorizedNamesNoOAuth(t *testing.T) {
	url := mustContractServer(t)
	for _, tc := range []struct {
		name, key, path, method string
		status                  int
		header                  string
	}{
		{"no key", "", "/mcp", "POST", 401, `Bearer realm="wasmexec", error_description="an API key is required as the bearer token; this server has no OAuth authorization server"`},
		{"wrong key", "wrong-key-0123456789", "/mcp", "POST", 401, `Bearer realm="wasmexec", error="invalid_token", error_description="an API key is required as the bearer token; this server has no OAuth authorization server"`},
		{"no key, a route", "", "/v1/contexts", "GET", 401, `Bearer realm="wasmexec", error_description="an API key is required as the bearer token; this server has no OAuth authorization server"`},
		{"resource metadata", "", "/.well-known/oauth-protected-resource/mcp", "GET", 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := as(t, tc.key, tc.method, url+tc.path, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`)
			if r.Status != tc.status || r.Header.Get("WWW-Authenticate") != tc.header {
				t.Fatalf("%d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
			}
			msg, _ := r.JSON["message"].(string)
			if tc.path == "/mcp" { // MCP clients read a JSON-RPC error
				e, _ := r.JSON["error"].(map[string]any)
				msg, _ = e["message"].(string)
				if r.JSON["jsonrpc"] != "2.0" || e["code"] != float64(-32600) {
					t.Fatalf("not a JSON-RPC error: %s", r.Body)
				}
			}
			if !strings.Contains(msg, "OAuth") || !strings.Contains(msg, "Bearer") {
				t.Fatalf("the message does not say how to authenticate: %s", r.Body)
			}
			if strings.Contains(r.Header.Get("WWW-Authenticate"), "resource_metadata") {
				t.Fatal("a challenge names resource metadata")
			}
		})
	}
}
