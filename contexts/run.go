package contexts

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

// Run executes req in the guest of context req.ContextID, after the runs
// queued before it. A guest failure is in the Result (with contextReset
// when the guest was replaced). Errors: context_not_found,
// context_language_mismatch, invalid_argument (including env or
// limits.memoryBytes different from the context's), conflict (the context
// is failed), overloaded (queue full, no run slot), payload_too_large
// (files over the quota).
func (m *Manager) Run(ctx context.Context, req *wasmexec.Request) (*wasmexec.Result, error) {
	c, err := m.lookup(req.ContextID)
	if err != nil {
		return nil, err
	}
	family, err := m.cfg.Runner.Family(req.Language)
	if err != nil {
		return nil, err
	}
	if err := c.sameFamily(req.Language, family); err != nil {
		return nil, err
	}
	if len(req.Env) > 0 && !maps.Equal(req.Env, c.env) {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "env is fixed when a context is created; omit it in runs of context %s (or send exactly the same)", c.id)
	}
	if len(req.Secrets) > 0 && !maps.EqualFunc(req.Secrets, c.secrets, sameSecret) {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "secrets are fixed when a context is created; omit them in runs of context %s", c.id)
	}
	req.Secrets = c.secrets
	if req.Network == nil {
		req.Network = c.network
	}
	if req.Limits.MemoryBytes != 0 && req.Limits.MemoryBytes != c.memory {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "limits.memoryBytes is fixed when a context is created (%d for context %s); omit it in runs", c.memory, c.id)
	}
	for p := range req.Files {
		if clean, err := vfs.Clean(p); err != nil {
			return nil, err
		} else if clean == "" {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "files: a file path is required")
		}
	}
	queued := time.Now()
	if err := c.acquire(ctx, m.cfg.QueueDepth, inLine); err != nil {
		return nil, err
	}
	res, replace, err := m.run(ctx, c, req, family, queued)
	if !replace {
		c.release()
		return res, err
	}
	// The guest was stopped: replace it before the next run takes the
	// slot, off this request's path.
	m.wg.Go(func() {
		defer c.release()
		if err := m.replaceGuest(c); err != nil && wasmexec.ErrorCode(err) != wasmexec.EContextNotFound {
			m.log.Error("replace a context guest", "contextId", c.id, "err", err)
		}
	})
	return res, err
}

