// Package contexts runs code in execution contexts: named, long-lived
// guests whose state (JS top-level bindings and globals, Python module
// globals) persists from one run to the next, each with a persistent
// workspace mounted at /workspace.
//
// A context is pinned to a guest family, the guest image its language runs
// in: javascript and typescript share the JS guest (a context created for
// either accepts both), python has its own. The family is whatever image
// the Runner maps the language to, so it can't drift from the one-shot path.
//
// Runs in one context are serialized: one runs, later ones wait FIFO up to
// Config.QueueDepth, beyond that overloaded (429). A run also takes one of
// the Runner's global run slots, after its turn in the context's queue.
//
// Env and limits.memoryBytes are properties of a guest (WASI environ, the
// memory limiter), so they are fixed when the context is created; a run
// that asks for different ones is invalid_argument (400), one that repeats
// them or leaves them out is fine. Fuel, outputBytes, timeoutMs, stdin,
// inputs, args and cwd are per run. A run's `files` are written into the
// context's workspace before it starts (within the quota; they count as
// uploads).
//
// A timeout, cancel, fuel or memory exhaustion, or output limit stops the
// guest mid-run. The context survives: the result says contextReset, the
// guest is replaced by a fresh one (state gone, workspace files kept), and
// the next queued run uses it. A guest that dies for no reason wasmexec
// caused (result code internal) puts the context in failed until a reset.
//
// Workspaces: each context's workspace lives under Config.Workspaces' root
// until the context is deleted (explicitly, by idle expiry, or at Close).
// With a quota, every upload is checked first (payload_too_large) and every
// run afterwards: a run that leaves the workspace over its quota is failed
// with code quota_exceeded and the bytes it added are rolled back (files it
// created are removed, files it grew are cut back to their size before the
// run; see vfs.Workspace.Rollback). The guest and its state are kept.
//
// Idle expiry: a context nobody used (run, file call, reset) for
// Config.IdleTTL is deleted by one background loop; work in progress or in
// its queue keeps it alive.
//
// The state machine is documented at transitions (state.go).
//
// Error codes: invalid_argument (bad id, language, env, limits, paths),
// context_not_found (404), context_conflict (duplicate id, 409),
// context_language_mismatch (409), conflict (a run in a failed context,
// 409), overloaded (MaxContexts reached, the context's queue full, no run
// slot: 429), payload_too_large (quota), unavailable (closing), internal.
//
// Size: a context's state machine, queue, workspace calls, hibernation and
// durable records act on the same locked state; each file is one of
// those concerns.
package contexts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

// Defaults of Config.
const (
	DefaultIdleTTL     = 15 * time.Minute
	DefaultMaxContexts = 20000
	DefaultQueueDepth  = 16
	// guestStartTimeout bounds starting a context's guest.
	guestStartTimeout = 30 * time.Second
	// workspacePrefix names context workspaces (ctx-ID-random).
	workspacePrefix = "ctx"
)

