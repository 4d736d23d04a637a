package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/auth"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/mcp"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/store"
	"github.com/wasmexec/wasmexec/vfs"
)

// fakeChecker answers one diagnostic for code containing "bad".
type fakeChecker struct{}

func (fakeChecker) Check(_ context.Context, req *wasmexec.TypeScriptCheckRequest) (any, error) {
	if strings.Contains(req.Code, "bad") {
		return map[string]any{"outcome": "succeeded", "hasErrors": true, "diagnostics": []map[string]any{
			{"code": 2322, "category": "error", "message": "Type 'string' is not assignable to type 'number'.", "filePath": "main.ts", "line": 1, "column": 7},
		}}, nil
	}
	return map[string]any{"outcome": "succeeded", "hasErrors": false, "diagnostics": []any{}}, nil
}

// MustMCPServer serves the whole HTTP API with /mcp (JavaScript and
// TypeScript, contexts, a fake checker) and returns its URL.
func MustMCPServer(tb testing.TB) string {
	tb.Helper()
	return mustMCPServerWith(tb, mcpServerOpts{})
}

// mcpServerOpts add services to MustMCPServer's.
type mcpServerOpts struct {
	NPM server.NPM // nil: no npm_install tool
	Pip func(*contexts.Manager) server.Pip
	// Key, when set, is the one API key the server takes.
	Key string
}

// mustMCPServerWith is MustMCPServer with the services of o.
func mustMCPServerWith(tb testing.TB, o mcpServerOpts) string {
	tb.Helper()
	st, err := store.Open(context.Background(), store.Config{Path: filepath.Join(tb.TempDir(), "wasmexec.db")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	r := testenv.Runner(tb, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName), python.ImageName: testenv.Image(tb, python.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}, wasmexec.TypeScript: ts.Driver{}, wasmexec.Python: python.Driver{}},
		Store:     st,
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
	procs, err := processes.New(processes.Config{Runner: r, MaxProcesses: 8, Workspace: m.WorkspaceDir})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(procs.Close)
	scfg := server.Config{Runner: r, Contexts: m, Checker: fakeChecker{}, NPM: o.NPM, Processes: procs, History: st}
	if o.Key != "" {
		path := filepath.Join(tb.TempDir(), "keys.json")
		os.WriteFile(path, []byte(`{"tenants":{"t":{}},"keys":[{"tenant":"t","key":"`+o.Key+`"}]}`), 0o600)
		keys, err := auth.Load(path)
		if err != nil {
			tb.Fatal(err)
		}
		scfg.Auth = keys
	}
	cfg := server.Guard(scfg)
	mc := mcp.Config{Runner: cfg.Runner, Contexts: cfg.Contexts, Checker: cfg.Checker, NPM: cfg.NPM, Processes: server.NewProcessAPI(cfg), History: cfg.History, BodyLimit: 1 << 20}
	if o.Pip != nil {
		mc.Pip = o.Pip(m)
	}
	cfg.MCP = mcp.Handler(mc)
	srv := httptest.NewServer(server.New(cfg).Handler())
	tb.Cleanup(srv.Close)
	return srv.URL
}

// MustSession connects the SDK's own client to url/mcp.
func MustSession(tb testing.TB, url string, hc *http.Client) *sdk.ClientSession {
	tb.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func call(tb testing.TB, s *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, map[string]any) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	var m map[string]any
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &m)
	}
	return res, m
}

func textOf(r *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// allTools are the tools of MustMCPServer (no npm_install or pip_install).
var allTools = []string{"run_code", "create_context", "delete_context", "reset_context", "fork_context", "list_contexts", "typescript_check", "read_file", "write_file", "delete_file", "list_files",
	"spawn_process", "write_stdin", "signal_process", "wait_process", "read_process_output", "list_processes", "list_executions", "get_execution"}

func TestToolsList(t *testing.T) {
	s := MustSession(t, MustMCPServer(t), nil)
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, name := range allTools {
		want[name] = true
	}
	for _, tool := range res.Tools {
		if !want[tool.Name] {
			t.Errorf("unexpected tool %s", tool.Name)
		}
		delete(want, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s: description, input and output schema are required", tool.Name)
		}
		if a := tool.Annotations; a == nil || a.Title == "" || a.DestructiveHint == nil || a.OpenWorldHint == nil || (a.ReadOnlyHint && *a.DestructiveHint) {
			t.Errorf("%s: annotations %+v", tool.Name, a)
		}
		// No ["null", T] unions, which stricter schema dialects refuse.
		for what, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			b, _ := json.Marshal(schema)
			if strings.Contains(string(b), `"null"`) {
				t.Errorf("%s: the %s schema has a null type: %s", tool.Name, what, b)
			}
		}
	}
	if len(want) > 0 {
		t.Fatalf("missing tools: %v", want)
	}
}

