package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/store"
)

// storeGuard wraps the runner handed to the server and the contexts (the
// processes get spawnGate), and keeps the store's promise: a completion is
// reported only once its record is committed.
//
//   - A run whose record could not be stored (persist failed) is answered
//     with that error instead of its result: 503 unavailable (with
//     Retry-After) when the store cannot be reached, 500 otherwise. The
//     run did happen (a context's state changed); its result is lost.
//   - After such a failure the store is marked down, and new runs get 503
//     with Retry-After at once, without running, until a ping reaches the
//     store again (at most one ping per storeRecheck).
type storeGuard struct {
	// timedRunner, not exec.Runner: the engine's optional capabilities
	// (exec.GuestRestorer, which contexts find by type assertion) must
	// stay visible through the guard.
	timedRunner
	st *store.Store

	mu        sync.Mutex
	down      error // the last failure while the store is marked down
	checkedAt time.Time
}

// storeRecheck is how often a down store is pinged, at most.
const storeRecheck = time.Second

// persistSlot carries persist's failure from the OnComplete hook (called
// inside Runner.Run with a context derived from Run's) back to Run.
type persistSlot struct{ err error }

type persistSlotKey struct{}

func (g *storeGuard) Run(ctx context.Context, req *exec.Request, opts exec.RunOptions) (*exec.Result, error) {
	if err := g.refuse(ctx, opts); err != nil {
		return nil, err
	}
	slot := &persistSlot{}
	res, err := g.timedRunner.Run(context.WithValue(ctx, persistSlotKey{}, slot), req, opts)
	if err == nil && slot.err != nil {
		return nil, g.failed(res, slot.err)
	}
	return res, err
}

// refuse is check for a run about to start: a refusal is also reported
// through opts.Started, which Run must call exactly once.
func (g *storeGuard) refuse(ctx context.Context, opts exec.RunOptions) error {
	err := g.check(ctx)
	if err != nil && opts.Started != nil {
		opts.Started(err)
	}
	return err
}

// check returns the store's failure while it is marked down.
func (g *storeGuard) check(ctx context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.down == nil {
		return nil
	}
	if time.Since(g.checkedAt) >= storeRecheck {
		g.checkedAt = time.Now()
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := g.st.Ping(pctx)
		cancel()
		if err == nil {
			g.down = nil
			return nil
		}
		g.down = err
	}
	return &exec.Error{Code: exec.EUnavailable, Message: "the execution store is unavailable; runs are refused until it is back: " + exec.ErrorMessage(g.down), Err: g.down}
}

// failed marks the store down (when it is unreachable) and returns the
// error a run whose record was not stored gets.
func (g *storeGuard) failed(res *exec.Result, err error) error {
	if exec.ErrorCode(err) == exec.EUnavailable {
		g.mu.Lock()
		g.down, g.checkedAt = err, time.Now()
		g.mu.Unlock()
		return &exec.Error{Code: exec.EUnavailable, Message: fmt.Sprintf("execution %s completed but its record could not be stored, so its result is not reported: %s", res.ExecutionID, exec.ErrorMessage(err)), Err: err}
	}
	return fmt.Errorf("execution %s completed but its record could not be stored: %w", res.ExecutionID, err)
}

// spawnGate is the guard as the processes see it: a new process is
// refused (503) while the store is down, but a process that ran is always
// reported as exited (its record may be missing: persist logged why), so
// that its slot and waiters are released.
type spawnGate struct{ *storeGuard }

func (g spawnGate) Run(ctx context.Context, req *exec.Request, opts exec.RunOptions) (*exec.Result, error) {
	if err := g.refuse(ctx, opts); err != nil {
		return nil, err
	}
	return g.timedRunner.Run(ctx, req, opts)
}

// notePersist hands persist's error to the guarded Run that caused it.
func notePersist(ctx context.Context, err error) {
	if slot, ok := ctx.Value(persistSlotKey{}).(*persistSlot); ok {
		slot.err = err
	}
}

// The guard keeps the runner's optional capabilities.
var (
	_ exec.GuestRestorer = (*storeGuard)(nil)
	_ exec.GuestRestorer = spawnGate{}
	_ exec.FileRestorer  = (*storeGuard)(nil)
)