// Config wires a Manager.
type Config struct {
	// Runner validates requests, owns the global run slots and starts
	// guests; its OnComplete hook persists context runs like any other.
	Runner wasmexec.Runner
	// Workspaces keeps the context workspaces (e.g. DATA_DIR/contexts), with
	// its quota per workspace. Leftover ctx-* workspaces from an earlier
	// process are removed by New.
	Workspaces *vfs.Manager
	// IdleTTL deletes contexts unused this long (default 15 min; negative:
	// never).
	IdleTTL time.Duration
	// SweepInterval is how often the idle loop looks (default IdleTTL/10,
	// between 1 s and 1 min).
	SweepInterval time.Duration
	// MaxContexts caps the contexts, live or hibernated (default 20000):
	// each has a record (and a workspace) on disk. More are overloaded
	// (429).
	MaxContexts int
	// MemoryBudget bounds the memory of live contexts with the rest of the
	// server (budget.go): past it, the least recently used idle contexts
	// are hibernated. 0: no budget (only HibernateAfter hibernates).
	MemoryBudget int64
	// MaxLive bounds the live guests, whatever the budget (default
	// DefaultMaxLive).
	MaxLive int
	// GuestOverhead is what a live guest costs the host outside its
	// linear memory, counted with its resident pages (default
	// DefaultGuestOverhead).
	GuestOverhead int64
	// ProcessRSS reads the server's resident set (default ProcessRSS).
	ProcessRSS func() int64
	// ReleaseMemory, when set, returns memory freed by closed guests to
	// the system (engine.ReleaseFreedMemory); the governor calls it after
	// it hibernated contexts.
	ReleaseMemory func()
	// MaxDiskBytes bounds the bytes of the contexts' records and
	// workspaces: past it, creating a context is overloaded (429). 0: no
	// bound.
	MaxDiskBytes int64
	// QueueDepth caps the requests waiting behind a context's running one
	// (default 16); more are overloaded (429).
	QueueDepth int
	// Now is the clock of timestamps and idle expiry (default time.Now).
	Now func() time.Time
	// OnDelete, when set, is called with a context's id when it is being
	// deleted (explicitly, by idle expiry or at Close), after its running
	// run stopped and before its workspace is removed: e.g. to kill the
	// processes running in that workspace.
	OnDelete func(contextID string)
	Logger   *slog.Logger

	// HibernateAfter drops the guest of a context idle this long from
	// memory (hibernated); its next run restores it. 0: never.
	HibernateAfter time.Duration
	// StateDir keeps a record of every context (durable.go): contexts are
	// listed again after a restart, with the state of their last snapshot.
	// "": contexts live only in memory (a hibernated guest's state too).
	StateDir string
	// SnapshotAfter writes the state of a context idle this long after a
	// run into its record (with StateDir). 0: only at hibernation and
	// shutdown.
	SnapshotAfter time.Duration
	// LiveProcesses, when set, counts the processes running in a context's
	// workspace: such a context is not hibernated or snapshotted.
	LiveProcesses func(contextID string) int
	// OnEvent, when set, is told of hibernations and restores
	// (EventHibernated, EventRestored).
	OnEvent func(typ, contextID string)

	// Shared, when set, is the cluster's record of contexts (package
	// cluster, wired by cmd; durable.go "Shared contexts"). StateDir is
	// required with it.
	Shared Shared
	// OnMoved, when set, is called with a context dropped because another
	// server owns it now (Drop): like OnDelete, but it is not a deletion.
	OnMoved func(contextID string)
	// Templates, when set, are what a context created with a template
	// starts from (templates.go).
	Templates wasmexec.TemplateSource
}

// Manager owns the execution contexts of a server. It is safe for
// concurrent use.
type Manager struct {
	cfg Config
	log *slog.Logger

	mu     sync.Mutex
	ctxs   map[string]*execContext
	closed bool

	stop      chan struct{}
	startOnce sync.Once
	wg        sync.WaitGroup // sweeper, background guest replacement and discards

	snapshotErrors atomic.Int64 // record writes that failed

	budget  *memBudget // nil without Config.MemoryBudget
	disk    diskUse
	commits committer // records of hibernations for the budget (commit.go)
}

// Open is New and Start: a manager whose idle loops run.
func Open(cfg Config) (*Manager, error) {
	m, err := New(cfg)
	if err != nil {
		return nil, err
	}
	m.Start()
	return m, nil
}

