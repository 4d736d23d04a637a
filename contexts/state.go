package contexts

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

// The context state machine (wasmexec.ContextState). Legal transitions:
//
//	idle      → running    a run takes the guest
//	idle      → resetting  POST reset
//	running   → idle       the run ended and the guest is alive
//	running   → resetting  the guest was stopped by a timeout, cancel, fuel,
//	                       memory, output or stack limit or for breaking the
//	                       control protocol (the result says contextReset),
//	                       or a reset preempted the run
//	running   → failed     the guest died unexpectedly (result code internal)
//	resetting → idle       the fresh guest is up
//	resetting → failed     the fresh guest failed to start
//	failed    → resetting  POST reset
//	any       → deleting   DELETE, idle expiry or Close; then gone (404)
//
// What each state means:
//   - idle: the guest is parked in recv; a run may start.
//   - running: one run holds the guest; more requests wait FIFO (bounded).
//   - resetting: the guest is being replaced. State is gone, workspace
//     files stay. Queued runs wait for the new guest.
//   - failed: the guest died without a reason wasmexec caused, or a fresh
//     guest failed to start. Runs get 409 conflict until a reset; the
//     workspace stays readable and writable.
//   - deleting: being torn down; a running run is cancelled first, queued
//     ones get 404. Terminal.
var transitions = map[wasmexec.ContextState][]wasmexec.ContextState{
	wasmexec.ContextIdle:      {wasmexec.ContextRunning, wasmexec.ContextResetting, wasmexec.ContextDeleting},
	wasmexec.ContextRunning:   {wasmexec.ContextIdle, wasmexec.ContextResetting, wasmexec.ContextFailed, wasmexec.ContextDeleting},
	wasmexec.ContextResetting: {wasmexec.ContextIdle, wasmexec.ContextFailed, wasmexec.ContextDeleting},
	wasmexec.ContextFailed:    {wasmexec.ContextResetting, wasmexec.ContextDeleting},
	wasmexec.ContextDeleting:  {},
}

// canTransition reports whether from → to is a legal transition.
func canTransition(from, to wasmexec.ContextState) bool {
	return slices.Contains(transitions[from], to)
}

// execContext is one execution context. mu guards the fields below it; the
// guest is touched only by whoever holds the context's slot (busy), which
// is handed from one holder to the next in FIFO order.
type execContext struct {
	id       string
	language wasmexec.Language
	family   wasmexec.Family
	env      map[string]string
	memory   int64
	tenant   string                     // who created it (wasmexec.TenantID), kept in its record
	network  *wasmexec.Network          // the default of its runs
	secrets  map[string]wasmexec.Secret // fixed: their placeholders are in the guest's env
	ws       *vfs.Workspace
	created  time.Time

	// guest: slot holder only.
	guest wasmexec.Guest

	mu            sync.Mutex
	state         wasmexec.ContextState
	creating      bool // not visible until its first guest is up
	busy          bool // the slot is held
	waiters       []*waiter
	cancel        context.CancelCauseFunc // of the running run
	lastStarted   time.Time
	lastCompleted time.Time
	lastUsed      time.Time
	runs, resets  int64
	failure       *wasmexec.ErrorData
	gone          chan struct{} // closed when deleted
	hib           hibState      // hibernation and snapshots (hibernate.go)
	shared        bool          // registered in Config.Shared
	moved         bool          // dropped: another server owns it now (Drop)

	// wsMu serializes workspace bookkeeping: file API calls, the pre-run
	// snapshot and the post-run quota check.
	wsMu       sync.Mutex
	snap       *vfs.Snapshot   // valid snapshot of the workspace, or nil
	inRun      bool            // between the pre-run snapshot and the check
	runUploads map[string]bool // paths uploaded during the run: never rolled back
}

type waiter struct{ ch chan error }

// to moves the context to state s; an illegal transition is an error (a
// bug, or a client asking for something the state forbids). mu held.
func (c *execContext) to(s wasmexec.ContextState) error {
	if !canTransition(c.state, s) {
		return fmt.Errorf("context %s: illegal transition %s → %s", c.id, c.state, s)
	}
	c.state = s
	return nil
}

func notFound(id string) error {
	return wasmexec.Errorf(wasmexec.EContextNotFound, "no context %q", id)
}

// How a caller waits for the context's slot.
type turn int

const (
	inLine   turn = iota // FIFO behind the others, bounded by the queue depth
	atFront              // ahead of the queue, unbounded (reset)
	asDelete             // ahead of the queue, even while deleting (the deleter)
)

// acquire takes the context's slot: at once when it is free and nobody
// waits, else after the requests ahead of it. Errors: context_not_found
// (deleted meanwhile), overloaded (queue full, ctx ended while waiting).
func (c *execContext) acquire(ctx context.Context, depth int, t turn) error {
	c.mu.Lock()
	w, err := c.enqueue(depth, t)
	c.mu.Unlock()
	if w == nil || err != nil {
		return err
	}
	return c.wait(ctx, w)
}

// enqueue takes the slot (nil waiter) or puts a waiter in line for it,
// which wait then waits on. mu held.
func (c *execContext) enqueue(depth int, t turn) (*waiter, error) {
	if c.state == wasmexec.ContextDeleting && t != asDelete {
		return nil, notFound(c.id)
	}
	if !c.busy && len(c.waiters) == 0 {
		c.busy = true
		return nil, nil
	}
	w := &waiter{ch: make(chan error, 1)}
	switch {
	case t != inLine:
		c.waiters = append([]*waiter{w}, c.waiters...)
	case len(c.waiters) >= depth:
		return nil, wasmexec.Errorf(wasmexec.EOverloaded, "context %s already has %d requests queued; retry shortly", c.id, depth)
	default:
		c.waiters = append(c.waiters, w)
	}
	return w, nil
}

// wait waits for w's turn (enqueue); ctx ending gives up the place.
func (c *execContext) wait(ctx context.Context, w *waiter) error {
	select {
	case err := <-w.ch:
		return err
	case <-ctx.Done():
		c.mu.Lock()
		if i := slices.Index(c.waiters, w); i >= 0 {
			c.waiters = slices.Delete(c.waiters, i, i+1)
			c.mu.Unlock()
			return wasmexec.Errorf(wasmexec.EOverloaded, "gave up waiting for context %s: %v", c.id, ctx.Err())
		}
		c.mu.Unlock()
		if err := <-w.ch; err == nil {
			c.release() // granted just now: pass it on
		}
		return wasmexec.Errorf(wasmexec.EOverloaded, "gave up waiting for context %s: %v", c.id, ctx.Err())
	}
}

// release hands the slot to the first waiter, or frees it.
func (c *execContext) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.waiters) > 0 {
		w := c.waiters[0]
		c.waiters = c.waiters[1:]
		w.ch <- nil
		return
	}
	c.busy = false
}

// failWaiters rejects every queued request. mu held.
func (c *execContext) failWaiters(err error) {
	for _, w := range c.waiters {
		w.ch <- err
	}
	c.waiters = nil
}
