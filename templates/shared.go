package templates

// Shared templates: in a cluster (Config.Shared, package cluster) the
// templates' rows in PostgreSQL are the truth and this manager's table is
// a cache of them.
//
//   - Create inserts the row, claimed by this node (the cluster checks the
//     tenant's maxTemplates in the same transaction), then builds here.
//     The builder renews its lease every quarter of it; a build whose node
//     died is taken over by any node once its lease is over (the sweep
//     below, or a run that waits for it). Every write of a build is fenced
//     by its generation: a build that lost its claim (deleted, taken over)
//     keeps nothing.
//   - A build that ends stores its capture (the record and workspace it
//     made here) in the cluster, the tenant's maxTemplateBytes checked
//     under the cluster's lock of the tenant; the builder keeps its own
//     files as its cache.
//   - Get, List, Delete and Open read the row: another node's create,
//     rebuild or delete is seen at once. Open of a ready template whose
//     capture (by its SHA-256) is not here fetches it once (a run meanwhile
//     waits for that fetch) into Dir/cache; a capture that fails its
//     checksum is never used: the template is rebuilt from its recipe, as
//     one whose state the engine refused.
//   - Implicit templates have ids made from their key, so every node asking
//     for a set finds the same row: one node builds it, the others fetch it.
//     A node whose fetch failed (or was refused, the rebuild claimed by
//     another) looks the set up again at a later run, after a wait doubled
//     at each failure in a row (1 s up to a minute); runs meanwhile go
//     without it. Each node evicts the copies it holds, least recently
//     used first, and an eviction deletes the template for the whole
//     cluster.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/wasmexec/wasmexec"
)

// Shared is the cluster's record of templates (cluster.Cluster).
type Shared interface {
	NodeID() string
	TemplateLease() time.Duration
	CreateTemplate(ctx context.Context, t *wasmexec.SharedTemplate, maxTemplates int64) error
	GetTemplate(ctx context.Context, id string) (*wasmexec.SharedTemplate, error)
	ListTemplates(ctx context.Context, tenant string, all bool) ([]*wasmexec.SharedTemplate, error)
	ClaimTemplateBuild(ctx context.Context, id string, gen int64, rebuild bool, meta []byte) (int64, error)
	RenewTemplateBuild(ctx context.Context, id string, gen int64) (bool, error)
	FailTemplate(ctx context.Context, id string, gen int64, meta []byte) (bool, error)
	StoreTemplate(ctx context.Context, t *wasmexec.SharedTemplate, gen int64, record *io.SectionReader, ws string, admit func(used int64) error) (string, error)
	FetchTemplate(ctx context.Context, id, sum, dir string) (refused string, err error)
	DeleteTemplate(ctx context.Context, id string) (bool, error)
	StaleTemplateBuilds(ctx context.Context, limit int) ([]*wasmexec.SharedTemplate, error)
}

const (
	// sharedWait is how often a run waiting for another node's build reads
	// the template's row again.
	sharedWait = 200 * time.Millisecond
	// sharedTimeout bounds one write of a build's end to the cluster.
	sharedTimeout = 2 * time.Minute
	// staleBuildsPerSweep bounds the builds one sweep takes over.
	staleBuildsPerSweep = 2
)

// metaOf encodes t's recipe and descriptor for its row. m.mu held.
func metaOf(t *tmpl) []byte {
	b, _ := json.Marshal(recordMeta{Template: t.d, Tenant: t.d.Tenant, Spec: t.spec, Key: t.key, MaxBytes: t.quota})
	return b
}

// fromRow decodes a row's recipe and descriptor.
func fromRow(r *wasmexec.SharedTemplate) (*recordMeta, error) {
	var meta recordMeta
	if err := json.Unmarshal(r.Meta, &meta); err != nil {
		return nil, wasmexec.Errorf(wasmexec.EInternal, "template %s: its row can't be read: %v", r.ID, err)
	}
	meta.Template.TemplateID, meta.Template.State, meta.Template.Tenant, meta.Template.Builds = r.ID, r.State, r.Tenant, r.Builds
	if r.State != wasmexec.TemplateReady {
		meta.Template.StateBytes, meta.Template.WorkspaceBytes = 0, 0
	}
	return &meta, nil
}

