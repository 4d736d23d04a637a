// Package templates keeps warm templates (docs/TEMPLATES.md): guests
// prepared once (packages installed, files seeded, setup code run) and
// captured with their workspace, which runs, processes and contexts start
// from in milliseconds instead of importing the same libraries again.
//
// A template is much like a hibernated context that never runs itself: a
// record file (durable.go: its recipe and descriptor, then the guest's
// state, page-aligned so that a restore maps its pages copy-on-write) and
// a workspace directory nobody writes. A run from it restores the state
// into a fresh guest whose workspace is a copy of the template's (the
// pipeline's guest step, pipeline/template.go).
//
// Its life, one state at a time (wasmexec.TemplateState):
//
//	building  Create (or a restart that found it building, or a state the
//	          engine refused) started its build: install, seed, the setup
//	          run (a run of the pipeline like any other: its limits apply,
//	          its record is kind template_build), capture. Runs from it wait.
//	ready     built: runs start from it. A run whose restore the engine
//	          refuses (another image, wasmtime or engine configuration)
//	          sends it back to building, from its recipe, with the reason
//	          in its notice.
//	failed    its build failed: it holds nothing but its descriptor (and
//	          the reason) until it is deleted.
//
// Deletion is immediate for new runs; runs holding it (copying its
// workspace, mapping its state) keep what they hold.
//
// Implicit templates (implicit.go) are the server's own, one per tenant,
// language and package set of one-shot runs; they are evicted least
// recently used first once they hold more than Config.MaxImplicitBytes.
//
// Size: the manager, its builds, its durable records and its implicit
// templates share one locked table of templates; each file is one of
// those concerns.
package templates

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

// Defaults of Config.
const (
	DefaultMaxStateBytes    = 512 << 20
	DefaultMaxImplicitBytes = 2 << 30
	DefaultMaxBuilds        = 2
	// workspacePrefix names template workspaces (tpl-random).
	workspacePrefix = "tpl"
)

// Config wires a Manager.
type Config struct {
	// Runner runs the builds and starts their guests (the pipeline).
	Runner wasmexec.Runner
	// Dir keeps the records (ID.tpl) and, under workspaces/, the
	// workspaces; "" keeps nothing across a restart (a temporary dir).
	Dir string
	// WorkspaceLimits bound a template's workspace, as one of a context.
	WorkspaceLimits vfs.Limits
	// MaxStateBytes refuses a build whose captured state is larger.
	MaxStateBytes int64
	// MaxImplicitBytes evicts implicit templates, least recently used
	// first, past what they hold together; 0 makes none (one-shot runs
	// with packages install them every time), negative has no bound.
	MaxImplicitBytes int64
	// MaxBuilds bounds the builds under way at once (more wait their turn).
	MaxBuilds int
	// Shared, when set, is the cluster's record of templates (shared.go):
	// the templates are the cluster's, Dir only this node's cache of them
	// (emptied at start).
	Shared Shared
	// Scratch makes the one-shot runs' workspaces: the spare copies of a
	// template's workspace are made there (spares.go). nil: none.
	Scratch wasmexec.WorkspaceFactory
	// Spares is how many copies of a large template workspace are kept
	// ready (0: none).
	Spares int
	// SpareGuests is how many guests restored from a template's state
	// are kept ready for the one-shot runs from it, once one ran (0:
	// none; at most maxSpareGuests for all templates together).
	SpareGuests int
	// OnEvent, when set, is told of template.building, template.ready,
	// template.failed and template.deleted.
	OnEvent func(typ string, t *wasmexec.Template)
	Now     func() time.Time
	Logger  *slog.Logger
}

// Lifecycle events reported through Config.OnEvent.
const (
	EventBuilding = "template.building"
	EventReady    = "template.ready"
	EventFailed   = "template.failed"
	EventDeleted  = "template.deleted"
)

