// Package pipeline is the one run lifecycle: every one-shot run, context
// run and process goes through Pipeline.Run, whose steps run in a fixed
// order, each named below and each in one function:
//
//	validate  the request against the languages, the policy and the
//	          network ceiling (client errors, nothing waits)
//	admit     readiness (the language's image loaded), the store's health,
//	          the tenant's run quota
//	slot      one of the server's run slots (bounded queue, timer, ctx)
//	prepare   the language's control request (TypeScript transpiles here)
//	guest     the caller's kept guest, or one for this run from the Driver
//	seed      files and packages into the workspace
//	execute   call the guest while watching the workspace quota, and
//	          classify its reply into the result
//	settle    the language's and the caller's last word on the result
//	persist   the record committed before the result is reported
//	publish   execution.started / execution.completed, metrics
//
// The engine is a Driver behind a small interface (driver.go), as
// database/sql/driver is for database/sql; this package has no cgo. A guest
// failure, and a deadline or cancel at any step after the slot, is in the
// Result; errors are client or service errors, and a record that could not
// be persisted is the run's error by construction.
//
// Size: it is the whole run lifecycle, one step per function, plus the
// recorder of the persist step and the guest step's templates
// (template.go); splitting the steps apart would hide their order.
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/events"
)

// Defaults of Config; cmd/wasmexec's flags default to the same values.
const (
	DefaultMaxConcurrent = 16
	DefaultMaxQueued     = 64
	DefaultQueueTimeout  = 2 * time.Second
	DefaultRetainBytes   = 1 << 20
	// quotaCheckEvery is how often a running guest's workspace is measured:
	// one-shot workspaces live on tmpfs (memory), so a guest filling one
	// must be stopped while it runs, not after.
	quotaCheckEvery = 100 * time.Millisecond
)

// Tenants admits a tenant's runs (the server's tenancy): StartRun counts a
// run against the quotas of the tenant in ctx, if any, and done ends it.
type Tenants interface {
	StartRun(ctx context.Context) (done func(), err error)
}

// Config wires a Pipeline. Zero fields take the Default* values; the
// steps' own parts (Ready, Recorder, Tenants, Events) are each optional.
type Config struct {
	Driver     Driver
	Languages  map[wasmexec.Language]wasmexec.LanguageDriver
	Policy     wasmexec.Policy
	Workspaces wasmexec.WorkspaceFactory
	// Network makes guests' HTTP requests; nil: no network. It is also
	// the Policy's network ceiling unless that is set.
	Network *egress.Egress
	// MaxConcurrent runs at once; more wait up to QueueTimeout, then get
	// overloaded. MaxQueued bounds the requests waiting for a slot; beyond
	// it a request is refused at once, so a flood of waiting requests
	// can't pile up memory.
	MaxConcurrent int
	MaxQueued     int
	QueueTimeout  time.Duration
	// RetainBytes caps the retained event log of one run.
	RetainBytes int64
	// LiveWarningThreshold logs a warning when more runs are live.
	LiveWarningThreshold int
	Logger               *slog.Logger

	// Ready, when set, admits runs only while it returns nil (the server
	// still loading its images: unavailable).
	Ready func() error
	// Recorder is the persist step (and the store's health at admission).
	Recorder *Recorder
	// Tenants counts one-shot and context runs against their tenant's
	// quotas (processes are counted when spawned).
	Tenants Tenants
	// Events receives execution.started and execution.completed of
	// one-shot and context runs (a process's are its spawner's).
	Events events.Log
	// Templates, when set, are what runs naming a template start from
	// (templates.Manager); when it is also an wasmexec.ImplicitTemplates, a
	// one-shot run with packages starts from the server's template of its
	// set once there is one. nil: runs naming a template are refused.
	Templates wasmexec.TemplateSource
}

// Pipeline is the run lifecycle (wasmexec.Runner).
type Pipeline struct {
	cfg    Config
	log    *slog.Logger
	slots  chan struct{}
	live   atomic.Int64
	queued atomic.Int64
	warned atomic.Bool
	// tpls holds Config.Templates, or what SetTemplates set.
	tpls atomic.Pointer[templateSource]
}

