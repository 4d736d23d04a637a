package pipeline

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec"
)

// Store keeps completed executions (store.Store).
type Store interface {
	Save(ctx context.Context, r *wasmexec.Result, events []wasmexec.Event, truncated bool) error
	Ping(ctx context.Context) error
}

// Metrics observes runs (metrics.Metrics).
type Metrics interface {
	ObserveRun(r *wasmexec.Result, tenant string)
	ObserveQueueWait(r *wasmexec.Result, d time.Duration)
	ObserveStoreWrite(d time.Duration)
}

// storeRecheck is how often a store marked down is pinged, at most.
const storeRecheck = time.Second

// Recorder is the persist step, shared by runs and by the other records
// the server keeps (TypeScript checks, installs). It keeps the store's
// promise: a completion is reported only once its record is committed.
//
//   - A record that could not be stored is an error for the caller: 503
//     unavailable (with Retry-After) when the store cannot be reached,
//     500 otherwise.
//   - After such a failure the store is marked down, and Check refuses
//     new runs at once (503), without running them, until a ping reaches
//     the store again (at most one ping per storeRecheck).
//
// A nil Store keeps nothing and never fails; a nil *Recorder neither.
type Recorder struct {
	store   Store
	metrics Metrics

	mu        sync.Mutex
	down      error // the last failure while the store is marked down
	checkedAt time.Time
}

// NewRecorder returns the persist step over st (nil: no history) and m
// (nil: no metrics).
func NewRecorder(st Store, m Metrics) *Recorder {
	return &Recorder{store: st, metrics: m}
}

// Record stamps r with the caller's request id and tenant (the store
// scopes reads by it), observes it, and saves it with log's events.
func (rc *Recorder) Record(ctx context.Context, r *wasmexec.Result, log *wasmexec.OutputLog) error {
	if rc == nil {
		return nil
	}
	if r.RequestID == "" {
		r.RequestID = wasmexec.RequestIDFrom(ctx)
	}
	if r.Tenant == "" {
		r.Tenant = wasmexec.TenantID(ctx)
	}
	if rc.metrics != nil {
		rc.metrics.ObserveRun(r, wasmexec.TenantID(ctx))
	}
	if rc.store == nil {
		return nil
	}
	var events []wasmexec.Event
	var truncated bool
	if log != nil {
		events, truncated = log.Snapshot()
	}
	start := time.Now()
	err := rc.store.Save(ctx, r, events, truncated)
	if rc.metrics != nil {
		rc.metrics.ObserveStoreWrite(time.Since(start))
	}
	if err == nil {
		return nil
	}
	if wasmexec.ErrorCode(err) == wasmexec.EUnavailable {
		rc.mu.Lock()
		rc.down, rc.checkedAt = err, time.Now()
		rc.mu.Unlock()
		return &wasmexec.Error{Code: wasmexec.EUnavailable, Message: fmt.Sprintf("execution %s completed but its record could not be stored, so its result is not reported: %s", r.ExecutionID, wasmexec.ErrorMessage(err)), Err: err}
	}
	return fmt.Errorf("execution %s completed but its record could not be stored: %w", r.ExecutionID, err)
}

// Check returns the store's failure while it is marked down (the
// admission step: a run that could not be recorded is not started).
func (rc *Recorder) Check(ctx context.Context) error {
	if rc == nil || rc.store == nil {
		return nil
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.down == nil {
		return nil
	}
	if time.Since(rc.checkedAt) >= storeRecheck {
		rc.checkedAt = time.Now()
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := rc.store.Ping(pctx)
		cancel()
		if err == nil {
			rc.down = nil
			return nil
		}
		rc.down = err
	}
	return &wasmexec.Error{Code: wasmexec.EUnavailable, Message: "the execution store is unavailable; runs are refused until it is back: " + wasmexec.ErrorMessage(rc.down), Err: rc.down}
}

// ObserveQueueWait observes a run's wait before it was under way.
func (rc *Recorder) observeQueueWait(r *wasmexec.Result, d time.Duration) {
	if rc != nil && rc.metrics != nil {
		rc.metrics.ObserveQueueWait(r, d)
	}
}
