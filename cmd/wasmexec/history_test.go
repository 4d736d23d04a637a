package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// A process's record speaks the process API's vocabulary too: listed by
// ?outcome=exited/signalled, its exit in extra; it can be replayed with
// maxBytes while it runs and afterwards, and deleted once it has ended.
func TestServeProcessHistory(t *testing.T) {
	p := MustServe(t, t.TempDir())
	spawn := func(code string) (float64, string) {
		t.Helper()
		status, pr := p.do(t, "POST", "/v1/processes", `{"language":"javascript","code":"`+code+`"}`)
		if status != 201 {
			t.Fatalf("spawn: %d %v", status, pr)
		}
		return pr["pid"].(float64), pr["executionId"].(string)
	}
	wait := func(pid float64) map[string]any {
		t.Helper()
		status, w := p.do(t, "GET", fmt.Sprintf("/v1/processes/%v/wait?timeoutMs=60000", pid), "")
		if status != 200 || w["state"] != "exited" {
			t.Fatalf("wait: %d %v", status, w)
		}
		return w
	}
	// Ends by itself with exit code 3, after writing 10+10+100 bytes.
	pid, exited := spawn(`process.stdout.write('a'.repeat(10)); process.stdout.write('b'.repeat(10)); process.stdout.write('c'.repeat(100)); stdin.read(); process.exit(3)`)
	// The live replay honours maxBytes.
	poll.Until(t, time.Minute, "a live page of two events under maxBytes=25", func() bool {
		_, page := p.do(t, "GET", "/v1/executions/"+exited+"/output?maxBytes=25", "")
		evs, _ := page["events"].([]any)
		if len(evs) > 2 {
			t.Fatalf("live page with maxBytes=25: %v", page)
		}
		return len(evs) == 2 && page["hasMore"] == true
	})
	if status, e := p.do(t, "DELETE", "/v1/executions/"+exited, ""); status != 409 {
		t.Fatalf("DELETE while running: %d %v", status, e)
	}
	p.do(t, "POST", fmt.Sprintf("/v1/processes/%v/stdin/close", pid), "")
	if w := wait(pid); w["outcome"] != "exited" || w["exitCode"] != float64(3) {
		t.Fatalf("exit: %v", w)
	}
	pid, killed := spawn(`stdin.read()`)
	p.do(t, "POST", fmt.Sprintf("/v1/processes/%v/signal", pid), `{"signal":"SIGKILL"}`)
	if w := wait(pid); w["outcome"] != "signalled" {
		t.Fatalf("exit after SIGKILL: %v", w)
	}
	p.do(t, "POST", "/v1/evaluate", `{"language":"javascript","code":"1"}`)

	for outcome, want := range map[string]string{"exited": exited, "signalled": killed} {
		status, list := p.do(t, "GET", "/v1/executions?outcome="+outcome, "")
		var ids []string
		for _, r := range list["executions"].([]any) {
			ids = append(ids, r.(map[string]any)["executionId"].(string))
		}
		if status != 200 || strings.Join(ids, " ") != want {
			t.Errorf("?outcome=%s: %d %v, want [%s]", outcome, status, ids, want)
		}
	}
	_, rec := p.do(t, "GET", "/v1/executions/"+exited+"?include=code", "")
	if x, _ := rec["extra"].(map[string]any); x["outcome"] != "exited" || x["exitCode"] != float64(3) || !strings.HasPrefix(rec["code"].(string), "process.stdout.write") {
		t.Errorf("stored process record: extra %v, code %q", rec["extra"], rec["code"])
	}
	_, page := p.do(t, "GET", "/v1/executions/"+exited+"/output?maxBytes=25&after=c2", "")
	if evs, _ := page["events"].([]any); len(evs) != 1 || page["hasMore"] != false {
		t.Errorf("stored page after c2 with maxBytes=25 (one 100-byte event, alone): %v", page)
	}
	if status, e := p.do(t, "DELETE", "/v1/executions/"+exited, ""); status != 204 {
		t.Fatalf("DELETE: %d %v", status, e)
	}
	if status, e := p.do(t, "GET", "/v1/executions/"+exited, ""); status != 404 || e["code"] != "not_found" {
		t.Fatalf("GET after DELETE: %d %v", status, e)
	}
}