// New validates cfg, loads the durable records and removes stale
// workspaces. Its idle loops (expiry, hibernation, snapshots) wait for
// Start, so that what they call (Config.OnDelete, LiveProcesses) can be
// wired to managers made after this one.
func New(cfg Config) (*Manager, error) {
	if cfg.Runner == nil || cfg.Workspaces == nil {
		return nil, errors.New("contexts: Runner and Workspaces are required")
	}
	if cfg.Shared != nil && cfg.StateDir == "" {
		return nil, errors.New("contexts: Shared needs a StateDir")
	}
	if cfg.IdleTTL == 0 {
		cfg.IdleTTL = DefaultIdleTTL
	}
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = min(max(cfg.IdleTTL/10, time.Second), time.Minute)
	}
	if cfg.MaxContexts <= 0 {
		cfg.MaxContexts = DefaultMaxContexts
	}
	if cfg.QueueDepth <= 0 {
		cfg.QueueDepth = DefaultQueueDepth
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.MemoryBudget < 0 || cfg.MaxDiskBytes < 0 {
		return nil, errors.New("contexts: MemoryBudget and MaxDiskBytes can't be negative")
	}
	if cfg.GuestOverhead <= 0 {
		cfg.GuestOverhead = DefaultGuestOverhead
	}
	if cfg.ProcessRSS == nil {
		cfg.ProcessRSS = ProcessRSS
	}
	m := &Manager{cfg: cfg, log: cfg.Logger, ctxs: map[string]*execContext{}, stop: make(chan struct{})}
	m.commits.init()
	if m.cfg.MaxLive <= 0 {
		m.cfg.MaxLive = DefaultMaxLive
	}
	if cfg.MemoryBudget > 0 {
		m.budget = newBudget(cfg.MemoryBudget, m.cfg.MaxLive)
	}
	keep, err := m.loadRecords()
	if err != nil {
		return nil, err
	}
	if n, err := cfg.Workspaces.RemoveStaleExcept(workspacePrefix, keep); err != nil {
		m.log.Warn("remove stale context workspaces", "err", err)
	} else if n > 0 {
		m.log.Info("removed stale context workspaces", "count", n)
	}
	return m, nil
}

// Start starts the idle loops; Close stops them. Once only.
func (m *Manager) Start() {
	m.startOnce.Do(func() {
		if m.cfg.IdleTTL > 0 {
			m.wg.Add(1)
			go m.every(m.cfg.SweepInterval, func() { m.Sweep() })
		}
		if every := hibernatorInterval(m.cfg); every > 0 {
			m.wg.Add(1)
			go m.every(every, func() { m.IdleWork() })
		}
		if m.budget != nil {
			m.wg.Add(1)
			go m.govern()
		}
		if m.cfg.MaxDiskBytes > 0 {
			m.wg.Add(1)
			go m.every(diskEvery, m.measureDisk)
		}
	})
}