// run is one run in c, the context's slot held; the run lifecycle takes a
// global run slot. replace says the guest must be replaced (it is then
// already discarded and the state is resetting).
func (m *Manager) run(ctx context.Context, c *execContext, req *wasmexec.Request, family wasmexec.Family, queued time.Time) (res *wasmexec.Result, replace bool, err error) {
	c.mu.Lock()
	if c.state == wasmexec.ContextDeleting { // deleted while this run took its turn
		c.mu.Unlock()
		return nil, false, notFound(c.id)
	}
	if c.state == wasmexec.ContextFailed {
		msg := "the guest died"
		if c.failure != nil {
			msg = c.failure.Message
		}
		c.mu.Unlock()
		return nil, false, wasmexec.Errorf(wasmexec.EConflict, "context %s is failed (%s); reset it with POST /v1/contexts/%s/reset", c.id, msg, c.id)
	}
	if err := c.to(wasmexec.ContextRunning); err != nil {
		c.mu.Unlock()
		return nil, false, err
	}
	now := m.cfg.Now()
	c.lastStarted, c.lastUsed = now, now
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.cancel = cancel
	c.mu.Unlock()

	// finish records the end of the run (state, times) in every case.
	var failed *wasmexec.ErrorData
	finish := func() {
		m.usedGuest(c)
		m.wsChanged(c)
		c.mu.Lock()
		defer c.mu.Unlock()
		c.cancel = nil
		now := m.cfg.Now()
		c.lastUsed = now
		c.hib.dirty = true // even a run that failed may have changed the guest: snapshot it again
		if res != nil {
			c.runs++
			c.lastCompleted = now
		}
		if c.state != wasmexec.ContextRunning {
			return // a reset or delete took over
		}
		switch {
		case failed != nil:
			c.failure = failed
			c.to(wasmexec.ContextFailed)
		case replace:
			c.to(wasmexec.ContextResetting)
		default:
			c.to(wasmexec.ContextIdle)
		}
	}
	defer finish()

	if err := c.sameFamily(req.Language, family); err != nil { // pinned while this run waited
		return nil, false, err
	}
	if c.family.Name == "" {
		if err := m.pin(ctx, c, req.Language, family); err != nil {
			return nil, false, err
		}
	}
	if err := m.wake(ctx, c); err != nil {
		return nil, false, err
	}
	if c.guest == nil || (!c.guest.Alive() && c.guest.ProtocolViolation() == "") {
		// A guest dies only during a run; one found dead while parked is
		// an unexpected death. (One the host stopped for breaking the
		// control protocol after its last run goes on: this run fails on
		// it and the guest is replaced, below.)
		if c.guest != nil {
			m.discard(c.guest)
			c.guest = nil
			m.dropped(c)
		}
		failed = &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Name: "GuestError", Message: "the guest died while idle"}
		return nil, false, wasmexec.Errorf(wasmexec.EConflict, "context %s is failed (%s); reset it with POST /v1/contexts/%s/reset", c.id, failed.Message, c.id)
	}

	if _, inFiles := req.Files[req.TsconfigPath]; req.TsconfigPath != "" && !inFiles {
		// The host's TypeScript transpile reads it too (a missing or
		// unreadable file is the guest's to report).
		if b, err := c.ws.ReadFile(req.TsconfigPath); err == nil {
			r := *req
			r.Tsconfig = string(b)
			req = &r
		}
	}
	var snap *vfs.Snapshot
	seeded := false
	res, err = m.cfg.Runner.Run(runCtx, req, wasmexec.RunOptions{
		Guest:    c.guest,
		QueuedAt: queued,
		Log:      wasmexec.LiveOutput(ctx), // a streamed run's

		Seed: func(ctx context.Context) error {
			s, err := m.beforeRun(ctx, c, req.Files)
			snap, seeded = s, err == nil
			return err
		},
		Quota: m.runQuota(c),
		Settle: func(res *wasmexec.Result) {
			if !c.guest.Alive() {
				// The host stopping a driver that broke the protocol is a
				// reason wasmexec caused: replace the guest, don't fail.
				violated := c.guest.ProtocolViolation() != ""
				m.discard(c.guest)
				c.guest = nil
				m.dropped(c)
				preempted := errors.Is(context.Cause(runCtx), errPreempted)
				switch {
				case !preempted && !violated && res.Outcome == wasmexec.Failed && res.Error != nil && res.Error.Code == wasmexec.CodeInternal:
					failed = res.Error
				default:
					res.ContextReset = true
					replace = !preempted
				}
			}
			if seeded {
				m.afterRun(c, snap, res)
			}
		},
	})
	return res, replace, err
}

// sameFamily refuses a language of another guest family than c's
// (context_language_mismatch); an unpinned context takes any.
func (c *execContext) sameFamily(lang wasmexec.Language, family wasmexec.Family) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.family.Name == "" || c.family.Name == family.Name {
		return nil
	}
	return wasmexec.Errorf(wasmexec.ELanguageMismatch, "context %s runs %s in the %s guest; %s runs in the %s guest: use another context", c.id, c.language, c.family.Name, lang, family.Name)
}

// pin fixes an unpinned context to the family of its first run's language
// and starts its guest. Slot held.
func (m *Manager) pin(ctx context.Context, c *execContext, lang wasmexec.Language, family wasmexec.Family) error {
	if c.memory < family.MinMemoryBytes {
		return wasmexec.Errorf(wasmexec.EInvalid, "context %s has limits.memoryBytes %d, below the %d bytes the %s guest needs", c.id, c.memory, family.MinMemoryBytes, lang)
	}
	c.mu.Lock()
	c.language, c.family = lang, family
	c.mu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, guestStartTimeout)
	g, err := m.startGuest(sctx, c)
	cancel()
	if err != nil {
		c.mu.Lock()
		c.language, c.family = "", wasmexec.Family{}
		c.mu.Unlock()
		return fmt.Errorf("start the %s guest of context %s: %w", family.Name, c.id, err)
	}
	c.guest = g
	m.log.Debug("context pinned", "contextId", c.id, "language", lang)
	return nil
}