// row reads template id's row for the caller's tenant (another's is
// template_not_found).
func (m *Manager) row(ctx context.Context, id string) (*wasmexec.SharedTemplate, *recordMeta, error) {
	if !idPattern.MatchString(id) {
		return nil, nil, notFound(id)
	}
	r, err := m.cfg.Shared.GetTemplate(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if tn := wasmexec.TenantID(ctx); r == nil || (tn != "" && r.Tenant != tn) {
		if r == nil {
			m.forget(id)
		}
		return nil, nil, notFound(id)
	}
	meta, err := fromRow(r)
	if err != nil {
		return nil, nil, err
	}
	return r, meta, nil
}

// forget drops this node's copy of a template deleted elsewhere.
func (m *Manager) forget(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.byID[id]; t != nil && !t.deleted {
		m.deleteLocked(t)
	}
}

// describeShared is a row's descriptor, with this node's count of runs.
func (m *Manager) describeShared(meta *recordMeta) *wasmexec.Template {
	d := meta.Template
	if d.Packages == nil {
		d.Packages = []wasmexec.TemplatePackage{}
	}
	m.mu.Lock()
	if t := m.byID[d.TemplateID]; t != nil && !t.deleted {
		d.Runs, d.LastUsedAtMs = t.d.Runs, t.d.LastUsedAtMs
	}
	m.mu.Unlock()
	return &d
}

// localLocked returns this node's entry of a row's template, made from
// the row when there is none. m.mu held.
func (m *Manager) localLocked(r *wasmexec.SharedTemplate, meta *recordMeta) *tmpl {
	if t := m.byID[r.ID]; t != nil && !t.deleted {
		return t
	}
	t := &tmpl{d: meta.Template, spec: meta.Spec, key: meta.Key, quota: meta.MaxBytes, gen: r.Generation}
	m.byID[r.ID] = t
	if t.key != "" {
		if o := m.implicit[t.key]; o != nil && o != t {
			m.deleteLocked(o)
		}
		m.implicit[t.key] = t
	}
	return t
}

// createShared inserts t's row (claimed by this node) and builds it here.
func (m *Manager) createShared(ctx context.Context, t *tmpl) (*wasmexec.Template, error) {
	maxTemplates := int64(-1)
	if tn := wasmexec.TenantFrom(ctx); tn != nil && tn.Quotas.MaxTemplates != nil && !t.d.Implicit {
		maxTemplates = *tn.Quotas.MaxTemplates
	}
	r := &wasmexec.SharedTemplate{ID: t.d.TemplateID, Tenant: t.d.Tenant, Implicit: t.d.Implicit, Meta: metaOf(t), CreatedAtMs: t.d.CreatedAtMs}
	if err := m.cfg.Shared.CreateTemplate(ctx, r, maxTemplates); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if o := m.byID[t.d.TemplateID]; o != nil && !o.deleted {
		m.deleteLocked(o) // a copy of a template of that id deleted elsewhere
	}
	t.gen = r.Generation
	m.byID[t.d.TemplateID] = t
	if t.key != "" {
		m.implicit[t.key] = t
	}
	if m.closed {
		return describe(t), nil // its lease runs out; another node builds it
	}
	m.startBuildLocked(t, ctx)
	return describe(t), nil
}

// claimShared claims the build of row r (building with its lease over,
// or, when rebuild, ready with a capture that can't be used) and builds
// it here; reason is its notice. Nothing when another node was quicker.
func (m *Manager) claimShared(ctx context.Context, r *wasmexec.SharedTemplate, meta *recordMeta, rebuild bool, reason string) error {
	next := *meta
	next.Template.State, next.Template.Error, next.Template.Notice = wasmexec.TemplateBuilding, nil, "rebuilt: "+reason
	b, _ := json.Marshal(next)
	gen, err := m.cfg.Shared.ClaimTemplateBuild(ctx, r.ID, r.Generation, rebuild, b)
	if err != nil || gen == 0 {
		return err
	}
	m.log.Warn("this node builds a template again from its recipe", "templateId", r.ID, "reason", reason, "generation", gen)
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.localLocked(r, meta)
	if t.done != nil && t.cancel != nil {
		t.cancel() // a build of an older generation here: it keeps nothing
	}
	if rebuild && t.cur != nil && t.cur.sum == r.Sum {
		m.retireLocked(t)
	}
	t.gen, t.d.Notice = gen, next.Template.Notice
	if m.closed {
		return nil
	}
	m.startBuildLocked(t, nil)
	return nil
}

// renewShared renews the lease of t's build at gen every quarter of it
// until ctx ends; a build no longer this node's is stopped.
func (m *Manager) renewShared(ctx context.Context, t *tmpl, gen int64, stop context.CancelFunc) {
	every := m.cfg.Shared.TemplateLease() / 4
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		rctx, cancel := context.WithTimeout(ctx, every)
		ok, err := m.cfg.Shared.RenewTemplateBuild(rctx, t.d.TemplateID, gen)
		cancel()
		if err == nil && !ok {
			m.log.Warn("a template build is no longer this node's (deleted, or taken over); it is stopped", "templateId", t.d.TemplateID, "generation", gen)
			stop()
			return
		}
	}
}