// Close deletes every context (cancelling running runs) and stops the idle
// loop. Later calls get unavailable.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	all := slices.Collect(maps.Values(m.ctxs))
	m.mu.Unlock()
	close(m.stop)
	if m.cfg.StateDir != "" { // durable: snapshot and keep them
		var wg sync.WaitGroup
		for _, c := range all {
			wg.Go(func() { m.shutdown(c) })
		}
		wg.Wait()
		m.wg.Wait()
		return
	}
	var wg sync.WaitGroup
	for _, c := range all {
		wg.Go(func() { m.delete(c, "close") })
	}
	wg.Wait()
	m.wg.Wait()
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidateID checks a client-chosen context id (invalid_argument).
func ValidateID(id string) error {
	if !idPattern.MatchString(id) {
		return wasmexec.Errorf(wasmexec.EInvalid, "contextId must be 1-64 characters of A-Z, a-z, 0-9, _ and -; got %q", truncate(id, 80))
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// lookup returns a live context (context_not_found otherwise).
func (m *Manager) lookup(id string) (*execContext, error) {
	return m.find(id, false)
}

// find returns a context, also one being deleted when withDeleting.
func (m *Manager) find(id string, withDeleting bool) (*execContext, error) {
	if id == "" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "contextId is required")
	}
	m.mu.Lock()
	c := m.ctxs[id]
	m.mu.Unlock()
	if c == nil {
		return nil, notFound(id)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.creating || (c.state == wasmexec.ContextDeleting && !withDeleting) {
		return nil, notFound(id)
	}
	return c, nil
}

// Create makes a context and starts its guest. A context created without
// a language has no guest until its first run, which pins it to that
// language's family. Errors: invalid_argument,
// context_conflict (the id exists), overloaded (MaxContexts), unavailable,
// internal (the guest failed to start).
func (m *Manager) Create(ctx context.Context, spec *wasmexec.ContextSpec) (*wasmexec.Context, error) {
	if spec.Template != "" {
		return m.createFromTemplate(ctx, spec)
	}
	return m.create(ctx, spec, func(ctx context.Context, c *execContext) (wasmexec.Guest, error) {
		if c.family.Name == "" {
			return nil, nil
		}
		return m.startGuest(ctx, c)
	})
}

// create makes a context whose first guest setup returns (nil: none yet).
func (m *Manager) create(ctx context.Context, spec *wasmexec.ContextSpec, setup func(context.Context, *execContext) (wasmexec.Guest, error)) (*wasmexec.Context, error) {
	id := spec.ContextID
	if id == "" {
		id = wasmexec.NewID("ctx")
	} else if err := ValidateID(id); err != nil {
		return nil, err
	}
	var family wasmexec.Family // unpinned: its first run chooses
	if spec.Language != "" {
		f, err := m.cfg.Runner.Family(spec.Language)
		if err != nil {
			return nil, err
		}
		family = f
	}
	if spec.Limits.Fuel != 0 || spec.Limits.OutputBytes != 0 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "only limits.memoryBytes is fixed when a context is created; fuel and outputBytes are set per run")
	}
	lim, _, err := m.cfg.Runner.Policy().Resolve(wasmexec.Limits{MemoryBytes: spec.Limits.MemoryBytes}, 0, family.MinMemoryBytes)
	if err != nil {
		return nil, err
	}
	if err := wasmexec.ValidateEnv(spec.Env); err != nil {
		return nil, err
	}
	if err := m.cfg.Runner.Policy().CheckNetwork(spec.Network, spec.Secrets, spec.Env); err != nil {
		return nil, err
	}
	now := m.cfg.Now()
	c := &execContext{
		id: id, language: spec.Language, family: family, env: maps.Clone(spec.Env), memory: lim.MemoryBytes, tenant: wasmexec.TenantID(ctx),
		network: spec.Network, secrets: maps.Clone(spec.Secrets),
		created: now, lastUsed: now, state: wasmexec.ContextIdle, creating: true, busy: true, gone: make(chan struct{}),
	}
	m.mu.Lock()
	switch {
	case m.closed:
		m.mu.Unlock()
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the server is shutting down")
	case m.ctxs[id] != nil:
		m.mu.Unlock()
		return nil, wasmexec.Errorf(wasmexec.EContextConflict, "context %q already exists", id)
	case len(m.ctxs) >= m.cfg.MaxContexts:
		m.mu.Unlock()
		return nil, wasmexec.Errorf(wasmexec.EOverloaded, "the server already has %d contexts, the most it holds (max-contexts); delete one or retry later", m.cfg.MaxContexts)
	}
	if err := m.roomOnDisk(); err != nil {
		m.mu.Unlock()
		return nil, err
	}
	m.ctxs[id] = c
	m.mu.Unlock()

	fail := func(err error) (*wasmexec.Context, error) {
		c.mu.Lock()
		closing := c.state == wasmexec.ContextDeleting // Close got to it first
		if !closing {
			c.to(wasmexec.ContextDeleting)
		}
		c.mu.Unlock()
		if closing {
			c.release() // to the deleter, which tears it down
		} else {
			m.teardown(c, "create failed")
		}
		return nil, err
	}
	if m.cfg.Shared != nil {
		if err := m.cfg.Shared.Register(ctx, id, c.tenant); err != nil {
			return fail(err)
		}
		c.shared = true
	}
	ws, err := m.cfg.Workspaces.New(workspacePrefix + "-" + id)
	if err != nil {
		return fail(err)
	}
	c.ws = ws
	c.ws.TrackUsage()
	m.wsChanged(c)
	sctx, cancel := context.WithTimeout(ctx, guestStartTimeout)
	g, err := setup(sctx, c)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return fail(wasmexec.Errorf(wasmexec.EOverloaded, "context creation was cancelled: %v", ctx.Err()))
		}
		return fail(fmt.Errorf("start the %s guest: %w", family.Name, err))
	}
	c.guest = g
	c.mu.Lock()
	c.creating = false
	c.mu.Unlock()
	if m.cfg.StateDir != "" {
		// Listed again after a restart, fresh until its first snapshot.
		m.writeRecord(c, nil, time.Time{})
	}
	c.release()
	m.log.Debug("context created", "contextId", id, "language", spec.Language)
	return m.describe(c), nil
}