type templateSource struct{ wasmexec.TemplateSource }

var _ wasmexec.Runner = (*Pipeline)(nil)

// New validates cfg.
func New(cfg Config) (*Pipeline, error) {
	if cfg.Driver == nil {
		return nil, fmt.Errorf("pipeline: a Driver is required")
	}
	if err := cfg.Policy.Validate(); err != nil {
		return nil, err
	}
	if cfg.Network != nil && cfg.Policy.Network == nil {
		cfg.Policy.Network = cfg.Network
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = DefaultMaxConcurrent
	}
	if cfg.QueueTimeout <= 0 {
		cfg.QueueTimeout = DefaultQueueTimeout
	}
	if cfg.MaxQueued <= 0 {
		cfg.MaxQueued = DefaultMaxQueued
	}
	if cfg.RetainBytes <= 0 {
		cfg.RetainBytes = DefaultRetainBytes
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	p := &Pipeline{cfg: cfg, log: cfg.Logger, slots: make(chan struct{}, cfg.MaxConcurrent)}
	p.SetTemplates(cfg.Templates)
	return p, nil
}

// SetTemplates sets Config.Templates: the templates' manager runs its
// builds through the pipeline, so it is made after it.
func (p *Pipeline) SetTemplates(t wasmexec.TemplateSource) {
	if t == nil {
		p.tpls.Store(nil)
		return
	}
	p.tpls.Store(&templateSource{t})
}

// templates returns the template source (nil: none).
func (p *Pipeline) templates() wasmexec.TemplateSource {
	if t := p.tpls.Load(); t != nil {
		return t.TemplateSource
	}
	return nil
}

// Policy returns the limits policy.
func (p *Pipeline) Policy() wasmexec.Policy { return p.cfg.Policy }

// Live returns the number of runs holding a slot.
func (p *Pipeline) Live() int64 { return p.live.Load() }

// Queued returns the number of runs waiting for a slot.
func (p *Pipeline) Queued() int64 { return p.queued.Load() }

// Recorder returns the persist step (nil when there is none).
func (p *Pipeline) Recorder() *Recorder { return p.cfg.Recorder }

// Family returns the guest image lang runs in: invalid_argument for an
// unknown language, unavailable when its image isn't loaded.
func (p *Pipeline) Family(lang wasmexec.Language) (wasmexec.Family, error) {
	_, f, err := p.image(lang)
	return f, err
}

func (p *Pipeline) image(lang wasmexec.Language) (wasmexec.LanguageDriver, wasmexec.Family, error) {
	if lang == "" {
		return nil, wasmexec.Family{}, wasmexec.Errorf(wasmexec.EInvalid, "language is required")
	}
	drv, ok := p.cfg.Languages[lang]
	if !ok {
		var names []string
		for l := range p.cfg.Languages {
			names = append(names, string(l))
		}
		return nil, wasmexec.Family{}, wasmexec.Errorf(wasmexec.EInvalid, "unsupported language %q (supported: %s)", lang, strings.Join(names, ", "))
	}
	f, err := p.cfg.Driver.Image(drv.Image())
	return drv, f, err
}

// StartGuest starts a guest kept across runs (a context's) in spec's
// workspace; its owner closes it.
func (p *Pipeline) StartGuest(ctx context.Context, spec wasmexec.GuestSpec) (wasmexec.Guest, error) {
	gs, err := p.keptSpec(spec)
	if err != nil {
		return nil, err
	}
	return p.cfg.Driver.StartGuest(ctx, gs)
}

// RestoreGuest starts a kept guest from a captured state.
func (p *Pipeline) RestoreGuest(ctx context.Context, spec wasmexec.GuestSpec, state []byte) (wasmexec.Guest, error) {
	gs, err := p.keptSpec(spec)
	if err != nil {
		return nil, err
	}
	return p.cfg.Driver.RestoreGuest(ctx, gs, state)
}

// RestoreGuestFile starts a kept guest from the state stored in f from off.
func (p *Pipeline) RestoreGuestFile(ctx context.Context, spec wasmexec.GuestSpec, f *os.File, off int64) (wasmexec.Guest, error) {
	gs, err := p.keptSpec(spec)
	if err != nil {
		return nil, err
	}
	return p.cfg.Driver.RestoreGuestFile(ctx, gs, f, off)
}

// StateRefused reports whether err is a restore's refusal of a state.
func (p *Pipeline) StateRefused(err error) bool { return p.cfg.Driver.StateRefused(err) }

func (p *Pipeline) keptSpec(spec wasmexec.GuestSpec) (GuestSpec, error) {
	drv, _, err := p.image(spec.Language)
	if err != nil {
		return GuestSpec{}, err
	}
	if spec.Workspace == "" {
		return GuestSpec{}, wasmexec.Errorf(wasmexec.EInternal, "a kept guest needs a workspace")
	}
	return GuestSpec{Image: drv.Image(), Env: spec.Env, MemoryBytes: spec.MemoryBytes, Workspace: spec.Workspace,
		StateChecked: spec.StateChecked, Template: spec.Spare, Ahead: spec.Spare}, nil
}

// job is a validated request bound to its language, image and limits.
type job struct {
	req     *wasmexec.Request
	opts    wasmexec.RunOptions
	lang    wasmexec.LanguageDriver
	family  wasmexec.Family
	limits  wasmexec.Limits
	timeout time.Duration
	queued  time.Time // when the run began waiting for its turn
	started time.Time // when the run took its slot: its duration counts from here
	// underwayAt is when it left every queue (its queue wait ends).
	underwayAt time.Time
	prep       *wasmexec.Prepared // set once the language prepared it
	// private: the guest's workspace is the run's own, fresh, seeded with
	// the request's files and written by nothing else while the run lasts
	// (what a driver's shipped Sources rely on).
	private bool
	// template is the template the run starts from (validated), nil
	// without one; packaged says the run's guest came from its packages'
	// implicit template, whose workspace holds them already.
	template *wasmexec.Template
	packaged bool
}

// process reports whether the job is a process's run: its spawner
// publishes its events and reports its exit even when its record is lost.
func (j *job) process() bool { return j.opts.Kind == wasmexec.KindProcess }

// Run runs req through the steps of the package comment.
func (p *Pipeline) Run(ctx context.Context, req *wasmexec.Request, opts wasmexec.RunOptions) (res *wasmexec.Result, err error) {
	underway := false
	defer func() {
		if opts.Started != nil && !underway {
			opts.Started(err)
		}
	}()
	j, err := p.validate(ctx, req, opts)
	if err != nil {
		return nil, err
	}
	done, err := p.admit(ctx, j)
	if err != nil {
		return nil, err
	}
	defer done()
	if !opts.Unslotted {
		release, err := p.acquire(ctx, j.timeout)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	j.started = time.Now()
	runCtx, cancel := context.WithTimeout(ctx, j.timeout)
	defer cancel()

	if stopped, err := p.prepare(ctx, runCtx, j); stopped != nil || err != nil {
		return stopped, err
	}
	g, owned, err := p.guest(runCtx, j)
	if err != nil {
		if runCtx.Err() != nil {
			return p.stoppedBeforeGuest(ctx, j, runCtx)
		}
		return nil, err
	}
	if owned {
		defer g.Close()
	}
	j.private = owned && opts.Workspace == "" && opts.Seed == nil
	if err := p.seed(runCtx, j, g); err != nil {
		if runCtx.Err() != nil {
			return p.stoppedBeforeGuest(ctx, j, runCtx)
		}
		return nil, err
	}
	quota := opts.Quota
	if quota == nil && owned && opts.Workspace == "" {
		quota = p.scratchQuota(g.Workspace())
	}
	underway = true
	p.underway(ctx, j)
	res, log := p.execute(runCtx, j, g, quota)
	return p.finish(ctx, j, res, log)
}

// validate checks req (invalid_argument, payload_too_large, unavailable,
// template_not_found) and resolves its limits. It is cheap: nothing waits
// or runs.
func (p *Pipeline) validate(ctx context.Context, req *wasmexec.Request, opts wasmexec.RunOptions) (*job, error) {
	if req.Kind != wasmexec.KindEvaluate && req.Kind != wasmexec.KindExecute {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "unknown kind %q", req.Kind)
	}
	lang, family, err := p.image(req.Language)
	if err != nil {
		return nil, err
	}
	if !req.Output.Capture.Valid() {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "output.capture must be one of all, stderr, none")
	}
	if err := wasmexec.ValidateEnv(req.Env); err != nil {
		return nil, err
	}
	if err := req.Outputs.Validate(); err != nil {
		return nil, err
	}
	if err := p.cfg.Policy.CheckNetwork(req.Network, req.Secrets, req.Env); err != nil {
		return nil, err
	}
	if int64(len(req.Stdin)) > p.cfg.Policy.MaxStdinBytes {
		return nil, wasmexec.Errorf(wasmexec.ETooLarge, "stdin is %d bytes; the limit is %d", len(req.Stdin), p.cfg.Policy.MaxStdinBytes)
	}
	if req.TimeoutMs < 0 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "timeoutMs must be positive")
	}
	if req.Cwd != "" {
		cwd, err := wasmexec.WorkspacePath(req.Cwd)
		if err != nil {
			return nil, err
		}
		req.Cwd = cwd
	}
	asked := req.Limits
	tpl, err := p.template(ctx, req, opts, family, &asked)
	if err != nil {
		return nil, err
	}
	limits, timeout, err := p.cfg.Policy.Resolve(asked, time.Duration(req.TimeoutMs)*time.Millisecond, family.MinMemoryBytes)
	if err != nil {
		return nil, err
	}
	if opts.Timeout > 0 {
		timeout = opts.Timeout
	}
	if len(req.Inputs) > 0 {
		var obj map[string]json.RawMessage
		if string(req.Inputs) != "null" && json.Unmarshal(req.Inputs, &obj) != nil {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "inputs must be a JSON object")
		}
	}
	if opts.ExecutionID == "" {
		opts.ExecutionID = wasmexec.NewID("exe")
	}
	queued := opts.QueuedAt
	if queued.IsZero() {
		queued = time.Now()
	}
	return &job{req: req, opts: opts, lang: lang, family: family, limits: limits, timeout: timeout, queued: queued, template: tpl}, nil
}

