package main

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/client"
	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// readUntil reads a stream until stop says so, returning what it read;
// it fails the test if the stream ends first or stalls for a minute.
func readUntil(tb testing.TB, s *client.Stream, stop func(*client.SSE) bool) []*client.SSE {
	tb.Helper()
	type item struct {
		e   *client.SSE
		err error
	}
	var got []*client.SSE
	for {
		ch := make(chan item, 1)
		go func() { e, err := s.Next(); ch <- item{e, err} }()
		select {
		case it := <-ch:
			if it.err != nil {
				tb.Fatalf("the stream ended after %d events: %v", len(got), it.err)
			}
			got = append(got, it.e)
			if stop(it.e) {
				return got
			}
		case <-time.After(time.Minute):
			tb.Fatalf("no event for a minute after %d", len(got))
		}
	}
}

// completedOf stops at the execution.completed of run id.
func completedOf(id string) func(*client.SSE) bool {
	return func(e *client.SSE) bool {
		return e.Event == "execution.completed" && strings.Contains(string(e.Data), `"executionId":"`+id+`"`)
	}
}

// render is a stream as a reader sees it: cursor, type and data of each
// event.
func render(es []*client.SSE) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s %s %s\n", e.ID, e.Event, e.Data)
	}
	return b.String()
}

