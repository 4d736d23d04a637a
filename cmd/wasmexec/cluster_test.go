package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/client"
	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

const (
	clusterKeyA = "key-of-tenant-a-0123456789"
	clusterKeyB = "key-of-tenant-b-0123456789"
	clusterKeyQ = "key-of-tenant-q-0123456789" // maxContexts 2
	clusterKeyW = "key-of-tenant-w-0123456789" // maxWorkspaceBytes 100000
	clusterKeyT = "key-of-tenant-t-0123456789" // maxTemplates 2
	clusterKeyM = "key-of-tenant-m-0123456789" // maxTemplateBytes 12 MB
	testSecret  = "node-secret-0123456789abcdef"
)

// testCluster is N real servers on one PostgreSQL database.
type testCluster struct {
	url    string
	db     *sql.DB
	keys   string
	secret string
	args   []string
}

func newTestCluster(t *testing.T, args ...string) *testCluster {
	t.Helper()
	testenv.ImageDir(t, "js")
	pgtest.Shared(t) // skips, saying why, where PostgreSQL cannot run
	url := pgtest.NewDatabase(t)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	dir := t.TempDir()
	tc := &testCluster{url: url, db: db, keys: filepath.Join(dir, "keys.json"), secret: filepath.Join(dir, "secret"), args: args}
	if err := os.WriteFile(tc.keys, []byte(`{"tenants":{"a":{},"b":{},"q":{"maxContexts":2},"w":{"maxWorkspaceBytes":100000},"t":{"maxTemplates":2},"m":{"maxTemplateBytes":12000000}},"keys":[{"tenant":"t","key":"`+clusterKeyT+`"},{"tenant":"m","key":"`+clusterKeyM+`"},{"tenant":"a","key":"`+clusterKeyA+`"},{"tenant":"b","key":"`+clusterKeyB+`"},{"tenant":"q","key":"`+clusterKeyQ+`"},{"tenant":"w","key":"`+clusterKeyW+`"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tc.secret, []byte(testSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return tc
}

// node starts one server of the cluster.
func (tc *testCluster) node(t *testing.T, name string) *proc {
	t.Helper()
	addr := freeAddr(t)
	// The later --addr wins over MustServe's own.
	p := MustServe(t, t.TempDir(), append([]string{"--addr", addr, "--advertise-url", "http://" + addr, "--node-id", name,
		"--store", "postgres", "--store-url", tc.url, "--node-secret-file", tc.secret, "--auth-keys-file", tc.keys,
		"--tscheck-workers", "0", "--context-lease-ms", "1500", "--context-snapshot-after-ms", "50"}, tc.args...)...)
	p.base = "http://" + addr
	return p
}

// eval runs code in a context through p with a key and returns the
// status and the decoded body.
func eval(t *testing.T, p *proc, key, ctxID, lang, code string) (int, map[string]any, string) {
	t.Helper()
	return p.doKey(t, key, "POST", "/v1/evaluate", fmt.Sprintf(`{"language":%q,"contextId":%q,"code":%q}`, lang, ctxID, code))
}

// mcpRun calls the MCP tool run_code (JavaScript) in context ctxID
// through p, returning the run's value and the raw answer.
func mcpRun(t *testing.T, p *proc, key, ctxID, code string) (any, string) {
	t.Helper()
	out, raw := mcpTool(t, p, key, "run_code", fmt.Sprintf(`{"language":"javascript","contextId":%q,"code":%q}`, ctxID, code))
	return out["value"], raw
}

// mcpTool calls an MCP tool through p with a key and JSON arguments,
// returning its structured output and the raw answer.
func mcpTool(t *testing.T, p *proc, key, name, args string) (map[string]any, string) {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, name, args)
	req, _ := http.NewRequest("POST", p.base+"/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m struct {
		Result struct {
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	json.Unmarshal(b, &m)
	return m.Result.StructuredContent, string(b)
}

func mustValue(t *testing.T, p *proc, ctxID, lang, code string, want any) {
	t.Helper()
	s, r, raw := eval(t, p, clusterKeyA, ctxID, lang, code)
	if s != 200 || r["outcome"] != "succeeded" || fmt.Sprint(r["value"]) != fmt.Sprint(want) {
		t.Fatalf("%s in %s through %s: %d %s, want value %v; its log:\n%s", code, ctxID, p.base, s, raw, want, p.logs.String())
	}
}

// snapshotted waits until the state of context id is stored after its
// last run (asked through p).
func snapshotted(t *testing.T, p *proc, id string) {
	t.Helper()
	poll.Until(t, 30*time.Second, "a snapshot of "+id+" after its last run", func() bool {
		s, d, _ := p.doKey(t, clusterKeyA, "GET", "/v1/contexts/"+id, "")
		asOf, _ := d["stateAsOfMs"].(float64)
		done, _ := d["lastCompletedAtMs"].(float64)
		return s == 200 && asOf >= done && asOf > 0
	})
}

func (tc *testCluster) owner(t *testing.T, id string) string {
	t.Helper()
	var owner sql.NullString
	if err := tc.db.QueryRow(`SELECT owner_node FROM cluster_contexts WHERE context_id = $1`, id).Scan(&owner); err != nil {
		t.Fatal(err)
	}
	return owner.String
}

// Three servers and one PostgreSQL: contexts created through node 1 are
// used through nodes 2 and 3 with their JS and Python state; a key of
// another tenant can't reach them through any node; the history is the
// same everywhere; kill -9 of node 1 brings its contexts back on another
// node with their last snapshot once the lease is over (503 with
// Retry-After before); SIGTERM of node 2 moves its contexts with nothing
// lost.
func TestServeCluster(t *testing.T) {
	testenv.ImageDir(t, "python")
	tc := newTestCluster(t)
	n1, n2, n3 := tc.node(t, "n1"), tc.node(t, "n2"), tc.node(t, "n3")

	for _, c := range []string{`{"contextId":"js1","language":"javascript"}`, `{"contextId":"py1","language":"python"}`} {
		if s, _, raw := n1.doKey(t, clusterKeyA, "POST", "/v1/contexts", c); s != 201 {
			t.Fatalf("create through n1: %d %s", s, raw)
		}
	}
	// The id is taken on every node.
	if s, r, raw := n2.doKey(t, clusterKeyA, "POST", "/v1/contexts", `{"contextId":"js1","language":"javascript"}`); s != 409 || r["code"] != "context_conflict" {
		t.Fatalf("create js1 again through n2: %d %s", s, raw)
	}
	mustValue(t, n2, "js1", "javascript", "globalThis.x = 41; x", 41)
	mustValue(t, n3, "js1", "javascript", "x + 1", 42)
	mustValue(t, n2, "py1", "python", "y = 6\ny", 6)
	mustValue(t, n3, "py1", "python", "y * 7", 42)
	// Files through another node than the owner.
	if s, _, raw := n3.doKey(t, clusterKeyA, "PUT", "/v1/contexts/js1/files/note.txt", "from n3"); s/100 != 2 {
		t.Fatalf("write a file through n3: %d %s", s, raw)
	}
	mustValue(t, n2, "js1", "javascript", "require('fs').readFileSync('/workspace/note.txt','utf8')", "from n3")
	// MCP tool calls about a context reach its owner too, from any node;
	// another tenant's key still can't.
	for _, p := range []*proc{n2, n3} {
		if v, raw := mcpRun(t, p, clusterKeyA, "js1", "x + 1"); v != float64(42) {
			t.Fatalf("MCP run_code in js1 through %s: %s", p.base, raw)
		}
	}
	if v, raw := mcpRun(t, n3, clusterKeyB, "js1", "x"); v != nil || !strings.Contains(raw, "not") {
		t.Fatalf("tenant B's MCP call reached A's context: %s", raw)
	}

	// A process in js1, spawned through n3, runs on js1's owner (n1): its
	// pid says so, and n2 streams its output (SSE through the proxy).
	s, pr, raw := n3.doKey(t, clusterKeyA, "POST", "/v1/processes", `{"language":"javascript","contextId":"js1","code":"console.log(require('fs').readFileSync('/workspace/note.txt','utf8'))"}`)
	if s != 201 {
		t.Fatalf("spawn in js1 through n3: %d %s", s, raw)
	}
	pid := int64(pr["pid"].(float64))
	if pid>>32 == 0 {
		t.Fatalf("pid %d carries no node number", pid)
	}
	if s, _, raw := n2.doKey(t, clusterKeyA, "GET", fmt.Sprintf("/v1/processes/%d/output/stream", pid), ""); s != 200 || !strings.Contains(raw, "from n3") || !strings.Contains(raw, "event: exit") {
		t.Fatalf("stream of the process through n2: %d %s", s, raw)
	}
	if s, _, raw := n2.doKey(t, clusterKeyB, "GET", fmt.Sprintf("/v1/processes/%d", pid), ""); s != 404 {
		t.Fatalf("tenant B reads A's process through n2: %d %s", s, raw)
	}

	// Lists gather every server's, each tenant's own.
	for _, p := range []*proc{n2, n3} {
		s, l, raw := p.doKey(t, clusterKeyA, "GET", "/v1/contexts", "")
		if s != 200 || len(l["contexts"].([]any)) != 2 || !strings.Contains(raw, `"js1"`) || !strings.Contains(raw, `"py1"`) {
			t.Fatalf("contexts listed through %s: %d %s", p.base, s, raw)
		}
		if s, _, raw := p.doKey(t, clusterKeyB, "GET", "/v1/contexts", ""); s != 200 || strings.Contains(raw, "js1") {
			t.Fatalf("tenant B's list through %s: %d %s", p.base, s, raw)
		}
		// MCP's list_contexts too.
		if out, raw := mcpTool(t, p, clusterKeyA, "list_contexts", `{}`); len(out["contexts"].([]any)) != 2 || !strings.Contains(raw, `js1`) || !strings.Contains(raw, `py1`) {
			t.Fatalf("MCP list_contexts through %s: %s", p.base, raw)
		}
		if out, raw := mcpTool(t, p, clusterKeyB, "list_contexts", `{}`); len(out["contexts"].([]any)) != 0 {
			t.Fatalf("tenant B's MCP list_contexts through %s: %s", p.base, raw)
		}
		if s, _, raw := p.doKey(t, clusterKeyA, "GET", "/v1/processes", ""); s != 200 || !strings.Contains(raw, fmt.Sprintf(`"pid":%d`, pid)) {
			t.Fatalf("processes listed through %s: %d %s", p.base, s, raw)
		}
	}

	// Tenant B can't use A's context through any node.
	for _, p := range []*proc{n1, n2, n3} {
		s, r, raw := eval(t, p, clusterKeyB, "js1", "javascript", "x")
		if s != 404 || r["code"] != "context_not_found" {
			t.Fatalf("tenant B runs in A's context through %s: %d %s", p.base, s, raw)
		}
		if s, _, raw := p.doKey(t, clusterKeyB, "GET", "/v1/contexts/js1/files/note.txt", ""); s != 404 {
			t.Fatalf("tenant B reads A's file through %s: %d %s", p.base, s, raw)
		}
	}

	// The same history on every node.
	var lists []string
	for _, p := range []*proc{n1, n2, n3} {
		s, l, raw := p.doKey(t, clusterKeyA, "GET", "/v1/executions", "")
		if s != 200 {
			t.Fatalf("history through %s: %d %s", p.base, s, raw)
		}
		var ids []string
		for _, e := range l["executions"].([]any) {
			ids = append(ids, e.(map[string]any)["executionId"].(string))
		}
		lists = append(lists, strings.Join(ids, ","))
	}
	if lists[0] != lists[1] || lists[1] != lists[2] || strings.Count(lists[0], ",") != 7 { // 6 runs over HTTP, 2 over MCP
		t.Fatalf("histories differ or miss runs:\n%s", strings.Join(lists, "\n"))
	}
	// And the same lifecycle events: each node's stream from the start,
	// read up to the newest run's completion, reads alike.
	newest, _, _ := strings.Cut(lists[0], ",")
	var streams []string
	for _, p := range []*proc{n1, n2, n3} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		s, err := client.New(p.base, client.WithAPIKey(clusterKeyA)).Events(ctx, client.EventsOptions{LastID: wasmexec.EncodeCursor(0)})
		if err != nil {
			cancel()
			t.Fatalf("events through %s: %v", p.base, err)
		}
		streams = append(streams, render(readUntil(t, s, completedOf(newest))))
		s.Close()
		cancel()
	}
	if streams[0] != streams[1] || streams[1] != streams[2] || !strings.Contains(streams[0], "context.created") {
		t.Fatalf("event streams differ:\n%s", strings.Join(streams, "\n---\n"))
	}

	// kill -9 of node 1, its contexts snapshotted after their last runs.
	mustValue(t, n2, "js1", "javascript", "x = 100", 100)
	snapshotted(t, n2, "js1")
	snapshotted(t, n2, "py1")
	n1.cmd.Process.Signal(syscall.SIGKILL)
	n1.cmd.Wait()
	// Before its lease ends: 503 with Retry-After.
	if s, retry, body := post(t, n2.base, "/v1/evaluate", `{"language":"javascript","contextId":"js1","code":"x"}`); s != 401 {
		_ = retry
		t.Fatalf("without a key: %d %s", s, body)
	}
	req, _ := http.NewRequest("POST", n2.base+"/v1/evaluate", strings.NewReader(`{"language":"javascript","contextId":"js1","code":"x"}`))
	req.Header.Set("Authorization", "Bearer "+clusterKeyA)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a run in a context of a dead node before its lease ended: %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	// Each comes back once its own lease is over (they may differ).
	afterLease := func(p *proc, id, lang, code string, want any) {
		t.Helper()
		poll.Until(t, 30*time.Second, id+" to come back", func() bool {
			s, _, _ := eval(t, p, clusterKeyA, id, lang, code)
			return s != 503
		})
		mustValue(t, p, id, lang, code, want)
	}
	afterLease(n2, "js1", "javascript", "x", 100)
	afterLease(n2, "py1", "python", "y * 7", 42)
	mustValue(t, n3, "js1", "javascript", "require('fs').readFileSync('/workspace/note.txt','utf8')", "from n3")
	if o := tc.owner(t, "js1"); o != "n2" && o != "n3" {
		t.Fatalf("js1 is owned by %q after the failover, want n2 or n3", o)
	}
	// The process ended with n1: once n1's heartbeat is a lease old, its
	// pid is unknown.
	poll.Until(t, 30*time.Second, "n1's process to be a 404", func() bool {
		s, _, _ := n2.doKey(t, clusterKeyA, "GET", fmt.Sprintf("/v1/processes/%d", pid), "")
		return s == 404
	})

	// SIGTERM of node 2 right after runs in contexts it owns (created
	// there): the drain snapshots and hands them back, and n3 takes them
	// without being asked (then lists them); nothing is lost.
	for _, c := range []string{`{"contextId":"js2","language":"javascript"}`, `{"contextId":"py2","language":"python"}`} {
		if s, _, raw := n2.doKey(t, clusterKeyA, "POST", "/v1/contexts", c); s != 201 {
			t.Fatalf("create through n2: %d %s", s, raw)
		}
	}
	mustValue(t, n3, "js2", "javascript", "globalThis.z = 200; z", 200)
	mustValue(t, n3, "py2", "python", "w = 7\nw", 7)
	n2.cmd.Process.Signal(syscall.SIGTERM)
	if err, _ := n2.exitWithin(t, time.Minute); err != nil {
		t.Fatalf("n2 after SIGTERM: %v\n%s", err, n2.logs.String())
	}
	// Taken (the rows name n3) and adopted (n3 lists them).
	poll.Until(t, 30*time.Second, "n3 to take n2's contexts", func() bool {
		_, _, raw := n3.doKey(t, clusterKeyA, "GET", "/v1/contexts", "")
		for _, id := range []string{"js1", "py1", "js2", "py2"} {
			if tc.owner(t, id) != "n3" || !strings.Contains(raw, `"`+id+`"`) {
				return false
			}
		}
		return true
	})
	mustValue(t, n3, "js2", "javascript", "z + 1", 201)
	mustValue(t, n3, "py2", "python", "w * 6", 42)
	mustValue(t, n3, "js1", "javascript", "x + 1", 101)
	mustValue(t, n3, "py1", "python", "y * 7", 42)
	if s, _, raw := eval(t, n3, clusterKeyB, "js2", "javascript", "z"); s != 404 {
		t.Fatalf("tenant B after the moves: %d %s", s, raw)
	}
	// Deleting it removes it from the cluster.
	if s, _, raw := n3.doKey(t, clusterKeyA, "DELETE", "/v1/contexts/js1", ""); s != 204 {
		t.Fatalf("delete: %d %s", s, raw)
	}
	var n int
	tc.db.QueryRow(`SELECT count(*) FROM cluster_contexts WHERE context_id = 'js1'`).Scan(&n)
	if n != 0 {
		t.Fatalf("js1 still has a row after its deletion")
	}
}

// A drained context is claimable at once, through any node: SIGTERM of
// its owner releases it (its row names no owner), and the next request
// through another node, which remembered the old owner from a forward
// moments before, finds the owner gone and claims it rather than answer
// 503. The lease is long, so that nothing runs out meanwhile.
func TestServeClusterDrainedContextIsClaimedAtOnce(t *testing.T) {
	tc := newTestCluster(t, "--context-lease-ms", "60000")
	n1, n2 := tc.node(t, "n1"), tc.node(t, "n2")
	for _, tt := range []struct{ name, id, lang, set, get string }{
		{"javascript", "drain-js", "javascript", "globalThis.kept = 41; kept", "kept + 1"},
		{"typescript", "drain-ts", "typescript", "let left: number = 41; left", "left + 1"},
	} {
		if s, _, raw := n1.doKey(t, clusterKeyA, "POST", "/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":%q}`, tt.id, tt.lang)); s != 201 {
			t.Fatalf("%s: create through n1: %d %s", tt.name, s, raw)
		}
		// Through n2: forwarded to n1, which n2 now remembers as the owner.
		mustValue(t, n2, tt.id, tt.lang, tt.set, 41)
	}
	n1.cmd.Process.Signal(syscall.SIGTERM)
	if err, _ := n1.exitWithin(t, time.Minute); err != nil {
		t.Fatalf("n1 after SIGTERM: %v\n%s", err, n1.logs.String())
	}
	for _, tt := range []struct{ name, id, lang, get string }{
		{"javascript", "drain-js", "javascript", "kept + 1"},
		{"typescript", "drain-ts", "typescript", "left + 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if o := tc.owner(t, tt.id); o != "" && o != "n2" {
				t.Fatalf("after the drain the row names %q, want no owner (released) or n2 (adopted)", o)
			}
			mustValue(t, n2, tt.id, tt.lang, tt.get, 42)
			if o := tc.owner(t, tt.id); o != "n2" {
				t.Fatalf("owner %q after the run through n2, want n2", o)
			}
		})
	}
}

