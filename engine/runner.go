package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/exec"
)

// Defaults of RunnerConfig; cmd/wasmexec's flags default to the same values.
const (
	DefaultMaxConcurrent = 16
	DefaultMaxQueued     = 64
	DefaultQueueTimeout  = 2 * time.Second
	DefaultPoolSize      = 2
	DefaultRetainBytes   = 1 << 20
	// quotaCheckEvery is how often a running guest's workspace is measured:
	// one-shot workspaces live on tmpfs (memory), so a guest filling one
	// must be stopped while it runs, not after.
	quotaCheckEvery = 100 * time.Millisecond
	// poolStartTimeout bounds starting (and warming up) a pre-started guest.
	poolStartTimeout = 30 * time.Second
	// poolRetryEvery is how often an idle pool looks again after a failed
	// start or while nothing was taken.
	poolRetryEvery = time.Second
)

// RunnerConfig wires a Runner. Zero fields take the Default* values.
type RunnerConfig struct {
	Images     map[string]*Image
	Languages  map[exec.Language]exec.LanguageDriver
	Policy     exec.Policy
	Workspaces exec.WorkspaceFactory
	// MaxConcurrent runs at once; more wait up to QueueTimeout, then get
	// overloaded.
	MaxConcurrent int
	QueueTimeout  time.Duration
	// MaxQueued bounds the requests waiting for a slot; beyond it a
	// request is refused at once, so a flood of waiting requests can't
	// pile up memory.
	MaxQueued int
	// PoolSize is the number of pre-started guests kept per image; 0 takes
	// the default, negative turns pools off.
	PoolSize int
	// RetainBytes caps the retained event log of one run.
	RetainBytes int64
	// OnComplete persists a finished run before it is reported. An error is
	// logged; the client still gets its result.
	OnComplete func(ctx context.Context, r *exec.Result, log *exec.OutputLog) error
	// LiveWarningThreshold logs a warning when more runs are live.
	LiveWarningThreshold int
	Logger               *slog.Logger
	// Network makes guests' HTTP requests (issue 18); nil: no network. It
	// is also the Policy's network ceiling unless that is set.
	Network *egress.Egress
}

// Runner is the run lifecycle (exec.Runner): every one-shot run, context
// run and process goes through Run.
type Runner struct {
	cfg     RunnerConfig
	log     *slog.Logger
	slots   chan struct{}
	pools   map[string]*pool
	live    atomic.Int64
	queued  atomic.Int64
	warned  atomic.Bool
	closing chan struct{}
	wg      sync.WaitGroup
}

var _ exec.Runner = (*Runner)(nil)

