package server_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/store"
)

// fakeProcesses serves one live process (pid 1, executionId exe_live) from
// an output log; only what history and output routes use is implemented.
type fakeProcesses struct{ log *wasmexec.OutputLog }

func (f fakeProcesses) Spawn(context.Context, *wasmexec.SpawnRequest) (*wasmexec.Process, error) {
	return nil, wasmexec.Errorf(wasmexec.EInvalid, "not in this test")
}
func (f fakeProcesses) Get(pid int64) (*wasmexec.Process, error) { return nil, f.missing(pid) }
func (f fakeProcesses) List() []*wasmexec.Process {
	return []*wasmexec.Process{{PID: 1, ExecutionID: "exe_live", State: wasmexec.ProcessRunning}}
}
func (f fakeProcesses) WriteStdin(pid int64, _ []byte) error { return f.missing(pid) }
func (f fakeProcesses) CloseStdin(pid int64) (*wasmexec.Process, error) {
	return nil, f.missing(pid)
}
func (f fakeProcesses) Signal(pid int64, _ wasmexec.Signal) (*wasmexec.Process, error) {
	return nil, f.missing(pid)
}
func (f fakeProcesses) Wait(_ context.Context, pid int64, _ time.Duration) (*wasmexec.ProcessWait, error) {
	return nil, f.missing(pid)
}
func (f fakeProcesses) Follow(pid int64) (*wasmexec.OutputLog, <-chan struct{}, error) {
	return nil, nil, f.missing(pid)
}
func (f fakeProcesses) missing(pid int64) error {
	return wasmexec.Errorf(wasmexec.ENotFound, "no process %d", pid)
}
func (f fakeProcesses) Output(pid int64, after string, limit int) (*wasmexec.Replay, error) {
	if pid != 1 {
		return nil, f.missing(pid)
	}
	seq, err := wasmexec.ParseCursor(after)
	if err != nil {
		return nil, err
	}
	r := f.log.Read(seq, limit)
	return &r, nil
}
func (f fakeProcesses) ExecutionOutput(id, after string, limit int) (*wasmexec.Replay, bool, error) {
	if id != "exe_live" {
		return nil, false, nil
	}
	r, err := f.Output(1, after, limit)
	return r, true, err
}

// MustHistoryServer serves JavaScript and Python one-shot runs persisted in
// a real SQLite store, and procs (may be nil).
func MustHistoryServer(tb testing.TB, procs server.Processes) *httptest.Server {
	tb.Helper()
	st, err := store.Open(context.Background(), store.Config{Path: filepath.Join(tb.TempDir(), "wasmexec.db")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	r := testenv.Runner(tb, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName), python.ImageName: testenv.Image(tb, python.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}, wasmexec.Python: python.Driver{}},
		Store:     st,
	})
	cfg := server.Config{Runner: r, History: st}
	if procs != nil {
		cfg.Processes = procs
	}
	srv := httptest.NewServer(server.New(cfg).Handler())
	tb.Cleanup(srv.Close)
	return srv
}

// call sends a request and decodes a JSON object reply (nil for none).
func call(tb testing.TB, method, url, body string) (int, map[string]any) {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	if len(b) == 0 {
		return resp.StatusCode, nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatalf("%s %s: reply is not a JSON object: %v: %.200s", method, url, err, b)
	}
	return resp.StatusCode, m
}

func errorCode(m map[string]any) string {
	if e, ok := m["error"].(map[string]any); ok {
		s, _ := e["code"].(string)
		return s
	}
	return ""
}

// Item 12: a value is bounded by limits.outputBytes at run time (a 20 MB
// value is failed/output_limit, never returned or stored), and the store
// keeps at most 1 MiB of one (valueTruncated), though the reply has it.
func TestValueBoundOverHTTP(t *testing.T) {
	ts := MustHistoryServer(t, nil)
	status, res := call(t, "POST", ts.URL+"/v1/evaluate", `{"language":"javascript","code":"'x'.repeat(20e6)"}`)
	if status != 200 || res["outcome"] != "failed" || errorCode(res) != wasmexec.CodeOutputLimit || res["value"] != nil {
		t.Fatalf("20 MB value: %d outcome %v error %v, value present %v", status, res["outcome"], res["error"], res["value"] != nil)
	}
	status, rec := call(t, "GET", ts.URL+"/v1/executions/"+res["executionId"].(string), "")
	if status != 200 || rec["outcome"] != "failed" || errorCode(rec) != wasmexec.CodeOutputLimit || rec["value"] != nil {
		t.Fatalf("stored 20 MB value: %d %v", status, rec["error"])
	}

	status, res = call(t, "POST", ts.URL+"/v1/evaluate", `{"language":"javascript","code":"'y'.repeat(2e6)"}`)
	if v, _ := res["value"].(string); status != 200 || res["outcome"] != "succeeded" || len(v) != 2e6 {
		t.Fatalf("2 MB value: %d outcome %v error %v, %d bytes", status, res["outcome"], res["error"], len(v))
	}
	status, rec = call(t, "GET", ts.URL+"/v1/executions/"+res["executionId"].(string), "")
	if status != 200 || rec["outcome"] != "succeeded" || rec["value"] != nil || rec["valueTruncated"] != true {
		t.Fatalf("stored 2 MB value: %d outcome %v value present %v valueTruncated %v", status, rec["outcome"], rec["value"] != nil, rec["valueTruncated"])
	}
}

