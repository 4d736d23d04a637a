package exec

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Request is one evaluate or execute call, as the HTTP API receives it.
type Request struct {
	Kind      Kind              `json:"-"`
	Language  Language          `json:"language"`
	Code      string            `json:"code"`
	ContextID string            `json:"contextId,omitempty"`
	Inputs    json.RawMessage   `json:"inputs,omitempty"`
	Stdin     string            `json:"stdin,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	Files     map[string]string `json:"files,omitempty"`
	TimeoutMs int64             `json:"timeoutMs,omitempty"`
	Limits    Limits            `json:"limits"`
	Output    OutputOptions     `json:"output"`
	Format    string            `json:"format,omitempty"`
}

// OutputOptions say what a run returns and keeps of its output.
type OutputOptions struct {
	Capture      Capture `json:"capture,omitempty"`
	RetainEvents bool    `json:"retainEvents,omitempty"`
}

// ControlRequest is the control-protocol request a driver receives
// (docs/PROTOCOL.md).
type ControlRequest struct {
	Op       string          `json:"op"`
	Code     string          `json:"code"`
	Filename string          `json:"filename"`
	Inputs   json.RawMessage `json:"inputs,omitempty"`
	Args     []string        `json:"args,omitempty"`
	Format   string          `json:"format,omitempty"`
	Cwd      string          `json:"cwd,omitempty"`
}

type controlResponse struct {
	Status   string          `json:"status"`
	Value    json.RawMessage `json:"value"`
	HasValue bool            `json:"hasValue"`
	Error    *ErrorData      `json:"error"`
	ExitCode int             `json:"exitCode"`
}

// Prepared is a request a LanguageDriver made ready for its guest.
type Prepared struct {
	Control ControlRequest
	// Failure, when set, ends the run before any guest runs (e.g. a
	// TypeScript syntax error found while transpiling).
	Failure *ErrorData
	// Finish, when set, post-processes the result (e.g. source maps).
	Finish func(*Result)
}

// LanguageDriver adapts a language to a guest image.
type LanguageDriver interface {
	// Image names the guest image the language runs in.
	Image() string
	// Prepare validates req and builds the control request. ctx carries the
	// run's deadline: work that outlives it (a transpile) stops, and the
	// error then wraps ctx.Err(). Other errors are client errors (EInvalid).
	Prepare(ctx context.Context, req *Request) (*Prepared, error)
}

// WorkspaceFactory creates the directories mounted at /workspace.
type WorkspaceFactory interface {
	NewWorkspace() (dir string, err error)
	SeedWorkspace(dir string, files map[string]string) error
	RemoveWorkspace(dir string) error
}

// WorkspaceQuota is implemented by WorkspaceFactories that bound a
// workspace's bytes. One-shot runs are then watched while they run (a guest
// writing past the quota is stopped, failed/quota_exceeded) and checked
// when they end.
type WorkspaceQuota interface {
	Quota() int64
	WorkspaceUsage(dir string) (int64, error)
}

// quotaCheckEvery is how often a running one-shot guest's workspace is
// measured: one-shot workspaces live on tmpfs (memory), so a guest filling
// one must be stopped while it runs, not after.
const quotaCheckEvery = 100 * time.Millisecond

// RunnerConfig wires a Runner.
type RunnerConfig struct {
	Images     map[string]*Image
	Languages  map[Language]LanguageDriver
	Policy     Policy
	Workspaces WorkspaceFactory
	// MaxConcurrent runs at once; more wait up to QueueTimeout, then get
	// EOverloaded.
	MaxConcurrent int
	QueueTimeout  time.Duration
	// MaxQueued bounds the requests waiting for a slot (default
	// 4×MaxConcurrent); beyond it a request is refused at once, so a flood
	// of waiting requests can't pile up memory.
	MaxQueued int
	// PoolSize is the number of pre-started guests kept per image (0: off).
	PoolSize int
	// RetainBytes caps the retained event log of one run.
	RetainBytes int64
	// OnComplete persists a finished run before it is reported. An error is
	// logged; the client still gets its result.
	OnComplete func(ctx context.Context, r *Result, log *OutputLog) error
	// LiveWarningThreshold logs a warning when more runs are live.
	LiveWarningThreshold int
	Logger               *slog.Logger
}

// Runner runs one-shot executions and hands guests to execution contexts.
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

// NewRunner validates cfg and starts the guest pools.
func NewRunner(cfg RunnerConfig) (*Runner, error) {
	if err := cfg.Policy.Validate(); err != nil {
		return nil, err
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = 8
	}
	if cfg.QueueTimeout <= 0 {
		cfg.QueueTimeout = 2 * time.Second
	}
	if cfg.MaxQueued <= 0 {
		cfg.MaxQueued = 4 * cfg.MaxConcurrent
	}
	if cfg.RetainBytes <= 0 {
		cfg.RetainBytes = 1 << 20
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
func (r *Runner) Policy() Policy { return r.cfg.Policy }

// Live returns the number of runs in progress.
func (r *Runner) Live() int64 { return r.live.Load() }

// Acquire takes one of the MaxConcurrent run slots, waiting at most
// QueueTimeout. It fails with EOverloaded.
func (r *Runner) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case r.slots <- struct{}{}:
	default:
		if r.queued.Add(1) > int64(r.cfg.MaxQueued) {
			r.queued.Add(-1)
			return nil, Errorf(EOverloaded, "all %d run slots are busy and %d requests are already waiting; retry shortly", cap(r.slots), r.cfg.MaxQueued)
		}
		defer r.queued.Add(-1)
		t := time.NewTimer(r.cfg.QueueTimeout)
		defer t.Stop()
		select {
		case r.slots <- struct{}{}:
		case <-t.C:
			return nil, Errorf(EOverloaded, "all %d run slots are busy; retry shortly", cap(r.slots))
		case <-ctx.Done():
			return nil, Errorf(EOverloaded, "gave up waiting for a run slot: %v", ctx.Err())
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

// Job is a validated request bound to its image and limits.
type Job struct {
	Req      *Request
	Prepared *Prepared
	Image    *Image
	Limits   Limits
	Timeout  time.Duration
}

// Prepare validates req (EInvalid) and resolves its limits.
func (r *Runner) Prepare(req *Request) (*Job, error) {
	if req.Kind != KindEvaluate && req.Kind != KindExecute {
		return nil, Errorf(EInvalid, "unknown kind %q", req.Kind)
	}
	lang, ok := r.cfg.Languages[req.Language]
	if !ok {
		return nil, Errorf(EInvalid, "unsupported language %q (supported: %s)", req.Language, r.languageList())
	}
	img := r.cfg.Images[lang.Image()]
	if img == nil {
		return nil, Errorf(EUnavailable, "the %s guest image is not loaded", lang.Image())
	}
	if !req.Output.Capture.Valid() {
		return nil, Errorf(EInvalid, "output.capture must be one of all, stderr, none")
	}
	for k := range req.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, Errorf(EInvalid, "env name %q is not valid", k)
		}
	}
	for k, v := range req.Env {
		if strings.ContainsRune(v, 0) {
			return nil, Errorf(EInvalid, "env %s contains a NUL byte", k)
		}
	}
	if int64(len(req.Stdin)) > r.cfg.Policy.MaxStdinBytes {
		return nil, Errorf(ETooLarge, "stdin is %d bytes; the limit is %d", len(req.Stdin), r.cfg.Policy.MaxStdinBytes)
	}
	if req.TimeoutMs < 0 {
		return nil, Errorf(EInvalid, "timeoutMs must be positive")
	}
	if req.Cwd != "" {
		cwd, err := workspacePath(req.Cwd)
		if err != nil {
			return nil, err
		}
		req.Cwd = cwd
	}
	limits, timeout, err := r.cfg.Policy.Resolve(req.Limits, time.Duration(req.TimeoutMs)*time.Millisecond, img.Spec.MinMemoryBytes)
	if err != nil {
		return nil, err
	}
	if len(req.Inputs) > 0 {
		var obj map[string]json.RawMessage
		if string(req.Inputs) != "null" && json.Unmarshal(req.Inputs, &obj) != nil {
			return nil, Errorf(EInvalid, "inputs must be a JSON object")
		}
	}
	p, err := lang.Prepare(context.TODO(), req) // TODO(lifecycle): run ctx
	if err != nil {
		return nil, err
	}
	return &Job{Req: req, Prepared: p, Image: img, Limits: limits, Timeout: timeout}, nil
}

func (r *Runner) languageList() string {
	var names []string
	for l := range r.cfg.Languages {
		names = append(names, string(l))
	}
	return strings.Join(names, ", ")
}

// Run executes a one-shot request in a fresh guest (pre-started when one is
// ready) that is thrown away afterwards. Guest failures are in the Result;
// errors are service errors (invalid request, overload, internal).
func (r *Runner) Run(ctx context.Context, req *Request) (*Result, error) {
	job, err := r.Prepare(req)
	if err != nil {
		return nil, err
	}
	release, err := r.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return r.runJob(ctx, job)
}

func (r *Runner) runJob(ctx context.Context, job *Job) (*Result, error) {
	started := time.Now()
	if job.Prepared.Failure != nil {
		res := r.newResult(job, started)
		res.Outcome, res.Error = Failed, job.Prepared.Failure
		return r.complete(ctx, job, res, nil)
	}
	runCtx, cancel := context.WithTimeout(ctx, job.Timeout)
	defer cancel()
	g, err := r.guestFor(runCtx, job)
	if err != nil {
		if runCtx.Err() != nil {
			res := r.newResult(job, started)
			res.Outcome, res.Error = ctxOutcome(runCtx)
			return r.complete(ctx, job, res, nil)
		}
		return nil, err
	}
	defer r.discard(g)
	if len(job.Req.Files) > 0 {
		if err := r.cfg.Workspaces.SeedWorkspace(g.opts.Workspace, job.Req.Files); err != nil {
			return nil, err
		}
	}
	q, quota := r.cfg.Workspaces.(WorkspaceQuota)
	quota = quota && q.Quota() > 0
	var overQuota atomic.Bool
	if quota {
		watchCtx, cancelRun := context.WithCancel(runCtx)
		defer cancelRun()
		go watchQuota(watchCtx, cancelRun, q, g.opts.Workspace, &overQuota)
		runCtx = watchCtx
	}
	res, log := r.Execute(runCtx, job, g, started)
	if quota {
		if used, err := q.WorkspaceUsage(g.opts.Workspace); overQuota.Load() || (err == nil && used > q.Quota()) {
			res.Outcome = Failed
			res.Error = &ErrorData{Code: CodeQuotaExceeded, Name: "QuotaExceededError", Message: fmt.Sprintf("the run wrote more than the workspace quota of %d bytes", q.Quota())}
		}
	}
	return r.complete(ctx, job, res, log)
}

// watchQuota stops a run (cancel) whose workspace grows past the quota.
func watchQuota(ctx context.Context, cancel context.CancelFunc, q WorkspaceQuota, dir string, over *atomic.Bool) {
	t := time.NewTicker(quotaCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if used, err := q.WorkspaceUsage(dir); err == nil && used > q.Quota() {
				over.Store(true)
				cancel()
				return
			}
		}
	}
}

func (r *Runner) complete(ctx context.Context, job *Job, res *Result, log *OutputLog) (*Result, error) {
	if job.Prepared.Finish != nil {
		job.Prepared.Finish(res)
	}
	if r.cfg.OnComplete != nil {
		if err := r.cfg.OnComplete(context.WithoutCancel(ctx), res, log); err != nil {
			r.log.Error("persist execution", "executionId", res.ExecutionID, "err", err)
		}
	}
	return res, nil
}

func (r *Runner) newResult(job *Job, started time.Time) *Result {
	sum := sha256.Sum256([]byte(job.Req.Code))
	return &Result{
		ExecutionID: NewID("exe"),
		Kind:        job.Req.Kind,
		Language:    job.Req.Language,
		ContextID:   job.Req.ContextID,
		StartedAtMs: Millis(started),
		CodeSHA256:  hex.EncodeToString(sum[:]),
		Code:        job.Req.Code,
	}
}

// ExecOptions adjust how Execute runs a job. The zero value is a one-shot
// run: stdin from the request, events retained per the request.
type ExecOptions struct {
	// Stdin replaces the request's stdin (a process's live stdin).
	Stdin *Stdin
	// Log replaces the retained event log (a process's live log, read by
	// streams while the run goes on). Execute closes it at the end.
	Log *OutputLog
	// NoOutputLimit keeps the run going past limits.outputBytes: captured
	// text stops at the limit, the event log keeps its own cap (processes).
	NoOutputLimit bool
	// PID is stamped on the result (processes).
	PID int64
}

// Execute sends job to guest g and builds the result. The ctx carries the
// run's deadline. The guest may be dead afterwards (Result and g.Alive say).
func (r *Runner) Execute(ctx context.Context, job *Job, g *Guest, started time.Time) (*Result, *OutputLog) {
	return r.ExecuteWith(ctx, job, g, started, ExecOptions{})
}

// ExecuteWith is Execute with options.
func (r *Runner) ExecuteWith(ctx context.Context, job *Job, g *Guest, started time.Time, opts ExecOptions) (*Result, *OutputLog) {
	res := r.newResult(job, started)
	res.PID = opts.PID
	log := opts.Log
	if log == nil && job.Req.Output.RetainEvents {
		log = NewOutputLog(opts.PID, r.cfg.RetainBytes)
	}
	out := NewOutput(job.Req.Output.Capture, job.Limits.OutputBytes, log)
	out.Enforce = !opts.NoOutputLimit
	stdin := opts.Stdin
	if stdin == nil {
		stdin = StdinFrom([]byte(job.Req.Stdin))
	}
	payload, err := ControlPayload(job)
	if err != nil {
		res.Outcome, res.Error = Failed, &ErrorData{Code: CodeInternal, Message: "encode request: " + err.Error()}
		return res, log
	}
	cr := g.Call(ctx, CallInput{Payload: payload, Fuel: job.Limits.Fuel, Stdin: stdin, Output: out})
	res.FuelConsumed = cr.FuelConsumed
	res.Outcome, res.Error, res.ExitCode = cr.Outcome, cr.Error, cr.ExitCode
	if cr.Response != nil {
		applyResponse(res, job.Req.Kind, cr.Response)
	}
	out.fill(res)
	if log != nil {
		log.Close()
		_, res.OutputTruncated = log.Snapshot()
		res.EventsRetained = true
	}
	done := time.Now()
	res.CompletedAtMs = Millis(done)
	res.DurationMs = float64(done.Sub(started).Microseconds()) / 1000
	return res, log
}

// ControlPayload encodes the driver request of a job.
func ControlPayload(job *Job) ([]byte, error) {
	ctl := job.Prepared.Control
	ctl.Inputs = job.Req.Inputs
	ctl.Args = job.Req.Args
	ctl.Cwd = job.Req.Cwd
	return json.Marshal(ctl)
}

// Complete runs the job's Finish hook and the OnComplete persistence hook;
// call it once per finished result (Run does it for one-shot runs).
func (r *Runner) Complete(ctx context.Context, job *Job, res *Result, log *OutputLog) *Result {
	res, _ = r.complete(ctx, job, res, log)
	return res
}

func applyResponse(res *Result, kind Kind, raw []byte) {
	var cr controlResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		res.Outcome, res.Error = Failed, &ErrorData{Code: CodeInternal, Message: "the driver sent a malformed result"}
		return
	}
	switch cr.Status {
	case "ok":
		res.Outcome, res.Error, res.ExitCode = Succeeded, nil, 0
		if kind == KindEvaluate && cr.HasValue {
			res.Value = cr.Value
		}
	case "exit":
		res.ExitCode = cr.ExitCode
		if cr.ExitCode == 0 {
			res.Outcome, res.Error = Succeeded, nil
		} else {
			res.Outcome, res.Error = Failed, &ErrorData{Code: CodeExit, Name: "ExitError", Message: fmt.Sprintf("exited with status %d", cr.ExitCode)}
		}
	case "error":
		res.Outcome, res.Error = Failed, cr.Error
		if res.Error == nil {
			res.Error = &ErrorData{Code: CodeInternal, Message: "the driver reported an error without details"}
		}
		if res.Error.Code == "" {
			res.Error.Code = CodeException
		}
		if kind == KindExecute {
			res.ExitCode = 1
		}
	default:
		res.Outcome, res.Error = Failed, &ErrorData{Code: CodeInternal, Message: "the driver sent an unknown status " + cr.Status}
	}
}

// guestFor returns a pre-started guest when the job can use one, else
// starts one. Pool guests have default limits, no env and an empty
// workspace, so only jobs asking for exactly that take them.
func (r *Runner) guestFor(ctx context.Context, job *Job) (*Guest, error) {
	if p := r.pools[job.Image.Spec.Name]; p != nil && len(job.Req.Env) == 0 && job.Limits.MemoryBytes == r.cfg.Policy.Default.MemoryBytes {
		if g := p.take(); g != nil {
			return g, nil
		}
	}
	return r.StartGuest(ctx, job.Image, job.Req.Env, job.Limits.MemoryBytes, "")
}

// StartGuest starts a guest with a workspace (a fresh one when workspace is
// ""). Close it with Discard.
func (r *Runner) StartGuest(ctx context.Context, img *Image, env map[string]string, memory int64, workspace string) (*Guest, error) {
	owned := false
	if workspace == "" && r.cfg.Workspaces != nil {
		dir, err := r.cfg.Workspaces.NewWorkspace()
		if err != nil {
			return nil, err
		}
		workspace, owned = dir, true
	}
	g, err := img.Start(ctx, GuestOptions{Env: env, MemoryBytes: memory, Workspace: workspace})
	if err != nil {
		if owned {
			r.cfg.Workspaces.RemoveWorkspace(workspace)
		}
		return nil, err
	}
	g.ownsWorkspace = owned
	return g, nil
}

// discard closes a one-shot guest and removes its workspace, off the
// request's path.
func (r *Runner) discard(g *Guest) {
	go r.Discard(g)
}

// Discard closes g and removes the workspace it owns.
func (r *Runner) Discard(g *Guest) {
	g.Close()
	if g.ownsWorkspace && r.cfg.Workspaces != nil {
		r.cfg.Workspaces.RemoveWorkspace(g.opts.Workspace)
	}
}

// NewID returns a random identifier with a prefix, e.g. exe_3f9c...
func NewID(prefix string) string {
	var b [10]byte
	rand.Read(b[:])
	return prefix + "_" + hex.EncodeToString(b[:])
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
			p.r.Discard(g)
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
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			g, err := p.r.StartGuest(ctx, p.img, nil, p.r.cfg.Policy.Default.MemoryBytes, "")
			if err == nil {
				err = warmUp(ctx, g)
			}
			cancel()
			if err != nil {
				p.r.log.Error("pre-start guest", "image", p.img.Spec.Name, "err", err)
				if g != nil {
					p.r.Discard(g)
				}
				break
			}
			select {
			case p.ch <- g:
			case <-p.r.closing:
				p.r.Discard(g)
				return
			}
		}
		select {
		case <-p.kick:
		case <-time.After(time.Second):
		case <-p.r.closing:
			return
		}
	}
}

// warmUpRequest is the same trivial evaluation for every language. Running
// it once in a pre-started guest takes the driver's first-request costs
// (lazy imports, first touches of memory) off the client's request; it
// leaves no state behind, and every guest gets the identical one.
var warmUpRequest = []byte(`{"op":"evaluate","code":"0","filename":"<warm-up>"}`)

func warmUp(ctx context.Context, g *Guest) error {
	res := g.Call(ctx, CallInput{Payload: warmUpRequest, Fuel: initFuel, Output: NewOutput(CaptureNone, 1<<10, nil)})
	if res.Response == nil {
		return fmt.Errorf("warm-up request failed: %s %+v", res.Outcome, res.Error)
	}
	return nil
}

func (p *pool) drain() {
	for {
		select {
		case g := <-p.ch:
			p.r.Discard(g)
		default:
			return
		}
	}
}

// PoolStats returns pre-started guest hits and misses per image.
func (r *Runner) PoolStats() map[string][2]int64 {
	out := map[string][2]int64{}
	for name, p := range r.pools {
		out[name] = [2]int64{p.hits.Load(), p.miss.Load()}
	}
	return out
}

// workspacePath turns a client's cwd (relative to /workspace, or absolute
// under it) into an absolute guest path, refusing anything outside.
func workspacePath(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", Errorf(EInvalid, "cwd contains a NUL byte")
	}
	if !strings.HasPrefix(p, "/") {
		p = "/workspace/" + p
	}
	clean := path.Clean(p)
	if clean != "/workspace" && !strings.HasPrefix(clean, "/workspace/") {
		return "", Errorf(EInvalid, "cwd %q is outside /workspace", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return "", Errorf(EInvalid, "cwd %q may not contain ..", p)
		}
	}
	return clean, nil
}
