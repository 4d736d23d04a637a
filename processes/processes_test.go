package processes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/vfs"
)

const echoJS = `let l; while ((l = stdin.readLine()) !== null) console.log('echo: ' + l)`

func jsReq(code string) string {
	b, _ := json.Marshal(wasmexec.SpawnRequest{Language: wasmexec.JavaScript, Code: code})
	return string(b)
}

// An agent talks to a live JS process: two lines in, two replies out of
// the live stream, then EOF ends it with an exit event and a wait result.
func TestInteractiveEcho(t *testing.T) {
	e := MustEnv(t, envOpts{})
	p := e.spawn(t, jsReq(echoJS))
	if p.State != wasmexec.ProcessRunning || !strings.HasPrefix(p.ExecutionID, "exe_") || p.Language != wasmexec.JavaScript || p.Command != "javascript main.js" || p.StartedAtMs == 0 {
		t.Fatalf("descriptor %+v", p)
	}
	s := e.openStream(t, p.PID, "", "")
	for _, line := range []string{"hello", "wörld"} {
		e.stdin(t, p.PID, line+"\n")
		ev := outputOf(t, s.mustNext(t))
		if string(ev.Chunk) != "echo: "+line+"\n" || ev.Channel != wasmexec.Stdout || ev.PID != p.PID {
			t.Fatalf("reply %+v (%q)", ev, ev.Chunk)
		}
	}
	// JSON form with base64.
	var out map[string]any
	if resp := call(t, "POST", e.procURL(p.PID, "/stdin"), "application/json", `{"data":"YmFzZTY0Cg==","encoding":"base64"}`, &out); resp.StatusCode != 200 || out["written"] != float64(7) {
		t.Fatalf("json stdin: %d %v", resp.StatusCode, out)
	}
	if ev := outputOf(t, s.mustNext(t)); string(ev.Chunk) != "echo: base64\n" {
		t.Fatalf("reply %q", ev.Chunk)
	}
	var d wasmexec.Process
	if resp := call(t, "POST", e.procURL(p.PID, "/stdin/close"), "", "", &d); resp.StatusCode != 200 || !d.StdinClosed {
		t.Fatalf("close: %d %+v", resp.StatusCode, d)
	}
	events, notices, exit := s.drain(t)
	if len(events) != 0 || len(notices) != 0 {
		t.Fatalf("unexpected events after EOF: %+v %v", events, notices)
	}
	if exit["outcome"] != "exited" || exit["exitCode"] != float64(0) || exit["pid"] != float64(p.PID) || exit["executionId"] != p.ExecutionID {
		t.Fatalf("exit event %v", exit)
	}
	w := e.waitExit(t, p.PID)
	if w["outcome"] != "exited" || w["exitCode"] != float64(0) || w["signal"] != nil {
		t.Fatalf("wait %v", w)
	}
	if resp := call(t, "GET", e.procURL(p.PID, ""), "", "", &d); resp.StatusCode != 200 || d.State != wasmexec.ProcessExited || d.Exit == nil {
		t.Fatalf("get after exit: %+v", d)
	}
	// The completed record: kind process, pid set, same execution id,
	// with its events.
	res := e.done.get(p.ExecutionID)
	if res == nil || res.Kind != wasmexec.KindProcess || res.PID != p.PID || res.Outcome != wasmexec.Succeeded || !res.EventsRetained {
		t.Fatalf("record %+v", res)
	}
	if *res.Stdout != "echo: hello\necho: wörld\necho: base64\n" {
		t.Fatalf("stdout %q", *res.Stdout)
	}
	if n := len(e.done.evs[p.ExecutionID]); n != 3 {
		t.Fatalf("record has %d events", n)
	}
	// A write after exit is a conflict.
	wantStatus(t, "POST", e.procURL(p.PID, "/stdin"), "text/plain", "late\n", 409, wasmexec.EConflict)
}

