package processes_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/pipeline"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/vfs"
)

var _ server.Processes = (*processes.Manager)(nil)
var _ server.LiveOutput = (*processes.Manager)(nil)

// completions records what the pipeline's persist step stored (the
// store's view).
type completions struct {
	mu  sync.Mutex
	res map[string]*wasmexec.Result
	evs map[string][]wasmexec.Event
}

func (c *completions) save(_ context.Context, r *wasmexec.Result, events []wasmexec.Event, _ bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.res[r.ExecutionID] = r
	if r.EventsRetained {
		c.evs[r.ExecutionID] = events
	}
	return nil
}

func (c *completions) get(id string) *wasmexec.Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.res[id]
}

type env struct {
	r    *pipeline.Pipeline
	m    *processes.Manager
	url  string
	done *completions
}

// options for MustEnv.
type envOpts struct {
	cfg     processes.Config
	python  bool
	network *egress.Egress // nil: no network
}

// MustEnv starts a Runner with the real JS guest (and Python when asked),
// a Manager and an HTTP server.
func MustEnv(tb testing.TB, o envOpts) *env {
	tb.Helper()
	images := map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName)}
	langs := map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}}
	if o.python {
		images[python.ImageName] = testenv.Image(tb, python.ImageName)
		langs[wasmexec.Python] = python.Driver{}
	}
	wm, err := vfs.NewManager(testenv.ScratchDir(tb), 0)
	if err != nil {
		tb.Fatal(err)
	}
	done := &completions{res: map[string]*wasmexec.Result{}, evs: map[string][]wasmexec.Event{}}
	r := testenv.Runner(tb, testenv.RunnerConfig{
		Images: images, Languages: langs, Policy: wasmexec.DefaultPolicy(),
		Workspaces: wm, Store: testenv.StoreFunc(done.save), Network: o.network,
	})
	cfg := o.cfg
	cfg.Runner = r
	m, err := processes.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Close)
	ts := httptest.NewServer(server.New(server.Config{Runner: r, Processes: m}).Handler())
	tb.Cleanup(ts.Close)
	// Registered last, run first: end open streams before the manager waits.
	tb.Cleanup(ts.CloseClientConnections)
	return &env{r: r, m: m, url: ts.URL, done: done}
}

// call sends a request and decodes the JSON answer into out (when non-nil).
func call(tb testing.TB, method, url, contentType, body string, out any) *http.Response {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			tb.Fatalf("%s %s: answer is not JSON: %v: %s", method, url, err, b)
		}
	}
	return resp
}

// wantStatus checks an answer's status (and error code, when given).
func wantStatus(tb testing.TB, method, url, contentType, body string, status int, code string) {
	tb.Helper()
	var e struct{ Code, Message string }
	resp := call(tb, method, url, contentType, body, &e)
	if resp.StatusCode != status || (code != "" && e.Code != code) || (status >= 400 && e.Message == "") {
		tb.Fatalf("%s %s: got %d %+v, want %d %s", method, url, resp.StatusCode, e, status, code)
	}
}

func (e *env) spawn(tb testing.TB, body string) wasmexec.Process {
	tb.Helper()
	var p wasmexec.Process
	resp := call(tb, "POST", e.url+"/v1/processes", "application/json", body, &p)
	if resp.StatusCode != http.StatusCreated || p.PID <= 0 {
		tb.Fatalf("spawn: %d %+v", resp.StatusCode, p)
	}
	return p
}

func (e *env) procURL(pid int64, rest string) string {
	return e.url + "/v1/processes/" + itoa(pid) + rest
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func (e *env) stdin(tb testing.TB, pid int64, data string) {
	tb.Helper()
	var out map[string]any
	resp := call(tb, "POST", e.procURL(pid, "/stdin"), "application/octet-stream", data, &out)
	if resp.StatusCode != 200 || out["written"] != float64(len(data)) {
		tb.Fatalf("stdin: %d %v", resp.StatusCode, out)
	}
}

// waitExit long-polls until pid exits.
func (e *env) waitExit(tb testing.TB, pid int64) map[string]any {
	tb.Helper()
	for i := 0; i < 20; i++ {
		var w map[string]any
		resp := call(tb, "GET", e.procURL(pid, "/wait?timeoutMs=30000"), "", "", &w)
		if resp.StatusCode != 200 {
			tb.Fatalf("wait: %d %v", resp.StatusCode, w)
		}
		if w["state"] == "exited" {
			return w
		}
	}
	tb.Fatalf("process %d did not exit", pid)
	return nil
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	ID, Event, Data string
}

// stream is an open SSE connection.
type stream struct {
	resp   *http.Response
	r      *bufio.Reader
	cancel context.CancelFunc
}

// openStream connects to the output stream of pid; lastID and query
// (e.g. "?after=c5") are optional.
func (e *env) openStream(tb testing.TB, pid int64, lastID, query string) *stream {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	req, err := http.NewRequestWithContext(ctx, "GET", e.procURL(pid, "/output/stream"+query), nil)
	if err != nil {
		tb.Fatal(err)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		tb.Fatalf("stream: %d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	s := &stream{resp: resp, r: bufio.NewReaderSize(resp.Body, 64<<10), cancel: cancel}
	tb.Cleanup(s.close)
	return s
}

func (s *stream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// next returns the next event (comments skipped); ok is false at the end of
// the stream.
func (s *stream) next() (ev sseEvent, ok bool, err error) {
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && line == "" {
				return ev, false, nil
			}
			return ev, false, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.Event != "" || ev.Data != "" {
				return ev, true, nil
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id: "):
			ev.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			ev.Event = line[7:]
		case strings.HasPrefix(line, "data: "):
			ev.Data += line[6:]
		}
	}
}

// mustNext returns the next event or fails.
func (s *stream) mustNext(tb testing.TB) sseEvent {
	tb.Helper()
	ev, ok, err := s.next()
	if err != nil || !ok {
		tb.Fatalf("stream ended: ok=%v err=%v", ok, err)
	}
	return ev
}

// outputOf decodes an output event.
func outputOf(tb testing.TB, ev sseEvent) wasmexec.Event {
	tb.Helper()
	if ev.Event != "output" {
		tb.Fatalf("event %q, want output: %s", ev.Event, ev.Data)
	}
	var e wasmexec.Event
	if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
		tb.Fatalf("output data: %v: %s", err, ev.Data)
	}
	if ev.ID != wasmexec.EncodeCursor(e.Sequence) {
		tb.Fatalf("id %q does not match sequence %d", ev.ID, e.Sequence)
	}
	return e
}

// drain reads the stream to its end: the output events, the truncated
// notices, and the exit.
func (s *stream) drain(tb testing.TB) (events []wasmexec.Event, notices []map[string]any, exit map[string]any) {
	tb.Helper()
	for {
		ev, ok, err := s.next()
		if err != nil {
			tb.Fatalf("stream: %v", err)
		}
		if !ok {
			if exit == nil {
				tb.Fatal("the stream ended without an exit event")
			}
			return
		}
		if exit != nil {
			tb.Fatalf("event %q after exit", ev.Event)
		}
		switch ev.Event {
		case "output":
			events = append(events, outputOf(tb, ev))
		case "truncated":
			var n map[string]any
			json.Unmarshal([]byte(ev.Data), &n)
			notices = append(notices, n)
		case "exit":
			json.Unmarshal([]byte(ev.Data), &exit)
		default:
			tb.Fatalf("unknown event %q", ev.Event)
		}
	}
}
