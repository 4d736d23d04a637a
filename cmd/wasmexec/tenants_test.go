package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// doKey is proc.do with an API key; it returns the status, the decoded
// body and the raw body.
func (p *proc) doKey(tb testing.TB, key, method, path, body string) (int, map[string]any, string) {
	tb.Helper()
	req, _ := http.NewRequest(method, p.base+path, strings.NewReader(body))
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	json.Unmarshal(b, &m)
	return resp.StatusCode, m, string(b)
}

// Execution records keep their tenant across a restart: after one, each
// tenant still reads, replays and lists its own records (one-shot, context
// run, process), and another tenant's id is a 404 exactly like an unknown
// one. Records written by an open server belong to no tenant.
func TestServeTenantsAcrossRestart(t *testing.T) {
	data := t.TempDir()
	keys := filepath.Join(t.TempDir(), "keys.json")
	const keyA, keyB = "key-of-tenant-a-0123456789", "key-of-tenant-b-0123456789"
	if err := os.WriteFile(keys, []byte(`{"tenants":{"a":{},"b":{}},"keys":[{"tenant":"a","key":"`+keyA+`"},{"tenant":"b","key":"`+keyB+`"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(p *proc, key, body string) string {
		t.Helper()
		status, r, raw := p.doKey(t, key, "POST", "/v1/evaluate", body)
		if status != 200 || r["outcome"] != "succeeded" {
			t.Fatalf("evaluate %s: %d %s", body, status, raw)
		}
		return r["executionId"].(string)
	}

	// An open server's record.
	p := MustServe(t, data, "--tscheck-workers", "0")
	open := run(p, "", `{"language":"javascript","code":"1"}`)
	p.cmd.Process.Signal(os.Interrupt)
	if err, _ := p.exitWithin(t, time.Minute); err != nil {
		t.Fatal(err)
	}

	p = MustServe(t, data, "--tscheck-workers", "0", "--auth-keys-file", keys)
	oneShot := run(p, keyA, `{"language":"javascript","code":"console.log('a'); 1","output":{"retainEvents":true}}`)
	if s, c, raw := p.doKey(t, keyA, "POST", "/v1/contexts", `{"contextId":"ctx-a","language":"javascript"}`); s != 201 {
		t.Fatalf("create context: %d %v %s", s, c, raw)
	}
	inContext := run(p, keyA, `{"language":"javascript","code":"2","contextId":"ctx-a"}`)
	s, pr, raw := p.doKey(t, keyA, "POST", "/v1/processes", `{"language":"javascript","code":"console.log('p')"}`)
	if s != 201 {
		t.Fatalf("spawn: %d %s", s, raw)
	}
	process := pr["executionId"].(string)
	if s, w, raw := p.doKey(t, keyA, "GET", fmt.Sprintf("/v1/processes/%v/wait?timeoutMs=60000", pr["pid"]), ""); s != 200 || w["state"] != "exited" {
		t.Fatalf("wait: %d %s", s, raw)
	}
	ofB := run(p, keyB, `{"language":"javascript","code":"3"}`)
	p.cmd.Process.Signal(os.Interrupt)
	if err, _ := p.exitWithin(t, time.Minute); err != nil {
		t.Fatal(err)
	}

	p = MustServe(t, data, "--tscheck-workers", "0", "--auth-keys-file", keys)
	list := func(key, query string) string {
		t.Helper()
		s, l, raw := p.doKey(t, key, "GET", "/v1/executions"+query, "")
		if s != 200 {
			t.Fatalf("list: %d %s", s, raw)
		}
		var ids []string
		for _, r := range l["executions"].([]any) {
			ids = append(ids, r.(map[string]any)["executionId"].(string))
		}
		return strings.Join(ids, " ")
	}
	if got, want := list(keyA, ""), strings.Join([]string{process, inContext, oneShot}, " "); got != want {
		t.Errorf("a's list after the restart: %s, want %s", got, want)
	}
	if got := list(keyB, ""); got != ofB {
		t.Errorf("b's list after the restart: %s, want %s", got, ofB)
	}
	if got := list(keyB, "?contextId=ctx-a"); got != "" {
		t.Errorf("b's list of a's context: %s", got)
	}
	for _, id := range []string{oneShot, inContext, process} {
		// Each record also keeps the request id of the request that ran
		// it (a process's too: its run outlives the request).
		if s, r, raw := p.doKey(t, keyA, "GET", "/v1/executions/"+id, ""); s != 200 || r["requestId"] == nil {
			t.Errorf("a reads its %s after the restart: %d %s", id, s, raw)
		}
	}
	if s, out, raw := p.doKey(t, keyA, "GET", "/v1/executions/"+oneShot+"/output", ""); s != 200 || len(out["events"].([]any)) != 1 {
		t.Errorf("a replays its output: %d %s", s, raw)
	}
	// Another tenant's id, and an open server's, answer like an unknown id.
	const unknown = "exe_0123456789abcdef0123456789ab"
	for _, tc := range []struct{ method, suffix string }{{"GET", ""}, {"GET", "/output"}, {"DELETE", ""}} {
		s, _, want := p.doKey(t, keyB, tc.method, "/v1/executions/"+unknown+tc.suffix, "")
		if s != 404 {
			t.Fatalf("%s an unknown id: %d %s", tc.method, s, want)
		}
		for _, id := range []string{oneShot, inContext, process, open} {
			key := keyB
			if id == open {
				key = keyA
			}
			s, _, got := p.doKey(t, key, tc.method, "/v1/executions/"+id+tc.suffix, "")
			if s != 404 || strings.ReplaceAll(got, id, unknown) != want {
				t.Errorf("%s %s%s by another tenant: %d %s, want 404 %s", tc.method, id, tc.suffix, s, got, want)
			}
		}
	}
	if s, _, raw := p.doKey(t, keyA, "GET", "/v1/executions/"+oneShot, ""); s != 200 {
		t.Errorf("b's DELETE removed a's record: %d %s", s, raw)
	}
}

// The queue-wait histogram counts context runs and processes, not only
// one-shot runs.
func TestServeQueueWaitByKind(t *testing.T) {
	p := MustServe(t, t.TempDir(), "--tscheck-workers", "0")
	if s, c := p.do(t, "POST", "/v1/contexts", `{"contextId":"q","language":"javascript"}`); s != 201 {
		t.Fatalf("create context: %d %v", s, c)
	}
	if s, r := p.do(t, "POST", "/v1/evaluate", `{"language":"javascript","code":"1","contextId":"q"}`); s != 200 || r["outcome"] != "succeeded" {
		t.Fatalf("context run: %d %v", s, r)
	}
	s, pr := p.do(t, "POST", "/v1/processes", `{"language":"javascript","code":"1"}`)
	if s != 201 {
		t.Fatalf("spawn: %d %v", s, pr)
	}
	if s, w := p.do(t, "GET", fmt.Sprintf("/v1/processes/%v/wait?timeoutMs=60000", pr["pid"]), ""); s != 200 || w["state"] != "exited" {
		t.Fatalf("wait: %d %v", s, w)
	}
	for _, kind := range []string{"evaluate", "process"} {
		name := `wasmexec_queue_wait_seconds_count{kind="` + kind + `",language="javascript",outcome="succeeded"}`
		// A process is observed when its run returns, just after the exit
		// is reported: poll.
		pollFor(t, 30*time.Second, name, func() bool { return p.metric(t, name) == 1 })
	}
}
