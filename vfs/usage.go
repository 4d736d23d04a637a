package vfs

import (
	"context"
	"sync"
	"time"
)

// Incremental usage. A file call (WriteFile, Delete, Extract) needs the
// workspace's usage to check its change against the limits. Counting
// means walking every entry, which an agent that uploads a project file by
// file (or one archive after another) would pay on every call. A workspace
// that tracks its usage (TrackUsage) counts once and then adds what each
// call adds and frees.
//
// Guests write to the workspace directly, so the count can only be kept
// while none writes: its owner says when a guest may be writing
// (GuestStarted/GuestStopped around a run, GuestWriting while a process
// runs, Forget after work done outside the file API), and the kept count
// is trusted only when no guest has been active for guestQuiet, so a
// process that wrote just after a count was taken can't leave it stale.

// guestQuiet is how long after the last sign of a writing guest a count
// is trusted: longer than the interval at which a running process's quota
// watch polls (GuestWriting).
const guestQuiet = time.Second

type usageCache struct {
	mu        sync.Mutex
	known     bool
	u         Usage
	active    int       // guests writing now (GuestStarted minus GuestStopped)
	lastGuest time.Time // the last sign of a guest
}

// trusted says whether a count taken now may be kept. mu held.
func (c *usageCache) trusted(now time.Time) bool {
	return c.active == 0 && now.Sub(c.lastGuest) >= guestQuiet
}

// TrackUsage makes w keep its usage between file calls (see above). Copies
// of w made afterwards share the count.
func (w *Workspace) TrackUsage() {
	if w.cache == nil {
		w.cache = &usageCache{}
	}
}

// GuestStarted says a guest may write to w from now until GuestStopped.
func (w *Workspace) GuestStarted() {
	if c := w.cache; c != nil {
		c.mu.Lock()
		c.active++
		c.known = false
		c.mu.Unlock()
	}
}

// GuestStopped ends a GuestStarted.
func (w *Workspace) GuestStopped() {
	if c := w.cache; c != nil {
		c.mu.Lock()
		c.active = max(c.active-1, 0)
		c.known, c.lastGuest = false, time.Now()
		c.mu.Unlock()
	}
}

// GuestWriting says a guest (a process) is writing to w now.
func (w *Workspace) GuestWriting() {
	if c := w.cache; c != nil {
		c.mu.Lock()
		c.known, c.lastGuest = false, time.Now()
		c.mu.Unlock()
	}
}

// Forget drops the kept count: w was changed other than through its file
// calls (an install that swapped a directory in).
func (w *Workspace) Forget() {
	if c := w.cache; c != nil {
		c.mu.Lock()
		c.known = false
		c.mu.Unlock()
	}
}

// usage is w's usage for a change: the kept count when it can be trusted,
// else Check's (kept when it is complete and no guest is active).
func (w *Workspace) usage(ctx context.Context) (Usage, error) {
	c := w.cache
	if c != nil {
		c.mu.Lock()
		if c.known && c.trusted(time.Now()) {
			u := c.u
			c.mu.Unlock()
			return u, nil
		}
		c.mu.Unlock()
	}
	start := time.Now()
	u, err := w.Check(ctx)
	if err == nil && !u.Partial && c != nil {
		c.mu.Lock()
		// A guest that started or stopped during the walk may have
		// changed what it counted.
		if c.trusted(time.Now()) && !c.lastGuest.After(start) {
			c.u, c.known = u, true
		}
		c.mu.Unlock()
	}
	return u, err
}

// changed adds a file call's change to the kept count.
func (w *Workspace) changed(bytes int64, files int) {
	if c := w.cache; c != nil {
		c.mu.Lock()
		if c.known {
			c.u.UsedBytes += bytes
			c.u.Files += files
		}
		c.mu.Unlock()
	}
}