// runQuotaFactor and runQuotaSlack say how far past its quota a context
// run may take the workspace before it is stopped (twice the quota, and
// at least the quota plus the slack): below that, the run ends normally
// and its excess is rolled back (the guest and its state stay); past it,
// the writer is stopped at once (the guest is replaced). Either way the
// workspace ends within its quota. The bound must not depend on when the
// watch happens to poll a short run, so small quotas get the slack.
const (
	runQuotaFactor = 2
	runQuotaSlack  = 16 << 20
)

// runQuota is the check a context run's writes are watched with.
func (m *Manager) runQuota(c *execContext) wasmexec.QuotaCheck {
	if c.ws.Quota <= 0 && c.ws.MaxFiles <= 0 {
		return nil
	}
	loose := *c.ws
	if loose.Quota > 0 {
		loose.Quota = max(runQuotaFactor*loose.Quota, loose.Quota+runQuotaSlack)
	}
	loose.MaxFiles *= runQuotaFactor
	return loose.Watch("the run")
}

// ProcessQuota is the check a process in context id's workspace is
// watched with: it is stopped once the workspace is over its quota (its
// files stay; uploads are refused until the workspace is within it
// again). Errors: context_not_found.
func (m *Manager) ProcessQuota(id string) (wasmexec.QuotaCheck, error) {
	c, err := m.lookup(id)
	if err != nil {
		return nil, err
	}
	if c.ws.Quota <= 0 && c.ws.MaxFiles <= 0 {
		return nil, nil
	}
	ws := c.ws
	watch := ws.Watch("the process")
	return func() *wasmexec.ErrorData {
		ws.GuestWriting() // polled while the process runs: no kept usage meanwhile
		return watch()
	}, nil
}

// beforeRun writes the run's files (as uploads: within the quota, never
// rolled back) and snapshots the workspace when a quota is enforced.
func (m *Manager) beforeRun(ctx context.Context, c *execContext, files map[string]string) (_ *vfs.Snapshot, err error) {
	c.wsMu.Lock()
	defer c.wsMu.Unlock()
	defer func() {
		if err == nil {
			c.ws.GuestStarted() // until afterRun's GuestStopped: the guest writes as it likes
		} else {
			c.ws.Forget()
		}
	}()
	if len(files) > 0 {
		c.snap = nil
		if err := c.ws.Seed(ctx, files); err != nil {
			return nil, err
		}
	}
	if c.ws.Quota <= 0 {
		return nil, nil
	}
	if c.snap == nil {
		s, err := c.ws.Snapshot()
		if err != nil {
			return nil, err
		}
		c.snap = s
	}
	c.inRun, c.runUploads = true, nil
	return c.snap, nil
}

// afterRun enforces the quota: a run that left the workspace over it fails
// with quota_exceeded and the bytes it added are rolled back.
func (m *Manager) afterRun(c *execContext, snap *vfs.Snapshot, res *wasmexec.Result) {
	c.ws.GuestStopped()
	if snap == nil {
		return
	}
	c.wsMu.Lock()
	defer c.wsMu.Unlock()
	uploads := c.runUploads
	c.inRun, c.runUploads, c.snap = false, nil, nil
	post, err := c.ws.Snapshot()
	if err != nil {
		m.log.Error("check workspace quota", "contextId", c.id, "err", err)
		return
	}
	if post.Usage() <= c.ws.Quota {
		c.snap = post // the next run's "before", until a file call
		return
	}
	rep, err := c.ws.Rollback(snap, func(p string) bool { return uploads[p] })
	if err != nil {
		m.log.Error("roll back a run over quota", "contextId", c.id, "err", err)
	}
	details := map[string]any{"quotaBytes": c.ws.Quota, "usedBytes": post.Usage()}
	if rep != nil {
		details["removed"], details["truncated"], details["usedBytesAfterRollback"] = rep.Removed, rep.Truncated, rep.UsedBytes
	}
	if res.Error != nil {
		details["runError"] = res.Error
	}
	res.Outcome = wasmexec.Failed
	res.Value = nil
	res.Error = &wasmexec.ErrorData{
		Code: wasmexec.CodeQuotaExceeded, Name: "QuotaExceededError", Details: details,
		Message: "the run left the workspace over its quota; the files it created were removed and the files it grew were cut back",
	}
	if res.Kind == wasmexec.KindExecute && res.ExitCode == 0 {
		res.ExitCode = 1
	}
}

func sameSecret(a, b wasmexec.Secret) bool {
	return a.Value == b.Value && slices.Equal(a.Hosts, b.Hosts)
}