// admit is the admission step: the server serves runs, its store can
// record them, and the tenant may start one more (processes are counted
// when spawned). done ends the tenant's run.
func (p *Pipeline) admit(ctx context.Context, j *job) (done func(), err error) {
	if p.cfg.Ready != nil {
		if err := p.cfg.Ready(); err != nil {
			return nil, err
		}
	}
	if err := p.cfg.Recorder.Check(ctx); err != nil {
		return nil, err
	}
	if p.cfg.Tenants == nil || j.process() {
		return func() {}, nil
	}
	return p.cfg.Tenants.StartRun(ctx)
}

// acquire takes one of the MaxConcurrent run slots, waiting at most
// QueueTimeout and never longer than maxWait (the run's own timeout: no
// request waits in the queue past its timeoutMs). It fails with overloaded.
func (p *Pipeline) acquire(ctx context.Context, maxWait time.Duration) (release func(), err error) {
	select {
	case p.slots <- struct{}{}:
	default:
		if p.queued.Add(1) > int64(p.cfg.MaxQueued) {
			p.queued.Add(-1)
			return nil, wasmexec.Errorf(wasmexec.EOverloaded, "all %d run slots are busy and %d requests are already waiting; retry shortly", cap(p.slots), p.cfg.MaxQueued)
		}
		defer p.queued.Add(-1)
		t := time.NewTimer(min(p.cfg.QueueTimeout, maxWait))
		defer t.Stop()
		select {
		case p.slots <- struct{}{}:
		case <-t.C:
			return nil, wasmexec.Errorf(wasmexec.EOverloaded, "all %d run slots are busy; retry shortly", cap(p.slots))
		case <-ctx.Done():
			return nil, wasmexec.Errorf(wasmexec.EOverloaded, "gave up waiting for a run slot: %v", ctx.Err())
		}
	}
	n := p.live.Add(1)
	if th := p.cfg.LiveWarningThreshold; th > 0 {
		if n > int64(th) && p.warned.CompareAndSwap(false, true) {
			p.log.Warn("live executions above the warning threshold", "live", n, "threshold", th)
		} else if n <= int64(th)/2 {
			p.warned.Store(false)
		}
	}
	var once sync.Once
	return func() { once.Do(func() { p.live.Add(-1); <-p.slots }) }, nil
}

