package tscheck

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wasmexec/wasmexec/exec"
)

// PoolConfig configures a Pool.
type PoolConfig struct {
	// Size is the number of worker processes (default 1). Each holds its own
	// compiled compiler and parsed lib files: RSS ~260 MB with es2022,
	// ~550 MB once dom has been used.
	Size int
	// WorkerCommand starts one worker, e.g. [os.Args[0], "tscheck-worker"];
	// the process must run WorkerMain(os.Stdin, os.Stdout).
	WorkerCommand []string
	// ImageDir holds the built image: typescript.js, lib/, VERSION.
	ImageDir string
	// MemoryLimitBytes caps each worker's data segment (RLIMIT_DATA, set by
	// the worker itself at start). 0 means DefaultMemoryLimit; negative, none.
	MemoryLimitBytes int64
	// PrewarmLibs are lib sets each worker checks once before it is ready,
	// so the first real check with them is warm, e.g. {{"es2022"},
	// {"es2022", "dom"}}. Default: {{"es2022"}}; an empty non-nil slice
	// pre-warms nothing.
	PrewarmLibs [][]string
	// Logger receives progress and worker failures (default: discarded).
	Logger *slog.Logger
	// Env is added to the environment the workers inherit ("KEY=value").
	Env []string
}

// Pool defaults.
const (
	DefaultMemoryLimit = 2 << 30
	// killGrace is how long after a check's deadline (or a cancel) the pool
	// waits for the worker's own interrupt before it kills the process.
	killGrace = 2 * time.Second
	// stopGrace bounds Close's wait for workers to exit before SIGKILL.
	stopGrace     = 5 * time.Second
	maxRestartGap = 30 * time.Second
)

// Error codes in Result.Error beyond the exec.Code* ones.
const (
	CodeTimeout   = "timeout"
	CodeCancelled = "cancelled"
)

// Pool runs type checks on a set of worker processes. It is safe for
// concurrent use; checks beyond Size wait for a free worker.
type Pool struct {
	cfg     PoolConfig
	log     *slog.Logger
	version string

	idleMu   sync.Mutex
	idleList []*proc
	wake     chan struct{} // signalled when idleList may be non-empty
	closeCh  chan struct{}
	wg       sync.WaitGroup
	nextID   atomic.Uint64
	live     atomic.Int32 // initialized workers, idle or busy
	started  atomic.Bool
	closed   atomic.Bool

	mu      sync.Mutex
	procs   map[*proc]struct{}
	libs    map[string]bool     // lib names the compiler accepts
	enums   map[string][]string // option → allowed values
	infoSet chan struct{}       // closed once libs/enums are known
	first   chan slotStart      // Start's view of each slot's first attempt
}

type slotStart struct {
	slot int
	err  error
}