// Get returns a context's descriptor (context_not_found). A context being
// deleted is shown (state deleting) until it is gone.
func (m *Manager) Get(ctx context.Context, id string) (*wasmexec.Context, error) {
	c, err := m.find(id, true)
	if err != nil {
		return nil, err
	}
	return m.describe(c), nil
}

// List returns every context, oldest first.
func (m *Manager) List(ctx context.Context) ([]*wasmexec.Context, error) {
	m.mu.Lock()
	all := slices.Collect(maps.Values(m.ctxs))
	m.mu.Unlock()
	out := make([]*wasmexec.Context, 0, len(all))
	for _, c := range all {
		c.mu.Lock()
		hidden := c.creating
		c.mu.Unlock()
		if !hidden {
			out = append(out, m.describe(c))
		}
	}
	slices.SortFunc(out, func(a, b *wasmexec.Context) int {
		if a.CreatedAtMs != b.CreatedAtMs {
			return int(a.CreatedAtMs - b.CreatedAtMs)
		}
		return strings.Compare(a.ContextID, b.ContextID)
	})
	return out, nil
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return wasmexec.Millis(t)
}

func (m *Manager) describe(c *execContext) *wasmexec.Context {
	c.mu.Lock()
	d := &wasmexec.Context{
		ContextID: c.id, Language: c.language, State: c.state,
		CreatedAtMs: ms(c.created), LastStartedAtMs: ms(c.lastStarted), LastCompletedAtMs: ms(c.lastCompleted),
		MemoryBytes: c.memory, Runs: c.runs, Resets: c.resets, Queued: len(c.waiters),
		Hibernated: c.hib.hibernated, SnapshotBytes: c.hib.snapBytes, Notice: c.hib.notice,
		StateAsOfMs: ms(c.hib.stateAsOf), RestoredAtMs: ms(c.hib.restoredAt),
		Network: c.network,
	}
	for name := range c.secrets {
		d.Secrets = append(d.Secrets, name)
	}
	sort.Strings(d.Secrets)
	if c.failure != nil {
		f := *c.failure
		d.Error = &f
	}
	if m.cfg.IdleTTL > 0 && m.evictable(c) {
		d.IdleExpiresAtMs = ms(c.lastUsed.Add(m.cfg.IdleTTL))
	}
	c.mu.Unlock()
	if c.ws != nil {
		used, err := c.ws.Usage()
		if err == nil {
			d.Workspace = &wasmexec.WorkspaceUsage{UsedBytes: used, QuotaBytes: c.ws.Quota}
		}
	}
	return d
}

// evictable: nothing in progress or waiting. c.mu held.
func (m *Manager) evictable(c *execContext) bool {
	return (c.state == wasmexec.ContextIdle || c.state == wasmexec.ContextFailed) && !c.busy && len(c.waiters) == 0 && !c.creating
}

// Reset replaces the context's guest with a fresh one: state is gone,
// workspace files stay. A running run is cancelled first (its result is
// cancelled with contextReset); queued runs then use the new guest. A
// failed context becomes idle again. Errors: context_not_found, internal
// (the new guest failed to start: the context is failed).
func (m *Manager) Reset(ctx context.Context, id string) (*wasmexec.Context, error) {
	c, err := m.lookup(id)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	var w *waiter
	queued := false
	if c.state == wasmexec.ContextRunning && c.cancel != nil {
		if err := c.to(wasmexec.ContextResetting); err != nil {
			c.mu.Unlock()
			return nil, err
		}
		c.cancel(errPreempted)
		// In line at the front in the same step: a run queued behind the
		// cancelled one must not take the slot from a context that says
		// resetting.
		if w, err = c.enqueue(0, atFront); err != nil {
			c.mu.Unlock()
			return nil, err
		}
		queued = true
	}
	c.lastUsed = m.cfg.Now()
	c.mu.Unlock()
	// Waiting can't be abandoned: the running run was told to stop and the
	// state may already say resetting.
	switch {
	case w != nil:
		err = c.wait(context.WithoutCancel(ctx), w)
	case !queued:
		err = c.acquire(context.WithoutCancel(ctx), 0, atFront)
	}
	if err != nil {
		return nil, err
	}
	err = m.replaceGuest(c)
	c.release()
	if err != nil {
		return nil, err
	}
	m.log.Debug("context reset", "contextId", id)
	return m.describe(c), nil
}