// Replay by cursor pages (and /v1/executions/:id/output) give exactly what
// the stream gave.
func TestReplayEqualsStream(t *testing.T) {
	e := MustEnv(t, envOpts{})
	p := e.spawn(t, jsReq(`for (let i = 0; i < 300; i++) { if (i % 7 == 0) console.error('err ' + i); else console.log('line ' + i) } process.stdout.write('\ud800 lone')`))
	s := e.openStream(t, p.PID, "", "")
	streamed, notices, exit := s.drain(t)
	if len(notices) != 0 || exit["outcome"] != "exited" {
		t.Fatalf("notices %v exit %v", notices, exit)
	}
	if len(streamed) != 301 {
		t.Fatalf("streamed %d events", len(streamed))
	}
	for _, base := range []string{e.procURL(p.PID, "/output"), e.url + "/v1/executions/" + p.ExecutionID + "/output"} {
		var replayed []wasmexec.Event
		cursor := ""
		for pages := 0; ; pages++ {
			var r wasmexec.Replay
			resp := call(t, "GET", base+"?limit=37&after="+cursor, "", "", &r)
			if resp.StatusCode != 200 || r.Truncated {
				t.Fatalf("%s: %d %+v", base, resp.StatusCode, r)
			}
			replayed = append(replayed, r.Events...)
			cursor = r.NextCursor
			if !r.HasMore {
				break
			}
			if pages > 100 {
				t.Fatal("replay does not end")
			}
		}
		if jsonString(replayed) != jsonString(streamed) {
			t.Fatalf("%s: replay differs from the stream (%d vs %d events)", base, len(replayed), len(streamed))
		}
	}
	// goja strings are UTF-16: a lone surrogate reaches stdout as U+FFFD.
	if last := streamed[len(streamed)-1]; string(last.Chunk) != "\uFFFD lone" || last.Channel != wasmexec.Stdout {
		t.Fatalf("last chunk %q", last.Chunk)
	}
	if streamed[0].Channel != wasmexec.Stderr || string(streamed[0].Chunk) != "err 0\n" {
		t.Fatalf("first event %+v", streamed[0])
	}
	for _, c := range []string{"nope", "c", "x1"} {
		wantStatus(t, "GET", e.procURL(p.PID, "/output?after="+c), "", "", 400, wasmexec.EInvalid)
		wantStatus(t, "GET", e.procURL(p.PID, "/output/stream?after="+c), "", "", 400, wasmexec.EInvalid)
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A reconnecting client resumes with Last-Event-ID (or ?after=) with no
// gaps and no duplicates.
func TestResumeFromTheMiddle(t *testing.T) {
	e := MustEnv(t, envOpts{})
	p := e.spawn(t, jsReq(`for (let i = 1; i <= 100; i++) console.log(i); stdin.readLine(); for (let i = 101; i <= 150; i++) console.log(i)`))
	for _, via := range []string{"Last-Event-ID", "after"} {
		t.Run(via, func(t *testing.T) {
			s := e.openStream(t, p.PID, "", "")
			var lastID string
			for i := 1; i <= 40; i++ {
				ev := s.mustNext(t)
				if got := outputOf(t, ev); string(got.Chunk) != fmt.Sprintf("%d\n", i) {
					t.Fatalf("event %d is %q", i, got.Chunk)
				}
				lastID = ev.ID
			}
			s.close()
			var s2 *stream
			if via == "after" {
				s2 = e.openStream(t, p.PID, "", "?after="+lastID)
			} else {
				// Last-Event-ID wins over a stale ?after=.
				s2 = e.openStream(t, p.PID, lastID, "?after=c1")
			}
			for i := 41; i <= 100; i++ {
				if got := outputOf(t, s2.mustNext(t)); string(got.Chunk) != fmt.Sprintf("%d\n", i) {
					t.Fatalf("after resume, event %d is %q", i, got.Chunk)
				}
			}
			s2.close()
		})
	}
	e.stdin(t, p.PID, "go\n")
	s := e.openStream(t, p.PID, wasmexec.EncodeCursor(120), "")
	events, _, exit := s.drain(t)
	if len(events) != 30 || string(events[0].Chunk) != "121\n" || exit["outcome"] != "exited" {
		t.Fatalf("%d events, first %q, exit %v", len(events), events[0].Chunk, exit)
	}
}

// A flood overruns the retained window: replay and streams report
// truncated and continue from the oldest retained event; a reader that
// stops reading never blocks the guest.
func TestFloodTruncates(t *testing.T) {
	e := MustEnv(t, envOpts{cfg: processes.Config{RetainBytes: 64 << 10}})
	// The flood starts on a line of stdin, once the reader is attached:
	// a guest started from a snapshot can overrun the window before the
	// stream is even open.
	p := e.spawn(t, jsReq(`stdin.readLine(); const s = 'x'.repeat(1023); for (let i = 0; i < 4000; i++) console.log(s)`))
	// This reader takes one event and then stops reading until the
	// process has exited.
	slow := e.openStream(t, p.PID, "", "")
	e.stdin(t, p.PID, "go\n")
	// The guest can outrun even the stream's first read (4 MB in a few ms
	// into a 64 KiB window): then a truncated notice comes first.
	var early []map[string]any
	var first wasmexec.Event
	for {
		ev := slow.mustNext(t)
		if ev.Event == "truncated" {
			var n map[string]any
			json.Unmarshal([]byte(ev.Data), &n)
			early = append(early, n)
			continue
		}
		first = outputOf(t, ev)
		break
	}
	if (first.Sequence == 1) != (len(early) == 0) {
		t.Fatalf("first event %d after %d notices", first.Sequence, len(early))
	}
	w := e.waitExit(t, p.PID)
	if w["outcome"] != "exited" {
		t.Fatalf("wait %v", w)
	}
	events, notices, exit := slow.drain(t)
	if exit["outcome"] != "exited" {
		t.Fatalf("exit %v", exit)
	}
	// Sequences only grow; every gap is announced by a notice.
	prev, gaps := first.Sequence, len(early)
	for _, ev := range events {
		if ev.Sequence <= prev {
			t.Fatalf("sequence %d after %d", ev.Sequence, prev)
		}
		if ev.Sequence != prev+1 {
			gaps++
		}
		prev = ev.Sequence
	}
	if prev != 4000 || gaps != len(early)+len(notices) {
		t.Fatalf("last %d, %d gaps, %d+%d notices", prev, gaps, len(early), len(notices))
	}
	// From the start: the window holds ~64 events, so replay is truncated.
	var r wasmexec.Replay
	call(t, "GET", e.procURL(p.PID, "/output"), "", "", &r)
	if !r.Truncated || len(r.Events) == 0 || r.Events[0].Sequence == 1 || r.HasMore || r.Events[len(r.Events)-1].Sequence != 4000 {
		t.Fatalf("replay truncated=%v n=%d first=%d", r.Truncated, len(r.Events), r.Events[0].Sequence)
	}
	call(t, "GET", e.procURL(p.PID, "/output?after="+r.NextCursor), "", "", &r)
	if r.Truncated || len(r.Events) != 0 {
		t.Fatalf("after the end: %+v", r)
	}
	s := e.openStream(t, p.PID, "", "")
	ev := s.mustNext(t)
	var note map[string]any
	json.Unmarshal([]byte(ev.Data), &note)
	if ev.Event != "truncated" || note["after"] != "c0" {
		t.Fatalf("first event %q %s", ev.Event, ev.Data)
	}
	events, _, _ = s.drain(t)
	if note["resumeAfter"] != wasmexec.EncodeCursor(events[0].Sequence-1) || events[len(events)-1].Sequence != 4000 {
		t.Fatalf("notice %v, first %d", note, events[0].Sequence)
	}
	res := e.done.get(p.ExecutionID)
	if res == nil || !res.OutputTruncated {
		t.Fatalf("record %+v", res)
	}
}

// SIGTERM closes stdin at once: a process blocked reading it sees EOF and
// exits by itself. One that ignores EOF is killed after the grace period.
func TestSIGTERM(t *testing.T) {
	e := MustEnv(t, envOpts{cfg: processes.Config{SignalGrace: 200 * time.Millisecond}})
	p := e.spawn(t, jsReq(`while (stdin.readLine() !== null) {} console.log('got EOF'); process.exit(3)`))
	var d wasmexec.Process
	if resp := call(t, "POST", e.procURL(p.PID, "/signal"), "application/json", `{"signal":"SIGTERM"}`, &d); resp.StatusCode != 200 || d.Signal != wasmexec.SIGTERM || !d.StdinClosed {
		t.Fatalf("signal: %d %+v", resp.StatusCode, d)
	}
	w := e.waitExit(t, p.PID)
	if w["outcome"] != "exited" || w["exitCode"] != float64(3) || w["signal"] != nil {
		t.Fatalf("wait %v", w)
	}
	wantStatus(t, "POST", e.procURL(p.PID, "/signal"), "application/json", `{"signal":"SIGKILL"}`, 409, wasmexec.EConflict)

	for _, sig := range []string{"SIGINT", "TERM"} {
		p := e.spawn(t, jsReq(`while (stdin.readLine() !== null) {} for (;;) {}`))
		call(t, "POST", e.procURL(p.PID, "/signal"), "application/json", `{"signal":"`+sig+`"}`, nil)
		w := e.waitExit(t, p.PID)
		want, _ := processes.ParseSignal(sig)
		if w["outcome"] != "signalled" || w["signal"] != string(want) || w["exitCode"] != float64(128+want.Number()) {
			t.Fatalf("%s: wait %v", sig, w)
		}
		if res := e.done.get(p.ExecutionID); res == nil || res.Outcome != wasmexec.Cancelled || res.Error == nil || !strings.Contains(res.Error.Message, string(want)) {
			t.Fatalf("record %+v", res)
		}
	}
}

// SIGKILL stops a busy loop now.
func TestSIGKILLBusyLoop(t *testing.T) {
	e := MustEnv(t, envOpts{})
	p := e.spawn(t, jsReq(`console.log('spinning'); for (;;) {}`))
	s := e.openStream(t, p.PID, "", "")
	if ev := outputOf(t, s.mustNext(t)); string(ev.Chunk) != "spinning\n" {
		t.Fatalf("%q", ev.Chunk)
	}
	call(t, "POST", e.procURL(p.PID, "/signal"), "application/json", `{"signal":"SIGKILL"}`, nil)
	_, _, exit := s.drain(t)
	if exit["outcome"] != "signalled" || exit["signal"] != "SIGKILL" {
		t.Fatalf("exit %v", exit)
	}
	res := e.done.get(p.ExecutionID)
	if res == nil || res.Outcome != wasmexec.Cancelled || res.Kind != wasmexec.KindProcess {
		t.Fatalf("record %+v", res)
	}
	var extra wasmexec.ProcessExit
	if err := json.Unmarshal(res.Extra, &extra); err != nil || extra.Signal != wasmexec.SIGKILL {
		t.Fatalf("extra %s", res.Extra)
	}
}

// Wait answers "running" when its timeout passes first; a process's own
// timeoutMs ends it as timed_out.
func TestWaitTimeouts(t *testing.T) {
	e := MustEnv(t, envOpts{})
	p := e.spawn(t, jsReq(echoJS))
	for _, q := range []string{"?timeoutMs=0", "?timeoutMs=30"} {
		var w map[string]any
		if resp := call(t, "GET", e.procURL(p.PID, "/wait"+q), "", "", &w); resp.StatusCode != 200 || w["state"] != "running" || w["pid"] != float64(p.PID) || len(w) != 2 {
			t.Fatalf("wait%s: %d %v", q, resp.StatusCode, w)
		}
	}
	for _, q := range []string{"?timeoutMs=-1", "?timeoutMs=soon", "?timeoutMs=999999999"} {
		wantStatus(t, "GET", e.procURL(p.PID, "/wait"+q), "", "", 400, wasmexec.EInvalid)
	}
	call(t, "POST", e.procURL(p.PID, "/signal"), "application/json", `{"signal":"KILL"}`, nil)
	if w := e.waitExit(t, p.PID); w["outcome"] != "signalled" {
		t.Fatalf("wait %v", w)
	}

	b, _ := json.Marshal(wasmexec.SpawnRequest{Language: wasmexec.JavaScript, Code: echoJS, TimeoutMs: 200})
	p = e.spawn(t, string(b))
	if w := e.waitExit(t, p.PID); w["outcome"] != "timed_out" || w["exitCode"] != nil {
		t.Fatalf("wait %v", w)
	}
	if res := e.done.get(p.ExecutionID); res == nil || res.Outcome != wasmexec.TimedOut {
		t.Fatalf("record %+v", res)
	}
}

// Past maxProcesses, spawns get 429 overloaded until one exits.
func TestMaxProcesses(t *testing.T) {
	e := MustEnv(t, envOpts{cfg: processes.Config{MaxProcesses: 2}})
	a := e.spawn(t, jsReq(echoJS))
	e.spawn(t, jsReq(echoJS))
	var body struct{ Code, Message string }
	resp := call(t, "POST", e.url+"/v1/processes", "application/json", jsReq(echoJS), &body)
	if resp.StatusCode != 429 || body.Code != wasmexec.EOverloaded || !strings.Contains(body.Message, "maxProcesses 2") || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("third spawn: %d %+v", resp.StatusCode, body)
	}
	call(t, "POST", e.procURL(a.PID, "/stdin/close"), "", "", nil)
	e.waitExit(t, a.PID)
	c := e.spawn(t, jsReq(echoJS))
	if c.PID <= a.PID+1 {
		t.Fatalf("pids must not be reused: %d after %d", c.PID, a.PID)
	}
	var list struct{ Processes []wasmexec.Process }
	call(t, "GET", e.url+"/v1/processes", "", "", &list)
	if len(list.Processes) != 3 || list.Processes[0].PID != a.PID || list.Processes[0].State != wasmexec.ProcessExited || list.Processes[2].State != wasmexec.ProcessRunning {
		t.Fatalf("list %+v", list.Processes)
	}
}

// The stdin buffer is bounded: a write that can never fit is 413, one
// that doesn't fit until the guest reads is 429; closed stdin is 409.
func TestStdinCap(t *testing.T) {
	e := MustEnv(t, envOpts{cfg: processes.Config{StdinBufferBytes: 1024}})
	p := e.spawn(t, jsReq(`await new Promise(r => setTimeout(r, 60000))`))
	e.stdin(t, p.PID, strings.Repeat("a", 600))
	wantStatus(t, "POST", e.procURL(p.PID, "/stdin"), "text/plain", strings.Repeat("b", 600), 429, wasmexec.EOverloaded)
	wantStatus(t, "POST", e.procURL(p.PID, "/stdin"), "text/plain", strings.Repeat("c", 2000), 413, wasmexec.ETooLarge)
	e.stdin(t, p.PID, strings.Repeat("d", 424))
	wantStatus(t, "POST", e.procURL(p.PID, "/stdin"), "text/plain", "e", 429, wasmexec.EOverloaded)
	for _, body := range []string{`{"data":"!!","encoding":"base64"}`, `{"data":"x","encoding":"hex"}`, `{"encoding":"utf8"}`, `{"data":1}`} {
		wantStatus(t, "POST", e.procURL(p.PID, "/stdin"), "application/json", body, 400, wasmexec.EInvalid)
	}
	call(t, "POST", e.procURL(p.PID, "/stdin/close"), "", "", nil)
	wantStatus(t, "POST", e.procURL(p.PID, "/stdin"), "text/plain", "f", 409, wasmexec.EConflict)
	call(t, "POST", e.procURL(p.PID, "/signal"), "", "", nil) // SIGTERM by default
}

func TestErrors(t *testing.T) {
	e := MustEnv(t, envOpts{})
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"unknown pid", "GET", "/v1/processes/999", "", 404, wasmexec.ENotFound},
		{"bad pid", "GET", "/v1/processes/abc", "", 404, wasmexec.ENotFound},
		{"unknown pid stdin", "POST", "/v1/processes/999/stdin", "x", 404, wasmexec.ENotFound},
		{"unknown pid close", "POST", "/v1/processes/999/stdin/close", "", 404, wasmexec.ENotFound},
		{"unknown pid signal", "POST", "/v1/processes/999/signal", `{"signal":"SIGKILL"}`, 404, wasmexec.ENotFound},
		{"unknown pid wait", "GET", "/v1/processes/999/wait", "", 404, wasmexec.ENotFound},
		{"unknown pid output", "GET", "/v1/processes/999/output", "", 404, wasmexec.ENotFound},
		{"unknown pid stream", "GET", "/v1/processes/999/output/stream", "", 404, wasmexec.ENotFound},
		{"no language", "POST", "/v1/processes", `{"code":"1"}`, 400, wasmexec.EInvalid},
		{"no code", "POST", "/v1/processes", `{"language":"javascript"}`, 400, wasmexec.EInvalid},
		{"code and file", "POST", "/v1/processes", `{"language":"javascript","code":"1","file":"a.js","contextId":"c"}`, 400, wasmexec.EInvalid},
		{"file without context", "POST", "/v1/processes", `{"language":"javascript","file":"a.js"}`, 400, wasmexec.EInvalid},
		{"contexts disabled", "POST", "/v1/processes", `{"language":"javascript","code":"1","contextId":"c"}`, 400, wasmexec.EInvalid},
		{"unknown language", "POST", "/v1/processes", `{"language":"cobol","code":"1"}`, 400, wasmexec.EInvalid},
		{"timeout above max", "POST", "/v1/processes", `{"language":"javascript","code":"1","timeoutMs":99999999}`, 400, wasmexec.EInvalid},
		{"memory above max", "POST", "/v1/processes", `{"language":"javascript","code":"1","limits":{"memoryBytes":1099511627776}}`, 400, wasmexec.EInvalid},
		{"unknown field", "POST", "/v1/processes", `{"language":"javascript","code":"1","stdin":"x"}`, 400, wasmexec.EInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantStatus(t, tc.method, e.url+tc.path, "application/json", tc.body, tc.status, tc.code)
		})
	}
	p := e.spawn(t, jsReq(echoJS))
	wantStatus(t, "POST", e.procURL(p.PID, "/signal"), "application/json", `{"signal":"SIGHUP"}`, 400, wasmexec.EInvalid)
	wantStatus(t, "POST", e.procURL(p.PID, "/signal"), "application/json", `{"signal":"SIGKILL"}`, 200, "")
	// A failing program is an exit, not an HTTP error.
	p = e.spawn(t, jsReq(`throw new Error('boom')`))
	if w := e.waitExit(t, p.PID); w["outcome"] != "exited" || w["exitCode"] != float64(1) || w["error"].(map[string]any)["code"] != "exception" {
		t.Fatalf("wait %v", w)
	}
}

