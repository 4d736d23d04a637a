package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// eventBackend is one implementation of events.Log, for the tests that run
// against both.
type eventBackend struct {
	name string
	// open returns n servers' logs of one stream with this window
	// (memory: one server, so the same Hub n times; PostgreSQL: n stores
	// on one database, each with its EventLog).
	open func(t *testing.T, cfg EventLogConfig, n int) []events.Log
}

var eventBackends = []eventBackend{
	{"memory", func(t *testing.T, cfg EventLogConfig, n int) []events.Log {
		h := events.New(cfg.Window)
		t.Cleanup(h.Close)
		logs := make([]events.Log, n)
		for i := range logs {
			logs[i] = h
		}
		return logs
	}},
	{"postgres", func(t *testing.T, cfg EventLogConfig, n int) []events.Log {
		url := pgtest.NewDatabase(t)
		var logs []events.Log
		for range n {
			logs = append(logs, MustEventLog(t, url, cfg))
		}
		return logs
	}},
}

// MustEventLog opens a store on the database at url and its event log
// (stopped by the store's Close at the end of the test).
func MustEventLog(tb testing.TB, url string, cfg EventLogConfig) *EventLog {
	tb.Helper()
	s := MustOpen(tb, Config{URL: url})
	l, err := s.OpenEventLog(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("OpenEventLog: %v", err)
	}
	return l
}

func allEvents(*events.Event) bool { return true }

// waitLast waits until every log's newest event is seq.
func waitLast(tb testing.TB, seq uint64, logs ...events.Log) {
	tb.Helper()
	for i, l := range logs {
		poll.Until(tb, 30*time.Second, fmt.Sprintf("server %d to see event %d", i, seq), func() bool {
			return l.Last(context.Background()) >= seq
		})
	}
}

// pageString renders what a reader gets from a page, for comparing
// servers: sequences, tenants and the events' JSON.
func pageString(p events.Page) string {
	s := fmt.Sprintf("dropped %d next %d:", p.Dropped, p.Next)
	for _, e := range p.Events {
		b, _ := json.Marshal(e)
		s += fmt.Sprintf(" %d/%s/%s", e.Seq, e.Tenant, b)
	}
	return s
}

// Cursors, truncation and tenant filtering, the same on every server:
// eight events published in turn through two servers into a window of
// five, read through both and through a third that started afterwards.
func TestEventLogCursors(t *testing.T) {
	for _, b := range eventBackends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			logs := b.open(t, EventLogConfig{Window: 5}, 2)
			for i := range 8 {
				logs[i%2].Publish(events.Event{Type: events.ExecutionCompleted, ExecutionID: fmt.Sprint("e", i+1), Tenant: []string{"a", "b"}[i%2], TimestampMs: int64(1000 + i)})
				waitLast(t, uint64(i+1), logs...) // one at a time: a known order
			}
			// A third server that starts now reads the window from the table.
			if el, ok := logs[0].(*EventLog); ok {
				logs = append(logs, MustEventLog(t, el.s.cfg.URL, EventLogConfig{Window: 5}))
			} else {
				logs = append(logs, logs[0])
			}
			tenantA := func(e *events.Event) bool { return e.Tenant == "a" }
			for _, tc := range []struct {
				name          string
				after         uint64
				max           int
				keep          func(*events.Event) bool
				seqs          []uint64
				dropped, next uint64
			}{
				{"from the start: three fell out", 0, 10, allEvents, []uint64{4, 5, 6, 7, 8}, 3, 8},
				{"just out of the window", 3, 10, allEvents, []uint64{4, 5, 6, 7, 8}, 0, 8},
				{"after N", 5, 10, allEvents, []uint64{6, 7, 8}, 0, 8},
				{"at the end", 8, 10, allEvents, nil, 0, 8},
				{"a page of one", 4, 1, allEvents, []uint64{5}, 0, 5},
				{"one tenant", 0, 10, tenantA, []uint64{5, 7}, 3, 8},
				{"one tenant, a page", 4, 1, tenantA, []uint64{5}, 0, 5},
				{"from the future", 99, 10, allEvents, nil, 0, 8},
				{"a huge cursor", math.MaxUint64, 10, allEvents, nil, 0, 8},
				{"the largest int64", math.MaxInt64, 10, allEvents, nil, 0, 8},
			} {
				t.Run(tc.name, func(t *testing.T) {
					var first string
					for i, l := range logs {
						p := l.Read(ctx, tc.after, tc.max, tc.keep)
						var seqs []uint64
						for _, e := range p.Events {
							seqs = append(seqs, e.Seq)
							if e.ExecutionID != fmt.Sprint("e", e.Seq) || e.Tenant != []string{"b", "a"}[e.Seq%2] {
								t.Fatalf("server %d: event %d is %+v", i, e.Seq, e)
							}
						}
						if fmt.Sprint(seqs) != fmt.Sprint(tc.seqs) || p.Dropped != tc.dropped || p.Next != tc.next {
							t.Fatalf("server %d: seqs %v dropped %d next %d, want %v %d %d", i, seqs, p.Dropped, p.Next, tc.seqs, tc.dropped, tc.next)
						}
						if s := pageString(p); i == 0 {
							first = s
						} else if s != first {
							t.Fatalf("server %d reads %s\nserver 0 reads %s", i, s, first)
						}
					}
				})
			}
		})
	}
}

