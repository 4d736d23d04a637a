package contexts

// Hibernation, snapshots and forks of contexts (docs/CONTEXTS.md "Context
// lifecycle", docs/RATIONALE.md "Hibernation").
//
// A context's guest is captured between runs (wasmexec.Capturer): its state is
// written into the context's record in Config.StateDir (durable.go) when
// the context has been idle for SnapshotAfter after a run that changed it,
// and the guest is dropped from memory (hibernated) when it has been idle
// for HibernateAfter. The next run wakes it: the runner restores the guest
// from the state (wasmexec.Runner.RestoreGuestFile), or, when the state is refused
// (corrupt, another image or engine), starts a fresh one in the same
// workspace and says why in the descriptor's notice. A file call wakes it
// too (files.go), so that the context is awake for the run that follows.

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/wasmexec/wasmexec"
)

// Lifecycle events the manager reports through Config.OnEvent.
const (
	EventHibernated = "context.hibernated"
	EventRestored   = "context.restored"
)

// hibState is a context's hibernation bookkeeping. execContext.mu guards it.
type hibState struct {
	hibernated bool   // no guest in memory; the next run wakes it
	pending    []byte // a hibernated guest's state when there is no StateDir
	fromRecord bool   // the state to wake from is in the record file
	snapBytes  int64
	stateAsOf  time.Time // the state in the record (or pending) was taken then
	restoredAt time.Time
	dirty      bool      // a run since the last snapshot
	wsDirty    bool      // a shared context's files changed since (workspaceChanged)
	fromGuest  bool      // the record's state was captured from the live guest (snapshot)
	notice     string    // why not hibernated/snapshotted, or why restored fresh
	retryAt    time.Time // after a failed capture or write
}

// wake gives a hibernated context its guest back. Slot held.
func (m *Manager) wake(ctx context.Context, c *execContext) error {
	c.mu.Lock()
	if !c.hib.hibernated {
		c.mu.Unlock()
		return nil
	}
	state, fromRecord, size := c.hib.pending, c.hib.fromRecord, c.hib.snapBytes
	c.mu.Unlock()
	if err := m.admit(ctx, c, size); err != nil {
		return err
	}
	notice := ""
	spec := c.guestSpec()
	sctx, cancel := context.WithTimeout(ctx, guestStartTimeout)
	defer cancel()
	r := m.cfg.Runner
	var restore func() (wasmexec.Guest, error)
	if state != nil {
		restore = func() (wasmexec.Guest, error) { return r.RestoreGuest(sctx, spec, state) }
	} else if fromRecord {
		// From the file: a large state's pages are mapped, not read
		// (records are replaced by rename, never written in place).
		f, off, reason := m.openRecordState(c.id)
		if f != nil {
			defer f.Close() // a mapping holds the file by itself
			restore = func() (wasmexec.Guest, error) { return r.RestoreGuestFile(sctx, spec, f, off) }
		}
		if reason != "" {
			notice = "restored fresh: its snapshot " + reason
		}
	}
	var g wasmexec.Guest
	restored := false
	if restore != nil {
		var err error
		g, err = restore()
		switch {
		case err == nil:
			restored = true
		case r.StateRefused(err):
			notice = "restored fresh: " + err.Error()
		default:
			m.dropped(c)
			return fmt.Errorf("restore context %s: %w", c.id, err)
		}
	}
	if g == nil {
		var err error
		if g, err = m.startGuest(sctx, c); err != nil {
			return fmt.Errorf("start the guest of context %s: %w", c.id, err)
		}
	}
	if notice != "" {
		m.log.Warn("context came back with a fresh guest", "contextId", c.id, "reason", notice)
	}
	c.guest = g
	c.mu.Lock()
	if notice == "" && !restored {
		notice = c.hib.notice // why its record had no usable state (loadRecord)
	}
	c.hib.hibernated, c.hib.pending, c.hib.fromRecord, c.hib.fromGuest = false, nil, false, false
	c.hib.notice = notice
	if restored {
		c.hib.restoredAt = m.cfg.Now()
	} else {
		c.hib.dirty = true // the record's state is not this guest's: replace it
	}
	c.mu.Unlock()
	m.emit(EventRestored, c.id)
	return nil
}