// prepare builds the control request within the run's deadline. A
// syntax error found here, or the deadline while preparing, ends the run
// with its result (stopped); an error is a client or service error.
func (p *Pipeline) prepare(ctx, runCtx context.Context, j *job) (stopped *wasmexec.Result, err error) {
	prep, err := j.lang.Prepare(runCtx, j.req)
	switch {
	case err != nil && runCtx.Err() == nil:
		return nil, err
	case err != nil:
		outcome, failure := wasmexec.ContextOutcome(runCtx)
		if len(j.req.Packages) > 0 && failure != nil {
			// The run's own time went to staging its packages: say so.
			failure.Message += " while its packages were resolved and downloaded (" + strings.Join(j.req.Packages, ", ") + ")"
		}
		return p.failedBeforeGuest(ctx, j, outcome, failure)
	case prep.Failure != nil:
		j.prep = prep
		return p.failedBeforeGuest(ctx, j, wasmexec.Failed, prep.Failure)
	}
	j.prep = prep
	return nil, nil
}

// guest returns the guest a job runs in: the caller's kept guest, else one
// of the driver's for this run. owned says the run closes it.
func (p *Pipeline) guest(ctx context.Context, j *job) (g wasmexec.Guest, owned bool, err error) {
	if j.opts.Guest != nil {
		return j.opts.Guest, false, nil
	}
	if j.template != nil {
		g, err := p.templateGuest(ctx, j)
		return g, err == nil, err
	}
	if g := p.packagedGuest(ctx, j); g != nil {
		return g, true, nil
	}
	g, err = p.cfg.Driver.Guest(ctx, GuestSpec{
		Image:       j.lang.Image(),
		Env:         wasmexec.SecretEnv(j.req.Env, j.req.Secrets), // secrets' placeholders
		MemoryBytes: j.limits.MemoryBytes,
		Workspace:   j.opts.Workspace,
	})
	return g, err == nil, err
}