// errPreempted is the cancel cause of a run stopped by a reset or delete.
var errPreempted = errors.New("preempted by a reset or delete")

// replaceGuest discards the guest and starts a fresh one. Slot held.
// Errors leave the context failed.
func (m *Manager) replaceGuest(c *execContext) error {
	c.mu.Lock()
	if c.state == wasmexec.ContextDeleting {
		c.mu.Unlock()
		return notFound(c.id)
	}
	if c.state != wasmexec.ContextResetting {
		if err := c.to(wasmexec.ContextResetting); err != nil {
			c.mu.Unlock()
			return err
		}
	}
	c.mu.Unlock()
	if c.guest != nil {
		m.discard(c.guest)
		c.guest = nil
		m.dropped(c)
	}
	c.mu.Lock()
	c.hib.hibernated, c.hib.pending, c.hib.fromRecord, c.hib.dirty = false, nil, false, true
	c.mu.Unlock()
	if c.family.Name == "" { // unpinned: no guest until its first run
		c.mu.Lock()
		defer c.mu.Unlock()
		c.resets++
		if c.state != wasmexec.ContextResetting {
			return nil
		}
		c.failure = nil
		return c.to(wasmexec.ContextIdle)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guestStartTimeout)
	g, err := m.startGuest(ctx, c)
	cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.resets++
	if err != nil {
		m.log.Error("start a context guest", "contextId", c.id, "err", err)
		c.failure = &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Name: "GuestError", Message: "a fresh guest failed to start: " + err.Error()}
		if c.state == wasmexec.ContextResetting {
			c.state = wasmexec.ContextFailed
		}
		return fmt.Errorf("reset context %s: %w", c.id, err)
	}
	if c.state != wasmexec.ContextResetting { // deleted meanwhile: the deleter closes it
		c.guest = g
		return nil
	}
	c.guest, c.failure = g, nil
	return c.to(wasmexec.ContextIdle)
}

// startGuest starts a guest for c in its workspace, admitted to the
// memory budget first (it is counted from now on; not if it fails).
func (m *Manager) startGuest(ctx context.Context, c *execContext) (wasmexec.Guest, error) {
	if err := m.admit(ctx, c, 0); err != nil {
		return nil, err
	}
	g, err := m.cfg.Runner.StartGuest(ctx, c.guestSpec())
	if err != nil {
		m.dropped(c)
	}
	return g, err
}

// guestSpec is what every guest of c is started or restored with. Its env
// holds the secrets' placeholders: a restore is refused unless it is given
// the environment its state was captured with, so a guest started with
// them must be restored with them too.
func (c *execContext) guestSpec() wasmexec.GuestSpec {
	return wasmexec.GuestSpec{Language: c.language, Env: wasmexec.SecretEnv(c.env, c.secrets), MemoryBytes: c.memory, Workspace: c.ws.Root}
}

// discard closes a guest off the caller's path (a stuck guest takes up to
// a couple of seconds to give up).
func (m *Manager) discard(g wasmexec.Guest) {
	m.wg.Go(g.Close)
}

// Delete cancels a running run, waits for it to stop, then removes the
// context's guest and workspace. Queued runs get context_not_found.
// Errors: context_not_found.
func (m *Manager) Delete(ctx context.Context, id string) error {
	m.mu.Lock()
	c := m.ctxs[id]
	m.mu.Unlock()
	if c == nil {
		return notFound(id)
	}
	c.mu.Lock()
	hidden := c.creating
	c.mu.Unlock()
	if hidden {
		return notFound(id)
	}
	m.delete(c, "delete")
	return nil
}

// delete tears c down; concurrent calls wait for the first.
func (m *Manager) delete(c *execContext, why string) { m.remove(c, why, false) }

