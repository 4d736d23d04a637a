package tscheck

import (
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/workerpool"
)

// workerConn drives WorkerMain in-process over pipes, so the race detector
// sees the worker's own goroutines (reader, timeout timer, memory watchdog).
type workerConn struct {
	tb   testing.TB
	in   *io.PipeWriter
	out  *io.PipeReader
	done chan error
}

func startInProcessWorker(tb testing.TB) *workerConn {
	tb.Helper()
	requireImage(tb)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &workerConn{tb: tb, in: inW, out: outR, done: make(chan error, 1)}
	go func() {
		err := WorkerMain(inR, outW)
		outW.Close()
		c.done <- err
	}()
	// No pre-warm: the checks below use only the es5 lib, so this
	// stays quick even when the whole compiler runs under -race.
	c.send(workerRequest{Op: opInit, ImageDir: testImageDir})
	for {
		m := c.recv()
		if m.Type == msgFatal {
			tb.Fatalf("worker init: %s", m.Msg)
		}
		if m.Type == msgReady {
			if m.Version != "5.9.3" || len(m.Libs) == 0 || len(m.Enums["target"]) == 0 {
				tb.Fatalf("ready message %+v", m)
			}
			return c
		}
	}
}

func (c *workerConn) send(req workerRequest) {
	c.tb.Helper()
	if err := workerpool.WriteFrame(c.in, req); err != nil {
		c.tb.Fatalf("send: %v", err)
	}
}

// recv returns the next non-log message.
func (c *workerConn) recv() workerMessage {
	c.tb.Helper()
	for {
		var m workerMessage
		if err := workerpool.ReadFrame(c.out, &m); err != nil {
			c.tb.Fatalf("recv: %v", err)
		}
		if m.Type != msgLog {
			return m
		}
	}
}

func (c *workerConn) close() error {
	c.in.Close()
	return <-c.done
}

func tinyPayload(code string) *checkPayload {
	opts, _ := CompilerOptions{Lib: []string{"es5"}}.tsOptions()
	return &checkPayload{Files: map[string]string{"/main.ts": code}, Roots: []string{"/main.ts"}, Options: opts}
}

func TestWorkerProtocol(t *testing.T) {
	c := startInProcessWorker(t)
	plain := tinyPayload("export const x: number = 1;\nexport const y: number = \"s\";\n")

	tests := []struct {
		name        string
		reqs        []workerRequest // sent back to back; the result of the first is checked
		wantOutcome string
		wantCode    string
	}{
		{"completes", []workerRequest{{Op: opCheck, ID: 1, Check: plain, TimeoutMs: 60_000}}, string(wasmexec.Succeeded), ""},
		{"times out", []workerRequest{{Op: opCheck, ID: 2, Check: tinyPayload(explosiveType), TimeoutMs: 200}}, string(wasmexec.TimedOut), CodeTimeout},
		{"cancel right after the request", []workerRequest{
			{Op: opCheck, ID: 3, Check: tinyPayload(explosiveType), TimeoutMs: 60_000},
			{Op: opCancel, ID: 3},
		}, string(wasmexec.Cancelled), CodeCancelled},
		{"stale cancel is ignored", []workerRequest{
			{Op: opCancel, ID: 3},
			{Op: opCheck, ID: 4, Check: plain, TimeoutMs: 60_000},
		}, string(wasmexec.Succeeded), ""},
		{"options the compiler rejects", []workerRequest{{Op: opCheck, ID: 5, TimeoutMs: 60_000,
			Check: &checkPayload{Files: plain.Files, Roots: plain.Roots, Options: map[string]any{"target": "es1999"}}}},
			wireInvalid, wasmexec.EInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range tc.reqs {
				c.send(r)
			}
			m := c.recv()
			want := tc.reqs[0].ID
			if tc.reqs[0].Op == opCancel {
				want = tc.reqs[1].ID
			}
			if m.Type != msgResult || m.ID != want {
				t.Fatalf("message %+v; want the result of check %d", m, want)
			}
			if m.Outcome != tc.wantOutcome {
				t.Fatalf("outcome %q (error %+v); want %q", m.Outcome, m.Error, tc.wantOutcome)
			}
			if tc.wantCode != "" && (m.Error == nil || m.Error.Code != tc.wantCode) {
				t.Fatalf("error %+v; want code %q", m.Error, tc.wantCode)
			}
			if m.Outcome == string(wasmexec.Succeeded) {
				found := false
				for _, d := range m.Diagnostics {
					found = found || d.Code == 2322 && d.Line == 2 && d.Column == 14
				}
				if !found {
					t.Errorf("diagnostics %+v lack TS2322 at 2:14", m.Diagnostics)
				}
			}
		})
	}

	errc := make(chan error, 1)
	go func() { errc <- c.close() }()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("WorkerMain after stdin closed: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("WorkerMain did not return after stdin closed")
	}
}

// The wire names of Result and Diagnostic are part of the HTTP API.
func TestJSONShape(t *testing.T) {
	res := Result{Outcome: wasmexec.Succeeded, HasErrors: true, TypeScriptVersion: "5.9.3", DurationMs: 1.5,
		Diagnostics: []Diagnostic{{Code: 2322, Category: "error", Message: "m", FilePath: "/main.ts", Line: 1, Column: 7}}}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"outcome":"succeeded","hasErrors":true,"diagnostics":[{"code":2322,"category":"error","message":"m",` +
		`"filePath":"/main.ts","line":1,"column":7}],"typeScriptVersion":"5.9.3","durationMs":1.5}`
	if string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}
}