// captureToTemp captures c's guest into an unnamed file in the state dir,
// for a fork to be restored from: its large pages are then mapped, not
// copied twice through the heap. Nil, and no error, when the guest can't,
// there is no state dir, or the file can't be written (the caller captures
// into memory). Slot held.
func (m *Manager) captureToTemp(ctx context.Context, c *execContext) (*os.File, error) {
	fc, ok := c.guest.(wasmexec.FileCapturer)
	if !ok || m.cfg.StateDir == "" {
		return nil, nil
	}
	f, err := os.CreateTemp(m.cfg.StateDir, ".tmp-fork-*")
	if err != nil {
		return nil, nil
	}
	os.Remove(f.Name()) // unnamed: gone once closed and unmapped
	if _, err := fc.CaptureTo(ctx, true, f); err != nil {
		f.Close()
		if wasmexec.ErrorCode(err) == wasmexec.EConflict || ctx.Err() != nil {
			return nil, err
		}
		m.log.Warn("a fork's state could not be written to a file; it is captured into memory", "contextId", c.id, "err", err)
		return nil, nil
	}
	return f, nil
}

// restoreGuest restores a guest of c from state st.
func (m *Manager) restoreGuest(ctx context.Context, c *execContext, st []byte) (wasmexec.Guest, error) {
	sctx, cancel := context.WithTimeout(ctx, guestStartTimeout)
	defer cancel()
	return m.cfg.Runner.RestoreGuest(sctx, c.guestSpec(), st)
}

func (m *Manager) emit(typ, id string) {
	if m.cfg.OnEvent != nil {
		m.cfg.OnEvent(typ, id)
	}
}

// Count counts the contexts.
func (m *Manager) Count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.ctxs)
}

// Hibernated counts the contexts whose guest is hibernated.
func (m *Manager) Hibernated() int {
	m.mu.Lock()
	all := slices.Collect(maps.Values(m.ctxs))
	m.mu.Unlock()
	n := 0
	for _, c := range all {
		c.mu.Lock()
		if c.hib.hibernated {
			n++
		}
		c.mu.Unlock()
	}
	return n
}

// Hibernate captures the context's guest and drops it from memory; the
// next run restores it. Errors: context_not_found, conflict (a run in
// progress or queued, live processes in its workspace, a guest that can't
// be captured now), internal.
func (m *Manager) Hibernate(ctx context.Context, id string) (*wasmexec.Context, error) {
	c, err := m.lookup(id)
	if err != nil {
		return nil, err
	}
	if !c.tryAcquire() {
		return nil, wasmexec.Errorf(wasmexec.EConflict, "context %s is running; hibernate it once it is idle", id)
	}
	err = m.hibernate(ctx, c)
	c.release()
	if err != nil {
		return nil, err
	}
	return m.describe(c), nil
}

// tryAcquire takes the slot only if it is free with nobody waiting.
func (c *execContext) tryAcquire() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy || len(c.waiters) > 0 || c.creating || c.state == wasmexec.ContextDeleting {
		return false
	}
	c.busy = true
	return true
}

// capturable says why c can't be captured now, or "". Slot held.
func (m *Manager) capturable(c *execContext) string {
	if m.cfg.LiveProcesses != nil {
		if n := m.cfg.LiveProcesses(c.id); n > 0 {
			return fmt.Sprintf("not hibernated or snapshotted: %d live process(es) in its workspace", n)
		}
	}
	return ""
}

// hibernate does Hibernate's work. Slot held.
func (m *Manager) hibernate(ctx context.Context, c *execContext) error {
	_, err := m.hibernateWith(ctx, c, nil)
	return err
}