// The answer to a run is its record: GET /v1/executions/:id gives the same
// document, whether the run failed in its guest or before one started (a
// TypeScript syntax error is found while transpiling, before any guest),
// and captured streams are present (empty) either way.
func TestServeAnswerIsTheRecord(t *testing.T) {
	p := MustServe(t, t.TempDir())
	_, c := p.do(t, "POST", "/v1/contexts", `{"language":"typescript"}`)
	ctx := c["contextId"].(string)
	for _, tc := range []struct {
		name, body     string
		stdout, stderr bool // present in the answer
	}{
		{"javascript syntax error", `{"language":"javascript","code":"let x = ;"}`, true, true},
		{"typescript syntax error", `{"language":"typescript","code":"let x: = 1"}`, true, true},
		{"typescript syntax error in a context", `{"language":"typescript","contextId":"` + ctx + `","code":"let x: = 1"}`, true, true},
		{"typescript syntax error, stderr captured", `{"language":"typescript","code":"let x: = 1","output":{"capture":"stderr"}}`, false, true},
		{"typescript syntax error, nothing captured", `{"language":"typescript","code":"let x: = 1","output":{"capture":"none"}}`, false, false},
		{"typescript runs", `{"language":"typescript","code":"console.log('hi'); const n: number = 2; n"}`, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, live := p.do(t, "POST", "/v1/evaluate", tc.body)
			if status != 200 {
				t.Fatalf("evaluate: %d %v", status, live)
			}
			if _, ok := live["stdout"]; ok != tc.stdout {
				t.Errorf("stdout present %v, want %v: %v", ok, tc.stdout, live)
			}
			if _, ok := live["stderr"]; ok != tc.stderr {
				t.Errorf("stderr present %v, want %v: %v", ok, tc.stderr, live)
			}
			_, rec := p.do(t, "GET", "/v1/executions/"+live["executionId"].(string), "")
			if a, b := fmt.Sprint(live), fmt.Sprint(rec); a != b {
				t.Errorf("the answer is not the record:\nanswer %s\nrecord %s", a, b)
			}
		})
	}
}

// Through the real server (TypeScript transpiled in its workers): a
// commonjs cell's binding is read by a later TypeScript cell, and a
// resent cell that declares a const runs again.
func TestServeContextCellsLikeAConsole(t *testing.T) {
	p := MustServe(t, t.TempDir())
	_, c := p.do(t, "POST", "/v1/contexts", `{"language":"javascript"}`)
	ctx := c["contextId"].(string)
	for _, tc := range []struct{ name, lang, format, code, want string }{
		{"commonjs cell", "javascript", "commonjs", "let retainedAnswer = 41", "<nil>"},
		{"typescript reads it", "typescript", "", "const next: number = retainedAnswer + 1; next", "42"},
		{"commonjs value", "javascript", "commonjs", "require('node:path').sep", "/"},
		{"a cell", "javascript", "", "const _ = require('node:path'); _.basename('/a/b.txt')", "b.txt"},
		{"the same cell again", "javascript", "", "const _ = require('node:path'); _.basename('/a/b.txt')", "b.txt"},
		{"typescript redeclares", "typescript", "", "const next: string = 'again'; next", "again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := fmt.Sprintf(`{"language":%q,"contextId":%q,"format":%q,"code":%q}`, tc.lang, ctx, tc.format, tc.code)
			if tc.format == "" {
				body = fmt.Sprintf(`{"language":%q,"contextId":%q,"code":%q}`, tc.lang, ctx, tc.code)
			}
			status, res := p.do(t, "POST", "/v1/evaluate", body)
			if status != 200 || res["outcome"] != "succeeded" || fmt.Sprint(res["value"]) != tc.want {
				t.Fatalf("%d %v, want value %s", status, res, tc.want)
			}
		})
	}
}