// Processes of a context run in its workspace (file or code); deleting the
// context kills them.
func TestContextWorkspace(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.js"), []byte(`console.log(fs.readFileSync('data.txt', 'utf8') + ' ' + process.argv.slice(2).join(',')); for (;;) {}`), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "data.txt"), []byte("from the workspace"), 0o644)
	e := MustEnv(t, envOpts{cfg: processes.Config{Workspace: func(id string) (string, error) {
		if id != "ctx1" {
			return "", wasmexec.Errorf(wasmexec.EContextNotFound, "no context %q", id)
		}
		return dir, nil
	}}})
	wantStatus(t, "POST", e.url+"/v1/processes", "application/json", `{"language":"javascript","code":"1","contextId":"nope"}`, 404, wasmexec.EContextNotFound)
	wantStatus(t, "POST", e.url+"/v1/processes", "application/json", `{"language":"javascript","file":"missing.js","contextId":"ctx1"}`, 404, wasmexec.ENotFound)
	wantStatus(t, "POST", e.url+"/v1/processes", "application/json", `{"language":"javascript","file":"../etc/passwd","contextId":"ctx1"}`, 400, wasmexec.EInvalid)
	p := e.spawn(t, `{"language":"javascript","file":"app.js","contextId":"ctx1","args":["a","b c"]}`)
	if p.Command != `javascript app.js a "b c"` || p.ContextID != "ctx1" {
		t.Fatalf("descriptor %+v", p)
	}
	s := e.openStream(t, p.PID, "", "")
	if ev := outputOf(t, s.mustNext(t)); string(ev.Chunk) != "from the workspace a,b c\n" {
		t.Fatalf("%q", ev.Chunk)
	}
	other := e.spawn(t, jsReq(echoJS))
	if n := e.m.ContextProcesses("ctx1"); n != 1 {
		t.Fatalf("ContextProcesses = %d", n)
	}
	if n := e.m.KillContext("ctx1"); n != 1 {
		t.Fatalf("killed %d", n)
	}
	// KillContext returns once the process has stopped.
	if d, _ := e.m.Get(p.PID); d.State != wasmexec.ProcessExited || d.Exit.Outcome != wasmexec.ExitSignalled || d.Exit.Signal != wasmexec.SIGKILL {
		t.Fatalf("after KillContext: %+v", d)
	}
	if d, _ := e.m.Get(other.PID); d.State != wasmexec.ProcessRunning {
		t.Fatalf("a process outside the context was touched: %+v", d)
	}
	if n := e.m.ContextProcesses("ctx1"); n != 0 {
		t.Fatalf("ContextProcesses after kill = %d", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "app.js")); err != nil {
		t.Fatal("the context's workspace must survive its processes")
	}
}