// A reader waiting on one server is woken by an event published on
// another, and reads it.
func TestEventLogWake(t *testing.T) {
	for _, b := range eventBackends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			logs := b.open(t, EventLogConfig{PollInterval: time.Hour}, 2) // no poll: the notification wakes it
			last := logs[1].Last(ctx)
			p := logs[1].Read(ctx, last, 10, allEvents)
			if len(p.Events) != 0 {
				t.Fatalf("an empty log: %+v", p)
			}
			logs[0].Publish(events.Event{Type: events.ContextCreated, ContextID: "c1"})
			select {
			case <-p.Wake:
			case <-time.After(30 * time.Second):
				t.Fatal("the reader on server 1 was not woken by an event on server 0")
			}
			p = logs[1].Read(ctx, p.Next, 10, allEvents)
			if len(p.Events) != 1 || p.Events[0].ContextID != "c1" || p.Events[0].Seq != last+1 || p.Events[0].TimestampMs == 0 {
				t.Fatalf("after the wake: %+v", p)
			}
		})
	}
}

// A flood through two servers at once: the table never holds more than
// the window, every server reads the same window, and each server's events
// keep their publishing order.
func TestEventLogFlood(t *testing.T) {
	for _, b := range eventBackends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			const window, each = 100, 3000
			logs := b.open(t, EventLogConfig{Window: window}, 2)
			var wg sync.WaitGroup
			for n, l := range logs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range each {
						l.Publish(events.Event{Type: events.ExecutionStarted, ExecutionID: fmt.Sprintf("n%d-%05d", n, i)})
					}
				}()
			}
			wg.Wait()
			waitLast(t, 2*each, logs...)
			var first string
			for i, l := range logs {
				p := l.Read(ctx, 0, 2*window, allEvents)
				if p.Dropped != 2*each-window || len(p.Events) != window || p.Next != 2*each {
					t.Fatalf("server %d: dropped %d, %d events, next %d", i, p.Dropped, len(p.Events), p.Next)
				}
				prev := map[byte]string{}
				for _, e := range p.Events {
					node := e.ExecutionID[1]
					if e.ExecutionID <= prev[node] {
						t.Fatalf("server %d: %s after %s", i, e.ExecutionID, prev[node])
					}
					prev[node] = e.ExecutionID
				}
				if s := pageString(p); i == 0 {
					first = s
				} else if s != first {
					t.Fatal("the servers read different windows")
				}
			}
			if el, ok := logs[0].(*EventLog); ok {
				var rows, lo, hi int64
				if err := el.s.r.QueryRow("SELECT count(*), min(seq), max(seq) FROM lifecycle_events").Scan(&rows, &lo, &hi); err != nil {
					t.Fatal(err)
				}
				if rows != window || lo != 2*each-window+1 || hi != 2*each {
					t.Fatalf("the table holds %d rows, %d..%d; want the window of %d", rows, lo, hi, window)
				}
				for i, l := range logs {
					if st := l.(*EventLog).Stats(); st.Written != each || st.Dropped != 0 {
						t.Fatalf("server %d: %+v", i, st)
					}
				}
			}
		})
	}
}

// PostgreSQL holding up the writes: the queue stays within its bound, what
// does not fit is dropped and counted, and what was queued is written once
// the database answers again, in order.
func TestEventLogQueueBound(t *testing.T) {
	pgtest.Shared(t)
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	const queue, total = 10, 500
	l := MustEventLog(t, url, EventLogConfig{QueueSize: queue})
	// Another session locks the row every write needs.
	tx, err := l.s.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("SELECT last_seq FROM lifecycle_event_state WHERE id = 1 FOR UPDATE"); err != nil {
		t.Fatal(err)
	}
	for i := range total {
		l.Publish(events.Event{Type: events.ExecutionStarted, ExecutionID: fmt.Sprintf("e%04d", i)})
		// The queue, and the batch the writer took from it (which may
		// have grown past the queue's size while Publish went on filling
		// it: at most eventBatch).
		if q, bound := l.Stats().Queued, queue+eventBatch; q > bound {
			t.Fatalf("%d events waiting, bound %d", q, bound)
		}
	}
	st := l.Stats()
	if st.Dropped == 0 || st.Written != 0 || st.Dropped > total-queue {
		t.Fatalf("with the writes held up: %+v", st)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 30*time.Second, "the queue to be written", func() bool {
		st = l.Stats()
		return st.Written+st.Dropped == total
	})
	waitLast(t, st.Written, l)
	p := l.Read(ctx, 0, total, allEvents)
	if uint64(len(p.Events)) != st.Written || p.Events[0].ExecutionID != "e0000" {
		t.Fatalf("%d events read (first %+v), %d written", len(p.Events), p.Events[0], st.Written)
	}
	for i := 1; i < len(p.Events); i++ {
		if p.Events[i].ExecutionID <= p.Events[i-1].ExecutionID {
			t.Fatalf("out of order: %s after %s", p.Events[i].ExecutionID, p.Events[i-1].ExecutionID)
		}
	}
}