// NewPool validates cfg and the image. It starts nothing; call Start.
// Errors are *exec.Error with code exec.EInvalid (bad config) or
// exec.EUnavailable (image missing or incomplete).
func NewPool(cfg PoolConfig) (*Pool, error) {
	if cfg.Size <= 0 {
		cfg.Size = 1
	}
	if len(cfg.WorkerCommand) == 0 {
		return nil, exec.Errorf(exec.EInvalid, "tscheck: WorkerCommand is required")
	}
	if cfg.MemoryLimitBytes == 0 {
		cfg.MemoryLimitBytes = DefaultMemoryLimit
	}
	if cfg.PrewarmLibs == nil {
		cfg.PrewarmLibs = [][]string{defaultLibs}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	for _, f := range []string{"typescript.js", "VERSION", "lib/lib.es2022.d.ts"} {
		if _, err := os.Stat(filepath.Join(cfg.ImageDir, f)); err != nil {
			return nil, &exec.Error{Code: exec.EUnavailable,
				Message: fmt.Sprintf("typescript image incomplete: %s missing in %q (run guest-images/typescript/build.sh)", f, cfg.ImageDir),
				Err:     err}
		}
	}
	v, err := os.ReadFile(filepath.Join(cfg.ImageDir, "VERSION"))
	if err != nil {
		return nil, &exec.Error{Code: exec.EUnavailable, Message: "typescript image: cannot read VERSION", Err: err}
	}
	return &Pool{
		cfg:     cfg,
		log:     cfg.Logger.With("component", "tscheck"),
		version: strings.TrimSpace(string(v)),
		wake:    make(chan struct{}, 1),
		closeCh: make(chan struct{}),
		procs:   map[*proc]struct{}{},
		infoSet: make(chan struct{}),
		first:   make(chan slotStart, cfg.Size),
	}, nil
}

// Version is the TypeScript version of the image ("5.9.3").
func (p *Pool) Version() string { return p.version }

// Ready reports whether the pool is started, not closed, and has at least
// one live worker.
func (p *Pool) Ready() bool {
	return p.started.Load() && !p.closed.Load() && p.live.Load() > 0
}

// Start spawns the workers and waits until each has loaded the compiler and
// pre-warmed its lib sets (seconds: ~3 s for es2022, ~12 s more for dom).
// It returns an error if ctx ends first or a worker fails its first start;
// workers keep being (re)started in the background until Close either way.
func (p *Pool) Start(ctx context.Context) error {
	if p.closed.Load() {
		return exec.Errorf(exec.EUnavailable, "tscheck: pool closed")
	}
	if !p.started.CompareAndSwap(false, true) {
		return exec.Errorf(exec.EConflict, "tscheck: pool already started")
	}
	t := time.Now()
	p.log.Info("starting type-check workers", "workers", p.cfg.Size, "typescript", p.version,
		"prewarm", p.cfg.PrewarmLibs, "memoryLimitBytes", p.cfg.MemoryLimitBytes)
	for i := 0; i < p.cfg.Size; i++ {
		p.wg.Add(1)
		go p.runSlot(i)
	}
	for n := 0; n < p.cfg.Size; n++ {
		select {
		case s := <-p.first:
			if s.err != nil {
				return fmt.Errorf("tscheck: worker %d: %w", s.slot, s.err)
			}
		case <-ctx.Done():
			return fmt.Errorf("tscheck: start: %w", ctx.Err())
		case <-p.closeCh:
			return exec.Errorf(exec.EUnavailable, "tscheck: pool closed")
		}
	}
	p.log.Info("type checker ready", "workers", p.cfg.Size, "ms", ms(time.Since(t)))
	return nil
}

// Close stops the workers: in-flight checks end as cancelled, each worker's
// stdin is closed, and Close waits for every process to exit (killing those
// that do not within a few seconds). It is idempotent.
func (p *Pool) Close() error {
	if !p.closed.CompareAndSwap(false, true) {
		p.wg.Wait()
		return nil
	}
	close(p.closeCh)
	p.mu.Lock()
	procs := make([]*proc, 0, len(p.procs))
	for w := range p.procs {
		procs = append(procs, w)
	}
	p.mu.Unlock()
	for _, w := range procs {
		w.stdin.Close()
	}
	deadline := time.NewTimer(stopGrace)
	defer deadline.Stop()
	for _, w := range procs {
		select {
		case <-w.dead:
		case <-deadline.C:
			w.kill()
			<-w.dead
		}
	}
	p.wg.Wait()
	p.log.Info("type checker stopped")
	return nil
}

// Check type-checks one request. Bad requests return a *exec.Error
// (exec.EInvalid, exec.ETooLarge); a closed pool, exec.EUnavailable.
// Everything else — type errors, a deadline, a dead worker, ctx ending — is
// a Result (ctx ending gives TimedOut for a deadline, Cancelled otherwise).
func (p *Pool) Check(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	if p.closed.Load() {
		return nil, exec.Errorf(exec.EUnavailable, "type checker is shut down")
	}
	if !p.started.Load() {
		return nil, exec.Errorf(exec.EUnavailable, "type checker is not started")
	}
	// Option values are validated against what the compiler reported; that
	// is known once a worker has started.
	select {
	case <-p.infoSet:
	default:
		return nil, exec.Errorf(exec.EUnavailable, "type checker is starting")
	}
	p.mu.Lock()
	libs, enums := p.libs, p.enums
	p.mu.Unlock()
	prep, err := prepare(req, libs, enums)
	if err != nil {
		return nil, err
	}

	for {
		w, err := p.acquire(ctx)
		if err != nil {
			if p.closed.Load() {
				return nil, exec.Errorf(exec.EUnavailable, "type checker is shut down")
			}
			return p.ctxResult(ctx, start), nil
		}
		res, sent, err := p.run(ctx, w, prep)
		if err != nil {
			return nil, err
		}
		if !sent {
			continue // the worker was gone before it got the request
		}
		res.TypeScriptVersion = p.version
		res.DurationMs = ms(time.Since(start))
		return res, nil
	}
}

// acquire takes an idle live worker, waiting for one until ctx ends or the
// pool closes.
func (p *Pool) acquire(ctx context.Context) (*proc, error) {
	for {
		p.idleMu.Lock()
		var w *proc
		for len(p.idleList) > 0 && w == nil {
			last := len(p.idleList) - 1
			c := p.idleList[last]
			p.idleList = p.idleList[:last]
			if !c.isDead() {
				w = c
			}
		}
		more := len(p.idleList) > 0
		p.idleMu.Unlock()
		if w != nil {
			if more {
				p.signal() // pass the wake-up on to the next waiter
			}
			return w, nil
		}
		select {
		case <-p.wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-p.closeCh:
			return nil, errors.New("closed")
		}
	}
}

func (p *Pool) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// putIdle makes w available to checks.
func (p *Pool) putIdle(w *proc) {
	p.idleMu.Lock()
	p.idleList = append(p.idleList, w)
	p.idleMu.Unlock()
	p.signal()
}

// removeIdle drops a dead worker from the idle set, if it is there.
func (p *Pool) removeIdle(w *proc) {
	p.idleMu.Lock()
	defer p.idleMu.Unlock()
	for i, c := range p.idleList {
		if c == w {
			p.idleList = append(p.idleList[:i], p.idleList[i+1:]...)
			return
		}
	}
}

func (p *Pool) ctxResult(ctx context.Context, start time.Time) *Result {
	r := &Result{Outcome: exec.Cancelled, Diagnostics: []Diagnostic{},
		Error:             &exec.ErrorData{Code: CodeCancelled, Message: "type check cancelled"},
		TypeScriptVersion: p.version, DurationMs: ms(time.Since(start))}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		r.Outcome = exec.TimedOut
		r.Error = &exec.ErrorData{Code: CodeTimeout, Message: "deadline exceeded before the type check finished"}
	}
	return r
}