// Manager owns a server's templates. It is safe for concurrent use.
type Manager struct {
	cfg Config
	log *slog.Logger
	ws  *vfs.Manager
	tmp bool // Dir is a temporary directory, removed by Close

	mu       sync.Mutex
	byID     map[string]*tmpl
	implicit map[string]*tmpl // implicit key → template
	syncing  map[string]bool  // implicit keys looked up in the cluster now
	// retries are the implicit keys whose last lookup in the cluster
	// failed, and when they may be looked up again (shared.go).
	retries map[string]*retry
	closed  bool
	// uses counts the uses of templates (a run holding one, or one
	// becoming ready here): the order implicit templates are evicted in
	// (implicit.go).
	uses uint64
	// spareGuests counts the generations' spare guests, made or being
	// made; takes counts the runs that asked for one.
	spareGuests int
	takes       uint64

	builds chan struct{} // build slots
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// tmpl is one template. Manager.mu guards it.
type tmpl struct {
	d    wasmexec.Template
	spec wasmexec.TemplateSpec // its recipe
	// key is an implicit template's key ("" for others).
	key string
	// cur is what runs start from while ready; nil otherwise.
	cur *generation
	// done is closed when the build under way ends (nil when none is).
	done chan struct{}
	// cancel stops the build under way.
	cancel context.CancelFunc
	// build is the ctx values a build runs with (tenant, request id).
	build   context.Context
	deleted bool
	// quota is its tenant's maxTemplateBytes when it was created: a build
	// taken over (another node, a restart) is held to it too.
	quota *int64
	// gen is the generation of its row in the cluster this node builds
	// (or built, or fetched); fetching is closed when a fetch of its
	// capture under way here ends (shared.go).
	gen      int64
	fetching chan struct{}
	// used is Manager.uses at its last use here (0: none yet).
	used uint64
}

// generation is one build's output: its record (state from off) and
// workspace, removed once it is replaced or deleted and no run holds it.
type generation struct {
	record  string
	off     int64
	ws      string
	refs    int
	retired bool
	// checked: a restore in this process read its state whole and found
	// it intact; later ones map it without reading it again.
	checked bool
	// spares are copies of ws made ahead for runs (spares.go); filling
	// says one is being made.
	spares  []string
	filling bool
	// guests are guests restored from it ahead of runs (spares.go);
	// guestFilling says one is being made, noGuests that one could not
	// be, taken is Manager.takes at the last run that took or asked for
	// one (the least recent loses its guests first).
	guests       []spareGuest
	guestFilling bool
	noGuests     bool
	taken        uint64
	// sum is the SHA-256 of its capture in the cluster; dir, when set, is
	// the directory its fetched copy was unpacked into (removed with it).
	sum string
	dir string
}

// Open is New and the builds of templates found building by it.
func Open(cfg Config) (*Manager, error) {
	m, err := New(cfg)
	if err != nil {
		return nil, err
	}
	m.Start()
	return m, nil
}

// New validates cfg and loads the records of Dir. Builds (of templates a
// restart found building) wait for Start.
func New(cfg Config) (*Manager, error) {
	if cfg.Runner == nil {
		return nil, errors.New("templates: a Runner is required")
	}
	if cfg.MaxStateBytes <= 0 {
		cfg.MaxStateBytes = DefaultMaxStateBytes
	}
	if cfg.MaxBuilds <= 0 {
		cfg.MaxBuilds = DefaultMaxBuilds
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.WorkspaceLimits == (vfs.Limits{}) {
		cfg.WorkspaceLimits = vfs.DefaultLimits()
	}
	if cfg.Shared != nil && cfg.Dir != "" {
		// The cluster's rows are the truth: what an earlier process kept
		// here is a stale cache.
		if err := os.RemoveAll(cfg.Dir); err != nil {
			return nil, fmt.Errorf("templates: remove the cache of an earlier process: %w", err)
		}
	}
	tmp := false
	if cfg.Dir == "" {
		d, err := os.MkdirTemp("", "wasmexec-templates-")
		if err != nil {
			return nil, err
		}
		cfg.Dir, tmp = d, true
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	ws, err := vfs.NewManagerLimits(filepath.Join(cfg.Dir, "workspaces"), cfg.WorkspaceLimits)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{cfg: cfg, log: cfg.Logger, ws: ws, tmp: tmp, byID: map[string]*tmpl{}, implicit: map[string]*tmpl{}, syncing: map[string]bool{}, retries: map[string]*retry{},
		builds: make(chan struct{}, cfg.MaxBuilds), ctx: ctx, cancel: cancel}
	keep := m.loadRecords()
	if n, err := ws.RemoveStaleExcept(workspacePrefix, keep); err != nil {
		m.log.Warn("remove stale template workspaces", "err", err)
	} else if n > 0 {
		m.log.Info("removed stale template workspaces", "count", n)
	}
	return m, nil
}

// Start builds the templates a restart found building.
func (m *Manager) Start() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cfg.Shared != nil && !m.closed {
		m.wg.Add(1)
		go m.sweepShared()
	}
	for _, t := range m.byID {
		if t.d.State == wasmexec.TemplateBuilding && t.done == nil {
			m.startBuildLocked(t, nil)
		}
	}
}

// Close stops the builds under way (their templates are built again at
// the next start) and waits for them.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	m.mu.Lock()
	var guests []spareGuest
	for _, t := range m.byID {
		if t.cur != nil {
			guests = append(guests, t.cur.guests...)
			t.cur.guests = nil
			m.dropSparesLocked(t.cur)
		}
	}
	m.mu.Unlock()
	m.closeGuests(guests)
	if m.tmp {
		os.RemoveAll(m.cfg.Dir)
	}
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func notFound(id string) error {
	return wasmexec.Errorf(wasmexec.ETemplateNotFound, "no template %q", id)
}

// visible reports whether the tenant of ctx may see t.
func visible(ctx context.Context, t *tmpl) bool {
	tn := wasmexec.TenantID(ctx)
	return tn == "" || t.d.Tenant == tn
}

// lookup returns template id of the caller's tenant. m.mu held.
func (m *Manager) lookupLocked(ctx context.Context, id string) (*tmpl, error) {
	t := m.byID[id]
	if t == nil || t.deleted || !visible(ctx, t) {
		return nil, notFound(id)
	}
	return t, nil
}

// describe copies t's descriptor. m.mu held.
func describe(t *tmpl) *wasmexec.Template {
	d := t.d
	d.Packages = slices.Clone(d.Packages)
	if d.Packages == nil {
		d.Packages = []wasmexec.TemplatePackage{}
	}
	d.Files = slices.Clone(d.Files)
	d.Env = maps.Clone(d.Env)
	if d.Error != nil {
		e := *d.Error
		d.Error = &e
	}
	return &d
}

// Create validates spec and starts building its template; the descriptor
// it returns is building (GET it, or follow /v1/events, for the end).
// Errors: invalid_argument, template_conflict (the id exists), unavailable
// (closing).
func (m *Manager) Create(ctx context.Context, spec *wasmexec.TemplateSpec) (*wasmexec.Template, error) {
	s, mem, err := m.validate(spec)
	if err != nil {
		return nil, err
	}
	id := s.TemplateID
	if id == "" {
		id = wasmexec.NewID("tpl")
	}
	now := m.cfg.Now()
	t := &tmpl{spec: *s, d: wasmexec.Template{
		TemplateID: id, Language: s.Language, State: wasmexec.TemplateBuilding, CreatedAtMs: now.UnixMilli(),
		Files: sortedKeys(s.Files), Env: maps.Clone(s.Env), MemoryBytes: mem, Tenant: wasmexec.TenantID(ctx),
	}}
	t.spec.TemplateID = id
	if tn := wasmexec.TenantFrom(ctx); tn != nil {
		t.quota = tn.Quotas.MaxTemplateBytes
	}
	if m.cfg.Shared != nil {
		m.mu.Lock()
		closed := m.closed
		m.mu.Unlock()
		if closed {
			return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the server is shutting down")
		}
		return m.createShared(ctx, t)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the server is shutting down")
	}
	if _, ok := m.byID[id]; ok {
		return nil, wasmexec.Errorf(wasmexec.ETemplateConflict, "template %q exists", id)
	}
	m.byID[id] = t
	if err := m.writeRecord(t, nil); err != nil {
		delete(m.byID, id)
		return nil, wasmexec.Errorf(wasmexec.EInternal, "write the record of template %s: %v", id, err)
	}
	m.startBuildLocked(t, ctx)
	return describe(t), nil
}

// validate checks a spec and returns it normalized, with the memory limit
// of its guests. Cheap: nothing runs.
func (m *Manager) validate(spec *wasmexec.TemplateSpec) (*wasmexec.TemplateSpec, int64, error) {
	s := *spec
	if s.TemplateID != "" && !idPattern.MatchString(s.TemplateID) {
		return nil, 0, wasmexec.Errorf(wasmexec.EInvalid, "templateId must be 1-64 characters of A-Z, a-z, 0-9, _ and -")
	}
	if s.Language == "" {
		return nil, 0, wasmexec.Errorf(wasmexec.EInvalid, "language is required")
	}
	f, err := m.cfg.Runner.Family(s.Language)
	if err != nil {
		return nil, 0, err
	}
	if err := wasmexec.ValidateEnv(s.Env); err != nil {
		return nil, 0, err
	}
	if s.TimeoutMs < 0 {
		return nil, 0, wasmexec.Errorf(wasmexec.EInvalid, "timeoutMs must be positive")
	}
	lim, _, err := m.cfg.Runner.Policy().Resolve(s.Limits, time.Duration(s.TimeoutMs)*time.Millisecond, f.MinMemoryBytes)
	if err != nil {
		return nil, 0, err
	}
	for p := range s.Files {
		if _, err := vfs.Clean(p); err != nil {
			return nil, 0, err
		}
	}
	s.Packages = slices.Clone(s.Packages)
	sort.Strings(s.Packages)
	return &s, lim.MemoryBytes, nil
}

// Get describes template id. Errors: template_not_found.
func (m *Manager) Get(ctx context.Context, id string) (*wasmexec.Template, error) {
	return m.Template(ctx, id)
}

// Template implements wasmexec.TemplateSource.
func (m *Manager) Template(ctx context.Context, id string) (*wasmexec.Template, error) {
	if m.cfg.Shared != nil {
		return m.getShared(ctx, id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.lookupLocked(ctx, id)
	if err != nil {
		return nil, err
	}
	return describe(t), nil
}

// List describes the caller's tenant's templates, explicit ones first,
// then by creation.
func (m *Manager) List(ctx context.Context) ([]*wasmexec.Template, error) {
	if m.cfg.Shared != nil {
		return m.listShared(ctx)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []*wasmexec.Template{}
	for _, t := range m.byID {
		if !t.deleted && visible(ctx, t) {
			out = append(out, describe(t))
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Implicit != out[j].Implicit {
			return !out[i].Implicit
		}
		if out[i].CreatedAtMs != out[j].CreatedAtMs {
			return out[i].CreatedAtMs < out[j].CreatedAtMs
		}
		return out[i].TemplateID < out[j].TemplateID
	})
	return out, nil
}

// Delete removes template id (a build under way is stopped); runs holding
// it keep what they hold. Errors: template_not_found.
func (m *Manager) Delete(ctx context.Context, id string) error {
	if m.cfg.Shared != nil {
		return m.deleteShared(ctx, id)
	}
	m.mu.Lock()
	t, err := m.lookupLocked(ctx, id)
	if err != nil {
		m.mu.Unlock()
		return err
	}
	m.deleteLocked(t)
	d := describe(t)
	m.mu.Unlock()
	m.emit(EventDeleted, d)
	return nil
}

// deleteLocked forgets t and removes what it holds. m.mu held.
func (m *Manager) deleteLocked(t *tmpl) {
	t.deleted = true
	delete(m.byID, t.d.TemplateID)
	if t.key != "" && m.implicit[t.key] == t {
		delete(m.implicit, t.key)
	}
	if t.cancel != nil {
		t.cancel()
	}
	m.retireLocked(t)
	if err := os.Remove(m.recordPath(t.d.TemplateID)); err != nil && !errors.Is(err, os.ErrNotExist) {
		m.log.Error("remove a template record", "templateId", t.d.TemplateID, "err", err)
	}
}

// retireLocked retires t's current generation: its files go once no run
// holds them. m.mu held.
func (m *Manager) retireLocked(t *tmpl) {
	g := t.cur
	t.cur = nil
	if g == nil {
		return
	}
	g.retired = true
	m.dropSparesLocked(g)
	if g.refs == 0 {
		m.removeGeneration(g)
	}
}

// removeGeneration removes the workspace of a retired generation (its
// record was replaced by rename or removed with the template).
func (m *Manager) removeGeneration(g *generation) {
	dir := g.ws
	if g.dir != "" {
		dir = g.dir // a fetched copy: its record and workspace
	}
	if dir != "" {
		m.wg.Add(1)
		go func() { // off the caller's path: a workspace may hold thousands of files
			defer m.wg.Done()
			os.RemoveAll(dir)
		}()
	}
}

// Open implements wasmexec.TemplateSource: it waits within ctx for a build
// under way, then holds the template's current generation.
func (m *Manager) Open(ctx context.Context, id string) (*wasmexec.TemplateImage, error) {
	if m.cfg.Shared != nil {
		return m.openShared(ctx, id)
	}
	for {
		m.mu.Lock()
		t, err := m.lookupLocked(ctx, id)
		if err != nil {
			m.mu.Unlock()
			return nil, err
		}
		switch t.d.State {
		case wasmexec.TemplateReady:
			ti, err := m.holdLocked(t)
			m.mu.Unlock()
			return ti, err
		case wasmexec.TemplateFailed:
			msg := "no reason given"
			if t.d.Error != nil {
				msg = t.d.Error.Message
			}
			m.mu.Unlock()
			return nil, wasmexec.Errorf(wasmexec.EConflict, "template %s failed to build: %s", id, msg)
		}
		done := t.done
		m.mu.Unlock()
		if done == nil { // building, but not started (before Start)
			return nil, wasmexec.Errorf(wasmexec.EUnavailable, "template %s is not being built yet; retry shortly", id)
		}
		select {
		case <-done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// holdLocked holds t's current generation for one run. m.mu held.
func (m *Manager) holdLocked(t *tmpl) (*wasmexec.TemplateImage, error) {
	g := t.cur
	f, err := os.Open(g.record)
	if err != nil {
		return nil, wasmexec.Errorf(wasmexec.EInternal, "open the state of template %s: %v", t.d.TemplateID, err)
	}
	g.refs++
	t.d.Runs++
	t.d.LastUsedAtMs = m.cfg.Now().UnixMilli()
	m.usedLocked(t)
	var once sync.Once
	id, wsBytes := t.d.TemplateID, t.d.WorkspaceBytes
	spec := wasmexec.GuestSpec{Language: t.d.Language, Env: maps.Clone(t.d.Env), MemoryBytes: t.d.MemoryBytes}
	return &wasmexec.TemplateImage{
		ID: id, Language: t.d.Language, Env: maps.Clone(t.d.Env), MemoryBytes: t.d.MemoryBytes,
		State: f, StateOffset: g.off, Workspace: g.ws, Checked: g.checked,
		Restored: func() {
			m.mu.Lock()
			g.checked = true
			m.mu.Unlock()
		},
		Refused: func(reason string) { m.refused(t, g, reason) },
		Spare: func() string {
			m.mu.Lock()
			defer m.mu.Unlock()
			return m.spareLocked(g, wsBytes)
		},
		SpareGuest: func() (wasmexec.Guest, string, func()) {
			m.mu.Lock()
			defer m.mu.Unlock()
			return m.spareGuestLocked(g, spec)
		},
		Release: func() {
			once.Do(func() {
				f.Close()
				m.mu.Lock()
				defer m.mu.Unlock()
				m.releaseLocked(g)
			})
		},
	}, nil
}

// refused rebuilds t from its recipe after the engine refused the state of
// generation g (made for another image or engine): once per generation.
func (m *Manager) refused(t *tmpl, g *generation, reason string) {
	if m.cfg.Shared != nil {
		m.refusedShared(t, g, reason)
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if t.deleted || t.cur != g || m.closed {
		return
	}
	m.log.Warn("a template's state was refused; it is rebuilt from its recipe", "templateId", t.d.TemplateID, "reason", reason)
	m.retireLocked(t)
	t.d.Notice = "rebuilt: " + reason
	m.startBuildLocked(t, t.build)
}

func (m *Manager) emit(typ string, d *wasmexec.Template) {
	if m.cfg.OnEvent != nil {
		m.cfg.OnEvent(typ, d)
	}
}

// Count counts the templates and what they hold, for /metrics.
func (m *Manager) Count() (n int, bytes int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range m.byID {
		n++
		bytes += t.d.Bytes()
	}
	return n, bytes
}

func sortedKeys[V any](m map[string]V) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}