// quotaFailure is a build refused by the tenant's maxTemplateBytes.
type quotaFailure struct{ f *wasmexec.ErrorData }

func (q *quotaFailure) Error() string { return q.f.Message }

// finishShared ends t's build at gen in the cluster: its capture stored
// (ready) or its failure recorded, then here as build does for a single
// server.
func (m *Manager) finishShared(ctx context.Context, t *tmpl, gen int64, b *built, failure *wasmexec.ErrorData) {
	m.mu.Lock()
	if t.deleted || m.closed || t.gen != gen || ctx.Err() != nil {
		// Deleted, taken over, or closing: nothing to keep (a build cut
		// short by a shutdown is taken over once its lease is over).
		m.mu.Unlock()
		b.discard()
		return
	}
	id := t.d.TemplateID
	m.mu.Unlock()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedTimeout)
	defer cancel()
	var sum string
	var next tmpl
	if failure == nil {
		size := b.state + b.wsBytes
		m.mu.Lock()
		next = *t
		next.d.State, next.d.Error, next.d.ReadyAtMs = wasmexec.TemplateReady, nil, m.cfg.Now().UnixMilli()
		next.d.Packages, next.d.StateBytes, next.d.WorkspaceBytes, next.d.BuildExecutionID = b.packages, b.state, b.wsBytes, b.execID
		r := &wasmexec.SharedTemplate{ID: id, Tenant: t.d.Tenant, Implicit: t.d.Implicit, Meta: metaOf(&next), Bytes: size}
		quota := t.quota
		m.mu.Unlock()
		if tn := wasmexec.TenantFrom(ctx); tn != nil && tn.Quotas.MaxTemplateBytes != nil {
			quota = tn.Quotas.MaxTemplateBytes
		}
		admit := func(used int64) error {
			if quota != nil && used+size > *quota {
				return &quotaFailure{quotaData(*quota, used, b)}
			}
			return nil
		}
		var err error
		sum, err = m.storeShared(sctx, r, gen, b, admit)
		var qf *quotaFailure
		switch {
		case errors.As(err, &qf):
			failure = qf.f
		case err != nil:
			failure = &wasmexec.ErrorData{Code: CodeBuildFailed, Message: "its capture could not be stored in the cluster: " + err.Error()}
		case sum == "":
			m.log.Warn("a template build ended after it stopped being this node's; it is dropped", "templateId", id, "generation", gen)
			b.discard()
			return
		}
	}
	if failure != nil {
		b.discard()
		m.mu.Lock()
		if b != nil && b.execID != "" {
			t.d.BuildExecutionID = b.execID
		}
		t.d.State, t.d.Error, t.d.StateBytes, t.d.WorkspaceBytes, t.cancel = wasmexec.TemplateFailed, failure, 0, 0, nil
		t.d.Builds++
		t.spec.Files = nil
		meta := metaOf(t)
		d := describe(t)
		m.mu.Unlock()
		if ok, err := m.cfg.Shared.FailTemplate(sctx, id, gen, meta); err != nil || !ok {
			m.log.Warn("a template's failure could not be recorded in the cluster", "templateId", id, "fenced", err == nil, "err", err)
		}
		m.log.Info("template build failed", "templateId", id, "code", failure.Code, "reason", failure.Message)
		m.emit(EventFailed, d)
		return
	}
	m.mu.Lock()
	if t.deleted || t.gen != gen {
		m.mu.Unlock()
		b.discard()
		return
	}
	path := m.recordPath(id)
	if err := commit(b.tmp, path); err != nil {
		// Stored in the cluster: this node fetches it like the others.
		b.discard()
		m.log.Warn("a template's record could not be kept here", "templateId", id, "err", err)
		path = ""
	}
	runs, last := t.d.Runs, t.d.LastUsedAtMs
	t.d = next.d
	t.d.Runs, t.d.LastUsedAtMs, t.d.Builds, t.cancel = runs, last, t.d.Builds+1, nil
	if path != "" {
		m.retireLocked(t)
		t.cur = &generation{record: path, off: b.off, ws: b.ws, sum: sum}
		m.usedLocked(t)
	}
	d := describe(t)
	evicted := m.evictLocked()
	m.mu.Unlock()
	m.log.Info("template ready", "templateId", id, "stateBytes", d.StateBytes, "workspaceBytes", d.WorkspaceBytes, "sha256", sum)
	m.emit(EventReady, d)
	for _, e := range evicted {
		m.emit(EventDeleted, e)
	}
}