// Close kills every process and waits for their completion.
func TestCloseKillsAll(t *testing.T) {
	e := MustEnv(t, envOpts{})
	a := e.spawn(t, jsReq(echoJS))
	b := e.spawn(t, jsReq(`for (;;) {}`))
	e.m.Close()
	for _, p := range []wasmexec.Process{a, b} {
		res := e.done.get(p.ExecutionID)
		if res == nil || res.Outcome != wasmexec.Cancelled {
			t.Fatalf("record of %d: %+v", p.PID, res)
		}
	}
	if e.m.Running() != 0 {
		t.Fatal("processes still running after Close")
	}
	wantStatus(t, "POST", e.url+"/v1/processes", "application/json", jsReq(echoJS), 503, wasmexec.EUnavailable)
}

// Shutdown closes every process's stdin at once: one that ends at EOF
// exits by itself; one still running when the grace ends is killed and
// recorded as stopped by the shutdown, not by a client's signal.
func TestShutdownEOFThenKill(t *testing.T) {
	e := MustEnv(t, envOpts{})
	reader := e.spawn(t, jsReq(echoJS))
	loop := e.spawn(t, jsReq(`for (;;) {}`))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	e.m.Shutdown(ctx)
	if d, _ := e.m.Get(reader.PID); d.Exit == nil || d.Exit.Outcome != wasmexec.ExitExited {
		t.Fatalf("the reader: %+v", d)
	}
	d, _ := e.m.Get(loop.PID)
	if d.Exit == nil || d.Exit.Outcome != wasmexec.ExitSignalled || d.Exit.Signal != wasmexec.SIGTERM {
		t.Fatalf("the loop: %+v", d)
	}
	res := e.done.get(loop.ExecutionID)
	if res == nil || res.Outcome != wasmexec.Cancelled || res.Error.Name != "ShutdownError" || !strings.Contains(res.Error.Message, "shutdown") {
		t.Fatalf("the loop's record: %+v", res)
	}
	wantStatus(t, "POST", e.url+"/v1/processes", "application/json", jsReq(echoJS), 503, wasmexec.EUnavailable)
}