// NewRunner validates cfg and starts the guest pools.
func NewRunner(cfg RunnerConfig) (*Runner, error) {
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
	if cfg.PoolSize == 0 {
		cfg.PoolSize = DefaultPoolSize
	}
	if cfg.RetainBytes <= 0 {
		cfg.RetainBytes = DefaultRetainBytes
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	r := &Runner{cfg: cfg, log: cfg.Logger, slots: make(chan struct{}, cfg.MaxConcurrent), pools: map[string]*pool{}, closing: make(chan struct{})}
	if cfg.PoolSize > 0 {
		for name, img := range cfg.Images {
			p := newPool(r, img, cfg.PoolSize)
			r.pools[name] = p
			r.wg.Add(1)
			go p.fill()
		}
	}
	return r, nil
}

// Close stops the pools and closes their guests.
func (r *Runner) Close() {
	close(r.closing)
	r.wg.Wait()
	for _, p := range r.pools {
		p.drain()
	}
}

// Policy returns the limits policy.
func (r *Runner) Policy() exec.Policy { return r.cfg.Policy }

// Live returns the number of runs holding a slot.
func (r *Runner) Live() int64 { return r.live.Load() }

// Queued returns the number of runs waiting for a slot.
func (r *Runner) Queued() int64 { return r.queued.Load() }

// Family returns the guest image lang runs in: invalid_argument for an
// unknown language, unavailable when its image isn't loaded.
func (r *Runner) Family(lang exec.Language) (exec.Family, error) {
	drv, img, err := r.image(lang)
	if err != nil {
		return exec.Family{}, err
	}
	return exec.Family{Name: drv.Image(), MinMemoryBytes: img.Spec.MinMemoryBytes}, nil
}

func (r *Runner) image(lang exec.Language) (exec.LanguageDriver, *Image, error) {
	if lang == "" {
		return nil, nil, exec.Errorf(exec.EInvalid, "language is required")
	}
	drv, ok := r.cfg.Languages[lang]
	if !ok {
		var names []string
		for l := range r.cfg.Languages {
			names = append(names, string(l))
		}
		return nil, nil, exec.Errorf(exec.EInvalid, "unsupported language %q (supported: %s)", lang, strings.Join(names, ", "))
	}
	img := r.cfg.Images[drv.Image()]
	if img == nil {
		return nil, nil, exec.Errorf(exec.EUnavailable, "the %s guest image is not loaded", drv.Image())
	}
	return drv, img, nil
}

// acquire takes one of the MaxConcurrent run slots, waiting at most
// QueueTimeout and never longer than maxWait (the run's own timeout: no
// request waits in the queue past its timeoutMs). It fails with overloaded.
func (r *Runner) acquire(ctx context.Context, maxWait time.Duration) (release func(), err error) {
	select {
	case r.slots <- struct{}{}:
	default:
		if r.queued.Add(1) > int64(r.cfg.MaxQueued) {
			r.queued.Add(-1)
			return nil, exec.Errorf(exec.EOverloaded, "all %d run slots are busy and %d requests are already waiting; retry shortly", cap(r.slots), r.cfg.MaxQueued)
		}
		defer r.queued.Add(-1)
		t := time.NewTimer(min(r.cfg.QueueTimeout, maxWait))
		defer t.Stop()
		select {
		case r.slots <- struct{}{}:
		case <-t.C:
			return nil, exec.Errorf(exec.EOverloaded, "all %d run slots are busy; retry shortly", cap(r.slots))
		case <-ctx.Done():
			return nil, exec.Errorf(exec.EOverloaded, "gave up waiting for a run slot: %v", ctx.Err())
		}
	}
	n := r.live.Add(1)
	if th := r.cfg.LiveWarningThreshold; th > 0 {
		if n > int64(th) && r.warned.CompareAndSwap(false, true) {
			r.log.Warn("live executions above the warning threshold", "live", n, "threshold", th)
		} else if n <= int64(th)/2 {
			r.warned.Store(false)
		}
	}
	var once sync.Once
	return func() { once.Do(func() { r.live.Add(-1); <-r.slots }) }, nil
}

// job is a validated request bound to its language, image and limits.
type job struct {
	req     *exec.Request
	opts    exec.RunOptions
	lang    exec.LanguageDriver
	img     *Image
	limits  exec.Limits
	timeout time.Duration
	started time.Time
	prep    *exec.Prepared // set once the language prepared it
	// private: the guest's workspace is the run's own, fresh, seeded with
	// the request's files and written by nothing else while the run lasts
	// (what a driver's shipped Sources rely on).
	private bool
}

// validate checks req (invalid_argument, payload_too_large, unavailable)
// and resolves its limits. It is cheap: nothing waits or runs.
func (r *Runner) validate(req *exec.Request, opts exec.RunOptions) (*job, error) {
	if req.Kind != exec.KindEvaluate && req.Kind != exec.KindExecute {
		return nil, exec.Errorf(exec.EInvalid, "unknown kind %q", req.Kind)
	}
	lang, img, err := r.image(req.Language)
	if err != nil {
		return nil, err
	}
	if !req.Output.Capture.Valid() {
		return nil, exec.Errorf(exec.EInvalid, "output.capture must be one of all, stderr, none")
	}
	if err := exec.ValidateEnv(req.Env); err != nil {
		return nil, err
	}
	if err := r.cfg.Policy.CheckNetwork(req.Network, req.Secrets, req.Env); err != nil {
		return nil, err
	}
	if int64(len(req.Stdin)) > r.cfg.Policy.MaxStdinBytes {
		return nil, exec.Errorf(exec.ETooLarge, "stdin is %d bytes; the limit is %d", len(req.Stdin), r.cfg.Policy.MaxStdinBytes)
	}
	if req.TimeoutMs < 0 {
		return nil, exec.Errorf(exec.EInvalid, "timeoutMs must be positive")
	}
	if req.Cwd != "" {
		cwd, err := exec.WorkspacePath(req.Cwd)
		if err != nil {
			return nil, err
		}
		req.Cwd = cwd
	}
	limits, timeout, err := r.cfg.Policy.Resolve(req.Limits, time.Duration(req.TimeoutMs)*time.Millisecond, img.Spec.MinMemoryBytes)
	if err != nil {
		return nil, err
	}
	if opts.Timeout > 0 {
		timeout = opts.Timeout
	}
	if len(req.Inputs) > 0 {
		var obj map[string]json.RawMessage
		if string(req.Inputs) != "null" && json.Unmarshal(req.Inputs, &obj) != nil {
			return nil, exec.Errorf(exec.EInvalid, "inputs must be a JSON object")
		}
	}
	return &job{req: req, opts: opts, lang: lang, img: img, limits: limits, timeout: timeout}, nil
}

// Run is the run lifecycle: validate, take a run slot, prepare (e.g.
// transpile) within the run's deadline, get a guest (the context's own, a
// pre-started one, or a cold start) and its workspace, seed files, execute
// while watching the workspace quota, classify, settle, persist, report.
// A guest failure, and a deadline or cancel at any step after the slot,
// is in the Result; errors are client or service errors.
func (r *Runner) Run(ctx context.Context, req *exec.Request, opts exec.RunOptions) (res *exec.Result, err error) {
	started := false
	defer func() {
		if opts.Started != nil && !started {
			opts.Started(err)
		}
	}()
	j, err := r.validate(req, opts)
	if err != nil {
		return nil, err
	}
	if !opts.Unslotted {
		release, err := r.acquire(ctx, j.timeout)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	j.started = time.Now()
	runCtx, cancel := context.WithTimeout(ctx, j.timeout)
	defer cancel()

	prep, err := j.lang.Prepare(runCtx, req)
	switch {
	case err != nil && runCtx.Err() == nil:
		return nil, err
	case err != nil:
		res := r.stoppedBeforeGuest(ctx, j, runCtx)
		if len(req.Packages) > 0 && res.Error != nil {
			// The run's own time went to staging its packages: say so.
			res.Error.Message += " while its packages were resolved and downloaded (" + strings.Join(req.Packages, ", ") + ")"
		}
		return res, nil
	case prep.Failure != nil:
		j.prep = prep
		return r.failedBeforeGuest(ctx, j, exec.Failed, prep.Failure), nil
	}
	j.prep = prep

	g, owned, err := r.guestFor(runCtx, j)
	if err != nil {
		if runCtx.Err() != nil {
			return r.stoppedBeforeGuest(ctx, j, runCtx), nil
		}
		return nil, err
	}
	if owned {
		defer r.discard(g, opts.Workspace == "")
	}
	j.private = owned && opts.Workspace == "" && opts.Seed == nil
	if err := r.seed(runCtx, j, g); err != nil {
		if runCtx.Err() != nil {
			return r.stoppedBeforeGuest(ctx, j, runCtx), nil
		}
		return nil, err
	}
	quota := opts.Quota
	if quota == nil && owned && opts.Workspace == "" {
		quota = r.scratchQuota(g.opts.Workspace)
	}
	var over atomic.Pointer[exec.ErrorData]
	if quota != nil {
		watchCtx, stop := context.WithCancel(runCtx)
		defer stop()
		go watchQuota(watchCtx, stop, quota, &over)
		runCtx = watchCtx
	}
	if opts.Started != nil {
		started = true
		opts.Started(nil)
	}
	res, log := r.execute(runCtx, j, g, owned)
	if quota != nil {
		failure := over.Load()
		if failure == nil {
			failure = quota() // the last writes, after the last poll
		}
		if failure != nil {
			res.Outcome, res.Error, res.Value = exec.Failed, failure, nil
			if res.Kind == exec.KindExecute && res.ExitCode == 0 {
				res.ExitCode = 1
			}
		}
	}
	return r.complete(ctx, j, res, log), nil
}

// failedBeforeGuest is the one result of a run that ended before any
// guest ran: a syntax error found while preparing, or the deadline or a
// cancel while preparing or starting the guest.
func (r *Runner) failedBeforeGuest(ctx context.Context, j *job, outcome exec.Outcome, failure *exec.ErrorData) *exec.Result {
	res := r.newResult(j)
	res.Outcome, res.Error = outcome, failure
	if j.req.Kind == exec.KindExecute || j.opts.Kind == exec.KindProcess {
		res.ExitCode = 1
	}
	if j.opts.Log != nil {
		j.opts.Log.Close()
	}
	stamp(res, j.started)
	return r.complete(ctx, j, res, j.opts.Log)
}

// stoppedBeforeGuest is failedBeforeGuest for a run whose deadline passed
// or that was cancelled before its guest ran.
func (r *Runner) stoppedBeforeGuest(ctx context.Context, j *job, runCtx context.Context) *exec.Result {
	outcome, failure := ctxOutcome(runCtx)
	return r.failedBeforeGuest(ctx, j, outcome, failure)
}

func stamp(res *exec.Result, started time.Time) {
	done := time.Now()
	res.CompletedAtMs = exec.Millis(done)
	res.DurationMs = float64(done.Sub(started).Microseconds()) / 1000
}

// seed writes the request's files into the workspace before the guest runs.
func (r *Runner) seed(ctx context.Context, j *job, g *Guest) error {
	if j.opts.Seed != nil {
		return j.opts.Seed(ctx)
	}
	if j.prep != nil && j.prep.Seed != nil {
		if g.opts.Workspace == "" {
			return exec.Errorf(exec.EInvalid, "packages need a workspace")
		}
		if err := j.prep.Seed(ctx, g.opts.Workspace); err != nil {
			return err
		}
	}
	if len(j.req.Files) == 0 {
		return nil
	}
	if r.cfg.Workspaces == nil || g.opts.Workspace == "" {
		return exec.Errorf(exec.EInvalid, "files need a workspace")
	}
	return r.cfg.Workspaces.SeedWorkspace(ctx, g.opts.Workspace, j.req.Files)
}

// scratchQuota checks a throwaway workspace against the factory's quota.
func (r *Runner) scratchQuota(dir string) exec.QuotaCheck {
	q, ok := r.cfg.Workspaces.(exec.WorkspaceQuota)
	if !ok || dir == "" {
		return nil
	}
	return q.WatchWorkspace(dir)
}

// watchQuota stops a run (cancel) whose workspace goes over its bounds.
func watchQuota(ctx context.Context, cancel context.CancelFunc, check exec.QuotaCheck, over *atomic.Pointer[exec.ErrorData]) {
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

// complete runs the language's Finish hook, the caller's Settle hook and
// the OnComplete persistence hook, once per result.
func (r *Runner) complete(ctx context.Context, j *job, res *exec.Result, log *exec.OutputLog) *exec.Result {
	if j.prep != nil && j.prep.Finish != nil {
		j.prep.Finish(res)
	}
	if j.opts.Settle != nil {
		j.opts.Settle(res)
	}
	if r.cfg.OnComplete != nil {
		if err := r.cfg.OnComplete(context.WithoutCancel(ctx), res, log); err != nil {
			r.log.Error("persist execution", "executionId", res.ExecutionID, "err", err)
		}
	}
	return res
}

func (r *Runner) newResult(j *job) *exec.Result {
	sum := sha256.Sum256([]byte(j.req.Code))
	res := &exec.Result{
		ExecutionID: j.opts.ExecutionID,
		Kind:        j.req.Kind,
		Language:    j.req.Language,
		ContextID:   j.req.ContextID,
		PID:         j.opts.PID,
		StartedAtMs: exec.Millis(j.started),
		CodeSHA256:  hex.EncodeToString(sum[:]),
		Code:        j.req.Code,
	}
	if res.ExecutionID == "" {
		res.ExecutionID = exec.NewID("exe")
	}
	if j.opts.Kind != "" {
		res.Kind = j.opts.Kind
	}
	return res
}

// execute sends the job to guest g and builds the result. The ctx carries
// the run's deadline. The guest may be dead afterwards (g.Alive says); a
// guest the run owns serves only this request (RunOnce).
func (r *Runner) execute(ctx context.Context, j *job, g *Guest, owned bool) (*exec.Result, *exec.OutputLog) {
	res := r.newResult(j)
	log := j.opts.Log
	if log == nil && j.req.Output.RetainEvents {
		log = exec.NewOutputLog(j.opts.PID, r.cfg.RetainBytes)
	}
	out := exec.NewOutput(j.req.Output.Capture, j.limits.OutputBytes, log)
	out.Enforce = !j.opts.NoOutputLimit
	stdin := j.opts.Stdin
	if stdin == nil {
		stdin = exec.StdinFrom([]byte(j.req.Stdin))
	}
	sess := r.session(j, log)
	defer sess.Close()
	ctx = egress.NewContext(ctx, sess)
	payload, err := controlPayload(j)
	if err != nil {
		res.Outcome, res.Error = exec.Failed, &exec.ErrorData{Code: exec.CodeInternal, Message: "encode request: " + err.Error()}
	} else {
		call := g.Call
		if owned {
			call = g.RunOnce
		}
		cr := call(ctx, CallInput{Payload: payload, Fuel: j.limits.Fuel, Stdin: stdin, Output: out})
		res.FuelConsumed = cr.FuelConsumed
		res.Outcome, res.Error, res.ExitCode = cr.Outcome, cr.Error, cr.ExitCode
		if cr.Response != nil {
			applyResponse(res, j.req.Kind, cr.Response, j.limits.OutputBytes)
		}
	}
	out.Fill(res)
	res.Network = sess.Records()
	if log != nil {
		log.Close()
		_, res.OutputTruncated = log.Snapshot()
		res.EventsRetained = true
	}
	stamp(res, j.started)
	return res, log
}

// session is the run's network session (egress; the host function is in fetch.go).
func (r *Runner) session(j *job, log *exec.OutputLog) *egress.Session {
	s, err := r.cfg.Network.NewSession(j.req.Network, j.req.Secrets)
	if err != nil { // checked by validate
		s, _ = (*egress.Egress)(nil).NewSession(nil, nil)
	}
	if log != nil {
		s.OnRecord = func(n exec.NetworkRequest) {
			b, _ := json.Marshal(n)
			log.Append(exec.NetworkChannel, b)
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
	if !j.private {
		ctl.Sources = nil
	}
	return ctl.Payload()
}

type controlResponse struct {
	Status   string          `json:"status"`
	Value    json.RawMessage `json:"value"`
	HasValue bool            `json:"hasValue"`
	Error    *exec.ErrorData `json:"error"`
	ExitCode int             `json:"exitCode"`
}

// applyResponse turns the driver's reply into the result. A value larger
// than the run's output limit is refused (failed/output_limit): values
// are bounded like output, so neither a response nor a stored record
// can grow without bound.
func applyResponse(res *exec.Result, kind exec.Kind, raw []byte, valueLimit int64) {
	var cr controlResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		res.Outcome, res.Error = exec.Failed, &exec.ErrorData{Code: exec.CodeInternal, Message: "the driver sent a malformed result"}
		return
	}
	switch cr.Status {
	case "ok":
		res.Outcome, res.Error, res.ExitCode = exec.Succeeded, nil, 0
		if kind == exec.KindEvaluate && cr.HasValue {
			if valueLimit > 0 && int64(len(cr.Value)) > valueLimit {
				res.Outcome, res.Error = exec.Failed, &exec.ErrorData{Code: exec.CodeOutputLimit, Name: "OutputLimitError",
					Message: fmt.Sprintf("the value is %d bytes of JSON; values are bounded by limits.outputBytes (%d bytes)", len(cr.Value), valueLimit)}
				return
			}
			res.Value = cr.Value
		}
	case "exit":
		res.ExitCode = cr.ExitCode
		if cr.ExitCode == 0 {
			res.Outcome, res.Error = exec.Succeeded, nil
		} else {
			res.Outcome, res.Error = exec.Failed, &exec.ErrorData{Code: exec.CodeExit, Name: "ExitError", Message: fmt.Sprintf("exited with status %d", cr.ExitCode)}
		}
	case "error":
		res.Outcome, res.Error = exec.Failed, cr.Error
		if res.Error == nil {
			res.Error = &exec.ErrorData{Code: exec.CodeInternal, Message: "the driver reported an error without details"}
		}
		if res.Error.Code == "" {
			res.Error.Code = exec.CodeException
		}
		if kind == exec.KindExecute {
			res.ExitCode = 1
		}
	default:
		res.Outcome, res.Error = exec.Failed, &exec.ErrorData{Code: exec.CodeInternal, Message: "the driver sent an unknown status " + cr.Status}
	}
}

// guestFor returns the guest a job runs in: the caller's kept guest, else
// a pre-started one when the job fits one (default memory, no env, its own
// throwaway workspace), else a fresh instance. owned says the run closes
// it (and that it serves only this run).
func (r *Runner) guestFor(ctx context.Context, j *job) (g *Guest, owned bool, err error) {
	if j.opts.Guest != nil {
		g, ok := j.opts.Guest.(*Guest)
		if !ok || g.img != j.img {
			return nil, false, exec.Errorf(exec.EInternal, "the kept guest is not of the %s family", j.img.Spec.Name)
		}
		return g, false, nil
	}
	env := exec.SecretEnv(j.req.Env, j.req.Secrets) // secrets' placeholders
	if p := r.pools[j.img.Spec.Name]; p != nil && j.opts.Workspace == "" && len(env) == 0 && j.limits.MemoryBytes == r.cfg.Policy.Default.MemoryBytes {
		if g := p.take(); g != nil {
			return g, true, nil
		}
	}
	g, err = r.newGuest(ctx, j.img, env, j.limits.MemoryBytes, j.opts.Workspace, false)
	return g, err == nil, err
}

// StartGuest starts a guest kept across runs (a context's) in spec's
// workspace; its owner closes it.
func (r *Runner) StartGuest(ctx context.Context, spec exec.GuestSpec) (exec.Guest, error) {
	_, img, err := r.image(spec.Language)
	if err != nil {
		return nil, err
	}
	if spec.Workspace == "" {
		return nil, exec.Errorf(exec.EInternal, "a kept guest needs a workspace")
	}
	return r.newGuest(ctx, img, spec.Env, spec.MemoryBytes, spec.Workspace, true)
}

// newGuest instantiates a guest with a workspace (a fresh one, owned by the
// guest, when workspace is ""), and starts its driver when start is set;
// otherwise the guest's first use runs it (RunOnce, Call).
func (r *Runner) newGuest(ctx context.Context, img *Image, env map[string]string, memory int64, workspace string, start bool) (*Guest, error) {
	owned := false
	if workspace == "" && r.cfg.Workspaces != nil {
		dir, err := r.cfg.Workspaces.NewWorkspace()
		if err != nil {
			return nil, err
		}
		workspace, owned = dir, true
	}
	opts := GuestOptions{Env: env, MemoryBytes: memory, Workspace: workspace}
	var g *Guest
	var err error
	if start {
		g, err = img.Start(ctx, opts)
	} else {
		g, err = img.instantiate(opts)
	}
	if err != nil {
		if owned {
			r.cfg.Workspaces.RemoveWorkspace(workspace)
		}
		return nil, err
	}
	g.ownsWorkspace = owned
	return g, nil
}

// discard closes a guest the run owned and removes the workspace it owns:
// in the background for throwaway workspaces (off the request's path), at
// once when the workspace is someone else's (a process in a context: the
// guest must be gone before its owner may remove the workspace).
func (r *Runner) discard(g *Guest, background bool) {
	if background {
		go r.close(g)
		return
	}
	r.close(g)
}

// close closes g and removes the workspace it owns.
func (r *Runner) close(g *Guest) {
	g.Close()
	if g.ownsWorkspace && r.cfg.Workspaces != nil {
		r.cfg.Workspaces.RemoveWorkspace(g.opts.Workspace)
	}
}

// pool keeps pre-started guests of one image, each used for exactly one
// request (isolation first), refilled in the background.
type pool struct {
	r    *Runner
	img  *Image
	ch   chan *Guest
	kick chan struct{}
	hits atomic.Int64
	miss atomic.Int64
}

func newPool(r *Runner, img *Image, size int) *pool {
	return &pool{r: r, img: img, ch: make(chan *Guest, size), kick: make(chan struct{}, 1)}
}

func (p *pool) take() *Guest {
	defer p.refill()
	for {
		select {
		case g := <-p.ch:
			if g.Alive() {
				p.hits.Add(1)
				return g
			}
			p.r.close(g)
		default:
			p.miss.Add(1)
			return nil
		}
	}
}

func (p *pool) refill() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

func (p *pool) fill() {
	defer p.r.wg.Done()
	for {
		for len(p.ch) < cap(p.ch) {
			ctx, cancel := context.WithTimeout(context.Background(), poolStartTimeout)
			// A guest of a warm snapshot starts in well under a
			// millisecond and warm, so the pool only instantiates it and
			// the run starts it on its own goroutine (RunOnce). Other
			// images' drivers have per-guest start-up and first-request
			// costs: the pool starts them and serves the warm-up request.
			start := !p.img.Warm
			g, err := p.r.newGuest(ctx, p.img, nil, p.r.cfg.Policy.Default.MemoryBytes, "", start)
			if err == nil && start {
				err = warmUp(ctx, g)
			}
			cancel()
			if err != nil {
				p.r.log.Error("pre-start guest", "image", p.img.Spec.Name, "err", err)
				if g != nil {
					p.r.close(g)
				}
				break
			}
			select {
			case p.ch <- g:
			case <-p.r.closing:
				p.r.close(g)
				return
			}
		}
		select {
		case <-p.kick:
		case <-time.After(poolRetryEvery):
		case <-p.r.closing:
			return
		}
	}
}

// warmUpRequest is the same trivial evaluation for every language. Running
// it once in a pre-started guest takes the driver's first-request costs
// (lazy imports, first touches of memory) off the client's request; it
// leaves no state behind, and every guest gets the identical one. A
// snapshotted image serves it once while its snapshot is taken
// (buildSnapshot), so its guests start warm and skip it: that saves about
// 0.5 ms of CPU per one-shot run of the JS guest.
var warmUpRequest = []byte(`{"op":"evaluate","code":"0","filename":"<warm-up>"}`)

func warmUp(ctx context.Context, g *Guest) error {
	res := g.Call(ctx, CallInput{Payload: warmUpRequest, Fuel: initFuel, Output: exec.NewOutput(exec.CaptureNone, 1<<10, nil)})
	if res.Response == nil {
		return fmt.Errorf("warm-up request failed: %s %+v", res.Outcome, res.Error)
	}
	return nil
}

func (p *pool) drain() {
	for {
		select {
		case g := <-p.ch:
			p.r.close(g)
		default:
			return
		}
	}
}

// Snapshotted reports whether guests of image name start from a snapshot
// of their initialized runtime (rather than running their init).
func (r *Runner) Snapshotted(name string) bool {
	img := r.cfg.Images[name]
	return img != nil && img.Snapshotted
}

// PoolStats returns pre-started guest hits and misses per image.
func (r *Runner) PoolStats() map[string][2]int64 {
	out := map[string][2]int64{}
	for name, p := range r.pools {
		out[name] = [2]int64{p.hits.Load(), p.miss.Load()}
	}
	return out
}