// storeShared stores b's record and workspace as t's capture.
func (m *Manager) storeShared(ctx context.Context, r *wasmexec.SharedTemplate, gen int64, b *built, admit func(int64) error) (string, error) {
	f, err := os.Open(b.tmp)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	return m.cfg.Shared.StoreTemplate(ctx, r, gen, io.NewSectionReader(f, 0, fi.Size()), b.ws, admit)
}

// quotaData is the failure of a build past maxTemplateBytes q, the
// tenant's other templates holding used.
func quotaData(q, used int64, b *built) *wasmexec.ErrorData {
	size := b.state + b.wsBytes
	return &wasmexec.ErrorData{Code: wasmexec.EQuota, Name: "QuotaExceeded", Message: fmt.Sprintf("quota maxTemplateBytes (%d) reached: the tenant's templates would hold %d bytes (this one %d: state %d, workspace %d)", q, used+size, size, b.state, b.wsBytes),
		Details: map[string]any{"quota": "maxTemplateBytes", "limit": q, "bytes": used + size}}
}

// openShared is Open in a cluster.
func (m *Manager) openShared(ctx context.Context, id string) (*wasmexec.TemplateImage, error) {
	for attempt := 0; ; attempt++ {
		r, meta, err := m.row(ctx, id)
		if err != nil {
			return nil, err
		}
		switch r.State {
		case wasmexec.TemplateFailed:
			msg := "no reason given"
			if meta.Template.Error != nil {
				msg = meta.Template.Error.Message
			}
			return nil, wasmexec.Errorf(wasmexec.EConflict, "template %s failed to build: %s", id, msg)
		case wasmexec.TemplateReady:
			ti, again, err := m.holdShared(ctx, r, meta)
			if err != nil || !again {
				return ti, err
			}
			if attempt >= 8 {
				return nil, wasmexec.Errorf(wasmexec.EUnavailable, "template %s changes faster than it can be fetched; retry", id)
			}
		default:
			if r.LeaseLeftMs <= 0 {
				if err := m.claimShared(ctx, r, meta, false, fmt.Sprintf("its build on node %s stopped before it ended", r.Builder)); err != nil {
					return nil, err
				}
			}
			if err := m.waitShared(ctx, id, r.Generation); err != nil {
				return nil, err
			}
		}
	}
}