// hibernateWith is hibernate, and with later set, the record it writes
// may be committed later, with others' (commit.go): deferred then says
// it is, the guest is closed, the slot is the commit's, and later is
// called with the outcome once the commit is over. Otherwise it returns
// once c is hibernated or not, later is not called, and the slot is
// still the caller's. Slot held.
func (m *Manager) hibernateWith(ctx context.Context, c *execContext, later func(error)) (deferred bool, err error) {
	c.mu.Lock()
	state, hibernated := c.state, c.hib.hibernated
	c.mu.Unlock()
	if hibernated {
		return false, nil
	}
	if state != wasmexec.ContextIdle {
		return false, wasmexec.Errorf(wasmexec.EConflict, "context %s is %s; only an idle context hibernates", c.id, state)
	}
	if c.guest == nil { // unpinned: nothing to capture
		return false, wasmexec.Errorf(wasmexec.EConflict, "context %s has no guest yet (it runs nothing until its first run)", c.id)
	}
	if why := m.capturable(c); why != "" {
		m.note(c, why)
		return false, wasmexec.Errorf(wasmexec.EConflict, "context %s is %s", c.id, why)
	}
	durable := m.cfg.StateDir != ""
	c.mu.Lock()
	current := durable && c.hib.fromGuest && !c.hib.dirty && !c.lastUsed.After(c.hib.stateAsOf)
	c.mu.Unlock()
	if current {
		// Its record holds its state already: snapshotted since its last
		// run and not used since (the usual case: the idle snapshot comes
		// long before the idle hibernation). Nothing to capture or write.
		c.guest.Close()
		c.guest = nil
		m.dropped(c)
		c.mu.Lock()
		c.hib.hibernated, c.hib.fromRecord, c.hib.notice = true, true, ""
		c.mu.Unlock()
		m.log.Debug("context hibernated (its snapshot was current)", "contextId", c.id)
		m.emit(EventHibernated, c.id)
		return false, nil
	}
	if fc, ok := c.guest.(wasmexec.FileCapturer); ok && durable {
		// Straight into the record, as a snapshot is written (no copy of a
		// large state through the heap); the guest is closed once the
		// record is written (in place, or staged for its commit), and
		// stays live if it can't be.
		now := m.cfg.Now()
		capture := func(w io.WriterAt) (int64, error) { return fc.CaptureTo(ctx, true, w) }
		var size int64
		if later != nil && !c.shared {
			// (A shared context's record is saved in the cluster's store
			// too, on the hibernation's path.)
			var rec *stagedRecord
			if rec, err = m.stageRecord(c, now, capture); err == nil {
				if m.commits.tryStage(rec) {
					m.hibernateStaged(c, rec, now, later)
					return true, nil
				}
				// Too much waits for the committer already: this one is
				// committed now, on this path.
				err, size = rec.install(true), rec.size
				rec.close()
			}
			err = m.recorded(c, rec, err)
		} else {
			size, err = m.writeRecordWith(c, now, capture)
		}
		if wasmexec.ErrorCode(err) == wasmexec.EConflict {
			m.note(c, "not hibernated: "+err.Error())
			return false, err
		}
		if err != nil {
			return false, wasmexec.Errorf(wasmexec.EInternal, "context %s stays live: its snapshot could not be written: %v", c.id, err)
		}
		c.guest.Close()
		m.hibernated(c, now, size, nil, "")
		return false, nil
	}
	capt, ok := c.guest.(wasmexec.Capturer)
	if !ok {
		return false, wasmexec.Errorf(wasmexec.EConflict, "the guest of context %s can't be captured", c.id)
	}
	st, err := capt.Capture(ctx, false)
	if err != nil {
		m.note(c, "not hibernated: "+err.Error())
		return false, err
	}
	now := m.cfg.Now()
	notice := ""
	if durable {
		if err := m.writeRecord(c, st, now); err != nil {
			// The context stays live: its guest comes back from the state
			// just taken (cheaper, on the common path, than keeping the
			// guest until the write is done and closing it then).
			g, rerr := m.restoreGuest(ctx, c, st)
			if rerr == nil {
				c.guest = g
				m.usedGuest(c)
				return false, wasmexec.Errorf(wasmexec.EInternal, "context %s stays live: its snapshot could not be written: %v", c.id, err)
			}
			m.log.Error("a context whose snapshot could not be written could not be restored either; its state is kept in memory", "contextId", c.id, "err", rerr)
			durable, notice = false, "hibernated in memory: its snapshot could not be written: "+err.Error()
		}
	}
	size := int64(len(st))
	if durable {
		st = nil // its record holds it
	}
	m.hibernated(c, now, size, st, notice)
	return false, nil
}

