package server

import (
	"sync"

	"github.com/wasmexec/wasmexec"
)

// Check and reserve, for the quotas that count objects a request makes
// (maxContexts, maxProcesses, maxWorkspaceBytes): a request that makes one
// checks what its tenant has plus what is being made and reserves its own
// amount in one step, under one lock per tenant and quota, so concurrent
// requests can't all pass one check (a check, then the work, let 16
// concurrent creates of a tenant allowed 2 contexts make 5). The
// reservation is held until the work fails (released) or what it made is
// owned (recorded where the count finds it), and the two happen under the
// same lock: no count sees the object both reserved and owned, or neither.
//
// The lock is held while counting (a list of the contexts, or a query of
// the cluster's database), so a tenant's creates are counted one at a
// time; the work itself runs outside it, concurrently.
//
// The run quotas (maxConcurrentRuns, maxRunsPerMinute) are counters of
// their own, checked and counted under tenantState.mu (startRun).

// reserved is one quota's reservations of one tenant.
type reserved struct {
	mu  sync.Mutex
	n   int64           // the amount reserved, not yet owned
	ids map[string]bool // contexts: the ids reserved
}

// reserve reserves amount (and id, when not ""), unless what exists plus
// what is reserved plus amount is more than limit: then it returns
// over(that total). count counts what exists, leaving out the ids given
// (reserved ones it might find already made but not yet owned). An id
// already reserved is a context_conflict: its context is being made.
//
// The returned end must be called once: end(nil) releases the
// reservation (the work failed), end(own) calls own under the lock (own
// records what the work made, so count finds it) and releases it.
func (r *reserved) reserve(limit, amount int64, id string, count func(except map[string]bool) (int64, error), over func(total int64) error) (end func(own func()), err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id != "" && r.ids[id] {
		return nil, wasmexec.Errorf(wasmexec.EContextConflict, "context %q is being created", id)
	}
	n, err := count(r.ids)
	if err != nil {
		return nil, err
	}
	if total := n + r.n + amount; total > limit {
		return nil, over(total)
	}
	r.n += amount
	if id != "" {
		if r.ids == nil {
			r.ids = map[string]bool{}
		}
		r.ids[id] = true
	}
	var once sync.Once
	return func(own func()) {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			if own != nil {
				own()
			}
			r.n -= amount
			if id != "" {
				delete(r.ids, id)
			}
		})
	}, nil
}

// inFlight is the amount reserved now.
func (r *reserved) inFlight() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// noEnd is the end of a reservation that was not needed (no tenant, or no
// quota).
func noEnd(own func()) {
	if own != nil {
		own()
	}
}