// Pids never repeat across restarts: a manager starts one past the
// largest pid of its range that the last clean shutdown kept (StateDir) or
// a process record holds (History, for a crash), and ignores the pids of
// another server's range.
func TestPIDsAcrossRestarts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kept    string  // last-pid's content ("": none)
		records []int64 // pids in the history
		base    int64
		want    int64
	}{
		{name: "fresh", want: 1},
		{name: "after a clean shutdown", kept: "41\n", want: 42},
		{name: "after a crash: the history", records: []int64{7, 19, 3}, want: 20},
		{name: "both: the larger", kept: "30", records: []int64{12}, want: 31},
		{name: "another server's range is ignored", kept: "41", records: []int64{2<<wasmexec.PIDShift + 5}, base: 1, want: 42},
		{name: "a cluster server's own range", records: []int64{3<<wasmexec.PIDShift + 9, 17}, base: 3<<wasmexec.PIDShift + 1, want: 3<<wasmexec.PIDShift + 10},
		{name: "a garbled file is ignored", kept: "lots", want: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.kept != "" {
				if err := os.WriteFile(filepath.Join(dir, "last-pid"), []byte(tc.kept), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h := pidRecords{}
			for _, pid := range tc.records {
				h = append(h, &wasmexec.Result{Kind: wasmexec.KindProcess, PID: pid})
			}
			e := MustEnv(t, envOpts{cfg: processes.Config{StateDir: dir, History: h, PIDBase: tc.base}})
			if p := e.spawn(t, jsReq(`1`)); p.PID != tc.want {
				t.Fatalf("first pid %d, want %d", p.PID, tc.want)
			}
			e.m.Close()
			b, err := os.ReadFile(filepath.Join(dir, "last-pid"))
			if err != nil || strings.TrimSpace(string(b)) != strconv.FormatInt(tc.want, 10) {
				t.Fatalf("last-pid after Close: %q %v, want %d", b, err, tc.want)
			}
		})
	}
}

