package wasmexec

import (
	"bytes"
	"context"
	"sort"
	"sync"
	"time"
)

// Capture says which streams a run returns in its Result.
type Capture string

const (
	CaptureAll    Capture = "all"
	CaptureStderr Capture = "stderr"
	CaptureNone   Capture = "none"
)

// Valid reports whether c is a known capture mode ("" means all).
func (c Capture) Valid() bool {
	switch c {
	case "", CaptureAll, CaptureStderr, CaptureNone:
		return true
	}
	return false
}

// Output collects what a run writes: the captured stdout/stderr text (each
// capped at limit bytes, with truncation flags) and, when retained, the event
// log. Writes past limit on either stream end the run (output_limit).
type Output struct {
	mu       sync.Mutex
	capture  Capture
	limit    int64
	bufs     [2]bytes.Buffer
	totals   [2]int64
	trunc    [2]bool
	exceeded bool
	// Log, when non-nil, receives every write as an Event.
	Log *OutputLog
	// Enforce makes writes past the limit fail (ending the run). Processes
	// turn it off: their output lives in the bounded event log instead.
	Enforce bool
}

// NewOutput returns an Output capturing per c with a per-stream limit.
func NewOutput(c Capture, limit int64, log *OutputLog) *Output {
	if c == "" {
		c = CaptureAll
	}
	return &Output{capture: c, limit: limit, Log: log, Enforce: true}
}

func channelIndex(ch Channel) int {
	if ch == Stderr {
		return 1
	}
	return 0
}

func (o *Output) captures(ch Channel) bool {
	return o.capture == CaptureAll || (o.capture == CaptureStderr && ch == Stderr)
}

// Write records p on ch. It returns false when this write took the stream
// past the limit and the limit is enforced.
func (o *Output) Write(ch Channel, p []byte) bool {
	o.mu.Lock()
	i := channelIndex(ch)
	o.totals[i] += int64(len(p))
	keep := p
	if room := o.limit - int64(o.bufs[i].Len()); int64(len(keep)) > room {
		if room < 0 {
			room = 0
		}
		keep = keep[:room]
		o.trunc[i] = true
	}
	if o.captures(ch) {
		o.bufs[i].Write(keep)
	}
	over := o.totals[i] > o.limit
	if over && o.Enforce {
		o.exceeded = true
	}
	o.mu.Unlock()
	if o.Log != nil {
		if over && o.Enforce {
			p = keep
		}
		if len(p) > 0 {
			o.Log.Append(ch, p)
		}
	}
	return !(over && o.Enforce)
}

// Limit returns the per-stream byte limit.
func (o *Output) Limit() int64 { return o.limit }

// Exceeded reports whether a stream went past the enforced limit.
func (o *Output) Exceeded() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.exceeded
}

// Fill copies the captured streams and flags into r.
func (o *Output) Fill(r *Result) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.captures(Stdout) {
		s := o.bufs[0].String()
		r.Stdout = &s
	}
	if o.captures(Stderr) {
		s := o.bufs[1].String()
		r.Stderr = &s
	}
	r.StdoutTruncated, r.StderrTruncated = o.trunc[0], o.trunc[1]
}

// OutputLog is the bounded, replayable event log of one run. Sequence
// numbers start at 1 and never repeat; when the retained bytes pass the cap
// the oldest events are dropped and readers from before them see
// Truncated. Readers can wait for new events (live streams).
//
// Each event is charged its chunk plus EventOverheadBytes against the cap,
// so a flood of tiny writes is bounded by what it really costs in memory,
// not by its payload alone. (Writes are not coalesced: one write is one
// event, which clients rely on.)
type OutputLog struct {
	mu       sync.Mutex
	pid      int64
	events   []Event // retained window is events[head:]
	head     int
	bytes    int64 // charged bytes: chunks plus the per-event overhead
	maxBytes int64
	nextSeq  uint64
	dropped  bool
	closed   bool
	notify   chan struct{}
	now      func() time.Time
}

