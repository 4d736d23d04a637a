// Package events is the lifecycle event stream of GET /v1/events: a
// bounded window of recent events (context.created, context.reset,
// context.deleted, context.hibernated, context.restored, execution.started, execution.completed,
// process.spawned, process.exited) that readers follow from a cursor.
//
// Each event has a sequence number, its cursor (wasmexec.EncodeCursor), and
// the tenant it belongs to. The window keeps the newest Window events; a
// reader whose cursor fell out of it is told how many it missed
// (truncated) and continues from the oldest kept. Publishing never waits
// for a reader.
//
// Log is what the server publishes to and streams from. Two
// implementations: Hub, the window in this process's memory (one server,
// the default with SQLite), and store.EventLog, a log in PostgreSQL that
// every server sharing the database publishes to and reads (each server
// mirrors it into a Hub of its own with Append, woken by LISTEN/NOTIFY).
package events

import (
	"context"
	"sync"
	"time"
)

// Log is an event stream with a window. Implementations are safe for
// concurrent use.
type Log interface {
	// Publish appends e; the log assigns its Seq (and TimestampMs when
	// zero). It never blocks on a reader or on a database.
	Publish(e Event)
	// Last returns the sequence of the newest event (0: none yet).
	Last(ctx context.Context) uint64
	// Read returns up to max events after seq that match keep (see Page).
	Read(ctx context.Context, after uint64, max int, keep func(*Event) bool) Page
	// Done is closed by Close: every stream ends (server shutdown).
	Done() <-chan struct{}
	// Close ends every reader's stream. Publishing still works.
	Close()
}

var _ Log = (*Hub)(nil)

// Event types.
const (
	ContextCreated     = "context.created"
	ContextReset       = "context.reset"
	ContextDeleted     = "context.deleted"
	ContextHibernated  = "context.hibernated"
	ContextRestored    = "context.restored"
	ExecutionStarted   = "execution.started"
	ExecutionCompleted = "execution.completed"
	ProcessSpawned     = "process.spawned"
	ProcessExited      = "process.exited"
	TemplateBuilding   = "template.building"
	TemplateReady      = "template.ready"
	TemplateFailed     = "template.failed"
	TemplateDeleted    = "template.deleted"
)

// Types lists every event type.
var Types = []string{ContextCreated, ContextReset, ContextDeleted, ContextHibernated, ContextRestored, ExecutionStarted, ExecutionCompleted, ProcessSpawned, ProcessExited, TemplateBuilding, TemplateReady, TemplateFailed, TemplateDeleted}

// Event is one lifecycle event as readers see it.
type Event struct {
	Seq         uint64   `json:"-"`
	Tenant      string   `json:"-"`
	Type        string   `json:"type"`
	TimestampMs int64    `json:"timestampMs"`
	ContextID   string   `json:"contextId,omitempty"`
	TemplateID  string   `json:"templateId,omitempty"`
	ExecutionID string   `json:"executionId,omitempty"`
	Kind        string   `json:"kind,omitempty"`
	Language    string   `json:"language,omitempty"`
	Outcome     string   `json:"outcome,omitempty"`
	ExitCode    *int     `json:"exitCode,omitempty"`
	DurationMs  *float64 `json:"durationMs,omitempty"`
	PID         int64    `json:"pid,omitempty"`
	RequestID   string   `json:"requestId,omitempty"`
}

// DefaultWindow is how many events a Hub keeps by default.
const DefaultWindow = 4096

// Hub keeps the window and wakes readers. The zero value is not usable;
// call New.
type Hub struct {
	mu     sync.Mutex
	ring   []Event // a circular buffer of the window
	start  int     // index of the oldest event in ring
	n      int     // events in ring
	window int
	last   uint64        // sequence of the newest event
	wake   chan struct{} // closed (and replaced) on each Publish
	done   chan struct{} // closed by Close
	closed bool
	now    func() time.Time
}

// New returns a hub keeping window events (DefaultWindow when <= 0).
func New(window int) *Hub {
	if window <= 0 {
		window = DefaultWindow
	}
	return &Hub{window: window, wake: make(chan struct{}), done: make(chan struct{}), now: time.Now}
}

// Close ends every reader's stream (server shutdown: streams must not hold
// it up). Publish still works; Done is closed.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.done)
	}
}

// Done is closed when the hub is closed.
func (h *Hub) Done() <-chan struct{} { return h.done }

// Publish appends e (its Seq and, when zero, TimestampMs are set).
func (h *Hub) Publish(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.last++
	e.Seq = h.last
	if e.TimestampMs == 0 {
		e.TimestampMs = h.now().UnixMilli()
	}
	h.push(e)
	h.wakeReaders()
}

// Append adds events whose Seq was assigned elsewhere (a mirror of a
// shared log), in increasing order. An event that does not follow the
// newest one (Seq != Last()+1: the ones between fell out of the shared
// window before this mirror read them) empties the window first, so the
// window always holds consecutive sequences and a reader behind it is
// told exactly how many it missed. Events not after Last() are ignored.
// An event with an empty Type holds its place but is never read (a
// record the mirror could not decode).
func (h *Hub) Append(evs ...Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	added := false
	for _, e := range evs {
		if e.Seq <= h.last {
			continue
		}
		if e.Seq != h.last+1 {
			h.start, h.n = 0, 0
		}
		h.last = e.Seq
		h.push(e)
		added = true
	}
	if added {
		h.wakeReaders()
	}
}

// Reset forgets every event and starts the sequence over, for a mirror
// whose shared log started over (a database restored from a backup, or
// recreated). Readers are woken: a cursor past the new newest reads as
// one from the future (from now on).
func (h *Hub) Reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.start, h.n, h.last = 0, 0, 0
	h.wakeReaders()
}

// push adds e as the newest event of the ring; h.mu is held.
func (h *Hub) push(e Event) {
	if h.ring == nil {
		h.ring = make([]Event, h.window)
	}
	if h.n < h.window {
		h.ring[(h.start+h.n)%h.window] = e
		h.n++
	} else {
		h.ring[h.start] = e
		h.start = (h.start + 1) % h.window
	}
}

// wakeReaders wakes every reader waiting on a Page's Wake; h.mu is held.
func (h *Hub) wakeReaders() {
	close(h.wake)
	h.wake = make(chan struct{})
}

// Last returns the sequence of the newest event (0: none yet).
func (h *Hub) Last(context.Context) uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.last
}

// Page is what Read returns.
type Page struct {
	Events []Event
	// Dropped counts events after the cursor that fell out of the window
	// before this read (0: none); the page starts at the oldest kept.
	Dropped uint64
	// Next is the cursor to read from next.
	Next uint64
	// Wake is closed when an event after this read is published.
	Wake <-chan struct{}
}

// Read returns up to max events after seq that match keep.
func (h *Hub) Read(_ context.Context, after uint64, max int, keep func(*Event) bool) Page {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := Page{Wake: h.wake, Next: after}
	if after > h.last {
		// A cursor from the future (e.g. another server life): start now.
		after = h.last
		p.Next = after
	}
	if h.n == 0 {
		return p
	}
	// Sequences in the window are consecutive: oldest .. h.last.
	oldest := h.last - uint64(h.n) + 1
	if after+1 < oldest {
		p.Dropped = oldest - after - 1
		after = oldest - 1
	}
	for i := int(after - oldest + 1); i < h.n; i++ {
		e := &h.ring[(h.start+i)%h.window]
		p.Next = e.Seq
		if e.Type != "" && keep(e) {
			p.Events = append(p.Events, *e)
			if len(p.Events) >= max {
				break
			}
		}
	}
	return p
}