// pidRecords is a history of process records, one page.
type pidRecords []*wasmexec.Result

func (h pidRecords) List(context.Context, wasmexec.HistoryFilter) (*wasmexec.HistoryPage, error) {
	return &wasmexec.HistoryPage{Executions: h}, nil
}

// Python reads stdin with input() and sys.stdin, writes bytes, and takes
// signals like JavaScript.
func TestPythonEcho(t *testing.T) {
	e := MustEnv(t, envOpts{python: true})
	b, _ := json.Marshal(wasmexec.SpawnRequest{Language: wasmexec.Python, Code: "import sys\nprint(input().upper())\nfor line in sys.stdin:\n    print('echo:', line.rstrip())\nsys.stdout.flush()\nsys.stdout.buffer.write(b'\\xff\\xfe\\n')\nsys.stdout.buffer.flush()\nprint('bye')\n"})
	p := e.spawn(t, string(b))
	s := e.openStream(t, p.PID, "", "")
	e.stdin(t, p.PID, "hello\n")
	if ev := outputOf(t, s.mustNext(t)); string(ev.Chunk) != "HELLO\n" {
		t.Fatalf("%q", ev.Chunk)
	}
	e.stdin(t, p.PID, "again\n")
	var got strings.Builder
	for got.Len() < len("echo: again\n") {
		got.Write(outputOf(t, s.mustNext(t)).Chunk)
	}
	if got.String() != "echo: again\n" {
		t.Fatalf("%q", got.String())
	}
	call(t, "POST", e.procURL(p.PID, "/stdin/close"), "", "", nil)
	events, _, exit := s.drain(t)
	var rest strings.Builder
	for _, ev := range events {
		rest.Write(ev.Chunk)
	}
	if rest.String() != "\xff\xfe\nbye\n" || exit["outcome"] != "exited" || exit["exitCode"] != float64(0) {
		t.Fatalf("rest %q exit %v", rest.String(), exit)
	}
	// Bytes that are not UTF-8 travel as base64.
	resp, err := http.Get(e.procURL(p.PID, "/output"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(raw), `"chunk":"//4K","encoding":"base64"`) {
		t.Fatalf("replay %s", raw)
	}

	// (Signals while blocked reading stdin: TestPythonSignals.)
	// SIGKILL of a busy loop.
	b, _ = json.Marshal(wasmexec.SpawnRequest{Language: wasmexec.Python, Code: "print('spin', flush=True)\nwhile True:\n    pass\n"})
	p = e.spawn(t, string(b))
	s = e.openStream(t, p.PID, "", "")
	if ev := outputOf(t, s.mustNext(t)); string(ev.Chunk) != "spin\n" {
		t.Fatalf("%q", ev.Chunk)
	}
	call(t, "POST", e.procURL(p.PID, "/signal"), "application/json", `{"signal":"SIGKILL"}`, nil)
	if _, _, exit := s.drain(t); exit["outcome"] != "signalled" || exit["signal"] != "SIGKILL" {
		t.Fatalf("exit %v", exit)
	}
}

// A Python process blocked reading stdin takes SIGTERM and SIGINT as a
// Linux process does: the default action ends it (reported as signalled,
// exit code 128+n, nothing after the read runs), a handler runs and the
// program goes on as it chooses, SIG_IGN ignores the signal (the read sees
// EOF: stdin is closed), and SIGINT is a KeyboardInterrupt.
func TestPythonSignals(t *testing.T) {
	e := MustEnv(t, envOpts{python: true})
	read := "data = sys.stdin.read()\nprint('eof after', len(data))\n"
	for _, tc := range []struct {
		name, code, signal, outcome string
		exitCode                    int
		stdout, stderr              string
	}{
		{"SIGTERM, default action", "import sys\n" + read, "SIGTERM", "signalled", 143, "", ""},
		{"SIGTERM, handler exits", "import signal, sys\ndef h(n, f):\n    print('handled', n)\n    sys.exit(4)\nsignal.signal(signal.SIGTERM, h)\n" + read, "SIGTERM", "exited", 4, "handled 15\n", ""},
		{"SIGTERM, handler returns", "import signal, sys\nsignal.signal(signal.SIGTERM, lambda n, f: print('noted'))\n" + read, "SIGTERM", "exited", 0, "noted\neof after 3\n", ""},
		{"SIGTERM ignored", "import signal, sys\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n" + read, "SIGTERM", "exited", 0, "eof after 3\n", ""},
		{"SIGINT, default action", "import sys\n" + read, "SIGINT", "signalled", 130, "", "KeyboardInterrupt"},
		{"SIGINT caught", "import sys\ntry:\n    sys.stdin.read()\nexcept KeyboardInterrupt:\n    print('interrupted')\n", "SIGINT", "exited", 0, "interrupted\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(wasmexec.SpawnRequest{Language: wasmexec.Python, Code: tc.code})
			p := e.spawn(t, string(b))
			e.stdin(t, p.PID, "abc")
			call(t, "POST", e.procURL(p.PID, "/signal"), "application/json", `{"signal":"`+tc.signal+`"}`, nil)
			w := e.waitExit(t, p.PID)
			wantSignal := any(nil)
			if tc.outcome == "signalled" {
				wantSignal = tc.signal
			}
			if w["outcome"] != tc.outcome || w["exitCode"] != float64(tc.exitCode) || w["signal"] != wantSignal {
				t.Fatalf("wait %v", w)
			}
			res := e.done.get(p.ExecutionID)
			if res == nil || *res.Stdout != tc.stdout || !strings.Contains(*res.Stderr, tc.stderr) {
				t.Fatalf("record %+v", res)
			}
		})
	}
}