// Item 13: stdout and stderr follow the rule of output events: text when
// valid UTF-8, else base64 with an encoding field; live and stored alike.
func TestBinaryStreamsOverHTTP(t *testing.T) {
	ts := MustHistoryServer(t, nil)
	code := `import sys\nsys.stdout.buffer.write(b'\\xff\\x00ok'); sys.stdout.flush()\nsys.stderr.write('caf\u00e9')`
	status, res := call(t, "POST", ts.URL+"/v1/execute", `{"language":"python","code":"`+code+`"}`)
	if status != 200 || res["outcome"] != "succeeded" {
		t.Fatalf("%d %v", status, res)
	}
	status, rec := call(t, "GET", ts.URL+"/v1/executions/"+res["executionId"].(string), "")
	if status != 200 {
		t.Fatalf("GET record: %d %v", status, rec)
	}
	for name, m := range map[string]map[string]any{"reply": res, "record": rec} {
		out, _ := m["stdout"].(string)
		if b, err := base64.StdEncoding.DecodeString(out); err != nil || string(b) != "\xff\x00ok" || m["stdoutEncoding"] != "base64" {
			t.Errorf("%s: stdout %q encoding %v, want base64 of ff 00 'ok'", name, out, m["stdoutEncoding"])
		}
		if m["stderr"] != "café" || m["stderrEncoding"] != nil {
			t.Errorf("%s: stderr %q encoding %v, want text", name, m["stderr"], m["stderrEncoding"])
		}
	}
}

// Item 15: one vocabulary for processes (the exit outcomes select process
// records), the stored code on request, and DELETE of a completed record.
func TestHistoryVocabularyCodeAndDelete(t *testing.T) {
	ts := MustHistoryServer(t, fakeProcesses{wasmexec.NewOutputLog(1, 1<<20)})
	for _, o := range []string{"exited", "signalled", "timed_out", "succeeded"} {
		if status, m := call(t, "GET", ts.URL+"/v1/executions?outcome="+o, ""); status != 200 {
			t.Errorf("?outcome=%s: %d %v", o, status, m)
		}
	}
	if status, m := call(t, "GET", ts.URL+"/v1/executions?outcome=finished", ""); status != 400 {
		t.Errorf("?outcome=finished: %d %v, want 400", status, m)
	}

	src := "// " + strings.Repeat("é", 40<<10) + "\n6*7"
	body, _ := json.Marshal(map[string]string{"language": "javascript", "code": src})
	_, res := call(t, "POST", ts.URL+"/v1/evaluate", string(body))
	id, _ := res["executionId"].(string)
	if res["value"] != float64(42) {
		t.Fatalf("evaluate: %v", res)
	}
	if _, rec := call(t, "GET", ts.URL+"/v1/executions/"+id, ""); rec["code"] != nil {
		t.Errorf("code without include=code: %.40v", rec["code"])
	}
	_, rec := call(t, "GET", ts.URL+"/v1/executions/"+id+"?include=code", "")
	if code, _ := rec["code"].(string); len(code) > 64<<10 || !strings.HasPrefix(src, code) || rec["codeTruncated"] != true || rec["value"] != float64(42) {
		t.Errorf("include=code: %d bytes of code (a prefix: %v), codeTruncated %v, value %v", len(code), strings.HasPrefix(src, code), rec["codeTruncated"], rec["value"])
	}
	_, res = call(t, "POST", ts.URL+"/v1/evaluate", `{"language":"javascript","code":"1"}`)
	if _, rec := call(t, "GET", ts.URL+"/v1/executions/"+res["executionId"].(string)+"?include=code", ""); rec["code"] != "1" || rec["codeTruncated"] != false {
		t.Errorf("include=code of a short code: %v %v", rec["code"], rec["codeTruncated"])
	}
	if status, m := call(t, "GET", ts.URL+"/v1/executions/"+id+"?include=everything", ""); status != 400 {
		t.Errorf("include=everything: %d %v", status, m)
	}

	if status, m := call(t, "DELETE", ts.URL+"/v1/executions/"+id, ""); status != 204 || m != nil {
		t.Fatalf("DELETE: %d %v", status, m)
	}
	if status, m := call(t, "GET", ts.URL+"/v1/executions/"+id, ""); status != 404 || m["code"] != wasmexec.ENotFound {
		t.Errorf("GET after DELETE: %d %v", status, m)
	}
	if status, m := call(t, "DELETE", ts.URL+"/v1/executions/"+id, ""); status != 404 || m["code"] != wasmexec.ENotFound {
		t.Errorf("second DELETE: %d %v", status, m)
	}
	if status, m := call(t, "DELETE", ts.URL+"/v1/executions/exe_live", ""); status != 409 || m["code"] != wasmexec.EConflict {
		t.Errorf("DELETE of a running process's execution: %d %v", status, m)
	}
}

