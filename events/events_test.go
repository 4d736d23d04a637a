package events_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/wasmexec/wasmexec/events"
)

func all(*events.Event) bool { return true }

func TestWindow(t *testing.T) {
	ctx := context.Background()
	h := events.New(3)
	p := h.Read(ctx, 0, 10, all)
	if len(p.Events) != 0 || p.Dropped != 0 {
		t.Fatalf("empty: %+v", p)
	}
	wake := p.Wake
	for i := 0; i < 5; i++ {
		h.Publish(events.Event{Type: events.ContextCreated, Tenant: []string{"a", "b"}[i%2]})
	}
	select {
	case <-wake:
	default:
		t.Fatal("a reader was not woken")
	}
	for _, tc := range []struct {
		name           string
		after          uint64
		max            int
		keep           func(*events.Event) bool
		want, dropped  uint64
		firstSeq, next uint64
	}{
		{"from the start: two fell out", 0, 10, all, 3, 2, 3, 5},
		{"inside the window", 3, 10, all, 2, 0, 4, 5},
		{"at the end", 5, 10, all, 0, 0, 0, 5},
		{"from the future", 99, 10, all, 0, 0, 0, 5},
		{"a page", 2, 1, all, 1, 0, 3, 3},
		{"filtered: next passes what was skipped", 2, 10, func(e *events.Event) bool { return e.Tenant == "a" }, 2, 0, 3, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := h.Read(ctx, tc.after, tc.max, tc.keep)
			if uint64(len(p.Events)) != tc.want || p.Dropped != tc.dropped || p.Next != tc.next || (len(p.Events) > 0 && p.Events[0].Seq != tc.firstSeq) {
				t.Fatalf("%d events, dropped %d, next %d: %+v", len(p.Events), p.Dropped, p.Next, p.Events)
			}
		})
	}
	if h.Last(ctx) != 5 {
		t.Fatalf("last %d", h.Last(ctx))
	}
}

// A mirror appends the shared log's events with their own sequences: a
// gap (events that left the shared window before the mirror read them)
// restarts the window, and a reader behind it is told exactly how many it
// missed; events already held are ignored; an undecodable one (no type)
// keeps its place but is never read.
func TestAppend(t *testing.T) {
	ctx := context.Background()
	h := events.New(4)
	ev := func(seq uint64, typ string) events.Event { return events.Event{Seq: seq, Type: typ} }
	h.Append(ev(1, events.ContextCreated), ev(2, events.ContextDeleted))
	wake := h.Read(ctx, 2, 10, all).Wake
	h.Append(ev(2, events.ContextCreated), ev(10, events.ContextCreated), ev(11, ""), ev(12, events.ContextReset))
	select {
	case <-wake:
	default:
		t.Fatal("a reader was not woken")
	}
	for _, tc := range []struct {
		name          string
		after         uint64
		seqs          []uint64
		dropped, next uint64
	}{
		{"behind the gap", 1, []uint64{10, 12}, 8, 12},
		{"at the gap", 2, []uint64{10, 12}, 7, 12},
		{"inside", 10, []uint64{12}, 0, 12},
		{"the undecodable one is passed over", 11, []uint64{12}, 0, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := h.Read(ctx, tc.after, 10, all)
			var seqs []uint64
			for _, e := range p.Events {
				seqs = append(seqs, e.Seq)
			}
			if fmt.Sprint(seqs) != fmt.Sprint(tc.seqs) || p.Dropped != tc.dropped || p.Next != tc.next {
				t.Fatalf("seqs %v dropped %d next %d, want %v %d %d", seqs, p.Dropped, p.Next, tc.seqs, tc.dropped, tc.next)
			}
		})
	}
	if h.Last(ctx) != 12 {
		t.Fatalf("last %d", h.Last(ctx))
	}
	// An old one arriving late changes nothing.
	h.Append(ev(3, events.ContextCreated))
	if p := h.Read(ctx, 0, 10, all); len(p.Events) != 2 || p.Events[0].Seq != 10 {
		t.Fatalf("%+v", p)
	}
}

func BenchmarkPublish(b *testing.B) {
	h := events.New(0)
	for b.Loop() {
		h.Publish(events.Event{Type: events.ExecutionCompleted})
	}
}