// An idle stream sends keep-alive comments.
func TestStreamKeepAlive(t *testing.T) {
	old := server.SSEKeepAlive
	server.SSEKeepAlive = 20 * time.Millisecond
	t.Cleanup(func() { server.SSEKeepAlive = old })
	e := MustEnv(t, envOpts{})
	p := e.spawn(t, jsReq(echoJS))
	s := e.openStream(t, p.PID, "", "")
	for seen := 0; seen < 2; {
		line, err := s.r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == ": keep-alive\n" {
			seen++
		}
	}
	e.stdin(t, p.PID, "still there\n")
	if ev := outputOf(t, s.mustNext(t)); string(ev.Chunk) != "echo: still there\n" {
		t.Fatalf("%q", ev.Chunk)
	}
}

// Exited processes are kept for a while (KeepExited, ExitedTTL), then
// answer not_found; their records stay in the store.
func TestExitedEviction(t *testing.T) {
	e := MustEnv(t, envOpts{cfg: processes.Config{KeepExited: 1}})
	a := e.spawn(t, jsReq(`console.log('a')`))
	e.waitExit(t, a.PID)
	b := e.spawn(t, jsReq(`console.log('b')`))
	e.waitExit(t, b.PID)
	var body struct{ Code, Message string }
	if resp := call(t, "GET", e.procURL(a.PID, ""), "", "", &body); resp.StatusCode != 404 || !strings.Contains(body.Message, "/v1/executions") {
		t.Fatalf("evicted: %d %+v", resp.StatusCode, body)
	}
	if d, err := e.m.Get(b.PID); err != nil || d.State != wasmexec.ProcessExited {
		t.Fatalf("kept: %+v %v", d, err)
	}
	if e.done.get(a.ExecutionID) == nil {
		t.Fatal("the evicted process has no record")
	}
}

