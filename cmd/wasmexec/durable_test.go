package main

import (
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// Contexts outlive the process: after kill -9 a context comes back with
// the state of its last snapshot (taken --context-snapshot-after-ms after
// its last run) and its workspace; after a graceful shutdown with the state
// it had. Hibernation and fork go through the HTTP API.
func TestServeContextsSurviveKill9(t *testing.T) {
	data := t.TempDir()
	args := []string{"--tscheck-workers", "0", "--context-snapshot-after-ms", "50"}
	p := MustServe(t, data, args...)
	mustDo := func(p *proc, method, path, body string, want int) map[string]any {
		t.Helper()
		status, d := p.do(t, method, path, body)
		if status != want {
			t.Fatalf("%s %s: %d %v", method, path, status, d)
		}
		return d
	}
	eval := func(p *proc, id, code string) any {
		t.Helper()
		d := mustDo(p, "POST", "/v1/evaluate", `{"language":"javascript","contextId":"`+id+`","code":`+quote(code)+`}`, 200)
		if d["outcome"] != "succeeded" {
			t.Fatalf("eval %q: %v", code, d)
		}
		return d["value"]
	}
	mustDo(p, "POST", "/v1/contexts", `{"contextId":"keep","language":"javascript"}`, 201)
	eval(p, "keep", "var counter = 41; const bump = () => ++counter; 0")
	mustDo(p, "PUT", "/v1/contexts/keep/files/notes.txt", "kept across kill -9", 200)
	poll.Until(t, 30*time.Second, "a snapshot of the context", func() bool {
		_, d := p.do(t, "GET", "/v1/contexts/keep", "")
		return d["stateAsOfMs"] != nil
	})

	// Hibernate and fork over HTTP.
	mustDo(p, "POST", "/v1/contexts", `{"contextId":"sleepy","language":"javascript"}`, 201)
	eval(p, "sleepy", "globalThis.dream = 'sheep'")
	if d := mustDo(p, "POST", "/v1/contexts/sleepy/hibernate", "", 200); d["hibernated"] != true {
		t.Fatalf("hibernate: %v", d)
	}
	if v := eval(p, "sleepy", "dream"); v != "sheep" {
		t.Fatalf("after hibernation: %v", v)
	}
	if d := mustDo(p, "POST", "/v1/contexts/sleepy/fork", `{"contextId":"twin"}`, 201); d["contextId"] != "twin" {
		t.Fatalf("fork: %v", d)
	}
	eval(p, "twin", "dream = 'goats'")
	if v := eval(p, "sleepy", "dream"); v != "sheep" {
		t.Fatalf("the fork changed its source: %v", v)
	}
	mustDo(p, "POST", "/v1/contexts/nope/hibernate", "", 404)

	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()

	p = MustServe(t, data, args...)
	d := mustDo(p, "GET", "/v1/contexts/keep", "", 200)
	if d["hibernated"] != true || d["stateAsOfMs"] == nil {
		t.Fatalf("after kill -9: %v", d)
	}
	if v := eval(p, "keep", "bump()"); v != float64(42) {
		t.Fatalf("state after kill -9: %v", v)
	}
	if d := mustDo(p, "GET", "/v1/contexts/keep", "", 200); d["restoredAtMs"] == nil {
		t.Fatalf("restoredAtMs after the first run: %v", d)
	}
	if status, _ := p.do(t, "GET", "/v1/contexts/keep/files/notes.txt", ""); status != 200 {
		t.Fatalf("workspace file after kill -9: %d", status)
	}
	if v := eval(p, "sleepy", "dream"); v != "sheep" {
		t.Fatalf("the hibernated context after kill -9: %v", v)
	}
	eval(p, "keep", "bump()") // 43, kept by the graceful shutdown below
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err, _ := p.exitWithin(t, time.Minute); err != nil {
		t.Fatal(err)
	}

	p = MustServe(t, data, args...)
	if v := eval(p, "keep", "bump()"); v != float64(44) {
		t.Fatalf("state after a graceful restart: %v", v)
	}
	_, m := p.do(t, "GET", "/v1/contexts", "")
	if n := len(m["contexts"].([]any)); n != 3 {
		t.Fatalf("contexts after the restarts: %d (%v)", n, m)
	}
	if v := p.metric(t, "wasmexec_context_snapshot_errors_total"); v != 0 {
		t.Fatalf("snapshot errors: %v", v)
	}
	if v := p.metric(t, "wasmexec_contexts_hibernated"); v != 2 { // sleepy and twin: not run since the restart
		t.Fatalf("hibernated contexts: %v", v)
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
