package server

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
)

// The tenancy guard: with API keys, every context, process and execution
// record belongs to the tenant whose key created it; another tenant's id
// answers exactly like an unknown one (404, same code, same message), and
// the tenant's quotas are checked before the work starts (429 quota_exceeded
// with Retry-After, the message naming the quota). A quota is checked and
// reserved in one step (quota.go), so concurrent requests of a tenant
// can't together make more than it allows.
//
// Execution records carry their tenant into the store (wasmexec.Result.Tenant,
// set from the run's context when it is persisted), so ownership of
// history survives a restart: the History is asked with the tenant in the
// context and scopes what it shows (store/doc.go, "Tenants"), and the guard
// checks each record's Tenant again. Contexts and processes live in memory
// and don't survive a restart; their owners are kept here. A context id is
// one namespace for all tenants: creating an id another tenant holds is a
// 409 context_conflict, which says the id is taken and nothing else.
//
// The per-request path takes no global lock: a tenant's run counters are
// its own (tenantState), found in a sync.Map.
type tenancy struct {
	mu        sync.Mutex
	contexts  map[string]string // context id → tenant
	ownerAdds uint64            // entries added to contexts: owned prunes none added meanwhile
	processes map[int64]string  // pid → tenant
	procExecs map[string]string // execution id of a process → tenant (its live output)
	procOrder []string          // FIFO of procExecs, to bound it
	runs      *Tenants
	now       func() time.Time
	// contextTenant gives the tenant of a context not in contexts (one
	// adopted from another server of a cluster), or nil.
	contextTenant func(id string) string
	// countContexts counts a tenant's contexts on every server of a
	// cluster (its maxContexts), leaving out the ids except, or nil: this
	// server's.
	countContexts func(ctx context.Context, tenant string, except []string) (int64, error)
	// workspacesElsewhere sums a tenant's workspaces on the other servers
	// of a cluster (its maxWorkspaceBytes), or nil: none.
	workspacesElsewhere func(ctx context.Context, tenant string) (int64, error)
	elsewhere           sync.Map // tenant id → elsewhereBytes: a second's cache
}

// elsewhereBytes is a cached answer of workspacesElsewhere.
type elsewhereBytes struct {
	n  int64
	at time.Time
}

// elsewhereTTL is how long a tenant's usage on the other servers is
// reused: checked before every run in its contexts, it is a query each
// otherwise; the other servers report it at their snapshots (after
// --context-snapshot-after-ms idle) anyway.
const elsewhereTTL = time.Second

// maxOwnedProcesses bounds procExecs (processes spawned since the start;
// a process's record, once stored, carries its tenant itself) and, by
// pruning those the manager no longer lists, processes.
const maxOwnedProcesses = 1 << 16

// tenantState counts one tenant's runs: those under way, and the starts of
// the last minute in one-second buckets (fixed memory, whatever the rate);
// and what its requests are making (quota.go).
type tenantState struct {
	running atomic.Int64 // under mu, but for end
	mu      sync.Mutex
	buckets [60]struct{ sec, n int64 } // bucket sec%60: starts within second sec

	contexts, processes, workspaceBytes, templates reserved
}

func newTenancy(runs *Tenants) *tenancy {
	if runs == nil {
		runs = NewTenants()
	}
	return &tenancy{contexts: map[string]string{}, processes: map[int64]string{}, procExecs: map[string]string{}, runs: runs, now: time.Now}
}

func (t *tenancy) state(id string) *tenantState { return t.runs.state(id) }

// Tenants holds each tenant's counters: its runs under way, its starts of
// the last minute, and what its requests are making. One per server: the
// run pipeline admits one-shot and context runs with StartRun
// (pipeline.Tenants), and the guard counts checks, spawns and what it
// reserves with the same counters. The per-request path takes no global
// lock: a tenant's counters are its own, found in a sync.Map.
type Tenants struct {
	m   sync.Map // tenant id → *tenantState
	now func() time.Time
}