func TestRunCode(t *testing.T) {
	url := MustMCPServer(t)
	s := MustSession(t, url, nil)
	for _, tc := range []struct {
		name    string
		args    map[string]any
		outcome string
		isError bool
		check   func(t *testing.T, m map[string]any, text string)
	}{
		{"value and stdout", map[string]any{"language": "javascript", "code": "console.log('hi'); inputs.a * 2", "inputs": map[string]any{"a": 21}}, "succeeded", false,
			func(t *testing.T, m map[string]any, text string) {
				if m["value"] != float64(42) || m["stdout"] != "hi\n" || !strings.Contains(text, "value: 42") || !strings.Contains(text, "hi") {
					t.Fatalf("%v %q", m, text)
				}
			}},
		{"typescript", map[string]any{"language": "typescript", "code": "const n: number = 2; n + 1"}, "succeeded", false,
			func(t *testing.T, m map[string]any, _ string) {
				if m["value"] != float64(3) {
					t.Fatalf("%v", m)
				}
			}},
		{"files and execute", map[string]any{"language": "javascript", "mode": "execute", "code": "console.log(fs.readFileSync('/workspace/a.txt', 'utf8'))", "files": map[string]any{"a.txt": "from a file"}}, "succeeded", false,
			func(t *testing.T, m map[string]any, _ string) {
				if m["stdout"] != "from a file\n" {
					t.Fatalf("%v", m)
				}
			}},
		{"exception", map[string]any{"language": "javascript", "code": "throw new TypeError('boom')"}, "failed", true,
			func(t *testing.T, m map[string]any, text string) {
				if e, _ := m["error"].(map[string]any); e["code"] != "exception" || !strings.Contains(text, "boom") {
					t.Fatalf("%v %q", m, text)
				}
			}},
		{"timeout", map[string]any{"language": "javascript", "code": "for(;;){}", "timeoutMs": 200}, "timed_out", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, m := call(t, s, "run_code", tc.args)
			if m["outcome"] != tc.outcome || res.IsError != tc.isError {
				t.Fatalf("outcome %v isError %v: %s", m["outcome"], res.IsError, textOf(res))
			}
			if id, _ := m["executionId"].(string); !strings.HasPrefix(id, "exe_") {
				t.Fatalf("executionId = %v", m["executionId"])
			}
			if tc.check != nil {
				tc.check(t, m, textOf(res))
			}
		})
	}
}