// Wired to the real contexts manager as cmd/wasmexec does: a process runs a
// file of a context's workspace, and deleting the context kills it before
// the workspace goes.
func TestWithContextsManager(t *testing.T) {
	var cm *contexts.Manager
	e := MustEnv(t, envOpts{cfg: processes.Config{
		Workspace: func(id string) (string, error) { return cm.WorkspaceDir(id) },
		Quota:     func(id string) (wasmexec.QuotaCheck, error) { return cm.ProcessQuota(id) },
	}})
	wm, err := vfs.NewManager(testenv.ScratchDir(t), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var sawWorkspace bool
	cm, err = contexts.Open(contexts.Config{Runner: e.r, Workspaces: wm, OnDelete: func(id string) {
		e.m.KillContext(id)
		// The process has stopped; the workspace is still there.
		dir, _ := os.ReadDir(wm.Root())
		sawWorkspace = len(dir) == 1
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cm.Close)
	ctx := context.Background()
	if _, err := cm.Create(ctx, &wasmexec.ContextSpec{ContextID: "work", Language: wasmexec.JavaScript}); err != nil {
		t.Fatal(err)
	}
	if _, err := cm.WriteFile(ctx, "work", "srv.js", []byte(`console.log('up'); let l; while ((l = stdin.readLine()) !== null) console.log(l)`)); err != nil {
		t.Fatal(err)
	}
	p := e.spawn(t, `{"language":"javascript","file":"srv.js","contextId":"work"}`)
	s := e.openStream(t, p.PID, "", "")
	if ev := outputOf(t, s.mustNext(t)); string(ev.Chunk) != "up\n" {
		t.Fatalf("%q", ev.Chunk)
	}
	if err := cm.Delete(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	_, _, exit := s.drain(t)
	if exit["outcome"] != "signalled" || exit["signal"] != "SIGKILL" || !sawWorkspace {
		t.Fatalf("exit %v, workspace present at kill: %v", exit, sawWorkspace)
	}
	wantStatus(t, "POST", e.url+"/v1/processes", "application/json", `{"language":"javascript","code":"1","contextId":"work"}`, 404, wasmexec.EContextNotFound)

	// A process in a context's workspace is watched against its quota
	// (1 MiB here) while it writes: it was never checked (112 MiB written
	// against a 64 MiB quota).
	if _, err := cm.Create(ctx, &wasmexec.ContextSpec{ContextID: "fill", Language: wasmexec.JavaScript}); err != nil {
		t.Fatal(err)
	}
	p = e.spawn(t, `{"language":"javascript","contextId":"fill","code":"const s = 'x'.repeat(1 << 16); for (let i = 0; ; i++) fs.writeFileSync('f' + i + '.bin', s)"}`)
	_, _, exit = e.openStream(t, p.PID, "", "").drain(t)
	res := e.done.get(p.ExecutionID)
	if res == nil || res.Error == nil || res.Error.Code != wasmexec.CodeQuotaExceeded {
		t.Fatalf("exit %v, record %+v", exit, res)
	}
	if d, err := cm.Get(ctx, "fill"); err != nil || d.Workspace.UsedBytes > 48<<20 { // stopped within a poll, not at its timeout
		t.Fatalf("workspace %+v %v", d, err)
	}
}

// limits.outputBytes bounds what the record captures, not the process: its
// output goes on through the event log.
func TestOutputBytesDoesNotEndAProcess(t *testing.T) {
	e := MustEnv(t, envOpts{})
	b, _ := json.Marshal(wasmexec.SpawnRequest{Language: wasmexec.JavaScript, Code: `for (let i = 0; i < 100; i++) console.log('x'.repeat(99))`, Limits: wasmexec.Limits{OutputBytes: 1000}})
	p := e.spawn(t, string(b))
	events, _, exit := e.openStream(t, p.PID, "", "").drain(t)
	if len(events) != 100 || exit["outcome"] != "exited" || exit["exitCode"] != float64(0) {
		t.Fatalf("%d events, exit %v", len(events), exit)
	}
	res := e.done.get(p.ExecutionID)
	if res == nil || len(*res.Stdout) != 1000 || !res.StdoutTruncated || res.Outcome != wasmexec.Succeeded {
		t.Fatalf("record %+v", res)
	}
}