// run sends one check to w and waits for its end. sent is false when the
// request could not be written (the worker had died); then w is not reused.
// An error is a request the compiler rejected (exec.EInvalid).
func (p *Pool) run(ctx context.Context, w *proc, prep *prepared) (res *Result, sent bool, err error) {
	timeout := prep.timeout
	if dl, ok := ctx.Deadline(); ok {
		if d := time.Until(dl); d < timeout {
			timeout = max(d, time.Millisecond)
		}
	}
	id := p.nextID.Add(1)
	w.current.Store(id)
	if err := w.send(workerRequest{Op: opCheck, ID: id, Check: prep.payload, TimeoutMs: timeout.Milliseconds()}); err != nil {
		p.log.Warn("type-check worker unreachable", "pid", w.pid, "err", err)
		w.kill()
		return nil, false, nil
	}

	hard := time.NewTimer(timeout + killGrace)
	defer hard.Stop()
	cancelled := ctx.Done()
	closing := p.closeCh
	var graceC <-chan time.Time
	for {
		select {
		case m := <-w.results:
			if m.ID != id {
				p.log.Warn("type-check worker sent a stale result", "pid", w.pid, "id", m.ID, "want", id)
				continue
			}
			return p.finish(ctx, w, m, prep)

		case <-w.dead:
			// A result written just before the exit (a recycling worker) is
			// already queued: readLoop delivers frames before closing dead.
			for len(w.results) > 0 {
				if m := <-w.results; m.ID == id {
					return p.finish(ctx, w, m, prep)
				}
			}
			return p.deadResult(w), true, nil

		case <-hard.C:
			p.log.Warn("type-check worker ignored its deadline; killing it", "pid", w.pid, "timeout", timeout)
			w.kill()
			return &Result{Outcome: exec.TimedOut, Diagnostics: []Diagnostic{},
				Error: &exec.ErrorData{Code: CodeTimeout, Message: fmt.Sprintf("type check did not finish within %v", timeout)}}, true, nil

		case <-cancelled:
			// Ask the worker to stop; it answers with a cancelled result, or
			// is killed after the grace period.
			cancelled, closing = nil, nil
			_ = w.send(workerRequest{Op: opCancel, ID: id})
			graceC = time.After(killGrace)

		case <-closing:
			cancelled, closing = nil, nil
			_ = w.send(workerRequest{Op: opCancel, ID: id})
			graceC = time.After(killGrace)

		case <-graceC:
			w.kill()
			r := &Result{Outcome: exec.Cancelled, Diagnostics: []Diagnostic{},
				Error: &exec.ErrorData{Code: CodeCancelled, Message: "type check cancelled"}}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				r.Outcome = exec.TimedOut
				r.Error = &exec.ErrorData{Code: CodeTimeout, Message: "deadline exceeded before the type check finished"}
			}
			return r, true, nil
		}
	}
}

