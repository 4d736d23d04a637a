package tscheck

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/workerpool"
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
	// the worker itself at start, see workerpool.ApplyLimits). 0 means
	// DefaultMemoryLimit; negative, none.
	MemoryLimitBytes int64
	// PrewarmLibs are lib sets each worker checks once before it is ready,
	// so the first real check with them is warm, e.g. {{"es2022"},
	// {"es2022", "dom"}}. Default: {{"es2022"}}; an empty non-nil slice
	// pre-warms nothing.
	PrewarmLibs [][]string
	// BackgroundLibs are lib sets each worker warms after it is ready,
	// while it has nothing else to do: a check that arrives meanwhile
	// stops the warm-up (it resumes once the worker is idle again, keeping
	// the lib files it had parsed). Default: {{"es2022", "dom"}} (dom
	// costs 5–10 s of CPU cold and ~300 MB); an empty non-nil slice warms
	// nothing. Sets already in PrewarmLibs are skipped.
	BackgroundLibs [][]string
	// Logger receives progress and worker failures (default: discarded).
	Logger *slog.Logger
	// Env is added to the environment the workers inherit ("KEY=value").
	Env []string
	// Nice is the workers' priority (0: the server's): their warm-up
	// (seconds of CPU, dom tens) must not compete with runs.
	Nice int
}

// Pool defaults.
const (
	DefaultMemoryLimit = 2 << 30
	// killGrace is how long after a check's deadline (or a cancel) the pool
	// waits for the worker's own interrupt before it kills the process.
	killGrace = 2 * time.Second
)

// Error codes in Result.Error beyond the wasmexec.Code* ones.
const (
	CodeTimeout   = "timeout"
	CodeCancelled = "cancelled"
)

// Pool runs type checks on a set of worker processes (a workerpool.Pool:
// workers are started, capped and replaced there). It is safe for
// concurrent use; checks beyond Size wait for a free worker.
type Pool struct {
	cfg     PoolConfig
	log     *slog.Logger
	version string
	workers *workerpool.Pool[workerMessage]
	nextID  atomic.Uint64

	mu       sync.Mutex
	libs     map[string]bool     // lib names the compiler accepts
	enums    map[string][]string // option → allowed values
	infoSet  chan struct{}       // closed once libs/enums are known
	inflight map[int]uint64      // worker pid → id of the check it runs

	warmed atomic.Int64 // lib sets warmed in the background, all workers
}

// notPrewarmed returns the sets of bg that are not in prewarm.
func notPrewarmed(bg, prewarm [][]string) [][]string {
	out := [][]string{}
	for _, b := range bg {
		dup := false
		for _, p := range prewarm {
			dup = dup || strings.Join(b, ",") == strings.Join(p, ",")
		}
		if !dup {
			out = append(out, b)
		}
	}
	return out
}

// NewPool validates cfg and the image. It starts nothing; call Start.
// Errors are *wasmexec.Error with code wasmexec.EInvalid (bad config) or
// wasmexec.EUnavailable (image missing or incomplete).
func NewPool(cfg PoolConfig) (*Pool, error) {
	if cfg.Size <= 0 {
		cfg.Size = 1
	}
	if len(cfg.WorkerCommand) == 0 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "tscheck: WorkerCommand is required")
	}
	if cfg.MemoryLimitBytes == 0 {
		cfg.MemoryLimitBytes = DefaultMemoryLimit
	}
	if cfg.PrewarmLibs == nil {
		cfg.PrewarmLibs = [][]string{defaultLibs}
	}
	if cfg.BackgroundLibs == nil {
		cfg.BackgroundLibs = [][]string{{"es2022", "dom"}}
	}
	cfg.BackgroundLibs = notPrewarmed(cfg.BackgroundLibs, cfg.PrewarmLibs)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	for _, f := range []string{"typescript.js", "VERSION", "lib/lib.es2022.d.ts"} {
		if _, err := os.Stat(filepath.Join(cfg.ImageDir, f)); err != nil {
			return nil, &wasmexec.Error{Code: wasmexec.EUnavailable,
				Message: fmt.Sprintf("typescript image incomplete: %s missing in %q (run guest-images/typescript/build.sh)", f, cfg.ImageDir),
				Err:     err}
		}
	}
	v, err := os.ReadFile(filepath.Join(cfg.ImageDir, "VERSION"))
	if err != nil {
		return nil, &wasmexec.Error{Code: wasmexec.EUnavailable, Message: "typescript image: cannot read VERSION", Err: err}
	}
	p := &Pool{
		cfg:      cfg,
		log:      cfg.Logger.With("component", "tscheck"),
		version:  strings.TrimSpace(string(v)),
		infoSet:  make(chan struct{}),
		inflight: map[int]uint64{},
	}
	p.workers, err = workerpool.New(workerpool.Config[workerMessage]{
		Name:             "type-check",
		Size:             cfg.Size,
		Command:          cfg.WorkerCommand,
		Env:              cfg.Env,
		MemoryLimitBytes: cfg.MemoryLimitBytes,
		MaxStackBytes:    maxGoStack,
		Nice:             cfg.Nice,
		Init:             p.initWorker,
		Route:            p.route,
		Logger:           cfg.Logger.With("component", "tscheck"),
	})
	if err != nil {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "tscheck: %v", err)
	}
	return p, nil
}