// remove tears c down, deleted or (moved) served by another server from
// now on: its run is cancelled and its queued runs get context_not_found,
// or unavailable when it moved (they retry and reach the owner).
// Concurrent calls wait for the first.
func (m *Manager) remove(c *execContext, why string, moved bool) {
	c.mu.Lock()
	if c.state == wasmexec.ContextDeleting {
		gone := c.gone
		c.mu.Unlock()
		<-gone
		return
	}
	if err := c.to(wasmexec.ContextDeleting); err != nil {
		m.log.Error("delete context", "err", err)
		c.state = wasmexec.ContextDeleting
	}
	waiters, cause := wasmexec.Errorf(wasmexec.EContextNotFound, "context %q was deleted", c.id), errPreempted
	if moved {
		c.moved = true
		waiters, cause = wasmexec.Errorf(wasmexec.EUnavailable, "context %s moved to another server; retry", c.id), errMoved
	}
	c.failWaiters(waiters)
	if c.cancel != nil {
		c.cancel(cause)
	}
	c.mu.Unlock()
	c.acquire(context.Background(), 0, asDelete)
	m.teardown(c, why)
}

// teardown removes a deleting context whose slot is held.
func (m *Manager) teardown(c *execContext, why string) {
	if c.guest != nil {
		c.guest.Close()
		c.guest = nil
	}
	m.dropped(c)
	c.mu.Lock()
	visible := !c.creating
	c.failWaiters(notFound(c.id)) // anyone who slipped in line meanwhile
	c.mu.Unlock()
	switch {
	case c.moved:
		if m.cfg.OnMoved != nil {
			m.cfg.OnMoved(c.id)
		}
	case m.cfg.OnDelete != nil && visible:
		m.cfg.OnDelete(c.id)
	}
	if c.shared && !c.moved {
		m.cfg.Shared.Forget(c.id)
	}
	m.removeRecord(c.id)
	m.disk.forget(c.id)
	c.wsMu.Lock()
	if c.ws != nil {
		if err := c.ws.Remove(); err != nil {
			m.log.Error("remove context workspace", "contextId", c.id, "err", err)
		}
	}
	c.wsMu.Unlock()
	m.mu.Lock()
	if m.ctxs[c.id] == c {
		delete(m.ctxs, c.id)
	}
	m.mu.Unlock()
	close(c.gone)
	m.log.Debug("context deleted", "contextId", c.id, "reason", why)
}

// WorkspaceDir returns the host directory of a context's workspace (for
// processes that run in it). Errors: context_not_found.
func (m *Manager) WorkspaceDir(id string) (string, error) {
	c, err := m.lookup(id)
	if err != nil {
		return "", err
	}
	c.ws.GuestWriting() // whoever asks writes there outside the file calls
	return c.ws.Root, nil
}

// Sweep deletes the contexts idle for longer than IdleTTL now, and returns
// how many. The idle loop calls it every SweepInterval.
func (m *Manager) Sweep() int {
	if m.cfg.IdleTTL <= 0 {
		return 0
	}
	now := m.cfg.Now()
	m.mu.Lock()
	all := slices.Collect(maps.Values(m.ctxs))
	m.mu.Unlock()
	n := 0
	for _, c := range all {
		c.mu.Lock()
		idle := now.Sub(c.lastUsed)
		expired := m.evictable(c) && idle >= m.cfg.IdleTTL && c.to(wasmexec.ContextDeleting) == nil
		if expired {
			c.busy = true // take the slot now: no run can slip in before the teardown
		}
		c.mu.Unlock()
		if expired {
			m.log.Info("context expired", "contextId", c.id, "idle", idle.Round(time.Second).String())
			m.teardown(c, "idle")
			n++
		}
	}
	return n
}

// every runs fn every d until Close: the idle-TTL sweep and the idle work
// (snapshots, hibernation) are such loops, started in New.
func (m *Manager) every(d time.Duration, fn func()) {
	defer m.wg.Done()
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			fn()
		case <-m.stop:
			return
		}
	}
}

// touch records use of the context now.
func (m *Manager) touch(c *execContext) {
	c.mu.Lock()
	c.lastUsed = m.cfg.Now()
	c.mu.Unlock()
}