// The listener's connection killed (as by a network fault or a restarted
// pooler): events still arrive (the poll), and it listens again.
func TestEventLogListenerReconnects(t *testing.T) {
	pgtest.Shared(t)
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	a := MustEventLog(t, url, EventLogConfig{PollInterval: 100 * time.Millisecond})
	b := MustEventLog(t, url, EventLogConfig{PollInterval: 100 * time.Millisecond})
	poll.Until(t, 30*time.Second, "both to listen", func() bool { return a.Stats().Listening && b.Stats().Listening })
	var killed int
	if err := a.s.r.QueryRow("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'").Scan(&killed); err != nil || killed != 2 {
		t.Fatalf("terminated %d listeners: %v", killed, err)
	}
	a.Publish(events.Event{Type: events.ContextCreated, ContextID: "after-the-fault"})
	waitLast(t, 1, a, b)
	if p := b.Read(ctx, 0, 10, allEvents); len(p.Events) != 1 || p.Events[0].ContextID != "after-the-fault" {
		t.Fatalf("%+v", p)
	}
	poll.Until(t, 30*time.Second, "both to listen again", func() bool { return a.Stats().Listening && b.Stats().Listening })
}

// Stop writes what is still queued; Publish after it is counted as
// dropped; a store has one log; a SQLite store has none.
func TestEventLogStopAndSQLite(t *testing.T) {
	pgtest.Shared(t)
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	l := MustEventLog(t, url, EventLogConfig{})
	for i := range 50 {
		l.Publish(events.Event{Type: events.ExecutionStarted, ExecutionID: fmt.Sprint(i)})
	}
	stopCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	l.Stop(stopCtx)
	select {
	case <-l.Done():
	default:
		t.Fatal("streams not ended by Stop")
	}
	l.Publish(events.Event{Type: events.ExecutionStarted})
	if st := l.Stats(); st.Written != 50 || st.Dropped != 1 {
		t.Fatalf("after Stop: %+v", st)
	}
	if _, err := l.s.OpenEventLog(ctx, EventLogConfig{}); wasmexec.ErrorCode(err) != wasmexec.EConflict {
		t.Fatalf("a second log on one store: %v", err)
	}
	other := MustEventLog(t, url, EventLogConfig{})
	if got := other.Last(ctx); got != 50 {
		t.Fatalf("another server sees %d events", got)
	}

	s := MustOpen(t, Config{})
	if _, err := s.OpenEventLog(ctx, EventLogConfig{}); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
		t.Fatalf("SQLite: %v", err)
	}
}

// The log starting over behind the servers (the database restored from an
// older backup, or its tables emptied): the mirrors follow it from its
// start, and a stream whose cursor is now from the future gets what is
// published next.
func TestEventLogStartsOver(t *testing.T) {
	pgtest.Shared(t)
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	a := MustEventLog(t, url, EventLogConfig{PollInterval: 50 * time.Millisecond})
	b := MustEventLog(t, url, EventLogConfig{PollInterval: 50 * time.Millisecond})
	for range 5 {
		a.Publish(events.Event{Type: events.ContextCreated, ContextID: "before"})
	}
	waitLast(t, 5, a, b)
	p := b.Read(ctx, 5, 10, allEvents)
	if _, err := a.s.w.Exec("BEGIN; DELETE FROM lifecycle_events; UPDATE lifecycle_event_state SET last_seq = 0; COMMIT"); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 30*time.Second, "the mirrors to start over", func() bool {
		return a.mirror.Last(ctx) == 0 && b.mirror.Last(ctx) == 0
	})
	select {
	case <-p.Wake:
	default:
		t.Fatal("the reader was not woken when the log started over")
	}
	// Woken, the reader reads again (as a stream does): its cursor is now
	// from the future, so it goes on from the start.
	if p = b.Read(ctx, p.Next, 10, allEvents); len(p.Events) != 0 || p.Next != 0 {
		t.Fatalf("after the start over: %+v", p)
	}
	a.Publish(events.Event{Type: events.ContextCreated, ContextID: "after"})
	waitLast(t, 1, a, b)
	if p := b.Read(ctx, p.Next, 10, allEvents); len(p.Events) != 1 || p.Events[0].ContextID != "after" || p.Events[0].Seq != 1 {
		t.Fatalf("a reader from before: %+v", p)
	}
}
