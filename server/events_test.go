package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/vfs"
)

type sseEvent struct {
	ID, Type string
	Data     map[string]any
}

// sseStream reads Server-Sent Events from a GET.
type sseStream struct {
	resp *http.Response
	sc   *bufio.Scanner
}

// MustEvents opens GET path with a key and Last-Event-ID, and waits for
// the stream's opening comment (the subscription is in place).
func MustEvents(tb testing.TB, url, key, lastID string) *sseStream {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		tb.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &sseStream{resp: resp, sc: bufio.NewScanner(resp.Body)}
	if !s.sc.Scan() || !strings.HasPrefix(s.sc.Text(), ":") {
		tb.Fatalf("no opening comment: %q", s.sc.Text())
	}
	return s
}

// sseEventWait bounds how long next waits for an event: a stream that
// goes quiet fails its test instead of hanging the package until go
// test's own timeout.
const sseEventWait = time.Minute

// next returns the next event (comments skipped).
func (s *sseStream) next(tb testing.TB) sseEvent {
	tb.Helper()
	quiet := time.AfterFunc(sseEventWait, func() { s.resp.Body.Close() })
	defer quiet.Stop()
	var e sseEvent
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case line == "":
			if e.Type != "" {
				return e
			}
		case strings.HasPrefix(line, "id: "):
			e.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			e.Type = line[7:]
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(line[6:]), &e.Data); err != nil {
				tb.Fatalf("data %q: %v", line, err)
			}
		}
	}
	if !quiet.Stop() {
		tb.Fatalf("no event within %s (the last lines were comments or nothing)", sseEventWait)
	}
	tb.Fatalf("the stream ended: %v", s.sc.Err())
	return e
}

