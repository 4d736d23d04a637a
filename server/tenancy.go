package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec/exec"
)

// The tenancy guard: with API keys, every context, process and execution
// record belongs to the tenant whose key created it; another tenant's id
// answers exactly like an unknown one (404, same code, same message), and
// the tenant's quotas are checked before the work starts (429 quota_exceeded
// with Retry-After, the message naming the quota).
//
// Ownership is kept in memory: after a restart, execution records of the
// previous life belong to no tenant and are hidden from all (fail closed);
// contexts and processes don't survive a restart anyway. A context id is
// one namespace for all tenants: creating an id another tenant holds is a
// 409 context_conflict, which says the id is taken and nothing else.
type tenancy struct {
	mu         sync.Mutex
	contexts   map[string]string // context id → tenant
	processes  map[int64]string  // pid → tenant
	executions map[string]string // execution id → tenant
	execOrder  []string          // FIFO of executions, to bound the map
	tenants    map[string]*tenantState
	now        func() time.Time
}

// maxOwnedExecutions bounds the execution ownership map (the store keeps
// far fewer by default: --execution-max-completed-executions).
const maxOwnedExecutions = 1 << 18

type tenantState struct {
	running int64
	starts  []time.Time // run starts within the last minute, oldest first
}

func newTenancy() *tenancy {
	return &tenancy{contexts: map[string]string{}, processes: map[int64]string{}, executions: map[string]string{}, tenants: map[string]*tenantState{}, now: time.Now}
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
		if cfg.Runner != nil {
			cfg.Runner = eventRunner{cfg.Runner, hub}
		}
		if cfg.Contexts != nil {
			cfg.Contexts = eventContexts{cfg.Contexts, hub, cfg.ContextDeletions}
		}
	}
	if cfg.Auth == nil {
		return cfg
	}
	t := newTenancy()
	for id, tn := range cfg.ContextOwners {
		if tn != "" {
			t.contexts[id] = tn
		}
	}
	cfg.tenancy = t
	if cfg.Runner != nil {
		cfg.Runner = guardedRunner{cfg.Runner, t}
	}
	if cfg.Contexts != nil {
		cfg.Contexts = &guardedContexts{cfg.Contexts, t}
	}
	if cfg.History != nil {
		cfg.History = guardedHistory{cfg.History, t}
	}
	if cfg.Checker != nil {
		cfg.Checker = guardedChecker{cfg.Checker, t}
	}
	return cfg
}

func quotaError(name string, limit int64, what string) error {
	return exec.Errorf(exec.EQuota, "quota %s (%d) reached: %s", name, limit, what)
}

// retryAfterError is an error that says when to retry.
type retryAfterError struct {
	err     *exec.Error
	seconds int
}

func (e *retryAfterError) Error() string { return e.err.Error() }
func (e *retryAfterError) Unwrap() error { return e.err }

