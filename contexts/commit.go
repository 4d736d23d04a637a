package contexts

// Group commit of the records of hibernations for the memory budget
// (docs/RATIONALE.md "Memory budget").
//
// A hibernation's cost is mostly its record's fsyncs (the file's, then
// the directory's): ~5 ms each on an idle disk, hundreds of ms on a busy
// one, and a request that hibernates a context to make room for its own
// paid them. So a hibernation for the budget writes the guest's state
// into a temporary file beside its record and closes the guest: its
// memory is free at once, and the request goes on. The committer then
// makes the records durable together: it fsyncs the waiting files side
// by side (the file system commits them in a few journal commits, not
// one each), renames each into place, and fsyncs the directory once.
//
// Only then is the context hibernated: its record is in place and
// durable, EventHibernated is emitted, the eviction counted. Until then
// its slot stays held by its commit, so a run for it waits for the commit
// and wakes it from its record, and nothing else writes that record. A
// kill -9 before the commit leaves the temporary file, dropped at
// start-up, and the old record: the context comes back as any context
// live at the kill does, from its last snapshot. A commit that fails
// brings the guest back from the file it was written to (mapped, not
// copied): the context stays live, and says why, as when the write
// itself fails.

import (
	"context"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec"
)

const (
	// maxStagedBytes bounds the records written and waiting for their
	// commit (dirty pages for the kernel to write; a JS context's record
	// is ~50 KiB, a Python one's ~0.6 MiB): past it, a hibernation
	// commits its own record, as if there were no committer, so a disk
	// slower than the hibernations slows them down. Batches of 25-50
	// records took 100-400 ms to fsync on the shared build machine's busy
	// disk (sometimes 2 s), so the committer kept up with ~150 records/s
	// there; a bound of 64 records sent 5% of a round robin's
	// hibernations down the slow path, and larger batches commit more per
	// fsync.
	maxStagedBytes = 64 << 20
	// commitSyncs bounds the fsyncs of one batch in flight at once.
	commitSyncs = 16
)

// committer commits staged records in batches (Manager.commits).
type committer struct {
	mu      sync.Mutex
	idle    sync.Cond // signalled when the queue is empty and nothing runs
	queue   []*commit
	running bool
	staged  int64 // bytes of the records staged and not yet committed
}

func (q *committer) init() { q.idle.L = &q.mu }

// commit is a staged record waiting for its commit, and what to do then.
type commit struct {
	rec  *stagedRecord
	then func(error) // called once the record is in place and durable, or with why not
}

// tryStage counts rec among the records waiting for their commit, unless
// that would pass maxStagedBytes (false: rec is not counted).
func (q *committer) tryStage(rec *stagedRecord) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := rec.head + rec.size
	if q.staged > 0 && q.staged+n > maxStagedBytes {
		return false
	}
	q.staged += n
	return true
}

// unstage stops counting rec (committed, or not).
func (q *committer) unstage(rec *stagedRecord) {
	q.mu.Lock()
	q.staged -= rec.head + rec.size
	q.mu.Unlock()
}

// commitLater hands rec to the committer, which calls then from its own
// goroutine once rec is in place and durable, or with why not (rec was
// not put in place). rec was counted with tryStage.
func (m *Manager) commitLater(rec *stagedRecord, then func(error)) {
	q := &m.commits
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queue = append(q.queue, &commit{rec: rec, then: then})
	if !q.running {
		q.running = true
		m.wg.Go(m.commitLoop)
	}
}

// commitLoop commits the waiting records, a batch at a time, until none
// is left.
func (m *Manager) commitLoop() {
	q := &m.commits
	for {
		q.mu.Lock()
		batch := q.queue
		q.queue = nil
		if len(batch) == 0 {
			q.running = false
			q.idle.Broadcast()
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
		errs := make([]error, len(batch))
		var wg sync.WaitGroup
		sem := make(chan struct{}, commitSyncs)
		for i, cm := range batch {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				errs[i] = cm.rec.f.Sync()
			})
		}
		wg.Wait()
		placed := false
		for i, cm := range batch {
			if errs[i] == nil {
				errs[i] = cm.rec.place()
				placed = placed || errs[i] == nil
			}
		}
		if placed {
			syncDir(m.cfg.StateDir)
		}
		for i, cm := range batch {
			cm.then(errs[i])
			cm.rec.close()
			q.unstage(cm.rec)
		}
	}
}

// waitCommits returns once no record is waiting for its commit.
func (m *Manager) waitCommits() {
	q := &m.commits
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.running || len(q.queue) > 0 {
		q.idle.Wait()
	}
}

// hibernateStaged hibernates c whose state rec holds, staged: its guest
// is closed now, and its record committed later (the file comment). The
// slot is the commit's from now on: once the commit is over, done is
// called with the outcome (nil: c is hibernated; else c is live again,
// or hibernated in memory when its guest could not come back), then the
// slot is released. rec was counted with tryStage. Slot held.
func (m *Manager) hibernateStaged(c *execContext, rec *stagedRecord, asOf time.Time, done func(error)) {
	c.guest.Close()
	c.guest = nil
	m.dropped(c)
	m.commitLater(rec, func(err error) {
		defer c.release()
		if err = m.recorded(c, rec, err); err == nil {
			m.hibernated(c, asOf, rec.size, nil, "")
			done(nil)
			return
		}
		m.unstaged(c, rec, asOf)
		done(wasmexec.Errorf(wasmexec.EInternal, "context %s stays live: its snapshot could not be written: %v", c.id, err))
	})
}

// unstaged gives c, whose record rec could not be committed, its guest
// back from rec's file (its state, just written); when it can't come
// back, c is hibernated with the state in memory. Slot held.
func (m *Manager) unstaged(c *execContext, rec *stagedRecord, asOf time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), guestStartTimeout)
	defer cancel()
	m.recount(c, rec.size)
	g, err := m.cfg.Runner.RestoreGuestFile(ctx, c.guestSpec(), rec.f, rec.head)
	if err == nil {
		c.guest = g
		return
	}
	m.dropped(c)
	st := make([]byte, rec.size)
	if _, rerr := rec.f.ReadAt(st, rec.head); rerr != nil {
		// Nothing is left of its state: it restarts fresh at its next run,
		// from the record it had (wake).
		m.log.Error("a context whose snapshot could not be written could not be restored or read back either; it comes back from its last record", "contextId", c.id, "err", err, "readErr", rerr)
		c.mu.Lock()
		c.hib.hibernated, c.hib.fromRecord, c.hib.pending = true, true, nil
		c.hib.notice = "restored from its last snapshot: a later one could not be written: " + rerr.Error()
		c.mu.Unlock()
		return
	}
	m.log.Error("a context whose snapshot could not be written could not be restored either; its state is kept in memory", "contextId", c.id, "err", err)
	m.hibernated(c, asOf, rec.size, st, "hibernated in memory: its snapshot could not be written")
}