// seed writes the request's files (and a prepared run's packages) into
// the workspace before the guest runs.
func (p *Pipeline) seed(ctx context.Context, j *job, g wasmexec.Guest) error {
	if j.opts.Seed != nil {
		return j.opts.Seed(ctx)
	}
	ws := g.Workspace()
	if j.prep != nil && j.prep.Seed != nil && !j.packaged {
		if ws == "" {
			return wasmexec.Errorf(wasmexec.EInvalid, "packages need a workspace")
		}
		if err := j.prep.Seed(ctx, ws); err != nil {
			return err
		}
	}
	if len(j.req.Files) == 0 {
		return nil
	}
	if p.cfg.Workspaces == nil || ws == "" {
		return wasmexec.Errorf(wasmexec.EInvalid, "files need a workspace")
	}
	return p.cfg.Workspaces.SeedWorkspace(ctx, ws, j.req.Files)
}

// scratchQuota checks a throwaway workspace against the factory's quota.
func (p *Pipeline) scratchQuota(dir string) wasmexec.QuotaCheck {
	q, ok := p.cfg.Workspaces.(wasmexec.WorkspaceQuota)
	if !ok || dir == "" {
		return nil
	}
	return q.WatchWorkspace(dir)
}

// underway tells the caller, the metrics and the event log that the run
// left every queue and its guest is about to run.
func (p *Pipeline) underway(ctx context.Context, j *job) {
	if j.opts.Started != nil {
		j.opts.Started(nil)
	}
	if !j.process() {
		p.publish(ctx, events.Event{Type: events.ExecutionStarted, ExecutionID: j.opts.ExecutionID, ContextID: j.req.ContextID, Kind: string(j.req.Kind), Language: string(j.req.Language)})
	}
	j.underwayAt = time.Now()
}