// hibernated marks c hibernated with a state of size bytes taken at asOf,
// in its record, or in memory (pending) when its record can't hold it.
// Its guest is closed. Slot held.
func (m *Manager) hibernated(c *execContext, asOf time.Time, size int64, pending []byte, notice string) {
	c.guest = nil
	m.dropped(c)
	c.mu.Lock()
	c.hib.hibernated, c.hib.dirty, c.hib.notice = true, false, notice
	c.hib.snapBytes, c.hib.stateAsOf = size, asOf
	c.hib.fromRecord, c.hib.pending = pending == nil, pending
	c.mu.Unlock()
	m.log.Debug("context hibernated", "contextId", c.id, "snapshotBytes", size)
	m.emit(EventHibernated, c.id)
}

// snapshot writes the state of c's live guest into its record; without a
// guest yet (unpinned), a record without state, for a shared context whose
// files changed (its workspace is saved with it). Slot held.
func (m *Manager) snapshot(ctx context.Context, c *execContext) error {
	if c.guest == nil && c.family.Name == "" {
		c.mu.Lock()
		changed := c.hib.wsDirty
		c.mu.Unlock()
		if !changed {
			return nil
		}
		_, err := m.writeRecordWith(c, m.cfg.Now(), nil)
		return err
	}
	if c.guest == nil || !c.guest.Alive() {
		return nil
	}
	if why := m.capturable(c); why != "" {
		m.note(c, why)
		return nil
	}
	// The guest is entered again after its capture, which maps pages of
	// its image again: an idle guest is trimmed again at once (a snapshot
	// of hundreds of idle contexts took RSS up by ~10 MiB each, faster
	// than the governor trimmed them).
	defer m.trimIdle(c)
	now := m.cfg.Now()
	var size int64
	if fc, ok := c.guest.(wasmexec.FileCapturer); ok {
		// Straight into the record file: the guest stays suspended while
		// it is written (its slot is held anyway), and a large state is
		// not copied through the heap on its way.
		var err error
		size, err = m.writeRecordWith(c, now, func(w io.WriterAt) (int64, error) { return fc.CaptureTo(ctx, true, w) })
		if wasmexec.ErrorCode(err) == wasmexec.EConflict {
			m.note(c, "not snapshotted: "+err.Error())
		}
		if err != nil {
			return err
		}
	} else {
		capt, ok := c.guest.(wasmexec.Capturer)
		if !ok {
			return nil
		}
		st, err := capt.Capture(ctx, true)
		if err != nil {
			m.note(c, "not snapshotted: "+err.Error())
			return err
		}
		if err := m.writeRecord(c, st, now); err != nil {
			return err
		}
		size = int64(len(st))
	}
	c.mu.Lock()
	c.hib.dirty, c.hib.notice, c.hib.fromGuest = false, "", true
	c.hib.snapBytes, c.hib.stateAsOf = size, now
	c.mu.Unlock()
	return nil
}

// note records why c was not captured, and backs off before the next try.
func (m *Manager) note(c *execContext, why string) {
	c.mu.Lock()
	c.hib.notice = why
	c.hib.retryAt = m.cfg.Now().Add(m.retryDelay())
	c.mu.Unlock()
}

func (m *Manager) retryDelay() time.Duration {
	return max(m.cfg.SnapshotAfter, m.cfg.HibernateAfter/4, time.Second)
}

// IdleWork snapshots the contexts idle for SnapshotAfter since a run that
// changed them and hibernates those idle for HibernateAfter. The
// background loop calls it; it returns how many it hibernated.
func (m *Manager) IdleWork() int {
	now := m.cfg.Now()
	m.mu.Lock()
	all := slices.Collect(maps.Values(m.ctxs))
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return 0
	}
	n := 0
	for _, c := range all {
		c.mu.Lock()
		idle := now.Sub(c.lastUsed)
		pinned := c.family.Name != ""
		ok := c.state == wasmexec.ContextIdle && !c.hib.hibernated && !now.Before(c.hib.retryAt)
		hib := ok && pinned && m.cfg.HibernateAfter > 0 && idle >= m.cfg.HibernateAfter
		snap := ok && !hib && m.cfg.StateDir != "" && m.cfg.SnapshotAfter > 0 && (pinned && c.hib.dirty || c.hib.wsDirty) && idle >= m.cfg.SnapshotAfter
		c.mu.Unlock()
		if !hib && !snap || !c.tryAcquire() {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), guestStartTimeout)
		if hib {
			if err := m.hibernate(ctx, c); err == nil {
				n++
			} else {
				m.log.Info("context not hibernated", "contextId", c.id, "reason", err)
			}
		} else if err := m.snapshot(ctx, c); err != nil {
			m.log.Info("context not snapshotted", "contextId", c.id, "reason", err)
		}
		cancel()
		c.release()
	}
	return n
}