// finish turns the worker's result into the check's and puts the worker
// back (unless it announced it exits).
func (p *Pool) finish(ctx context.Context, w *proc, m workerMessage, prep *prepared) (*Result, bool, error) {
	p.log.Debug("type check done", "pid", w.pid, "outcome", m.Outcome, "workerMs", m.DurationMs,
		"workerCPUMs", m.CPUMs, "phasesMs", m.Timings)
	if m.Recycle {
		// The worker exits after this; its slot starts a new one.
		w.recycled.Store(true)
		p.log.Info("type-check worker recycling after a memory-hungry check", "pid", w.pid)
	} else {
		p.release(w)
	}
	if m.Outcome == wireInvalid {
		msg := "invalid compiler options"
		if m.Error != nil {
			msg += ": " + m.Error.Message
		}
		return nil, true, exec.Errorf(exec.EInvalid, "%s", msg)
	}
	r := p.toResult(m, prep)
	r.workerCPUMs = m.CPUMs
	if r.Outcome == exec.Cancelled && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		r.Outcome = exec.TimedOut
		r.Error = &exec.ErrorData{Code: CodeTimeout, Message: "deadline exceeded before the type check finished"}
	}
	return r, true, nil
}

// release returns a healthy worker to the idle set.
func (p *Pool) release(w *proc) {
	w.current.Store(0)
	if p.closed.Load() || w.isDead() {
		return
	}
	p.putIdle(w)
}

func (p *Pool) toResult(m workerMessage, prep *prepared) *Result {
	r := &Result{Outcome: exec.Outcome(m.Outcome), Diagnostics: []Diagnostic{}}
	switch m.Outcome {
	case string(exec.Succeeded):
		for _, d := range m.Diagnostics {
			if u, ok := prep.toUser[d.FilePath]; ok {
				d.FilePath = u
			}
			if d.Category == "error" {
				r.HasErrors = true
			}
			r.Diagnostics = append(r.Diagnostics, d)
		}
		return r
	}
	if m.Error != nil {
		r.Error = &exec.ErrorData{Code: m.Error.Code, Message: m.Error.Message}
	}
	if r.Error == nil {
		r.Outcome = exec.Failed
		r.Error = &exec.ErrorData{Code: exec.CodeInternal, Message: "worker sent outcome " + strconv.Quote(m.Outcome)}
	}
	return r
}

// deadResult describes a check whose worker died under it.
func (p *Pool) deadResult(w *proc) *Result {
	r := &Result{Outcome: exec.Failed, Diagnostics: []Diagnostic{}}
	stderr := w.stderr.String()
	switch {
	case p.diedOfMemory(w, stderr):
		r.Error = &exec.ErrorData{Code: exec.CodeMemoryLimit,
			Message: fmt.Sprintf("the type checker ran out of memory (limit %d bytes)", p.cfg.MemoryLimitBytes)}
	case strings.Contains(stderr, "stack exceeds") || strings.Contains(stderr, "stack overflow"):
		r.Error = &exec.ErrorData{Code: exec.CodeStackOverflow, Message: "the type checker ran out of stack"}
	default:
		msg := "the type checker process exited unexpectedly: " + w.exitDescription()
		if first := firstLine(strings.TrimSpace(stderr)); first != "" {
			msg += " (" + first + ")"
		}
		r.Error = &exec.ErrorData{Code: exec.CodeInternal, Message: msg}
	}
	return r
}

// diedOfMemory decides whether a dead worker hit its memory limit.
func (p *Pool) diedOfMemory(w *proc, stderr string) bool {
	if strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory") {
		return true
	}
	if p.cfg.MemoryLimitBytes <= 0 || w.killedBySignal(syscall.SIGKILL) {
		return false
	}
	// Thread stacks count against RLIMIT_DATA too.
	if strings.Contains(stderr, "pthread_create failed") {
		return true
	}
	// The Go runtime does not survive every failed mmap (some paths end in
	// SIGSEGV): a worker that crashed by itself after using over half its
	// limit is taken to have hit it.
	return w.peakRSS() >= p.cfg.MemoryLimitBytes/2
}