// execute sends the job to guest g, watching the workspace quota, and
// classifies the reply into the result. The ctx carries the run's
// deadline. The guest may be dead afterwards (g.Alive says).
func (p *Pipeline) execute(ctx context.Context, j *job, g wasmexec.Guest, quota wasmexec.QuotaCheck) (*wasmexec.Result, *wasmexec.OutputLog) {
	var over atomic.Pointer[wasmexec.ErrorData]
	if quota != nil {
		watchCtx, stop := context.WithCancel(ctx)
		defer stop()
		go watchQuota(watchCtx, stop, quota, &over)
		ctx = watchCtx
	}
	res := p.newResult(j)
	log := j.opts.Log
	if log == nil && j.req.Output.RetainEvents {
		log = wasmexec.NewOutputLog(j.opts.PID, p.cfg.RetainBytes)
	}
	out := wasmexec.NewOutput(j.req.Output.Capture, j.limits.OutputBytes, log)
	out.Enforce = !j.opts.NoOutputLimit
	stdin := j.opts.Stdin
	if stdin == nil {
		stdin = wasmexec.StdinFrom([]byte(j.req.Stdin))
	}
	sess := p.session(j, log)
	defer sess.Close()
	payload, err := controlPayload(j)
	if err != nil {
		res.Outcome, res.Error = wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: "encode request: " + err.Error()}
	} else {
		cr := g.Call(egress.NewContext(ctx, sess), wasmexec.CallInput{Payload: payload, Fuel: j.limits.Fuel, Stdin: stdin, Output: out})
		res.FuelConsumed = cr.FuelConsumed
		res.Outcome, res.Error, res.ExitCode = cr.Outcome, cr.Error, cr.ExitCode
		if cr.Response != nil {
			classify(res, j.req.Kind, cr.Response, j.limits.OutputBytes)
		}
		if log != nil {
			// A process's readers get its rich outputs as events too.
			for i := range res.Outputs {
				b, _ := json.Marshal(&res.Outputs[i])
				log.Append(wasmexec.DisplayChannel, b)
			}
		}
	}
	out.Fill(res)
	res.Network = sess.Records()
	if log != nil {
		log.Close()
		_, res.OutputTruncated = log.Snapshot()
		res.EventsRetained = true
	}
	if quota != nil {
		failure := over.Load()
		if failure == nil {
			failure = quota() // the last writes, after the last poll
		}
		if failure != nil {
			res.Outcome, res.Error, res.Value = wasmexec.Failed, failure, nil
			if res.Kind == wasmexec.KindExecute && res.ExitCode == 0 {
				res.ExitCode = 1
			}
		}
	}
	stamp(res, j.started)
	return res, log
}

// watchQuota stops a run (cancel) whose workspace goes over its bounds.
func watchQuota(ctx context.Context, cancel context.CancelFunc, check wasmexec.QuotaCheck, over *atomic.Pointer[wasmexec.ErrorData]) {
	t := time.NewTicker(quotaCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if f := check(); f != nil {
				over.Store(f)
				cancel()
				return
			}
		}
	}
}

// failedBeforeGuest is the one result of a run that ended before any
// guest ran: a syntax error found while preparing, or the deadline or a
// cancel while preparing or starting the guest.
func (p *Pipeline) failedBeforeGuest(ctx context.Context, j *job, outcome wasmexec.Outcome, failure *wasmexec.ErrorData) (*wasmexec.Result, error) {
	res := p.newResult(j)
	res.Outcome, res.Error = outcome, failure
	// The streams the request captures are there, empty, as in a run
	// whose guest failed: a client reads the same fields either way.
	wasmexec.NewOutput(j.req.Output.Capture, j.limits.OutputBytes, nil).Fill(res)
	if j.req.Kind == wasmexec.KindExecute || j.process() {
		res.ExitCode = 1
	}
	if j.opts.Log != nil {
		j.opts.Log.Close()
	}
	stamp(res, j.started)
	return p.finish(ctx, j, res, j.opts.Log)
}

// stoppedBeforeGuest is failedBeforeGuest for a run whose deadline passed
// or that was cancelled before its guest ran.
func (p *Pipeline) stoppedBeforeGuest(ctx context.Context, j *job, runCtx context.Context) (*wasmexec.Result, error) {
	outcome, failure := wasmexec.ContextOutcome(runCtx)
	return p.failedBeforeGuest(ctx, j, outcome, failure)
}