// Fork makes a new context with the state of context id (its guest
// captured between runs, after the runs queued before the fork) and a copy
// of its workspace; the two are independent afterwards. The fork's guest
// draws fresh entropy. Errors: context_not_found, invalid_argument (the new
// id), context_conflict (it exists), conflict (the source is failed, or
// its guest can't be captured now), overloaded, payload_too_large (the
// copy is over the workspace quota), internal.
func (m *Manager) Fork(ctx context.Context, id string, spec *wasmexec.ForkSpec) (*wasmexec.Context, error) {
	src, err := m.lookup(id)
	if err != nil {
		return nil, err
	}
	if spec == nil {
		spec = &wasmexec.ForkSpec{}
	}
	if err := src.acquire(ctx, m.cfg.QueueDepth, inLine); err != nil {
		return nil, err
	}
	defer src.release()
	src.mu.Lock()
	st, lang := src.state, src.language
	src.mu.Unlock()
	if st == wasmexec.ContextFailed {
		return nil, wasmexec.Errorf(wasmexec.EConflict, "context %s is failed; reset it before forking", id)
	}
	if st == wasmexec.ContextDeleting {
		return nil, notFound(id)
	}
	if err := m.wake(ctx, src); err != nil {
		return nil, err
	}
	var restore func(context.Context, wasmexec.GuestSpec) (wasmexec.Guest, error)
	if src.guest != nil {
		if why := m.capturable(src); why != "" {
			return nil, wasmexec.Errorf(wasmexec.EConflict, "context %s can't be forked now: %s", id, why)
		}
		f, err := m.captureToTemp(ctx, src)
		m.usedGuest(src)
		if err != nil {
			return nil, err
		}
		if f != nil {
			defer f.Close() // the fork's mapping holds the file by itself
			restore = func(ctx context.Context, gs wasmexec.GuestSpec) (wasmexec.Guest, error) {
				return m.cfg.Runner.RestoreGuestFile(ctx, gs, f, 0)
			}
		} else {
			capt, ok := src.guest.(wasmexec.Capturer)
			if !ok {
				return nil, wasmexec.Errorf(wasmexec.EConflict, "the guest of context %s can't be captured", id)
			}
			state, err := capt.Capture(ctx, true)
			if err != nil {
				return nil, err
			}
			restore = func(ctx context.Context, gs wasmexec.GuestSpec) (wasmexec.Guest, error) {
				return m.cfg.Runner.RestoreGuest(ctx, gs, state)
			}
		}
	}
	if usage, err := src.ws.Check(ctx); err == nil && src.ws.Quota > 0 && usage.Over() {
		return nil, wasmexec.Errorf(wasmexec.ETooLarge, "the workspace of context %s is over its quota; it can't be copied", id)
	}
	// The fork keeps the source's network and secrets like everything
	// else: its guest's env holds their placeholders, as the source's did
	// when its state was captured.
	cs := &wasmexec.ContextSpec{ContextID: spec.ContextID, Language: lang, Env: src.env, Network: src.network, Secrets: src.secrets, Limits: wasmexec.Limits{MemoryBytes: src.memory}}
	return m.create(ctx, cs, func(ctx context.Context, c *execContext) (wasmexec.Guest, error) {
		if err := src.ws.CopyTo(c.ws); err != nil {
			return nil, fmt.Errorf("copy the workspace: %w", err)
		}
		if restore == nil {
			if c.family.Name == "" {
				return nil, nil
			}
			return m.startGuest(ctx, c)
		}
		if err := m.admit(ctx, c, 0); err != nil {
			return nil, err
		}
		g, err := restore(ctx, c.guestSpec())
		if err != nil {
			m.dropped(c)
			return nil, err
		}
		c.mu.Lock()
		c.hib.dirty = true // its record gets the state at the next snapshot
		c.mu.Unlock()
		return g, nil
	})
}