// runSlot keeps one worker alive until Close: start, wait for death,
// restart with backoff when starts keep failing.
func (p *Pool) runSlot(slot int) {
	defer p.wg.Done()
	firstAttempt := true
	gap := 100 * time.Millisecond
	for !p.closed.Load() {
		t := time.Now()
		w, err := p.spawn(slot)
		if firstAttempt {
			p.first <- slotStart{slot: slot, err: err}
			firstAttempt = false
		}
		if err != nil {
			if p.closed.Load() {
				return
			}
			p.log.Error("type-check worker failed to start", "slot", slot, "err", err, "retryIn", gap)
			select {
			case <-time.After(gap):
			case <-p.closeCh:
				return
			}
			gap = min(gap*2, maxRestartGap)
			continue
		}
		gap = 100 * time.Millisecond
		p.live.Add(1)
		p.log.Info("type-check worker ready", "slot", slot, "pid", w.pid, "ms", ms(time.Since(t)))
		p.putIdle(w)
		<-w.dead
		p.live.Add(-1)
		p.removeIdle(w)
		p.forget(w)
		if p.closed.Load() {
			return
		}
		if w.recycled.Load() {
			p.log.Info("type-check worker recycled; restarting", "slot", slot, "pid", w.pid)
		} else {
			p.log.Warn("type-check worker exited; restarting", "slot", slot, "pid", w.pid,
				"exit", w.exitDescription(), "stderr", w.stderr.Summary())
		}
	}
}

func (p *Pool) forget(w *proc) {
	p.mu.Lock()
	delete(p.procs, w)
	p.mu.Unlock()
}

// spawn starts one worker process and waits for it to be ready.
func (p *Pool) spawn(slot int) (*proc, error) {
	cmd := osexec.Command(p.cfg.WorkerCommand[0], p.cfg.WorkerCommand[1:]...)
	limit := p.cfg.MemoryLimitBytes
	if limit < 0 {
		limit = 0
	}
	cmd.Env = append(append(os.Environ(), p.cfg.Env...), EnvMemoryLimit+"="+strconv.FormatInt(limit, 10))
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w := &proc{
		stdin:   stdin,
		results: make(chan workerMessage, 4),
		ready:   make(chan workerMessage, 1),
		dead:    make(chan struct{}),
		stderr:  &stderrBuffer{},
	}
	cmd.Stderr = w.stderr
	w.cmd = cmd

	p.mu.Lock()
	if p.closed.Load() {
		p.mu.Unlock()
		return nil, exec.Errorf(exec.EUnavailable, "pool closed")
	}
	if err := cmd.Start(); err != nil {
		p.mu.Unlock()
		return nil, fmt.Errorf("start %q: %w", p.cfg.WorkerCommand[0], err)
	}
	w.pid = cmd.Process.Pid
	p.procs[w] = struct{}{}
	p.mu.Unlock()

	go w.readLoop(stdout, p.log.With("slot", slot, "pid", w.pid))

	if err := w.send(workerRequest{Op: opInit, ImageDir: p.cfg.ImageDir, Prewarm: p.cfg.PrewarmLibs}); err != nil {
		w.kill()
		<-w.dead
		return nil, fmt.Errorf("send init: %w (stderr: %s)", err, w.stderr.Summary())
	}
	select {
	case m := <-w.ready:
		if m.Type == msgFatal {
			w.kill()
			<-w.dead
			return nil, fmt.Errorf("worker: %s", m.Msg)
		}
		p.setInfo(m)
		return w, nil
	case <-w.dead:
		return nil, fmt.Errorf("worker exited during start: %s (stderr: %s)", w.exitDescription(), w.stderr.Summary())
	case <-p.closeCh:
		w.kill()
		<-w.dead
		return nil, exec.Errorf(exec.EUnavailable, "pool closed")
	}
}

func (p *Pool) setInfo(m workerMessage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.libs != nil {
		return
	}
	if m.Version != "" && m.Version != p.version {
		p.log.Warn("typescript version differs from the image's VERSION file", "worker", m.Version, "image", p.version)
	}
	p.libs = make(map[string]bool, len(m.Libs))
	for _, l := range m.Libs {
		p.libs[l] = true
	}
	p.enums = m.Enums
	close(p.infoSet)
}