// finish is the last three steps, once per result: settle (the
// language's Finish, the caller's Settle), persist (the record committed
// before the result is reported: its failure is the run's error, but for
// a process, whose exit must be reported to release its waiters), and
// publish.
func (p *Pipeline) finish(ctx context.Context, j *job, res *wasmexec.Result, log *wasmexec.OutputLog) (*wasmexec.Result, error) {
	if j.prep != nil && j.prep.Finish != nil {
		j.prep.Finish(res)
	}
	if j.opts.Settle != nil {
		j.opts.Settle(res)
	}
	if !j.underwayAt.IsZero() {
		p.cfg.Recorder.observeQueueWait(res, j.underwayAt.Sub(j.queued))
	}
	err := p.cfg.Recorder.Record(context.WithoutCancel(ctx), res, log)
	if err != nil {
		p.log.Error("persist execution", "executionId", res.ExecutionID, "err", err)
		if !j.process() {
			return nil, err
		}
	}
	if !j.process() {
		code, d := res.ExitCode, res.DurationMs
		p.publish(ctx, events.Event{Type: events.ExecutionCompleted, ExecutionID: res.ExecutionID, Kind: string(res.Kind), Language: string(res.Language), ContextID: res.ContextID, PID: res.PID, Outcome: string(res.Outcome), ExitCode: &code, DurationMs: &d})
	}
	return res, nil
}

// publish sends one event stamped with the caller's tenant and request id.
func (p *Pipeline) publish(ctx context.Context, e events.Event) {
	if p.cfg.Events == nil {
		return
	}
	e.Tenant = wasmexec.TenantID(ctx)
	e.RequestID = wasmexec.RequestIDFrom(ctx)
	p.cfg.Events.Publish(e)
}

func stamp(res *wasmexec.Result, started time.Time) {
	done := time.Now()
	res.CompletedAtMs = wasmexec.Millis(done)
	res.DurationMs = float64(done.Sub(started).Microseconds()) / 1000
}

func (p *Pipeline) newResult(j *job) *wasmexec.Result {
	sum := sha256.Sum256([]byte(j.req.Code))
	res := &wasmexec.Result{
		ExecutionID: j.opts.ExecutionID,
		Kind:        j.req.Kind,
		Language:    j.req.Language,
		ContextID:   j.req.ContextID,
		PID:         j.opts.PID,
		StartedAtMs: wasmexec.Millis(j.started),
		CodeSHA256:  hex.EncodeToString(sum[:]),
		Code:        j.req.Code,
	}
	if j.opts.Kind != "" {
		res.Kind = j.opts.Kind
	}
	return res
}

// session is the run's network session (egress; the engine's host
// function makes the requests).
func (p *Pipeline) session(j *job, log *wasmexec.OutputLog) *egress.Session {
	s, err := p.cfg.Network.NewSession(j.req.Network, j.req.Secrets)
	if err != nil { // checked by validate
		s, _ = (*egress.Egress)(nil).NewSession(nil, nil)
	}
	if log != nil {
		s.OnRecord = func(n wasmexec.NetworkRequest) {
			b, _ := json.Marshal(n)
			log.Append(wasmexec.NetworkChannel, b)
		}
	}
	return s
}

// controlPayload encodes the driver request of a job.
func controlPayload(j *job) ([]byte, error) {
	ctl := j.prep.Control
	ctl.Inputs = j.req.Inputs
	ctl.Args = j.req.Args
	ctl.Cwd = j.req.Cwd
	ctl.Live = j.opts.Log != nil
	ctl.MemoryBytes = j.limits.MemoryBytes
	ctl.Outputs = &wasmexec.ControlOutputs{MaxCount: wasmexec.MaxDisplayOutputs, MaxBytes: j.limits.OutputBytes}
	if j.req.Outputs != nil {
		ctl.Outputs.Formats = j.req.Outputs.Formats
	}
	if !j.private {
		ctl.Sources = nil
	}
	return ctl.Payload()
}