// startRun checks maxRunsPerMinute and maxConcurrentRuns and counts the
// run; the returned func ends it.
func (t *tenancy) startRun(ctx context.Context) (func(), error) {
	tn := exec.TenantFrom(ctx)
	if tn == nil {
		return func() {}, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.tenants[tn.ID]
	if st == nil {
		st = &tenantState{}
		t.tenants[tn.ID] = st
	}
	now := t.now()
	for len(st.starts) > 0 && now.Sub(st.starts[0]) >= time.Minute {
		st.starts = st.starts[1:]
	}
	if q := tn.Quotas.MaxRunsPerMinute; q != nil && int64(len(st.starts)) >= *q {
		wait := time.Minute
		if len(st.starts) > 0 {
			wait = time.Minute - now.Sub(st.starts[0])
		}
		return nil, &retryAfterError{exec.Errorf(exec.EQuota, "quota maxRunsPerMinute (%d) reached: wait before the next run", *q), int(math.Ceil(wait.Seconds()))}
	}
	if q := tn.Quotas.MaxConcurrentRuns; q != nil && st.running >= *q {
		return nil, quotaError("maxConcurrentRuns", *q, "a run of this tenant must finish first")
	}
	st.running++
	st.starts = append(st.starts, now)
	return func() {
		t.mu.Lock()
		st.running--
		t.mu.Unlock()
	}, nil
}

func (t *tenancy) ownExecution(ctx context.Context, id string) {
	tn := exec.TenantID(ctx)
	if tn == "" || id == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.executions[id]; !ok {
		t.execOrder = append(t.execOrder, id)
	}
	t.executions[id] = tn
	for len(t.execOrder) > maxOwnedExecutions {
		delete(t.executions, t.execOrder[0])
		t.execOrder = t.execOrder[1:]
	}
}

// owns reports whether the tenant of ctx may see an id (always, without a
// tenant).
func (t *tenancy) owns(ctx context.Context, m map[string]string, id string) bool {
	tn := exec.TenantID(ctx)
	if tn == "" {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return m[id] == tn
}

func (t *tenancy) ownsPID(ctx context.Context, pid int64) bool {
	tn := exec.TenantID(ctx)
	if tn == "" {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.processes[pid] == tn
}

// guardedRunner counts one-shot runs against their tenant.
type guardedRunner struct {
	Runner
	t *tenancy
}

func (g guardedRunner) Run(ctx context.Context, req *exec.Request, opts exec.RunOptions) (*exec.Result, error) {
	done, err := g.t.startRun(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	res, err := g.Runner.Run(ctx, req, opts)
	if res != nil {
		g.t.ownExecution(ctx, res.ExecutionID)
	}
	return res, err
}

// guardedContexts scopes contexts to their tenant.
type guardedContexts struct {
	Contexts
	t *tenancy
}

func contextNotFound(id string) error { return exec.Errorf(exec.EContextNotFound, "no context %q", id) }

func (g *guardedContexts) check(ctx context.Context, id string) error {
	if !g.t.owns(ctx, g.t.contexts, id) {
		return contextNotFound(id)
	}
	return nil
}

// owned returns the live contexts of the tenant of ctx, forgetting the
// ones that are gone (deleted by idle expiry).
func (g *guardedContexts) owned(ctx context.Context) ([]*exec.Context, error) {
	tn := exec.TenantID(ctx)
	all, err := g.Contexts.List(ctx)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	var mine []*exec.Context
	g.t.mu.Lock()
	for _, c := range all {
		live[c.ContextID] = true
		if g.t.contexts[c.ContextID] == tn {
			mine = append(mine, c)
		}
	}
	for id := range g.t.contexts {
		if !live[id] {
			delete(g.t.contexts, id)
		}
	}
	g.t.mu.Unlock()
	return mine, nil
}

func (g *guardedContexts) Create(ctx context.Context, spec *exec.ContextSpec) (*exec.Context, error) {
	tn := exec.TenantFrom(ctx)
	if tn == nil {
		return g.Contexts.Create(ctx, spec)
	}
	if q := tn.Quotas.MaxContexts; q != nil {
		mine, err := g.owned(ctx)
		if err != nil {
			return nil, err
		}
		if int64(len(mine)) >= *q {
			return nil, quotaError("maxContexts", *q, "delete a context first")
		}
	}
	c, err := g.Contexts.Create(ctx, spec)
	if err != nil {
		return nil, err
	}
	g.t.mu.Lock()
	g.t.contexts[c.ContextID] = tn.ID
	g.t.mu.Unlock()
	return c, nil
}

// checkWorkspaces fails with maxWorkspaceBytes when the tenant's
// workspaces, plus adding bytes, would hold more than its quota. Runs are
// checked before they start (with adding 0: a tenant already over its
// quota runs nothing in its contexts until it deletes files).
func (g *guardedContexts) checkWorkspaces(ctx context.Context, adding int64) error {
	tn := exec.TenantFrom(ctx)
	if tn == nil || tn.Quotas.MaxWorkspaceBytes == nil {
		return nil
	}
	mine, err := g.owned(ctx)
	if err != nil {
		return err
	}
	used := adding
	for _, c := range mine {
		if c.Workspace != nil {
			used += c.Workspace.UsedBytes
		}
	}
	if q := *tn.Quotas.MaxWorkspaceBytes; used > q {
		return quotaError("maxWorkspaceBytes", q, fmt.Sprintf("the tenant's workspaces would hold %d bytes", used))
	}
	return nil
}

func (g *guardedContexts) Run(ctx context.Context, req *exec.Request) (*exec.Result, error) {
	if err := g.check(ctx, req.ContextID); err != nil {
		return nil, err
	}
	if err := g.checkWorkspaces(ctx, 0); err != nil {
		return nil, err
	}
	done, err := g.t.startRun(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	res, err := g.Contexts.Run(ctx, req)
	if res != nil {
		g.t.ownExecution(ctx, res.ExecutionID)
	}
	return res, err
}

func (g *guardedContexts) Get(ctx context.Context, id string) (*exec.Context, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.Contexts.Get(ctx, id)
}

func (g *guardedContexts) List(ctx context.Context) ([]*exec.Context, error) {
	if exec.TenantFrom(ctx) == nil {
		return g.Contexts.List(ctx)
	}
	return g.owned(ctx)
}

func (g *guardedContexts) Reset(ctx context.Context, id string) (*exec.Context, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.Contexts.Reset(ctx, id)
}

func (g *guardedContexts) Hibernate(ctx context.Context, id string) (*exec.Context, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.Contexts.Hibernate(ctx, id)
}

// Fork is a Create for the tenant (its maxContexts quota, its workspace
// bytes grow by the copy) of a context it owns.
func (g *guardedContexts) Fork(ctx context.Context, id string, spec *exec.ForkSpec) (*exec.Context, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	tn := exec.TenantFrom(ctx)
	if tn == nil {
		return g.Contexts.Fork(ctx, id, spec)
	}
	if q := tn.Quotas.MaxContexts; q != nil {
		mine, err := g.owned(ctx)
		if err != nil {
			return nil, err
		}
		if int64(len(mine)) >= *q {
			return nil, quotaError("maxContexts", *q, "delete a context first")
		}
	}
	src, err := g.Contexts.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if src.Workspace != nil {
		if err := g.checkWorkspaces(ctx, src.Workspace.UsedBytes); err != nil {
			return nil, err
		}
	}
	c, err := g.Contexts.Fork(ctx, id, spec)
	if err != nil {
		return nil, err
	}
	g.t.mu.Lock()
	g.t.contexts[c.ContextID] = tn.ID
	g.t.mu.Unlock()
	return c, nil
}

func (g *guardedContexts) Delete(ctx context.Context, id string) error {
	if err := g.check(ctx, id); err != nil {
		return err
	}
	if err := g.Contexts.Delete(ctx, id); err != nil {
		return err
	}
	g.t.mu.Lock()
	delete(g.t.contexts, id)
	g.t.mu.Unlock()
	return nil
}

func (g *guardedContexts) WriteFile(ctx context.Context, id, path string, data []byte) (*exec.FileEntry, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	if err := g.checkWorkspaces(ctx, int64(len(data))); err != nil {
		return nil, err
	}
	return g.Contexts.WriteFile(ctx, id, path, data)
}

func (g *guardedContexts) ReadFile(ctx context.Context, id, path string) ([]byte, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.Contexts.ReadFile(ctx, id, path)
}

func (g *guardedContexts) DeleteFile(ctx context.Context, id, path string) error {
	if err := g.check(ctx, id); err != nil {
		return err
	}
	return g.Contexts.DeleteFile(ctx, id, path)
}

func (g *guardedContexts) ListFiles(ctx context.Context, id, dir string) ([]exec.FileEntry, error) {
	if err := g.check(ctx, id); err != nil {
		return nil, err
	}
	return g.Contexts.ListFiles(ctx, id, dir)
}

// guardedHistory shows a tenant its own execution records only.
type guardedHistory struct {
	History
	t *tenancy
}

func executionNotFound(id string) error {
	return exec.Errorf(exec.ENotFound, "execution %s not found", id)
}

func (g guardedHistory) Get(ctx context.Context, id string) (*exec.Result, error) {
	if !g.t.owns(ctx, g.t.executions, id) {
		return nil, executionNotFound(id)
	}
	return g.History.Get(ctx, id)
}

func (g guardedHistory) Output(ctx context.Context, id, after string, limit int) (*exec.Replay, error) {
	if !g.t.owns(ctx, g.t.executions, id) {
		return nil, executionNotFound(id)
	}
	return g.History.Output(ctx, id, after, limit)
}

// Delete removes a record of the caller's tenant only (another tenant's
// id is not_found). Defined here, not promoted from History, so a History
// with Delete never lets a tenant delete another's records.
func (g guardedHistory) Delete(ctx context.Context, id string) error {
	if !g.t.owns(ctx, g.t.executions, id) {
		return executionNotFound(id)
	}
	d, ok := g.History.(interface {
		Delete(ctx context.Context, id string) error
	})
	if !ok {
		return notImplemented("deleting executions")
	}
	return d.Delete(ctx, id)
}

// List filters each page to the tenant's records: a page may hold fewer
// than limit while hasMore is true; follow nextCursor as always.
func (g guardedHistory) List(ctx context.Context, f ListFilter) (*ListPage, error) {
	p, err := g.History.List(ctx, f)
	if err != nil || exec.TenantFrom(ctx) == nil {
		return p, err
	}
	mine := p.Executions[:0:0]
	for _, r := range p.Executions {
		if g.t.owns(ctx, g.t.executions, r.ExecutionID) {
			mine = append(mine, r)
		}
	}
	p.Executions = mine
	return p, nil
}

// guardedChecker counts checks as runs and owns their records.
type guardedChecker struct {
	Checker
	t *tenancy
}

func (g guardedChecker) Check(ctx context.Context, req *CheckRequest) (any, error) {
	done, err := g.t.startRun(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	res, err := g.Checker.Check(ctx, req)
	if err == nil {
		if b, e := json.Marshal(res); e == nil {
			var r struct {
				ExecutionID string `json:"executionId"`
			}
			if json.Unmarshal(b, &r) == nil {
				g.t.ownExecution(ctx, r.ExecutionID)
			}
		}
	}
	return res, err
}

// Processes: the Processes interface takes no ctx for most calls, so the
// guard lives in the handlers (pidParam, spawnProcess, listProcesses).

// spawn checks maxProcesses and owns the new process.
func (t *tenancy) spawn(ctx context.Context, p Processes, req *exec.SpawnRequest) (*exec.Process, error) {
	tn := exec.TenantFrom(ctx)
	if tn == nil {
		return p.Spawn(ctx, req)
	}
	if req.ContextID != "" && !t.owns(ctx, t.contexts, req.ContextID) {
		return nil, contextNotFound(req.ContextID)
	}
	if q := tn.Quotas.MaxProcesses; q != nil {
		n := int64(0)
		for _, d := range t.visible(ctx, p.List()) {
			if d.State == exec.ProcessRunning {
				n++
			}
		}
		if n >= *q {
			return nil, quotaError("maxProcesses", *q, "a process of this tenant must exit first")
		}
	}
	d, err := p.Spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.processes[d.PID] = tn.ID
	t.mu.Unlock()
	t.ownExecution(ctx, d.ExecutionID)
	return d, nil
}

// visible filters processes to the tenant of ctx.
func (t *tenancy) visible(ctx context.Context, ps []*exec.Process) []*exec.Process {
	if exec.TenantFrom(ctx) == nil {
		return ps
	}
	out := []*exec.Process{}
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
		return exec.Errorf(exec.ENotFound, "no process %d", pid)
	}
	return exec.Errorf(exec.ErrorCode(err), "%s", strings.ReplaceAll(exec.ErrorMessage(err), strconv.FormatInt(math.MaxInt64, 10), strconv.FormatInt(pid, 10)))
}

// ownsPID reports whether the caller may see process pid.
func (s *Server) ownsPID(ctx context.Context, pid int64) bool {
	return s.cfg.tenancy == nil || s.cfg.tenancy.ownsPID(ctx, pid)
}

// ownsExecution reports whether the caller may see execution id.
func (s *Server) ownsExecution(ctx context.Context, id string) bool {
	return s.cfg.tenancy == nil || s.cfg.tenancy.owns(ctx, s.cfg.tenancy.executions, id)
}