func TestEventsLifecycle(t *testing.T) {
	hub := events.New(0)
	url := mustFrontServer(t, true, hub)
	mine := MustEvents(t, url+"/v1/events", acme, "")
	onlyCtx := MustEvents(t, url+"/v1/events?type=context.created,context.deleted&contextId=e1", acme, "")
	theirs := MustEvents(t, url+"/v1/events", globex, "")

	wantStatus(t, as(t, acme, "POST", url+"/v1/contexts", `{"contextId":"e1","language":"javascript"}`), 201, "")
	run := as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","contextId":"e1","code":"process.exit(3)"}`)
	wantStatus(t, as(t, acme, "POST", url+"/v1/contexts/e1/reset", ""), 200, "")
	one := as(t, acme, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`)
	wantStatus(t, as(t, acme, "DELETE", url+"/v1/contexts/e1", ""), 204, "")
	wantStatus(t, as(t, globex, "POST", url+"/v1/evaluate", `{"language":"javascript","code":"2"}`), 200, "")

	var got []sseEvent
	for _, want := range []string{"context.created", "execution.started", "execution.completed", "context.reset", "execution.started", "execution.completed", "context.deleted"} {
		e := mine.next(t)
		if e.Type != want || e.Data["type"] != want || e.ID == "" {
			t.Fatalf("got %s %v, want %s", e.Type, e.Data, want)
		}
		got = append(got, e)
	}
	if got[1].Data["executionId"] != run.JSON["executionId"] || got[1].Data["contextId"] != "e1" {
		t.Fatalf("a context run's execution.started: %v, the run %v", got[1].Data, run.JSON)
	}
	c := got[2].Data
	if c["executionId"] != run.JSON["executionId"] || c["contextId"] != "e1" || c["kind"] != "evaluate" || c["language"] != "javascript" || c["outcome"] != run.JSON["outcome"] || c["exitCode"] == nil || c["durationMs"] == nil {
		t.Fatalf("execution.completed: %v, the run %v", c, run.JSON)
	}
	if got[4].Data["executionId"] != one.JSON["executionId"] || got[5].Data["executionId"] != one.JSON["executionId"] {
		t.Fatalf("a one-shot run's events: %v %v, run %v", got[4].Data, got[5].Data, one.JSON["executionId"])
	}
	if e := onlyCtx.next(t); e.Type != "context.created" {
		t.Fatalf("filtered: %v", e)
	}
	if e := onlyCtx.next(t); e.Type != "context.deleted" {
		t.Fatalf("filtered: %v", e)
	}
	// The other tenant sees its own run only.
	if e := theirs.next(t); e.Type != "execution.started" || e.Data["contextId"] != nil {
		t.Fatalf("globex: %v", e)
	}
	if e := theirs.next(t); e.Type != "execution.completed" || e.Data["executionId"] == run.JSON["executionId"] {
		t.Fatalf("globex: %v", e)
	}

	// Resume after the context's reset: the rest follows.
	resumed := MustEvents(t, url+"/v1/events", acme, got[3].ID)
	for _, want := range got[4:] {
		if e := resumed.next(t); e.ID != want.ID || e.Type != want.Type {
			t.Fatalf("resumed: %v, want %v", e, want)
		}
	}
}

func TestEventsTruncatedAndBadInput(t *testing.T) {
	hub := events.New(3)
	url := mustFrontServer(t, false, hub)
	first := MustEvents(t, url+"/v1/events", "", "")
	for i := 0; i < 3; i++ {
		wantStatus(t, as(t, "", "POST", url+"/v1/evaluate", `{"language":"javascript","code":"1"}`), 200, "")
	}
	e := first.next(t)
	// Six events were published; the window keeps three: a reader from
	// the first misses two.
	waitUntil(t, "six events", func() bool { return hub.Last(context.Background()) == 6 })
	late := MustEvents(t, url+"/v1/events", "", e.ID)
	tr := late.next(t)
	if tr.Type != "truncated" || tr.Data["dropped"] != float64(2) {
		t.Fatalf("truncated: %v", tr)
	}
	if e := late.next(t); e.Type != "execution.completed" {
		t.Fatalf("after truncated: %v", e)
	}
	// Closing the hub (shutdown) ends the streams.
	hub.Close()
	for late.sc.Scan() {
	}
	for first.sc.Scan() {
	}
	for _, tc := range []struct{ name, path, lastID string }{
		{"garbage Last-Event-ID", "/v1/events", "garbage"},
		{"garbage after", "/v1/events?after=zzz", ""},
		{"unknown type", "/v1/events?type=sandbox.created", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", url+tc.path, nil)
			if tc.lastID != "" {
				req.Header.Set("Last-Event-ID", tc.lastID)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 400 {
				t.Fatalf("%d", resp.StatusCode)
			}
		})
	}
}

// A context deleted by idle expiry sends context.deleted to its tenant,
// once; an explicit delete sends one too (the manager reports both).
func TestEventsContextDeletedByIdleExpiry(t *testing.T) {
	var onDelete atomic.Pointer[func(string)]
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: ws, IdleTTL: time.Second, OnDelete: func(id string) {
		if f := onDelete.Load(); f != nil {
			(*f)(id)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	keys, _ := MustKeys(t)
	cfg := server.Guard(server.Config{Runner: r, Contexts: m, Auth: keys, Events: events.New(0), ContextDeletions: true})
	f := cfg.ContextDeleted
	onDelete.Store(&f)
	ts := httptest.NewServer(server.New(cfg).Handler())
	t.Cleanup(ts.Close)

	mine := MustEvents(t, ts.URL+"/v1/events?type=context.created,context.deleted", acme, "")
	theirs := MustEvents(t, ts.URL+"/v1/events", globex, "")
	wantStatus(t, as(t, acme, "POST", ts.URL+"/v1/contexts", `{"contextId":"idle","language":"javascript"}`), 201, "")
	wantStatus(t, as(t, acme, "POST", ts.URL+"/v1/contexts", `{"contextId":"gone","language":"javascript"}`), 201, "")
	wantStatus(t, as(t, acme, "DELETE", ts.URL+"/v1/contexts/gone", ""), 204, "")
	// Idle expiry may come before or after the explicit delete (a slow
	// machine): each context is created, then deleted once.
	seen := map[string]int{}
	for i := 0; i < 4; i++ {
		e := mine.next(t)
		id := e.Data["contextId"].(string)
		switch e.Type {
		case "context.created":
			if seen[id] != 0 {
				t.Fatalf("%s created twice or after its deletion", id)
			}
			seen[id] = 1
		case "context.deleted":
			if seen[id] != 1 {
				t.Fatalf("%s deleted before created, or twice", id)
			}
			seen[id] = 2
		}
	}
	if seen["idle"] != 2 || seen["gone"] != 2 {
		t.Fatalf("%v", seen)
	}
	wantStatus(t, as(t, globex, "POST", ts.URL+"/v1/contexts", `{"contextId":"theirs","language":"javascript"}`), 201, "")
	if e := theirs.next(t); e.Type != "context.created" || e.Data["contextId"] != "theirs" {
		t.Fatalf("globex saw %v", e)
	}
}