// waitShared waits within ctx for the build of id at gen: its end when it
// is under way here, a while (to read its row again) when elsewhere.
func (m *Manager) waitShared(ctx context.Context, id string, gen int64) error {
	m.mu.Lock()
	var done chan struct{}
	if t := m.byID[id]; t != nil && !t.deleted && t.gen >= gen {
		done = t.done
	}
	m.mu.Unlock()
	if done == nil {
		tm := time.NewTimer(sharedWait)
		defer tm.Stop()
		select {
		case <-tm.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// holdShared holds ready row r's capture, fetched here first when this
// node has no copy of it. again: the row is to be read again (the capture
// changed, was refused, or another request was fetching it).
func (m *Manager) holdShared(ctx context.Context, r *wasmexec.SharedTemplate, meta *recordMeta) (ti *wasmexec.TemplateImage, again bool, err error) {
	m.mu.Lock()
	t := m.localLocked(r, meta)
	if t.cur != nil && t.cur.sum == r.Sum {
		ti, err := m.holdLocked(t)
		m.mu.Unlock()
		return ti, false, err
	}
	if ch := t.fetching; ch != nil {
		m.mu.Unlock()
		select {
		case <-ch:
			return nil, true, nil
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
	ch := make(chan struct{})
	t.fetching = ch
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		t.fetching = nil
		m.mu.Unlock()
		close(ch)
	}()
	cache := filepath.Join(m.cfg.Dir, "cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, false, wasmexec.Errorf(wasmexec.EInternal, "template %s: %v", r.ID, err)
	}
	dir, err := os.MkdirTemp(cache, r.Sum[:min(16, len(r.Sum))]+"-")
	if err != nil {
		return nil, false, wasmexec.Errorf(wasmexec.EInternal, "template %s: %v", r.ID, err)
	}
	start := time.Now()
	refused, err := m.cfg.Shared.FetchTemplate(ctx, r.ID, r.Sum, dir)
	if err == nil && refused == "" {
		if _, off, size, herr := readHead(filepath.Join(dir, "record")); herr != nil || size <= off {
			refused = fmt.Sprintf("its stored record can't be used (%v)", herr)
		} else {
			m.mu.Lock()
			defer m.mu.Unlock()
			if t.deleted || m.closed {
				os.RemoveAll(dir)
				return nil, true, nil
			}
			m.retireLocked(t)
			t.cur = &generation{record: filepath.Join(dir, "record"), off: off, ws: filepath.Join(dir, "workspace"), sum: r.Sum, dir: dir}
			runs, last := t.d.Runs, t.d.LastUsedAtMs
			t.d, t.spec, t.gen = meta.Template, meta.Spec, r.Generation
			t.d.Runs, t.d.LastUsedAtMs = runs, last
			m.log.Info("fetched a template's capture from the cluster", "templateId", r.ID, "captureBytes", r.CaptureBytes, "sha256", r.Sum, "took", time.Since(start))
			ti, err := m.holdLocked(t)
			return ti, false, err
		}
	}
	os.RemoveAll(dir)
	if err != nil {
		if wasmexec.ErrorCode(err) == wasmexec.EUnavailable || ctx.Err() != nil {
			return nil, false, err
		}
		m.log.Info("a template's capture changed while it was fetched; reading its row again", "templateId", r.ID, "err", err)
		return nil, true, nil
	}
	m.log.Warn("a template's stored capture was refused; it is rebuilt from its recipe", "templateId", r.ID, "reason", refused)
	if err := m.claimShared(ctx, r, meta, true, "its stored capture was refused: "+refused); err != nil {
		return nil, false, err
	}
	return nil, true, nil
}

// refusedShared rebuilds t after the engine refused the state of g, once
// for the cluster: the node that claims the rebuild does it.
func (m *Manager) refusedShared(t *tmpl, g *generation, reason string) {
	ctx, cancel := context.WithTimeout(m.ctx, sharedTimeout)
	defer cancel()
	r, err := m.cfg.Shared.GetTemplate(ctx, t.d.TemplateID)
	if err != nil || r == nil || r.State != wasmexec.TemplateReady || r.Sum != g.sum {
		return
	}
	meta, err := fromRow(r)
	if err != nil {
		return
	}
	if err := m.claimShared(ctx, r, meta, true, reason); err != nil {
		m.log.Warn("a template's rebuild could not be claimed", "templateId", r.ID, "err", err)
	}
}

// getShared is Template in a cluster.
func (m *Manager) getShared(ctx context.Context, id string) (*wasmexec.Template, error) {
	_, meta, err := m.row(ctx, id)
	if err != nil {
		return nil, err
	}
	return m.describeShared(meta), nil
}

// listShared is List in a cluster.
func (m *Manager) listShared(ctx context.Context) ([]*wasmexec.Template, error) {
	tn := wasmexec.TenantID(ctx)
	rows, err := m.cfg.Shared.ListTemplates(ctx, tn, tn == "")
	if err != nil {
		return nil, err
	}
	out := []*wasmexec.Template{}
	for _, r := range rows {
		meta, err := fromRow(r)
		if err != nil {
			m.log.Error("a template's row can't be read", "templateId", r.ID, "err", err)
			continue
		}
		out = append(out, m.describeShared(meta))
	}
	sort.SliceStable(out, func(i, j int) bool { return !out[i].Implicit && out[j].Implicit })
	return out, nil
}

// deleteShared is Delete in a cluster.
func (m *Manager) deleteShared(ctx context.Context, id string) error {
	_, meta, err := m.row(ctx, id)
	if err != nil {
		return err
	}
	ok, err := m.cfg.Shared.DeleteTemplate(ctx, id)
	if err != nil {
		return err
	}
	m.forget(id)
	if !ok {
		return notFound(id)
	}
	m.emit(EventDeleted, m.describeShared(meta))
	return nil
}

// implicitShared finds, in the background, the cluster's implicit
// template of t's key: fetched here when ready, built here when nobody
// has it yet (or its builder died). Runs meanwhile go on without it. A
// lookup that failed (the row unreadable, the fetch failed or was
// refused and rebuilt elsewhere) is tried again by a later run, once its
// retry is due.
func (m *Manager) implicitShared(from context.Context, t *tmpl) {
	defer m.wg.Done()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(from), sharedTimeout)
	defer cancel()
	stop := context.AfterFunc(m.ctx, cancel)
	defer stop()
	err := m.lookupImplicit(ctx, from, t)
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.syncing, t.key)
	if err == nil || m.closed {
		delete(m.retries, t.key)
		return
	}
	if o := m.implicit[t.key]; o != nil && unfetchedLocked(o) {
		// Its row's descriptor, with nothing here: it would count
		// against MaxImplicitBytes, and hide the row from the retry.
		m.deleteLocked(o)
	}
	r := m.retries[t.key]
	if r == nil {
		r = &retry{}
		m.retries[t.key] = r
	}
	wait := r.failedLocked(m.cfg.Now())
	m.log.Warn("an implicit template could not be had from the cluster; runs go on without it until a retry", "templateId", t.d.TemplateID, "failures", r.failures, "retryIn", wait, "err", err)
	m.pruneRetriesLocked()
}

// lookupImplicit is implicitShared's lookup: nil when the template is
// here, built here, or nothing is to be tried again (building elsewhere,
// failed, or a client's template of that id).
func (m *Manager) lookupImplicit(ctx, from context.Context, t *tmpl) error {
	r, err := m.cfg.Shared.GetTemplate(ctx, t.d.TemplateID)
	if err != nil {
		return fmt.Errorf("read its row: %w", err)
	}
	if r == nil {
		_, err := m.createShared(from, t)
		if err == nil {
			return nil
		}
		if wasmexec.ErrorCode(err) != wasmexec.ETemplateConflict {
			return fmt.Errorf("create its row: %w", err)
		}
		if r, err = m.cfg.Shared.GetTemplate(ctx, t.d.TemplateID); err != nil {
			return fmt.Errorf("read its row: %w", err)
		}
		if r == nil {
			return errors.New("its row was deleted as it was created")
		}
	}
	if r.Tenant != t.d.Tenant || !r.Implicit {
		return nil // a client's template of that id: leave it
	}
	meta, err := fromRow(r)
	if err != nil {
		return err
	}
	switch {
	case r.State == wasmexec.TemplateReady:
		ti, _, err := m.holdShared(ctx, r, meta)
		if err != nil {
			return fmt.Errorf("fetch its capture: %w", err)
		}
		if ti != nil {
			ti.Release()
			return nil
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		if o := m.implicit[t.key]; o != nil && (o.cur != nil || o.d.State == wasmexec.TemplateBuilding && o.done != nil) {
			// Fetched by a run meanwhile, or its capture was refused
			// and this node rebuilds it.
			return nil
		}
		return errors.New("its capture changed, or was refused and is rebuilt elsewhere, as it was fetched")
	case r.State == wasmexec.TemplateBuilding && r.LeaseLeftMs <= 0:
		if err := m.claimShared(ctx, r, meta, false, fmt.Sprintf("its build on node %s stopped before it ended", r.Builder)); err != nil {
			return fmt.Errorf("claim its build: %w", err)
		}
	}
	return nil
}

// unfetchedLocked: t is a ready row's entry with no copy here and no
// fetch of one under way (what a fetch that failed leaves). m.mu held.
func unfetchedLocked(t *tmpl) bool {
	return t.d.State == wasmexec.TemplateReady && t.cur == nil && t.fetching == nil
}

const (
	// implicitRetryMin is the wait before an implicit template whose
	// lookup failed is looked up again, doubled at each failure in a row
	// up to implicitRetryMax: a peer or the database that failed now may
	// be back in a moment, and one that stays down is asked once a
	// minute, not by every run.
	implicitRetryMin = time.Second
	implicitRetryMax = time.Minute
	// maxRetries bounds the failed keys remembered; past it the ones due
	// longest ago are forgotten (their next lookup is then due at once).
	maxRetries = 1024
)

// retry is the state of an implicit key whose last lookup failed.
type retry struct {
	failures int
	at       time.Time // not looked up again before
}

// failedLocked counts a failure at now and returns the wait before the
// next lookup. m.mu held.
func (r *retry) failedLocked(now time.Time) time.Duration {
	r.failures++
	wait := implicitRetryMax
	if n := r.failures - 1; n < 16 {
		wait = min(implicitRetryMin<<n, implicitRetryMax)
	}
	r.at = now.Add(wait)
	return wait
}

// lookupDueLocked says whether implicit key may be looked up in the
// cluster now. m.mu held.
func (m *Manager) lookupDueLocked(key string) bool {
	r := m.retries[key]
	return r == nil || !m.cfg.Now().Before(r.at)
}

// pruneRetriesLocked forgets the failed keys due longest ago past
// maxRetries. m.mu held.
func (m *Manager) pruneRetriesLocked() {
	if len(m.retries) <= maxRetries {
		return
	}
	keys := slices.Collect(maps.Keys(m.retries))
	slices.SortFunc(keys, func(a, b string) int { return m.retries[a].at.Compare(m.retries[b].at) })
	for _, k := range keys[:len(keys)-maxRetries] {
		delete(m.retries, k)
	}
}

// sweepShared takes over, every half lease, the builds whose node
// stopped before they ended.
func (m *Manager) sweepShared() {
	defer m.wg.Done()
	every := m.cfg.Shared.TemplateLease() / 2
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(m.ctx, every)
		rows, err := m.cfg.Shared.StaleTemplateBuilds(ctx, staleBuildsPerSweep)
		for _, r := range rows {
			meta, merr := fromRow(r)
			if merr != nil {
				continue
			}
			if err := m.claimShared(ctx, r, meta, false, fmt.Sprintf("its build on node %s stopped before it ended", r.Builder)); err != nil {
				m.log.Warn("taking over a template build failed", "templateId", r.ID, "err", err)
			}
		}
		cancel()
		if err != nil {
			m.log.Debug("list the stale template builds", "err", err)
		}
	}
}