// Version is the TypeScript version of the image ("5.9.3").
func (p *Pool) Version() string { return p.version }

// Ready reports whether the pool is started, not closed, and has at least
// one live worker.
func (p *Pool) Ready() bool { return p.workers.Ready() }

// Start spawns the workers and waits until each has loaded the compiler and
// pre-warmed its lib sets (seconds: ~3 s for es2022, ~12 s more for dom).
// It returns an error if ctx ends first or a worker fails its first start;
// workers keep being (re)started in the background until Close either way.
func (p *Pool) Start(ctx context.Context) error {
	t := time.Now()
	p.log.Info("starting type-check workers", "workers", p.cfg.Size, "typescript", p.version,
		"prewarm", p.cfg.PrewarmLibs, "memoryLimitBytes", p.cfg.MemoryLimitBytes)
	if err := p.workers.Start(ctx); err != nil {
		switch {
		case errors.Is(err, workerpool.ErrClosed):
			return wasmexec.Errorf(wasmexec.EUnavailable, "tscheck: pool closed")
		case errors.Is(err, workerpool.ErrStarted):
			return wasmexec.Errorf(wasmexec.EConflict, "tscheck: pool already started")
		}
		return fmt.Errorf("tscheck: %w", err)
	}
	p.log.Info("type checker ready", "workers", p.cfg.Size, "ms", ms(time.Since(t)))
	return nil
}

// Close stops the workers: in-flight checks end as cancelled, each worker's
// stdin is closed, and Close waits for every process to exit (killing those
// that do not within a few seconds). It is idempotent.
func (p *Pool) Close() error {
	select {
	case <-p.workers.Closing():
		return p.workers.Close()
	default:
	}
	err := p.workers.Close()
	p.log.Info("type checker stopped")
	return err
}