// Two servers on one PostgreSQL database give the same lifecycle stream:
// a reader on server 2 is woken by a run on server 1; runs, contexts and
// tenants on both servers read back identically through either (events
// and history); bad and huge cursors; a flood past the window with a
// reader that never reads: the table stays at the window and both servers
// report the same truncation.
func TestServePostgresEvents(t *testing.T) {
	url := pgtest.NewDatabase(t)
	keys := filepath.Join(t.TempDir(), "keys.json")
	const keyA, keyB = "key-of-tenant-a-0123456789", "key-of-tenant-b-0123456789"
	if err := os.WriteFile(keys, []byte(`{"tenants":{"a":{},"b":{}},"keys":[{"tenant":"a","key":"`+keyA+`"},{"tenant":"b","key":"`+keyB+`"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	const window = 40
	args := []string{"--store", "postgres", "--store-url", url, "--auth-keys-file", keys, "--events-window", fmt.Sprint(window), "--tscheck-workers", "0"}
	nodes := []*proc{MustServe(t, t.TempDir(), args...), MustServe(t, t.TempDir(), args...)}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	as := func(n int, key string) *client.Client { return client.New(nodes[n].base, client.WithAPIKey(key)) }
	run := func(n int, key, code string) string {
		t.Helper()
		r, err := as(n, key).Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, Code: code})
		if err != nil || r.Outcome != wasmexec.Succeeded {
			t.Fatalf("evaluate on server %d: %v %+v", n+1, err, r)
		}
		return r.ExecutionID
	}

	// A reader on server 2, from now, woken by a run on server 1.
	live, err := as(1, keyA).Events(ctx, client.EventsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	theirs, err := as(0, keyB).Events(ctx, client.EventsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer theirs.Close()
	first := run(0, keyA, "6 * 7")
	got := readUntil(t, live, completedOf(first))
	if len(got) != 2 || got[0].Event != "execution.started" || !strings.Contains(string(got[0].Data), first) {
		t.Fatalf("server 2's reader got:\n%s", render(got))
	}
	start := got[0].ID
	if start != wasmexec.EncodeCursor(1) {
		t.Fatalf("the first event of a new database is %s", start)
	}

	// Runs through both servers and both tenants, a context on server 1.
	for i := range 6 {
		run(i%2, keyA, fmt.Sprint(i))
	}
	ctxs := as(0, keyA)
	if _, err := ctxs.CreateContext(ctx, &wasmexec.ContextSpec{ContextID: "ev1", Language: wasmexec.JavaScript}); err != nil {
		t.Fatal(err)
	}
	if err := ctxs.DeleteContext(ctx, "ev1"); err != nil {
		t.Fatal(err)
	}
	bRun := run(1, keyB, "'b'")
	last := run(1, keyA, "'last'")

	// The same stream through either server, from the start.
	var streams [2]string
	for n := range nodes {
		s, err := as(n, keyA).Events(ctx, client.EventsOptions{LastID: wasmexec.EncodeCursor(0)})
		if err != nil {
			t.Fatal(err)
		}
		// context.deleted is published when the manager has removed the
		// context, which may come after the next runs.
		var ranLast, deleted bool
		es := readUntil(t, s, func(e *client.SSE) bool {
			ranLast = ranLast || completedOf(last)(e)
			deleted = deleted || e.Event == "context.deleted"
			return ranLast && deleted
		})
		s.Close()
		if len(es) != 2*8+2 {
			t.Fatalf("server %d: %d events for 8 runs and a context:\n%s", n+1, len(es), render(es))
		}
		if strings.Contains(render(es), bRun) {
			t.Fatalf("server %d shows tenant b's run to tenant a:\n%s", n+1, render(es))
		}
		streams[n] = render(es)
	}
	if streams[0] != streams[1] {
		t.Fatalf("the servers' streams differ:\n%s\n---\n%s", streams[0], streams[1])
	}
	// Tenant b, on server 1, saw its run on server 2 and nothing else.
	if es := readUntil(t, theirs, completedOf(bRun)); len(es) != 2 || strings.Contains(render(es), first) {
		t.Fatalf("tenant b's stream:\n%s", render(es))
	}
	// And the history: the same list through either server.
	var lists [2]string
	for n, p := range nodes {
		status, _, raw := p.doKey(t, keyA, "GET", "/v1/executions?limit=100", "")
		if status != 200 {
			t.Fatalf("list on server %d: %d %s", n+1, status, raw)
		}
		lists[n] = raw
	}
	if lists[0] != lists[1] || strings.Count(lists[0], `"executionId"`) != 8 {
		t.Fatalf("the servers' histories differ or miss runs:\n%s\n---\n%s", lists[0], lists[1])
	}

	// Bad cursors are a 400; a huge one starts from now, on either server.
	for n, p := range nodes {
		for _, c := range []string{"garbage", "c", "c-1", "c" + strings.Repeat("z", 20), "c3w5e11264sgsg"} {
			if status, _, raw := p.doKey(t, keyA, "GET", "/v1/events?after="+c, ""); status != 400 || !strings.Contains(raw, "invalid_argument") {
				t.Fatalf("server %d, cursor %q: %d %s", n+1, c, status, raw)
			}
		}
	}
	huge, err := as(1, keyA).Events(ctx, client.EventsOptions{LastID: wasmexec.EncodeCursor(math.MaxUint64)})
	if err != nil {
		t.Fatal(err)
	}
	defer huge.Close()
	next := run(0, keyA, "'after a huge cursor'")
	if es := readUntil(t, huge, completedOf(next)); len(es) != 2 {
		t.Fatalf("a huge cursor: %d events, want the two of the next run:\n%s", len(es), render(es))
	}

	// A reader that never reads (a tiny receive buffer, not one read)
	// while a flood of runs through both servers at once goes past the
	// window.
	stuck := stuckReader(t, nodes[1].base, keyA)
	defer stuck.Close()
	const floodRuns = 600
	const total = 22 + 2*floodRuns // 8 + 1 + 1 runs and a context before
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range floodRuns / 6 {
				if _, err := as(g%2, keyA).Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, Code: fmt.Sprint(i)}); err != nil {
					t.Errorf("flood run on server %d: %v", g%2+1, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// Events are written after the answers (publishing does not wait).
	var rows, maxSeq int64
	poll.Until(t, 30*time.Second, "the last events to be written", func() bool {
		if err := conn.QueryRow(ctx, "SELECT count(*), max(seq) FROM lifecycle_events").Scan(&rows, &maxSeq); err != nil {
			t.Fatal(err)
		}
		return maxSeq >= total
	})
	if rows != window || maxSeq != total {
		t.Fatalf("the table holds %d rows up to %d, want the window (%d) up to %d", rows, maxSeq, window, total)
	}
	// Every event was written once, by the server that published it (the
	// counter moves just after the commit).
	var written [2]float64
	poll.Until(t, 30*time.Second, "the servers to count every event written", func() bool {
		for n, p := range nodes {
			written[n] = p.metric(t, "wasmexec_events_written_total")
		}
		return written[0]+written[1] >= total
	})
	for n, p := range nodes {
		if d := p.metric(t, "wasmexec_events_dropped_total"); written[n] <= 0 || d != 0 {
			t.Fatalf("server %d: written %v, dropped %v", n+1, written[n], d)
		}
	}
	if written[0]+written[1] != total {
		t.Fatalf("the servers wrote %v events, the table's last is %d", written, total)
	}
	for n := range nodes {
		s, err := as(n, keyA).Events(ctx, client.EventsOptions{LastID: start})
		if err != nil {
			t.Fatal(err)
		}
		es := readUntil(t, s, func(e *client.SSE) bool { return e.ID == wasmexec.EncodeCursor(total) })
		s.Close()
		if es[0].Event != "truncated" || !strings.Contains(string(es[0].Data), fmt.Sprintf(`"dropped":%d`, total-window-1)) || len(es) != 1+window {
			t.Fatalf("server %d from %s after the flood: %d events:\n%s", n+1, start, len(es), render(es[:min(3, len(es))]))
		}
		streams[n] = render(es)
	}
	if streams[0] != streams[1] {
		t.Fatalf("after the flood the servers' streams differ:\n%s\n---\n%s", streams[0], streams[1])
	}
	// The reader that did not read can still read: what the sockets held
	// when the flood passed it (the server keeps nothing per reader but
	// the page it is writing), a truncated notice if it fell out of the
	// window meanwhile, then up to the newest, in order.
	resp, err := http.ReadResponse(bufio.NewReader(stuck), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the stuck reader's answer: %v %v", err, resp)
	}
	sc := bufio.NewScanner(resp.Body)
	var prev uint64
	truncated := 0
	for prev < total && sc.Scan() {
		line := sc.Text()
		if line == "event: truncated" {
			truncated++
		}
		if id, ok := strings.CutPrefix(line, "id: "); ok {
			seq, err := wasmexec.ParseCursor(id)
			if err != nil || seq <= prev {
				t.Fatalf("the stuck reader got %s after %d (%v)", id, prev, err)
			}
			prev = seq
		}
	}
	if prev != total {
		t.Fatalf("the stuck reader's stream stopped at %d: %v", prev, sc.Err())
	}
	t.Logf("the reader that did not read during the flood: %d truncated notices", truncated)
}

// stuckReader opens GET /v1/events from the first cursor with a receive
// buffer of 4 KiB and does not read it.
func stuckReader(tb testing.TB, base, key string) net.Conn {
	tb.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		c.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return err
	}}
	conn, err := d.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		tb.Fatal(err)
	}
	req, _ := http.NewRequest("GET", base+"/v1/events?after="+wasmexec.EncodeCursor(0), nil)
	req.Header.Set("Authorization", "Bearer "+key)
	if err := req.Write(conn); err != nil {
		tb.Fatal(err)
	}
	return conn
}

// PostgreSQL stopped while serving: an event published meanwhile (a
// context created on server 1) waits in server 1's queue; the stream open
// on server 2 survives the outage and gets it once the database is back.
func TestServePostgresEventsDatabaseDown(t *testing.T) {
	testenv.ImageDir(t, "js")
	c, url := pgtest.Own(t)
	args := []string{"--store", "postgres", "--store-url", url, "--tscheck-workers", "0"}
	n1, n2 := MustServe(t, t.TempDir(), args...), MustServe(t, t.TempDir(), args...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	stream, err := client.New(n2.base).Events(ctx, client.EventsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()

	if err := c.StopServer(); err != nil {
		t.Fatal(err)
	}
	if _, err := client.New(n1.base).CreateContext(ctx, &wasmexec.ContextSpec{ContextID: "while-down", Language: wasmexec.JavaScript}); err != nil {
		t.Fatalf("create a context with the database down: %v", err)
	}
	poll.Until(t, 30*time.Second, "the event to wait in server 1's queue", func() bool {
		return n1.metric(t, "wasmexec_events_queued") == 1
	})
	if err := c.StartServer(); err != nil {
		t.Fatal(err)
	}
	es := readUntil(t, stream, func(e *client.SSE) bool { return e.Event == "context.created" })
	if len(es) != 1 || !strings.Contains(string(es[0].Data), `"contextId":"while-down"`) {
		t.Fatalf("server 2's stream after the outage:\n%s", render(es))
	}
	if d := n1.metric(t, "wasmexec_events_dropped_total"); d != 0 {
		t.Fatalf("%v events dropped", d)
	}
}