// EventOverheadBytes is what one retained event costs beyond its chunk
// (the Event struct, the chunk's slice header and allocation rounding,
// measured by TestEventOverhead), charged against the log's cap.
const EventOverheadBytes = 96

// NewOutputLog returns a log retaining at most maxBytes of chunks.
func NewOutputLog(pid int64, maxBytes int64) *OutputLog {
	return &OutputLog{pid: pid, maxBytes: maxBytes, nextSeq: 1, notify: make(chan struct{}), now: time.Now}
}

// Append adds a copy of chunk as the next event.
func (l *OutputLog) Append(ch Channel, chunk []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	ev := Event{PID: l.pid, Sequence: l.nextSeq, Channel: ch, Chunk: append([]byte(nil), chunk...), TimestampMs: Millis(l.now())}
	l.nextSeq++
	l.events = append(l.events, ev)
	l.bytes += int64(len(chunk)) + EventOverheadBytes
	l.trim()
	l.wake()
}

func (l *OutputLog) wake() {
	close(l.notify)
	l.notify = make(chan struct{})
}

// trim drops events from the front while the log is over its cap (always
// keeping the newest). l.mu held.
func (l *OutputLog) trim() {
	// Drop from the front by moving head; compact only when half the slice
	// is dropped, so a full log costs O(1) per append, not O(window).
	for l.bytes > l.maxBytes && l.head < len(l.events)-1 {
		l.bytes -= int64(len(l.events[l.head].Chunk)) + EventOverheadBytes
		l.events[l.head] = Event{} // let the chunk be collected
		l.head++
		l.dropped = true
	}
	if l.head > 0 && l.head >= len(l.events)/2 {
		n := copy(l.events, l.events[l.head:])
		clear(l.events[n:])
		l.events, l.head = l.events[:n], 0
	}
}

// Close marks the end of the run: no more events, waiters wake.
func (l *OutputLog) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		close(l.notify)
	}
}

// Closed reports whether the run has ended.
func (l *OutputLog) Closed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// Read returns up to limit events with sequence > after.
func (l *OutputLog) Read(after uint64, limit int) Replay {
	l.mu.Lock()
	defer l.mu.Unlock()
	return replayPage(l.events[l.head:], after, limit)
}

// replayPage pages through a retained window of events (ascending sequence).
func replayPage(events []Event, after uint64, limit int) Replay {
	if limit <= 0 {
		limit = 1000
	}
	r := Replay{Events: []Event{}}
	first := uint64(0)
	if len(events) > 0 {
		first = events[0].Sequence
	}
	if first > 0 && first-1 > after { // not first > after+1: after may be 2^64-1
		r.Truncated = true
	}
	cursor := after
	i := sort.Search(len(events), func(i int) bool { return events[i].Sequence > after })
	for ; i < len(events) && len(r.Events) < limit; i++ {
		r.Events = append(r.Events, events[i])
		cursor = events[i].Sequence
	}
	r.HasMore = i < len(events)
	if r.Truncated && len(r.Events) == 0 && len(events) > 0 {
		cursor = events[len(events)-1].Sequence
	}
	r.NextCursor = EncodeCursor(cursor)
	return r
}

// ReplayEvents pages through a stored window of events; the store uses it so
// replay has one meaning live and after completion.
func ReplayEvents(events []Event, after uint64, limit int) Replay {
	return replayPage(events, after, limit)
}

// Wait blocks until an event with sequence > after exists, the log is
// closed, or ctx ends.
func (l *OutputLog) Wait(ctx context.Context, after uint64) error {
	for {
		l.mu.Lock()
		if l.nextSeq-1 > after || l.closed {
			l.mu.Unlock()
			return nil
		}
		n := l.notify
		l.mu.Unlock()
		select {
		case <-n:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Snapshot returns the retained events and whether any were dropped.
func (l *OutputLog) Snapshot() ([]Event, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Event(nil), l.events[l.head:]...), l.dropped
}