// workerPIDs lists the live worker processes (for tests).
func (p *Pool) workerPIDs() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for w := range p.procs {
		if !w.isDead() {
			pids = append(pids, w.pid)
		}
	}
	return pids
}

// proc is one worker process.
type proc struct {
	cmd      *osexec.Cmd
	pid      int
	stdin    io.WriteCloser
	writeMu  sync.Mutex
	current  atomic.Uint64 // id of the check in flight, 0 when idle
	recycled atomic.Bool   // announced it exits after its last result

	results chan workerMessage // "result" frames
	ready   chan workerMessage // the first "ready" or "fatal" frame
	dead    chan struct{}      // closed once the process has exited and been reaped
	waitErr error              // set before dead is closed
	stderr  *stderrBuffer
}

func (w *proc) send(req workerRequest) error {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	return writeFrame(w.stdin, req)
}

func (w *proc) kill() {
	if w.cmd.Process != nil {
		_ = w.cmd.Process.Kill()
	}
}

func (w *proc) isDead() bool {
	select {
	case <-w.dead:
		return true
	default:
		return false
	}
}

// peakRSS is the exited process's maximum resident set size in bytes.
func (w *proc) peakRSS() int64 {
	if w.cmd.ProcessState == nil {
		return 0
	}
	if ru, ok := w.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // kilobytes on Linux
	}
	return 0
}

// killedBySignal reports whether the exited process was ended by sig.
func (w *proc) killedBySignal(sig syscall.Signal) bool {
	if w.cmd.ProcessState == nil {
		return false
	}
	ws, ok := w.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

func (w *proc) exitDescription() string {
	select {
	case <-w.dead:
	default:
		return "still running"
	}
	if w.waitErr == nil {
		return "exit status 0"
	}
	return w.waitErr.Error()
}

// readLoop dispatches the worker's frames until its stdout closes, then
// reaps the process.
func (w *proc) readLoop(stdout io.Reader, log *slog.Logger) {
	defer func() {
		w.waitErr = w.cmd.Wait()
		close(w.dead)
	}()
	r := bufio.NewReaderSize(stdout, 64<<10)
	readySent := false
	for {
		var m workerMessage
		if err := readFrame(r, &m); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				log.Warn("type-check worker protocol error; killing it", "err", err)
				w.kill()
			}
			// Drain so Wait can finish even if the worker keeps writing.
			_, _ = io.Copy(io.Discard, r)
			return
		}
		switch m.Type {
		case msgLog:
			args := []any{}
			for k, v := range m.Attrs {
				args = append(args, k, v)
			}
			log.Info("worker: "+m.Msg, args...)
		case msgReady, msgFatal:
			if !readySent {
				readySent = true
				w.ready <- m
			} else {
				log.Warn("type-check worker: unexpected message", "type", m.Type, "msg", m.Msg)
			}
		case msgResult:
			select {
			case w.results <- m:
			default:
				log.Warn("type-check worker: result dropped (no check waiting)", "id", m.ID)
			}
		default:
			log.Warn("type-check worker: unknown message", "type", m.Type)
		}
	}
}

// stderrBuffer keeps the first headMax and the last tailMax bytes written
// to it: a Go fatal error puts its cause first and goroutine traces after.
type stderrBuffer struct {
	mu   sync.Mutex
	head []byte
	tail []byte
}

const (
	stderrHeadMax = 4 << 10
	stderrTailMax = 8 << 10
)

func (t *stderrBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if room := stderrHeadMax - len(t.head); room > 0 {
		k := min(room, len(b))
		t.head = append(t.head, b[:k]...)
		b = b[k:]
	}
	t.tail = append(t.tail, b...)
	if len(t.tail) > stderrTailMax {
		t.tail = append(t.tail[:0:0], t.tail[len(t.tail)-stderrTailMax:]...)
	}
	return n, nil
}

// String is the kept output (head, then tail).
func (t *stderrBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.head) + string(t.tail)
}

// Summary is the first few lines, where a Go fatal error states its cause.
func (t *stderrBuffer) Summary() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.head)), "\n")
	if len(lines) > 4 {
		lines = lines[:4]
	}
	return strings.Join(lines, " | ")
}