// Item 19: replay of a run that kept no events is 409
// execution_output_not_retained, not an empty page.
func TestReplayNotRetainedOverHTTP(t *testing.T) {
	ts := MustHistoryServer(t, nil)
	_, res := call(t, "POST", ts.URL+"/v1/evaluate", `{"language":"javascript","code":"console.log('hi')"}`)
	status, m := call(t, "GET", ts.URL+"/v1/executions/"+res["executionId"].(string)+"/output", "")
	if status != 409 || m["code"] != wasmexec.ENotRetained {
		t.Fatalf("replay of a run without retainEvents: %d %v", status, m)
	}
	_, res = call(t, "POST", ts.URL+"/v1/evaluate", `{"language":"javascript","code":"1","output":{"retainEvents":true}}`)
	status, m = call(t, "GET", ts.URL+"/v1/executions/"+res["executionId"].(string)+"/output", "")
	if evs, _ := m["events"].([]any); status != 200 || evs == nil || len(evs) != 0 {
		t.Fatalf("replay of a retained run without output: %d %v", status, m)
	}
}

// Item 20: maxBytes bounds a page by the bytes of its chunks, stored and
// live; a single larger event comes alone; 0 and negative are 400.
func TestReplayMaxBytesOverHTTP(t *testing.T) {
	log := wasmexec.NewOutputLog(1, 1<<20)
	sizes := []int{10, 10, 10, 100, 10}
	for i, n := range sizes {
		log.Append(wasmexec.Stdout, []byte(strings.Repeat(fmt.Sprint(i), n)))
	}
	ts := MustHistoryServer(t, fakeProcesses{log})
	// A pause between writes ends a chunk (the driver coalesces the
	// writes of a one-shot run, docs/PROTOCOL.md): five events.
	code := `for (const n of [10, 10, 10, 100, 10]) { process.stdout.write('z'.repeat(n)); await new Promise(r => setTimeout(r, 1)) }`
	_, res := call(t, "POST", ts.URL+"/v1/execute", `{"language":"javascript","code":"`+code+`","output":{"retainEvents":true}}`)
	stored := ts.URL + "/v1/executions/" + res["executionId"].(string) + "/output"

	for name, base := range map[string]string{
		"stored":         stored,
		"live execution": ts.URL + "/v1/executions/exe_live/output",
		"live process":   ts.URL + "/v1/processes/1/output",
	} {
		t.Run(name, func(t *testing.T) {
			// Pages of at most 25 bytes: 10+10, 10, 100 (alone), 10.
			var got []int
			after := ""
			for page := 0; ; page++ {
				status, m := call(t, "GET", base+"?maxBytes=25&after="+after, "")
				if status != 200 || page > 10 {
					t.Fatalf("page %d: %d %v", page, status, m)
				}
				n, evs := 0, m["events"].([]any)
				for _, e := range evs {
					n += len(e.(map[string]any)["chunk"].(string))
				}
				if n > 25 && len(evs) != 1 {
					t.Fatalf("page %d: %d bytes in %d events, over maxBytes", page, n, len(evs))
				}
				got = append(got, n)
				after = m["nextCursor"].(string)
				if m["hasMore"] != true {
					break
				}
			}
			if fmt.Sprint(got) != "[20 10 100 10]" {
				t.Fatalf("page sizes %v, want [20 10 100 10]", got)
			}
			for _, bad := range []string{"0", "-1", "x"} {
				if status, m := call(t, "GET", base+"?maxBytes="+bad, ""); status != 400 || m["code"] != wasmexec.EInvalid {
					t.Errorf("maxBytes=%s: %d %v", bad, status, m)
				}
			}
		})
	}
}