// Service errors are tool errors naming the code; bad arguments and
// unknown tools are JSON-RPC errors or tool errors, never a crash.
func TestToolErrors(t *testing.T) {
	url := MustMCPServer(t)
	s := MustSession(t, url, nil)
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"unknown language", "run_code", map[string]any{"language": "cobol", "code": "1"}, "language"},
		{"unknown context", "run_code", map[string]any{"language": "javascript", "code": "1", "contextId": "nope"}, "not_found"},
		{"timeout above max", "run_code", map[string]any{"language": "javascript", "code": "1", "timeoutMs": 99999999}, "invalid_argument"},
		{"bad mode", "run_code", map[string]any{"language": "javascript", "code": "1", "mode": "compile"}, "mode"},
		{"memory above max", "run_code", map[string]any{"language": "javascript", "code": "1", "limits": map[string]any{"memoryBytes": 1 << 40}}, "invalid_argument"},
		{"unknown pid", "wait_process", map[string]any{"pid": 424242, "timeoutMs": 0}, "not_found"},
		{"unknown execution", "get_execution", map[string]any{"executionId": "exe_nope"}, "not_found"},
		{"wrong type", "run_code", map[string]any{"language": "javascript", "code": 5}, "code"},
		{"missing required", "delete_context", map[string]any{}, "contextId"},
		{"read unknown context", "read_file", map[string]any{"contextId": "nope", "path": "a"}, "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := call(t, s, tc.tool, tc.args)
			if !res.IsError || !strings.Contains(textOf(res), tc.want) {
				t.Fatalf("isError %v: %s", res.IsError, textOf(res))
			}
		})
	}
	if _, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "no_such_tool"}); err == nil {
		t.Fatal("an unknown tool is a JSON-RPC error")
	}
	// Malformed, unknown and oversized messages get a 4xx whose body is a
	// JSON-RPC error (without an id) with the code JSON-RPC gives them.
	for _, tc := range []struct {
		body   string
		status int
		code   float64
	}{
		{`{"jsonrpc":`, 400, -32700},
		{`[1,2,3]`, 400, -32700},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + strings.Repeat("[", 100000) + `}`, 400, -32700},
		{`{"jsonrpc":"2.0","id":1,"method":"no/such/method"}`, 400, -32601},
		{strings.Repeat("x", 2<<20), 413, -32600},
	} {
		req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var m struct {
			JSONRPC string `json:"jsonrpc"`
			Error   struct {
				Code    float64 `json:"code"`
				Message string  `json:"message"`
			} `json:"error"`
		}
		if resp.StatusCode != tc.status || json.Unmarshal(b, &m) != nil || m.JSONRPC != "2.0" || m.Error.Code != tc.code || m.Error.Message == "" {
			t.Fatalf("%.30q: HTTP %d %s, want %d with JSON-RPC error %v", tc.body, resp.StatusCode, b, tc.status, tc.code)
		}
	}
	res, m := call(t, s, "run_code", map[string]any{"language": "javascript", "code": "1+1"})
	if res.IsError || m["value"] != float64(2) {
		t.Fatalf("the server broke after bad messages: %s", textOf(res))
	}
}

func TestContextTools(t *testing.T) {
	s := MustSession(t, MustMCPServer(t), nil)
	_, m := call(t, s, "create_context", map[string]any{"language": "javascript", "contextId": "agent1"})
	if m["contextId"] != "agent1" || m["state"] != "idle" {
		t.Fatalf("create: %v", m)
	}
	if res, m := call(t, s, "run_code", map[string]any{"language": "javascript", "contextId": "agent1", "code": "globalThis.x = 41; 0"}); res.IsError {
		t.Fatalf("run: %v", m)
	}
	if _, m := call(t, s, "run_code", map[string]any{"language": "javascript", "contextId": "agent1", "code": "x + 1"}); m["value"] != float64(42) || m["contextId"] != "agent1" {
		t.Fatalf("state not kept: %v", m)
	}
	if res, m := call(t, s, "write_file", map[string]any{"contextId": "agent1", "path": "dir/a.txt", "content": "hello"}); res.IsError || m["size"] != float64(5) {
		t.Fatalf("write: %v %s", m, textOf(res))
	}
	if res, m := call(t, s, "write_file", map[string]any{"contextId": "agent1", "path": "b.bin", "content": "/wA=", "encoding": "base64"}); res.IsError {
		t.Fatalf("write base64: %v", m)
	}
	if _, m := call(t, s, "read_file", map[string]any{"contextId": "agent1", "path": "dir/a.txt"}); m["content"] != "hello" || m["encoding"] != "utf8" {
		t.Fatalf("read: %v", m)
	}
	if _, m := call(t, s, "read_file", map[string]any{"contextId": "agent1", "path": "b.bin"}); m["content"] != "/wA=" || m["encoding"] != "base64" {
		t.Fatalf("read base64: %v", m)
	}
	if _, m := call(t, s, "list_files", map[string]any{"contextId": "agent1", "dir": "dir"}); len(m["entries"].([]any)) != 1 {
		t.Fatalf("list files: %v", m)
	}
	if _, m := call(t, s, "run_code", map[string]any{"language": "javascript", "contextId": "agent1", "code": "fs.readFileSync('/workspace/dir/a.txt','utf8')"}); m["value"] != "hello" {
		t.Fatalf("the guest does not see the file: %v", m)
	}
	if _, m := call(t, s, "list_contexts", nil); len(m["contexts"].([]any)) != 1 {
		t.Fatalf("list: %v", m)
	}
	// A fork has the state and the files, and diverges independently.
	if res, m := call(t, s, "fork_context", map[string]any{"contextId": "agent1", "newContextId": "agent2"}); res.IsError || m["contextId"] != "agent2" {
		t.Fatalf("fork: %v", m)
	}
	if _, m := call(t, s, "run_code", map[string]any{"language": "javascript", "contextId": "agent2", "code": "x += 1; x + fs.readFileSync('/workspace/dir/a.txt','utf8')"}); m["value"] != "42hello" {
		t.Fatalf("the fork lacks the state or the files: %v", m)
	}
	if _, m := call(t, s, "run_code", map[string]any{"language": "javascript", "contextId": "agent1", "code": "x"}); m["value"] != float64(41) {
		t.Fatalf("the fork changed its origin: %v", m)
	}
	if res, _ := call(t, s, "fork_context", map[string]any{"contextId": "nope"}); !res.IsError {
		t.Fatal("a missing context was forked")
	}
	if _, m := call(t, s, "delete_context", map[string]any{"contextId": "agent2"}); m["deleted"] != true {
		t.Fatalf("delete the fork: %v", m)
	}
	if _, m := call(t, s, "reset_context", map[string]any{"contextId": "agent1"}); m["resets"] != float64(1) {
		t.Fatalf("reset: %v", m)
	}
	if _, m := call(t, s, "run_code", map[string]any{"language": "javascript", "contextId": "agent1", "code": "typeof x"}); m["value"] != "undefined" {
		t.Fatalf("reset kept globals: %v", m)
	}
	if _, m := call(t, s, "delete_context", map[string]any{"contextId": "agent1"}); m["deleted"] != true {
		t.Fatalf("delete: %v", m)
	}
	if res, _ := call(t, s, "reset_context", map[string]any{"contextId": "agent1"}); !res.IsError {
		t.Fatal("a deleted context can be reset")
	}
}