// NewTenants returns empty counters.
func NewTenants() *Tenants { return &Tenants{now: time.Now} }

func (t *Tenants) state(id string) *tenantState {
	if st, ok := t.m.Load(id); ok {
		return st.(*tenantState)
	}
	st, _ := t.m.LoadOrStore(id, &tenantState{})
	return st.(*tenantState)
}

// recentStarts returns the starts counted in the minute before now (the
// current second and the 59 before it), and the first second of that
// window that holds any (0: none).
func (st *tenantState) recentStarts(sec int64) (n, oldest int64) {
	for _, b := range st.buckets {
		if b.n > 0 && b.sec > sec-60 && b.sec <= sec {
			n += b.n
			if oldest == 0 || b.sec < oldest {
				oldest = b.sec
			}
		}
	}
	return n, oldest
}

// Guard returns cfg with its services wrapped: by the event publishers
// when cfg.Events is set, then by the tenancy guard when cfg.Auth is set
// (New does it itself; cmd calls it first to hand the same guarded
// services to the MCP handler).
func Guard(cfg Config) Config {
	if cfg.guarded {
		return cfg
	}
	cfg.guarded = true
	if hub := cfg.Events; hub != nil {
		if cfg.Contexts != nil {
			cfg.Contexts = eventContexts{cfg.Contexts, hub, cfg.ContextDeletions}
		}
	}
	if cfg.Auth == nil {
		return cfg
	}
	t := newTenancy(cfg.Tenants)
	t.contextTenant = cfg.ContextTenant
	if cc, ok := cfg.Cluster.(ContextCounter); ok {
		t.countContexts = cc.TenantContexts
	}
	if cc, ok := cfg.Cluster.(interface {
		TenantWorkspaceBytes(ctx context.Context, tenant string) (int64, error)
	}); ok {
		t.workspacesElsewhere = cc.TenantWorkspaceBytes
	}
	for id, tn := range cfg.ContextOwners {
		if tn != "" {
			t.contexts[id] = tn
		}
	}
	cfg.tenancy = t
	if cfg.Templates != nil {
		cfg.Templates = guardedTemplates{next: cfg.Templates, t: t}
	}
	if cfg.Contexts != nil {
		gc := &guardedContexts{next: cfg.Contexts, t: t, templates: cfg.Templates}
		cfg.Contexts = gc
		if cfg.NPM != nil {
			cfg.NPM = guardedNPM{next: cfg.NPM, c: gc}
		}
	}
	if cfg.History != nil {
		cfg.History = guardedHistory{next: cfg.History, t: t}
	}
	if cfg.Checker != nil {
		cfg.Checker = guardedChecker{next: cfg.Checker, t: t}
	}
	return cfg
}

func quotaError(name string, limit int64, what string) error {
	return wasmexec.Errorf(wasmexec.EQuota, "quota %s (%d) reached: %s", name, limit, what)
}

// retryAfterError is an error that says when to retry.
type retryAfterError struct {
	err     *wasmexec.Error
	seconds int
}

func (e *retryAfterError) Error() string { return e.err.Error() }
func (e *retryAfterError) Unwrap() error { return e.err }

func noop() {}

// startRun checks maxConcurrentRuns and maxRunsPerMinute and counts the
// run, both in one step under st.mu (a run refused by one quota never
// holds the other's count); the returned func ends it. A minute is the
// current second and the 59 before it: a start is forgotten 60 whole
// seconds after the second it fell in, which Retry-After says.
func (t *tenancy) startRun(ctx context.Context) (func(), error) { return t.runs.StartRun(ctx) }