// Faults: a node whose lease was taken (its generation bumped in the
// database) stops serving the context at once; a forwarded request to an
// owner that doesn't answer is a 503 with Retry-After until its lease
// ends, then the context is claimed from its snapshot. Headers between
// servers without the node secret are refused.
func TestServeClusterFaults(t *testing.T) {
	tc := newTestCluster(t)
	n1, n2 := tc.node(t, "n1"), tc.node(t, "n2")

	// Forged cluster headers.
	for _, h := range []map[string]string{
		{"X-Wasmexec-Forwarded-By": "n2"},
		{"X-Wasmexec-Forwarded-By": "n2", "X-Wasmexec-Node-Secret": "wrong-secret-0123456789"},
		{"X-Wasmexec-Node-Secret": ""},
		{"X-Wasmexec-Node-Secret": testSecret[:len(testSecret)-1]},
	} {
		req, _ := http.NewRequest("POST", n1.base+"/v1/evaluate", strings.NewReader(`{"language":"javascript","code":"1"}`))
		req.Header.Set("Authorization", "Bearer "+clusterKeyA)
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%v; log:\n%s", err, n1.logs.String())
		}
		resp.Body.Close()
		if want := 401; h["X-Wasmexec-Node-Secret"] == "" && h["X-Wasmexec-Forwarded-By"] == "" {
			want = 200 // an empty header is no header
			if resp.StatusCode != want {
				t.Fatalf("empty secret header: %d", resp.StatusCode)
			}
		} else if resp.StatusCode != want {
			t.Fatalf("forged headers %v: %d, want %d", h, resp.StatusCode, want)
		}
	}

	// A tenant's maxContexts counts its contexts on every node.
	for i, p := range []*proc{n1, n2, n1} {
		s, r, raw := p.doKey(t, clusterKeyQ, "POST", "/v1/contexts", fmt.Sprintf(`{"contextId":"q%d","language":"javascript"}`, i))
		if want := map[bool]int{true: 429, false: 201}[i == 2]; s != want || (i == 2 && r["code"] != "quota_exceeded") {
			t.Fatalf("context %d of tenant q: %d %s, want %d", i, s, raw, want)
		}
	}

	// And its maxWorkspaceBytes its workspaces on every node: 60 kB in a
	// context on n1 leaves 40 kB for one on n2, once n1's snapshot has
	// said so (--context-snapshot-after-ms after the write).
	for i, p := range []*proc{n1, n2} {
		if s, _, raw := p.doKey(t, clusterKeyW, "POST", "/v1/contexts", fmt.Sprintf(`{"contextId":"w%d","language":"javascript"}`, i)); s != 201 {
			t.Fatalf("context %d of tenant w: %d %s", i, s, raw)
		}
	}
	if s, _, raw := n1.doKey(t, clusterKeyW, "PUT", "/v1/contexts/w0/files/big.bin", strings.Repeat("x", 60000)); s/100 != 2 {
		t.Fatalf("60 kB into w0: %d %s", s, raw)
	}
	poll.Until(t, 10*time.Second, "w0's snapshot to count its 60 kB", func() bool {
		var n int64
		return tc.db.QueryRow(`SELECT workspace_bytes FROM cluster_contexts WHERE context_id = 'w0'`).Scan(&n) == nil && n >= 60000
	})
	poll.Until(t, 10*time.Second, "n2 to refuse 60 kB more for tenant w", func() bool {
		s, r, _ := n2.doKey(t, clusterKeyW, "PUT", "/v1/contexts/w1/files/big.bin", strings.Repeat("y", 60000))
		return s == 429 && r["code"] == "quota_exceeded"
	})
	if s, _, raw := n2.doKey(t, clusterKeyW, "PUT", "/v1/contexts/w1/files/small.bin", strings.Repeat("y", 30000)); s/100 != 2 {
		t.Fatalf("30 kB into w1 (within the quota): %d %s", s, raw)
	}

	if s, _, raw := n1.doKey(t, clusterKeyA, "POST", "/v1/contexts", `{"contextId":"fence","language":"javascript"}`); s != 201 {
		t.Fatalf("create: %d %s", s, raw)
	}
	mustValue(t, n2, "fence", "javascript", "globalThis.f = 1; f", 1)
	snapshotted(t, n1, "fence")

	// Another "node" takes it: a dead address, a long lease.
	dead := "http://" + freeAddr(t)
	if _, err := tc.db.Exec(`UPDATE cluster_contexts SET owner_node = 'ghost', owner_url = $1, generation = generation + 1,
		lease_expires_at_ms = (extract(epoch from clock_timestamp())*1000)::bigint + 600000 WHERE context_id = 'fence'`, dead); err != nil {
		t.Fatal(err)
	}
	// n1 stops serving it at its next renewal (a third of the lease):
	// through n1 and n2 alike, requests go to the owner, which does not
	// answer.
	poll.Until(t, 10*time.Second, "n1 to stop serving the fenced context", func() bool {
		return strings.Contains(n1.logs.String(), "this node stops serving a context")
	})
	// A server that remembered the old owner answers Retry-After: 1 once
	// (it forgot it), then the lease's remaining seconds.
	for _, p := range []*proc{n1, n2} {
		var status int
		var retry string
		for range 2 {
			req, _ := http.NewRequest("POST", p.base+"/v1/evaluate", strings.NewReader(`{"language":"javascript","contextId":"fence","code":"f"}`))
			req.Header.Set("Authorization", "Bearer "+clusterKeyA)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("%v; log:\n%s", err, p.logs.String())
			}
			resp.Body.Close()
			status, retry = resp.StatusCode, resp.Header.Get("Retry-After")
			if status != 503 || retry != "1" {
				break
			}
		}
		if status != 503 || retry == "" || retry == "1" {
			t.Fatalf("a fenced context through %s: %d Retry-After %q (want the lease's remaining seconds)", p.base, status, retry)
		}
	}
	// Its lease ends: the next request claims it from its last snapshot
	// (or a node's background adoption got there first).
	if _, err := tc.db.Exec(`UPDATE cluster_contexts SET lease_expires_at_ms = 0 WHERE context_id = 'fence'`); err != nil {
		t.Fatal(err)
	}
	mustValue(t, n2, "fence", "javascript", "f + 1", 2)
	if o := tc.owner(t, "fence"); o != "n1" && o != "n2" {
		t.Fatalf("fence is owned by %q, want a live node", o)
	}
	var gen int64
	tc.db.QueryRow(`SELECT generation FROM cluster_contexts WHERE context_id = 'fence'`).Scan(&gen)
	if gen != 3 {
		t.Fatalf("generation %d after one create, one take-over and one claim, want 3", gen)
	}
}