func TestTypeScriptCheckTool(t *testing.T) {
	s := MustSession(t, MustMCPServer(t), nil)
	res, m := call(t, s, "typescript_check", map[string]any{"code": "const n: number = 'bad'"})
	if res.IsError || m["hasErrors"] != true || !strings.Contains(textOf(res), "main.ts:1:7") {
		t.Fatalf("%v %s", m, textOf(res))
	}
	if res, _ := call(t, s, "typescript_check", map[string]any{}); !res.IsError {
		t.Fatal("no code and no files is an error")
	}
}

// keyTransport adds an API key to every request.
type keyTransport string

func (k keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(k))
	return http.DefaultTransport.RoundTrip(r)
}

// With API keys, /mcp needs one and tools act for the key's tenant.
func TestMCPTenants(t *testing.T) {
	tenants := server.NewTenants()
	r := testenv.Runner(t, testenv.RunnerConfig{
		Tenants:   tenants,
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	path := filepath.Join(t.TempDir(), "keys.json")
	os.WriteFile(path, []byte(`{"tenants":{"a":{},"b":{"maxRunsPerMinute":0}},"keys":[{"tenant":"a","key":"key-a-0123456789ab"},{"tenant":"b","key":"key-b-0123456789ab"}]}`), 0o600)
	keys, err := auth.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Guard(server.Config{Runner: r, Contexts: m, Auth: keys, Tenants: tenants})
	cfg.MCP = mcp.Handler(mcp.Config{Runner: cfg.Runner, Contexts: cfg.Contexts})
	srv := httptest.NewServer(server.New(cfg).Handler())
	t.Cleanup(srv.Close)

	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	if _, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true, MaxRetries: -1}, nil); err == nil {
		t.Fatal("connected without a key")
	}
	a := MustSession(t, srv.URL, &http.Client{Transport: keyTransport("key-a-0123456789ab")})
	b := MustSession(t, srv.URL, &http.Client{Transport: keyTransport("key-b-0123456789ab")})
	if res, m := call(t, a, "create_context", map[string]any{"language": "javascript", "contextId": "mine"}); res.IsError {
		t.Fatalf("create: %v %s", m, textOf(res))
	}
	if _, m := call(t, b, "list_contexts", nil); len(m["contexts"].([]any)) != 0 {
		t.Fatalf("b sees a's contexts: %v", m)
	}
	if res, _ := call(t, b, "read_file", map[string]any{"contextId": "mine", "path": "x"}); !res.IsError || !strings.Contains(textOf(res), "context_not_found") {
		t.Fatalf("b reads a's context: %s", textOf(res))
	}
	if res, _ := call(t, b, "run_code", map[string]any{"language": "javascript", "code": "1"}); !res.IsError || !strings.Contains(textOf(res), "maxRunsPerMinute") {
		t.Fatalf("b's quota: %s", textOf(res))
	}
	if res, m := call(t, a, "run_code", map[string]any{"language": "javascript", "code": "1", "contextId": "mine"}); res.IsError {
		t.Fatalf("a's run: %v", m)
	}
}