// Issue 11 item 7: a one-shot run's console writes are coalesced into
// chunks (one event each, not one per line) with the output unchanged and
// in order across the two streams; no chunk grows past the driver's 16 KiB
// bound plus one write.
func TestOutputCoalescedIntoChunks(t *testing.T) {
	ts := MustHistoryServer(t, fakeProcesses{})
	for _, tc := range []struct{ lang, code string }{
		{"javascript", `for (let i = 0; i < 3000; i++) console.log('line ' + i); console.error('err'); console.log('x'.repeat(40000)); console.log('end')`},
		{"python", "import sys\nfor i in range(3000): print('line', i)\nprint('err', file=sys.stderr)\nprint('x' * 40000)\nprint('end')"},
	} {
		t.Run(tc.lang, func(t *testing.T) { checkCoalesced(t, ts.URL, tc.lang, tc.code) })
	}
}

func checkCoalesced(t *testing.T, base, lang, code string) {
	body, _ := json.Marshal(map[string]any{"language": lang, "code": code, "output": map[string]any{"retainEvents": true}})
	_, res := call(t, "POST", base+"/v1/execute", string(body))
	if res["outcome"] != "succeeded" {
		t.Fatalf("run: %v", res)
	}
	var stdout strings.Builder
	var channels []string
	events := 0
	after := ""
	for {
		status, m := call(t, "GET", base+"/v1/executions/"+res["executionId"].(string)+"/output?limit=1000&after="+after, "")
		if status != 200 {
			t.Fatalf("replay: %d %v", status, m)
		}
		for _, e := range m["events"].([]any) {
			ev := e.(map[string]any)
			chunk := ev["chunk"].(string)
			if len(chunk) > 16<<10+40001 {
				t.Fatalf("a chunk of %d bytes", len(chunk))
			}
			if ev["channel"] == "stdout" {
				stdout.WriteString(chunk)
			}
			channels = append(channels, ev["channel"].(string))
			events++
		}
		if m["hasMore"] != true {
			break
		}
		after = m["nextCursor"].(string)
	}
	var want strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&want, "line %d\n", i)
	}
	want.WriteString(strings.Repeat("x", 40000) + "\nend\n")
	if stdout.String() != want.String() || stdout.String() != res["stdout"] {
		t.Fatalf("stdout differs from what was written (%d vs %d bytes)", stdout.Len(), want.Len())
	}
	if events > 100 {
		t.Fatalf("%d events for 3003 writes: not coalesced", events)
	}
	// stderr's chunk sits between the stdout chunks, where it was written.
	if i := slices.Index(channels, "stderr"); i <= 0 || i == len(channels)-1 {
		t.Fatalf("channels in order %v", channels)
	}
}

// TestOutputHandedOverWhenAged: the drivers coalesce output but hand it
// over at the first write after it is a few ms old (JS: the engine's
// epoch tick sets a byte the driver registered; Python: the clock), so a
// run that computes between lines has them in several events, in order.
func TestOutputHandedOverWhenAged(t *testing.T) {
	ts := MustHistoryServer(t, fakeProcesses{})
	for _, tc := range []struct{ lang, code string }{
		{"javascript", `function spin(ms) { const t = Date.now(); while (Date.now() - t < ms) {} }
console.log('a'); spin(40); console.log('b'); spin(40); console.log('c'); console.log('d')`},
		{"python", "import time\ndef spin(s):\n    t = time.monotonic()\n    while time.monotonic() - t < s: pass\n" +
			"print('a'); spin(0.04); print('b'); spin(0.04); print('c'); print('d')"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"language": tc.lang, "code": tc.code, "output": map[string]any{"retainEvents": true}})
			_, res := call(t, "POST", ts.URL+"/v1/execute", string(body))
			if res["outcome"] != "succeeded" {
				t.Fatalf("run: %v", res)
			}
			_, m := call(t, "GET", ts.URL+"/v1/executions/"+res["executionId"].(string)+"/output?limit=100", "")
			var chunks []string
			for _, e := range m["events"].([]any) {
				chunks = append(chunks, e.(map[string]any)["chunk"].(string))
			}
			if strings.Join(chunks, "") != "a\nb\nc\nd\n" || len(chunks) < 2 {
				t.Fatalf("chunks %q: want the lines in order, handed over in more than one chunk", chunks)
			}
		})
	}
}