// initWorker is a new worker's start: load the compiler, pre-warm the lib
// sets, then report what the compiler accepts.
func (p *Pool) initWorker(ctx context.Context, w *workerpool.Worker[workerMessage]) error {
	if err := w.Send(workerRequest{Op: opInit, ImageDir: p.cfg.ImageDir, Prewarm: p.cfg.PrewarmLibs, Background: p.cfg.BackgroundLibs}); err != nil {
		return fmt.Errorf("send init: %w", err)
	}
	for {
		select {
		case m := <-w.Messages():
			switch m.Type {
			case msgFatal:
				return fmt.Errorf("worker: %s", m.Msg)
			case msgReady:
				p.setInfo(m)
				p.log.Info("type-check worker ready", "pid", w.PID(), "ms", m.DurationMs)
				return nil
			}
			p.log.Warn("type-check worker: unexpected message during start", "type", m.Type)
		case <-w.Dead():
			return errors.New("worker exited during start")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// route logs the worker's log messages; everything else goes to the check
// (or start) waiting for it.
func (p *Pool) route(w *workerpool.Worker[workerMessage], m workerMessage) bool {
	switch m.Type {
	case msgLog:
		args := []any{"pid", w.PID()}
		for k, v := range m.Attrs {
			args = append(args, k, v)
		}
		p.log.Info("worker: "+m.Msg, args...)
		if m.Msg == msgWarmedInBackground {
			p.warmed.Add(1)
		}
		return true
	case msgReady, msgFatal, msgResult:
		return false
	}
	p.log.Warn("type-check worker: unknown message", "pid", w.PID(), "type", m.Type)
	return true
}

// Check type-checks one request. Bad requests return a *wasmexec.Error
// (wasmexec.EInvalid, wasmexec.ETooLarge); a closed pool, wasmexec.EUnavailable.
// Everything else — type errors, a deadline, a dead worker, ctx ending — is
// a Result (ctx ending gives TimedOut for a deadline, Cancelled otherwise).
func (p *Pool) Check(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	if p.closed() {
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "type checker is shut down")
	}
	// Option values are validated against what the compiler reported; that
	// is known once a worker has started.
	select {
	case <-p.infoSet:
	default:
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "type checker is not started yet")
	}
	p.mu.Lock()
	libs, enums := p.libs, p.enums
	p.mu.Unlock()
	prep, err := prepare(req, libs, enums)
	if err != nil {
		return nil, err
	}

	for {
		w, err := p.workers.Acquire(ctx)
		if err != nil {
			if p.closed() {
				return nil, wasmexec.Errorf(wasmexec.EUnavailable, "type checker is shut down")
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

func (p *Pool) closed() bool {
	select {
	case <-p.workers.Closing():
		return true
	default:
		return false
	}
}

func (p *Pool) ctxResult(ctx context.Context, start time.Time) *Result {
	r := &Result{Outcome: wasmexec.Cancelled, Diagnostics: []Diagnostic{},
		Error:             &wasmexec.ErrorData{Code: CodeCancelled, Message: "type check cancelled"},
		TypeScriptVersion: p.version, DurationMs: ms(time.Since(start))}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		r.Outcome = wasmexec.TimedOut
		r.Error = &wasmexec.ErrorData{Code: CodeTimeout, Message: "deadline exceeded before the type check finished"}
	}
	return r
}

// run sends one check to w and waits for its end. sent is false when the
// request could not be written (the worker had died); then w is not reused.
// An error is a request the compiler rejected (wasmexec.EInvalid).
func (p *Pool) run(ctx context.Context, w *workerpool.Worker[workerMessage], prep *prepared) (res *Result, sent bool, err error) {
	timeout := prep.timeout
	if dl, ok := ctx.Deadline(); ok {
		if d := time.Until(dl); d < timeout {
			timeout = max(d, time.Millisecond)
		}
	}
	id := p.nextID.Add(1)
	if err := w.Send(workerRequest{Op: opCheck, ID: id, Check: prep.payload, TimeoutMs: timeout.Milliseconds()}); err != nil {
		p.log.Warn("type-check worker unreachable", "pid", w.PID(), "err", err)
		w.Kill()
		return nil, false, nil
	}
	p.setInflight(w.PID(), id)
	defer p.setInflight(w.PID(), 0)

	hard := time.NewTimer(timeout + killGrace)
	defer hard.Stop()
	cancelled := ctx.Done()
	closing := p.workers.Closing()
	var graceC <-chan time.Time
	for {
		select {
		case m := <-w.Messages():
			if m.Type != msgResult || m.ID != id {
				p.log.Warn("type-check worker sent a stale message", "pid", w.PID(), "type", m.Type, "id", m.ID, "want", id)
				continue
			}
			return p.finish(ctx, w, m, prep)

		case <-w.Dead():
			// A result written just before the exit (a recycling worker) is
			// already queued: messages are delivered before Dead closes.
			for len(w.Messages()) > 0 {
				if m := <-w.Messages(); m.Type == msgResult && m.ID == id {
					return p.finish(ctx, w, m, prep)
				}
			}
			return p.deadResult(w), true, nil

		case <-hard.C:
			p.log.Warn("type-check worker ignored its deadline; killing it", "pid", w.PID(), "timeout", timeout)
			w.Kill()
			return &Result{Outcome: wasmexec.TimedOut, Diagnostics: []Diagnostic{},
				Error: &wasmexec.ErrorData{Code: CodeTimeout, Message: fmt.Sprintf("type check did not finish within %v", timeout)}}, true, nil

		case <-cancelled:
			// Ask the worker to stop; it answers with a cancelled result, or
			// is killed after the grace period.
			cancelled, closing = nil, nil
			_ = w.Send(workerRequest{Op: opCancel, ID: id})
			graceC = time.After(killGrace)

		case <-closing:
			cancelled, closing = nil, nil
			_ = w.Send(workerRequest{Op: opCancel, ID: id})
			graceC = time.After(killGrace)

		case <-graceC:
			w.Kill()
			r := &Result{Outcome: wasmexec.Cancelled, Diagnostics: []Diagnostic{},
				Error: &wasmexec.ErrorData{Code: CodeCancelled, Message: "type check cancelled"}}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				r.Outcome = wasmexec.TimedOut
				r.Error = &wasmexec.ErrorData{Code: CodeTimeout, Message: "deadline exceeded before the type check finished"}
			}
			return r, true, nil
		}
	}
}

func (p *Pool) setInflight(pid int, id uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if id == 0 {
		delete(p.inflight, pid)
	} else {
		p.inflight[pid] = id
	}
}

// finish turns the worker's result into the check's and gives the worker
// back (unless it announced it exits).
func (p *Pool) finish(ctx context.Context, w *workerpool.Worker[workerMessage], m workerMessage, prep *prepared) (*Result, bool, error) {
	p.log.Debug("type check done", "pid", w.PID(), "outcome", m.Outcome, "workerMs", m.DurationMs,
		"workerCPUMs", m.CPUMs, "phasesMs", m.Timings)
	if m.Recycle {
		// The worker exits after this; the pool starts a new one.
		w.Retire()
		p.log.Info("type-check worker recycling after a memory-hungry check", "pid", w.PID())
	} else {
		p.workers.Release(w)
	}
	if m.Outcome == wireInvalid {
		msg := "invalid compiler options"
		if m.Error != nil {
			msg += ": " + m.Error.Message
		}
		return nil, true, wasmexec.Errorf(wasmexec.EInvalid, "%s", msg)
	}
	r := p.toResult(m, prep)
	r.workerCPUMs = m.CPUMs
	if r.Outcome == wasmexec.Cancelled && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		r.Outcome = wasmexec.TimedOut
		r.Error = &wasmexec.ErrorData{Code: CodeTimeout, Message: "deadline exceeded before the type check finished"}
	}
	return r, true, nil
}

func (p *Pool) toResult(m workerMessage, prep *prepared) *Result {
	r := &Result{Outcome: wasmexec.Outcome(m.Outcome), Diagnostics: []Diagnostic{}}
	switch m.Outcome {
	case string(wasmexec.Succeeded):
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
		r.Error = &wasmexec.ErrorData{Code: m.Error.Code, Message: m.Error.Message}
	}
	if r.Error == nil {
		r.Outcome = wasmexec.Failed
		r.Error = &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: "worker sent outcome " + strconv.Quote(m.Outcome)}
	}
	return r
}

// deadResult describes a check whose worker died under it.
func (p *Pool) deadResult(w *workerpool.Worker[workerMessage]) *Result {
	r := &Result{Outcome: wasmexec.Failed, Diagnostics: []Diagnostic{}}
	e := w.Exit()
	switch e.Cause {
	case workerpool.OutOfMemory:
		r.Error = &wasmexec.ErrorData{Code: wasmexec.CodeMemoryLimit,
			Message: fmt.Sprintf("the type checker ran out of memory (limit %d bytes)", p.cfg.MemoryLimitBytes)}
	case workerpool.StackOverflow:
		r.Error = &wasmexec.ErrorData{Code: wasmexec.CodeStackOverflow, Message: "the type checker ran out of stack"}
	default:
		msg := "the type checker process exited unexpectedly: " + e.Status
		if first := firstLine(e.Stderr); first != "" {
			msg += " (" + first + ")"
		}
		r.Error = &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: msg}
	}
	return r
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
func (p *Pool) workerPIDs() []int { return p.workers.PIDs() }

// busyPID is the pid of a worker running a check, if any (for tests).
func (p *Pool) busyPID() (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for pid := range p.inflight {
		return pid, true
	}
	return 0, false
}