// Cluster mode needs PostgreSQL, a node secret of some length, a URL that
// is a URL and a sane lease; each mistake is named with its flag, before
// anything starts.
func TestServeClusterBadConfig(t *testing.T) {
	testenv.ImageDir(t, "js")
	dir := t.TempDir()
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("tooshort\n"), 0o600)
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte(testSecret), 0o600)
	pg := []string{"--store", "postgres", "--store-url", "postgres://u:p@127.0.0.1:1/db"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"sqlite", []string{"--advertise-url", "http://127.0.0.1:1", "--node-secret-file", good}, "--advertise-url=http://127.0.0.1:1: cluster mode shares contexts through PostgreSQL"},
		{"no secret", append([]string{"--advertise-url", "http://127.0.0.1:1"}, pg...), "--node-secret-file=\"\": cluster mode needs a secret"},
		{"short secret", append([]string{"--advertise-url", "http://127.0.0.1:1", "--node-secret-file", short}, pg...), "at least 16 bytes"},
		{"missing secret file", append([]string{"--advertise-url", "http://127.0.0.1:1", "--node-secret-file", filepath.Join(dir, "nope")}, pg...), "no such file"},
		{"not a URL", append([]string{"--advertise-url", "127.0.0.1:1", "--node-secret-file", good}, pg...), "accepted http(s)://host:port"},
		{"lease", append([]string{"--advertise-url", "http://127.0.0.1:1", "--node-secret-file", good, "--context-lease-ms", "10"}, pg...), "--context-lease-ms=10: accepted 300..600000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"serve", "--addr", freeAddr(t), "--data-dir", t.TempDir(), "--images-dir", testenv.ImagesDir()}, tt.args...)
			_, errOut, code := run(t, binary, dir, nil, args...)
			if code == 0 || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, want an error with %q:\n%s", code, tt.want, errOut)
			}
		})
	}
}
