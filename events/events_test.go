package events_test

import (
	"testing"

	"github.com/wasmexec/wasmexec/events"
)

func all(*events.Event) bool { return true }

func TestWindow(t *testing.T) {
	h := events.New(3)
	p := h.Read(0, 10, all)
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
			p := h.Read(tc.after, tc.max, tc.keep)
			if uint64(len(p.Events)) != tc.want || p.Dropped != tc.dropped || p.Next != tc.next || (len(p.Events) > 0 && p.Events[0].Seq != tc.firstSeq) {
				t.Fatalf("%d events, dropped %d, next %d: %+v", len(p.Events), p.Dropped, p.Next, p.Events)
			}
		})
	}
	if h.Last() != 5 {
		t.Fatalf("last %d", h.Last())
	}
}

func BenchmarkPublish(b *testing.B) {
	h := events.New(0)
	for b.Loop() {
		h.Publish(events.Event{Type: events.ExecutionCompleted})
	}
}