// StartRun is startRun for the run pipeline.
func (t *Tenants) StartRun(ctx context.Context) (func(), error) {
	tn := wasmexec.TenantFrom(ctx)
	if tn == nil {
		return noop, nil
	}
	st := t.state(tn.ID)
	if tn.Quotas.MaxConcurrentRuns == nil && tn.Quotas.MaxRunsPerMinute == nil {
		st.running.Add(1)
		return st.end, nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if q := tn.Quotas.MaxConcurrentRuns; q != nil && st.running.Load() >= *q {
		return nil, quotaError("maxConcurrentRuns", *q, "a run of this tenant must finish first")
	}
	if err := t.countStartLocked(tn, st); err != nil {
		return nil, err
	}
	st.running.Add(1)
	return st.end, nil
}

// countStart checks maxRunsPerMinute and counts one start (a run's, or a
// process spawn's).
func (t *tenancy) countStart(tn *wasmexec.Tenant, st *tenantState) error {
	return t.runs.countStart(tn, st)
}

func (t *Tenants) countStart(tn *wasmexec.Tenant, st *tenantState) error {
	if tn.Quotas.MaxRunsPerMinute == nil {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return t.countStartLocked(tn, st)
}

// countStartLocked is countStart with st.mu held.
func (t *Tenants) countStartLocked(tn *wasmexec.Tenant, st *tenantState) error {
	q := tn.Quotas.MaxRunsPerMinute
	if q == nil {
		return nil
	}
	sec := t.now().Unix()
	n, oldest := st.recentStarts(sec)
	if n >= *q {
		wait := int64(60)
		if oldest != 0 {
			wait = oldest + 60 - sec
		}
		return &retryAfterError{wasmexec.Errorf(wasmexec.EQuota, "quota maxRunsPerMinute (%d) reached: wait before the next run", *q), int(max(wait, 1))}
	}
	b := &st.buckets[sec%60]
	if b.sec != sec {
		b.sec, b.n = sec, 0
	}
	b.n++
	return nil
}

func (st *tenantState) end() { st.running.Add(-1) }

// owns reports whether the tenant of ctx may see an id (always, without a
// tenant).
func (t *tenancy) owns(ctx context.Context, m map[string]string, id string) bool {
	tn := wasmexec.TenantID(ctx)
	if tn == "" {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return m[id] == tn
}

// ownsContext is owns for a context id, asking contextTenant about one
// it has not seen (and keeping the answer).
func (t *tenancy) ownsContext(ctx context.Context, id string) bool {
	tn := wasmexec.TenantID(ctx)
	if tn == "" {
		return true
	}
	return t.tenantOf(id) == tn
}

// tenantOf is the tenant of context id ("": unknown).
func (t *tenancy) tenantOf(id string) string {
	t.mu.Lock()
	owner, ok := t.contexts[id]
	t.mu.Unlock()
	if ok || t.contextTenant == nil {
		return owner
	}
	if owner = t.contextTenant(id); owner != "" {
		t.setOwner(id, owner)
	}
	return owner
}

// setOwner records the tenant of context id.
func (t *tenancy) setOwner(id, tenant string) {
	t.mu.Lock()
	t.contexts[id] = tenant
	t.ownerAdds++
	t.mu.Unlock()
}

func (t *tenancy) ownsPID(ctx context.Context, pid int64) bool {
	tn := wasmexec.TenantID(ctx)
	if tn == "" {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.processes[pid] == tn
}

// guardedContexts scopes contexts to their tenant. It names the
// contexts it guards rather than embedding them, so every method of
// Contexts is written here and checks the tenant: a method added to the
// interface later is a compile error until it is guarded too.
type guardedContexts struct {
	next Contexts
	t    *tenancy
	// templates describe the template a context is made from (its
	// workspace is copied: maxWorkspaceBytes), nil when there are none.
	templates Templates
}

var _ Contexts = (*guardedContexts)(nil)

func contextNotFound(id string) error {
	return wasmexec.Errorf(wasmexec.EContextNotFound, "no context %q", id)
}

func (g *guardedContexts) check(ctx context.Context, id string) error {
	if !g.t.ownsContext(ctx, id) {
		return contextNotFound(id)
	}
	return nil
}

// owned returns the live contexts of the tenant of ctx, forgetting the
// ones that are gone (deleted by idle expiry). Not those whose owner was
// recorded while it listed: a context made meanwhile is not in its list,
// and forgetting its owner would hide it from its tenant and its quota.
func (g *guardedContexts) owned(ctx context.Context) ([]*wasmexec.Context, error) {
	tn := wasmexec.TenantID(ctx)
	g.t.mu.Lock()
	adds := g.t.ownerAdds
	g.t.mu.Unlock()
	all, err := g.next.List(ctx)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	var mine []*wasmexec.Context
	for _, c := range all {
		live[c.ContextID] = true
		if g.t.tenantOf(c.ContextID) == tn {
			mine = append(mine, c)
		}
	}
	g.t.mu.Lock()
	if g.t.ownerAdds == adds {
		for id := range g.t.contexts {
			if !live[id] {
				delete(g.t.contexts, id)
			}
		}
	}
	g.t.mu.Unlock()
	return mine, nil
}

func (g *guardedContexts) Create(ctx context.Context, spec *wasmexec.ContextSpec) (c *wasmexec.Context, err error) {
	tn := wasmexec.TenantFrom(ctx)
	if tn == nil {
		return g.next.Create(ctx, spec)
	}
	named := *spec
	if named.ContextID == "" {
		named.ContextID = wasmexec.NewID("ctx") // its reservation names it
	}
	end, err := g.reserveContext(ctx, tn, named.ContextID)
	if err != nil {
		return nil, err
	}
	endBytes := noEnd
	defer func() {
		end(g.ownIfMade(c, err, tn))
		endBytes(nil)
	}()
	if spec.Template != "" && g.templates != nil {
		// Made from a template: its workspace is a copy of the
		// template's, reserved like a fork's (another tenant's template
		// is not found, by the templates' own scoping).
		t, err := g.templates.Get(ctx, spec.Template)
		if err != nil {
			return nil, err
		}
		if endBytes, err = g.reserveWorkspaces(ctx, t.WorkspaceBytes); err != nil {
			endBytes = noEnd
			return nil, err
		}
	}
	return g.next.Create(ctx, &named)
}

// ownIfMade is what ends the reservation of context c: record its owner,
// or nothing when it was not made.
func (g *guardedContexts) ownIfMade(c *wasmexec.Context, err error, tn *wasmexec.Tenant) func() {
	if c == nil || err != nil {
		return nil
	}
	return func() { g.t.setOwner(c.ContextID, tn.ID) }
}

// reserveContext reserves one of the tenant's maxContexts for context id
// (quota.go): it fails when the tenant has that many contexts (on every
// server of a cluster), counting those being made.
//
// In a cluster, the count is the database's (every server's contexts,
// those registered while being made included), and the reservations are
// this server's: two servers making the last allowed context of a tenant
// at the same moment may both make it, so a tenant can exceed maxContexts
// by at most one context per other server making one at that moment; on
// one server it never does.
func (g *guardedContexts) reserveContext(ctx context.Context, tn *wasmexec.Tenant, id string) (func(own func()), error) {
	q := tn.Quotas.MaxContexts
	if q == nil {
		return noEnd, nil
	}
	count := func(except map[string]bool) (int64, error) {
		if g.t.countContexts != nil {
			return g.t.countContexts(ctx, tn.ID, slices.Collect(maps.Keys(except)))
		}
		mine, err := g.owned(ctx)
		if err != nil {
			return 0, err
		}
		n := int64(0)
		for _, c := range mine {
			if !except[c.ContextID] {
				n++
			}
		}
		return n, nil
	}
	return g.t.state(tn.ID).contexts.reserve(*q, 1, id, count, func(int64) error {
		return quotaError("maxContexts", *q, "delete a context first")
	})
}

// workspacesOf returns what tenant's workspaces on the other servers of a
// cluster hold (0 without a cluster), cached for elsewhereTTL.
func (t *tenancy) workspacesOf(ctx context.Context, tenant string) (int64, error) {
	if t.workspacesElsewhere == nil {
		return 0, nil
	}
	if v, ok := t.elsewhere.Load(tenant); ok && t.now().Sub(v.(elsewhereBytes).at) < elsewhereTTL {
		return v.(elsewhereBytes).n, nil
	}
	n, err := t.workspacesElsewhere(ctx, tenant)
	if err != nil {
		return 0, err
	}
	t.elsewhere.Store(tenant, elsewhereBytes{n, t.now()})
	return n, nil
}

// reserveWorkspaces reserves adding bytes of the tenant's
// maxWorkspaceBytes (quota.go) for an upload or a fork's copy: it fails
// when the tenant's workspaces (on every server of a cluster), plus the
// bytes being written, plus adding, would hold more than its quota. The
// reservation ends once the bytes are written, when its caller returns:
// until then they are counted twice (refusing, never admitting, too much).
// In a cluster, the other servers' bytes are their last snapshots'.
func (g *guardedContexts) reserveWorkspaces(ctx context.Context, adding int64) (func(own func()), error) {
	tn := wasmexec.TenantFrom(ctx)
	if tn == nil || tn.Quotas.MaxWorkspaceBytes == nil {
		return noEnd, nil
	}
	q := *tn.Quotas.MaxWorkspaceBytes
	return g.t.state(tn.ID).workspaceBytes.reserve(q, adding, "", func(map[string]bool) (int64, error) {
		return g.workspacesUsed(ctx, tn)
	}, func(used int64) error {
		return quotaError("maxWorkspaceBytes", q, fmt.Sprintf("the tenant's workspaces would hold %d bytes", used))
	})
}

// checkWorkspaces fails with maxWorkspaceBytes when the tenant's
// workspaces, with the bytes being written, hold more than its quota.
// Runs are checked before they start and reserve nothing (what a run
// writes is known when it ends): a tenant already over its quota runs
// nothing in its contexts until it deletes files.
func (g *guardedContexts) checkWorkspaces(ctx context.Context) error {
	tn := wasmexec.TenantFrom(ctx)
	if tn == nil || tn.Quotas.MaxWorkspaceBytes == nil {
		return nil
	}
	used, err := g.workspacesUsed(ctx, tn)
	if err != nil {
		return err
	}
	used += g.t.state(tn.ID).workspaceBytes.inFlight()
	if q := *tn.Quotas.MaxWorkspaceBytes; used > q {
		return quotaError("maxWorkspaceBytes", q, fmt.Sprintf("the tenant's workspaces would hold %d bytes", used))
	}
	return nil
}

// workspacesUsed is what the tenant's workspaces hold (on every server of
// a cluster).
func (g *guardedContexts) workspacesUsed(ctx context.Context, tn *wasmexec.Tenant) (int64, error) {
	mine, err := g.owned(ctx)
	if err != nil {
		return 0, err
	}
	used := int64(0)
	for _, c := range mine {
		if c.Workspace != nil {
			used += c.Workspace.UsedBytes
		}
	}
	elsewhere, err := g.t.workspacesOf(ctx, tn.ID)
	if err != nil {
		return 0, err
	}
	return used + elsewhere, nil
}

func (g *guardedContexts) Run(ctx context.Context, req *wasmexec.Request) (*wasmexec.Result, error) {
	if err := g.check(ctx, req.ContextID); err != nil {
		return nil, err
	}
	if err := g.checkWorkspaces(ctx); err != nil {
		return nil, err
	}
	return g.next.Run(ctx, req) // its tenant's run quotas: the pipeline's admission
}

func (g *guardedContexts) Get(ctx context.Context, id string) (*wasmexec.Context, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.next.Get(ctx, id)
}

func (g *guardedContexts) List(ctx context.Context) ([]*wasmexec.Context, error) {
	if wasmexec.TenantFrom(ctx) == nil {
		return g.next.List(ctx)
	}
	return g.owned(ctx)
}

func (g *guardedContexts) Reset(ctx context.Context, id string) (*wasmexec.Context, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.next.Reset(ctx, id)
}

func (g *guardedContexts) Hibernate(ctx context.Context, id string) (*wasmexec.Context, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.next.Hibernate(ctx, id)
}

// Fork is a Create for the tenant (its maxContexts quota, its workspace
// bytes grow by the copy) of a context it owns. Both are reserved before
// the fork waits its turn in the source's queue: forks queued together
// count each other (checked only, they all passed while none was made).
func (g *guardedContexts) Fork(ctx context.Context, id string, spec *wasmexec.ForkSpec) (c *wasmexec.Context, err error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	tn := wasmexec.TenantFrom(ctx)
	if tn == nil {
		return g.next.Fork(ctx, id, spec)
	}
	var named wasmexec.ForkSpec
	if spec != nil {
		named = *spec
	}
	if named.ContextID == "" {
		named.ContextID = wasmexec.NewID("ctx") // its reservation names it
	}
	end, err := g.reserveContext(ctx, tn, named.ContextID)
	if err != nil {
		return nil, err
	}
	endBytes := noEnd
	defer func() {
		end(g.ownIfMade(c, err, tn)) // owned first: its copy counted, then no longer reserved
		endBytes(nil)
	}()
	src, err := g.next.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if src.Workspace != nil {
		if endBytes, err = g.reserveWorkspaces(ctx, src.Workspace.UsedBytes); err != nil {
			endBytes = noEnd
			return nil, err
		}
	}
	return g.next.Fork(ctx, id, &named)
}

func (g *guardedContexts) Delete(ctx context.Context, id string) error {
	if err := g.check(ctx, id); err != nil {
		return err
	}
	if err := g.next.Delete(ctx, id); err != nil {
		return err
	}
	g.t.mu.Lock()
	delete(g.t.contexts, id)
	g.t.mu.Unlock()
	return nil
}

func (g *guardedContexts) WriteFile(ctx context.Context, id, path string, data []byte) (*wasmexec.FileEntry, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	end, err := g.reserveWorkspaces(ctx, int64(len(data)))
	if err != nil {
		return nil, err
	}
	defer end(nil) // written (or not): counted where it is
	return g.next.WriteFile(ctx, id, path, data)
}

func (g *guardedContexts) ReadFile(ctx context.Context, id, path string) ([]byte, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.next.ReadFile(ctx, id, path)
}

func (g *guardedContexts) DeleteFile(ctx context.Context, id, path string) error {
	if err := g.check(ctx, id); err != nil {
		return err
	}
	return g.next.DeleteFile(ctx, id, path)
}

func (g *guardedContexts) ExtractArchive(ctx context.Context, id, dir, format string, r io.Reader) (*wasmexec.ArchiveResult, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	// What it unpacks to is known once it is unpacked: reserve what the
	// body holds, as an upload of the same bytes would (the workspace's
	// own quota bounds the rest).
	var n int64
	if lr, ok := r.(interface{ Len() int }); ok {
		n = int64(lr.Len())
	}
	end, err := g.reserveWorkspaces(ctx, n)
	if err != nil {
		return nil, err
	}
	defer end(nil)
	return g.next.ExtractArchive(ctx, id, dir, format, r)
}

func (g *guardedContexts) WriteArchive(ctx context.Context, id, dir, format string, out io.Writer) error {
	if err := g.check(ctx, id); err != nil {
		return err
	}
	return g.next.WriteArchive(ctx, id, dir, format, out)
}

func (g *guardedContexts) ListFiles(ctx context.Context, id, dir string) ([]wasmexec.FileEntry, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.next.ListFiles(ctx, id, dir)
}

// guardedNPM installs into the tenant's own contexts only, and not while
// its workspaces are over maxWorkspaceBytes (checked before, like a run:
// what an install adds is known only once it is done).
type guardedNPM struct {
	next NPM
	c    *guardedContexts
}

func (g guardedNPM) Install(ctx context.Context, contextID string, req *wasmexec.NPMInstallRequest) (*wasmexec.NPMInstallResult, error) {
	if err := g.c.check(ctx, contextID); err != nil {
		return nil, err
	}
	if err := g.c.checkWorkspaces(ctx); err != nil {
		return nil, err
	}
	return g.next.Install(ctx, contextID, req)
}

// guardedHistory shows a tenant its own execution records only. The
// History is asked with the tenant in ctx (the store scopes by it, expired
// records and tombstones included); the guard also checks the Tenant of
// each record it returns, so a History that doesn't scope leaks nothing.
type guardedHistory struct {
	next History
	t    *tenancy
}

func executionNotFound(id string) error {
	return wasmexec.Errorf(wasmexec.ENotFound, "execution %s not found", id)
}

func (g guardedHistory) Get(ctx context.Context, id string) (*wasmexec.Result, error) {
	r, err := g.next.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if tn := wasmexec.TenantID(ctx); tn != "" && r.Tenant != tn {
		return nil, executionNotFound(id)
	}
	return r, nil
}

func (g guardedHistory) Output(ctx context.Context, id, after string, limit int) (*wasmexec.Replay, error) {
	if wasmexec.TenantID(ctx) != "" {
		if _, err := g.Get(ctx, id); err != nil {
			return nil, err
		}
	}
	return g.next.Output(ctx, id, after, limit)
}

// Delete removes a record of the caller's tenant only (another tenant's
// id is not_found). Defined here, not promoted from History, so a History
// with Delete never lets a tenant delete another's records.
func (g guardedHistory) Delete(ctx context.Context, id string) error {
	if wasmexec.TenantID(ctx) != "" {
		if _, err := g.Get(ctx, id); err != nil {
			return err
		}
	}
	return g.next.Delete(ctx, id)
}

// List filters each page to the tenant's records: a page may hold fewer
// than limit while hasMore is true; follow nextCursor as always.
func (g guardedHistory) List(ctx context.Context, f wasmexec.HistoryFilter) (*wasmexec.HistoryPage, error) {
	p, err := g.next.List(ctx, f)
	tn := wasmexec.TenantID(ctx)
	if err != nil || tn == "" {
		return p, err
	}
	mine := p.Executions[:0:0]
	for _, r := range p.Executions {
		if r.Tenant == tn {
			mine = append(mine, r)
		}
	}
	p.Executions = mine
	return p, nil
}

// guardedChecker counts checks as runs (their records carry the tenant
// like any run's).
type guardedChecker struct {
	next Checker
	t    *tenancy
}

func (g guardedChecker) Check(ctx context.Context, req *wasmexec.TypeScriptCheckRequest) (any, error) {
	done, err := g.t.startRun(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	return g.next.Check(ctx, req)
}

// Processes: the Processes interface takes no ctx for most calls, so the
// guard lives in the handlers (pidParam, spawnProcess, listProcesses).

// spawn checks maxProcesses and maxRunsPerMinute (a spawn starts code;
// a process doesn't hold one of maxConcurrentRuns, maxProcesses bounds
// those) and owns the new process. maxProcesses is reserved (quota.go)
// until the process is owned: processes starting count. In a cluster it
// bounds the tenant's processes on each server.
func (t *tenancy) spawn(ctx context.Context, p Processes, req *wasmexec.SpawnRequest) (d *wasmexec.Process, err error) {
	tn := wasmexec.TenantFrom(ctx)
	if tn == nil {
		return p.Spawn(ctx, req)
	}
	if req.ContextID != "" && !t.ownsContext(ctx, req.ContextID) {
		return nil, contextNotFound(req.ContextID)
	}
	st := t.state(tn.ID)
	end := noEnd
	if q := tn.Quotas.MaxProcesses; q != nil {
		end, err = st.processes.reserve(*q, 1, "", func(map[string]bool) (int64, error) {
			n := int64(0)
			for _, d := range t.visible(ctx, p.List()) {
				if d.State == wasmexec.ProcessRunning {
					n++
				}
			}
			return n, nil
		}, func(int64) error { return quotaError("maxProcesses", *q, "a process of this tenant must exit first") })
		if err != nil {
			return nil, err
		}
	}
	var own func()
	defer func() { end(own) }()
	if err := t.countStart(tn, st); err != nil {
		return nil, err
	}
	d, err = p.Spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	own = func() { t.ownProcess(p, d, tn.ID) }
	return d, nil
}

// ownProcess records the tenant of process d.
func (t *tenancy) ownProcess(p Processes, d *wasmexec.Process, tenant string) {
	var known map[int64]bool
	t.mu.Lock()
	full := len(t.processes) >= maxOwnedProcesses
	t.mu.Unlock()
	if full { // rare: forget processes the manager forgot
		known = map[int64]bool{}
		for _, q := range p.List() {
			known[q.PID] = true
		}
	}
	t.mu.Lock()
	if known != nil {
		for pid := range t.processes {
			if !known[pid] {
				delete(t.processes, pid)
			}
		}
	}
	t.processes[d.PID] = tenant
	if _, ok := t.procExecs[d.ExecutionID]; !ok {
		t.procOrder = append(t.procOrder, d.ExecutionID)
	}
	t.procExecs[d.ExecutionID] = tenant
	for len(t.procOrder) > maxOwnedProcesses {
		delete(t.procExecs, t.procOrder[0])
		t.procOrder = t.procOrder[1:]
	}
	t.mu.Unlock()
}

// visible filters processes to the tenant of ctx.
func (t *tenancy) visible(ctx context.Context, ps []*wasmexec.Process) []*wasmexec.Process {
	if wasmexec.TenantFrom(ctx) == nil {
		return ps
	}
	out := []*wasmexec.Process{}
	for _, d := range ps {
		if t.ownsPID(ctx, d.PID) {
			out = append(out, d)
		}
	}
	return out
}

// processNotFound is the manager's own answer for an unknown pid, asked
// for a pid no process has, so the two can't be told apart.
func processNotFound(p Processes, pid int64) error {
	_, err := p.Get(math.MaxInt64)
	if err == nil {
		return wasmexec.Errorf(wasmexec.ENotFound, "no process %d", pid)
	}
	return wasmexec.Errorf(wasmexec.ErrorCode(err), "%s", strings.ReplaceAll(wasmexec.ErrorMessage(err), strconv.FormatInt(math.MaxInt64, 10), strconv.FormatInt(pid, 10)))
}

// ownsPID reports whether the caller may see process pid.
func (s *Server) ownsPID(ctx context.Context, pid int64) bool {
	return s.cfg.tenancy == nil || s.cfg.tenancy.ownsPID(ctx, pid)
}

// ownsExecution reports whether the caller may see execution id: a
// process's (its live output) by the owner kept at spawn, else a stored
// record by the (guarded) history. An own record that expired counts as
// owned, so the history says so.
func (s *Server) ownsExecution(ctx context.Context, id string) bool {
	t := s.cfg.tenancy
	if t == nil || wasmexec.TenantID(ctx) == "" || t.owns(ctx, t.procExecs, id) {
		return true
	}
	if s.cfg.History == nil {
		return false
	}
	_, err := s.cfg.History.Get(ctx, id)
	return wasmexec.ErrorCode(err) != wasmexec.ENotFound
}