// An open server refuses a loopback request naming another host (DNS
// rebinding).
func TestRebindingProtection(t *testing.T) {
	srv := httptest.NewServer(mcp.Handler(mcp.Config{Runner: nil, RebindingProtection: true}))
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Host = "evil.example:80"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("got %d", resp.StatusCode)
	}
}

// One JSON-RPC batch of 16 create_context calls, which the server handles
// concurrently, used to make 3 contexts for a tenant allowed 2: the
// quota was checked by each call before any made its context. Now
// exactly maxContexts calls succeed, the others are tool errors naming
// quota_exceeded and maxContexts, named ids or generated.
func TestMCPBatchCreateContextQuota(t *testing.T) {
	for _, tc := range []struct {
		name string
		args func(i int) string
	}{
		{"generated ids", func(int) string { return `{"language":"javascript"}` }},
		{"named ids", func(i int) string { return fmt.Sprintf(`{"language":"javascript","contextId":"c%d"}`, i) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testenv.Runner(t, testenv.RunnerConfig{
				Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
				Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
			})
			ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: ws})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(m.Close)
			path := filepath.Join(t.TempDir(), "keys.json")
			os.WriteFile(path, []byte(`{"tenants":{"a":{"maxContexts":2}},"keys":[{"tenant":"a","key":"key-a-0123456789ab"}]}`), 0o600)
			keys, err := auth.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			cfg := server.Guard(server.Config{Runner: r, Contexts: m, Auth: keys})
			cfg.MCP = mcp.Handler(mcp.Config{Runner: cfg.Runner, Contexts: cfg.Contexts})
			srv := httptest.NewServer(server.New(cfg).Handler())
			t.Cleanup(srv.Close)

			const n = 16
			calls := make([]string, n)
			for i := range calls {
				calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"create_context","arguments":%s}}`, i+1, tc.args(i))
			}
			req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader("["+strings.Join(calls, ",")+"]"))
			req.Header.Set("Authorization", "Bearer key-a-0123456789ab")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var replies []struct {
				Result *sdk.CallToolResult `json:"result"`
				Error  any                 `json:"error"`
			}
			b, _ := io.ReadAll(resp.Body)
			if err := json.Unmarshal(b, &replies); err != nil || len(replies) != n {
				t.Fatalf("%d %.500s: %v", resp.StatusCode, b, err)
			}
			made := 0
			for _, rep := range replies {
				switch {
				case rep.Result == nil:
					t.Fatalf("a JSON-RPC error: %v", rep.Error)
				case !rep.Result.IsError:
					made++
				case !strings.Contains(textOf(rep.Result), "quota_exceeded") || !strings.Contains(textOf(rep.Result), "maxContexts"):
					t.Fatalf("refused, but not by the quota: %s", textOf(rep.Result))
				}
			}
			all, err := m.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if made != 2 || len(all) != 2 {
				t.Fatalf("%d of %d calls made a context, %d contexts; want 2", made, n, len(all))
			}
		})
	}
}

// While the server loads its guest images there is no Runner yet: run_code
// is a tool error saying so, as POST /v1/evaluate is a 503.
func TestRunCodeWhileLoading(t *testing.T) {
	srv := httptest.NewServer(server.New(server.Config{MCP: mcp.Handler(mcp.Config{BodyLimit: 1 << 20})}).Handler())
	t.Cleanup(srv.Close)
	res, _ := call(t, MustSession(t, srv.URL, nil), "run_code", map[string]any{"language": "javascript", "code": "1"})
	if !res.IsError || !strings.Contains(textOf(res), "still loading") {
		t.Fatalf("run_code while loading: error %v, %q", res.IsError, textOf(res))
	}
}
