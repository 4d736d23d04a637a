package ts

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/workerpool"
)

// Worker defaults. A worker's goroutine stack limit is far above what real
// code needs (esbuild spends 1.5–6.5 KB of stack per nesting level, so
// 256 MiB is 40k+ levels) and its memory cap holds that stack while it
// grows (Go copies a stack to one twice its size: ~0.5 GB at the limit).
// At the limit a worker dies in ~1 s of CPU.
const (
	DefaultWorkers           = 2
	DefaultTranspileTimeout  = 5 * time.Second
	DefaultWorkerMemoryLimit = 1 << 30
	DefaultWorkerMaxStack    = 256 << 20
)

// WorkersConfig configures Workers.
type WorkersConfig struct {
	// Command starts one worker, e.g. [os.Args[0], "ts-transpile-worker"];
	// the process must run WorkerMain(os.Stdin, os.Stdout).
	Command []string
	// Env is added to the environment the workers inherit ("KEY=value").
	Env []string
	// Size is the number of worker processes (default DefaultWorkers).
	Size int
	// Timeout bounds one transpile once a worker has it (default
	// DefaultTranspileTimeout); the run's own deadline may end it sooner.
	Timeout time.Duration
	// MemoryLimitBytes caps each worker (default DefaultWorkerMemoryLimit;
	// negative: none).
	MemoryLimitBytes int64
	// MaxStackBytes is each worker's goroutine stack limit (default
	// DefaultWorkerMaxStack).
	MaxStackBytes int64
	// Logger receives worker starts and deaths (default: discarded).
	Logger *slog.Logger
}

// Workers transpiles in worker processes (`wasmexec ts-transpile-worker`),
// so that esbuild crashing, running out of memory or never finishing costs
// only the request that caused it. Create with NewWorkers, then Start;
// Close stops the workers.
type Workers struct {
	pool    *workerpool.Pool[workerMessage]
	timeout time.Duration
}

// workerRequest is what the server sends a worker: one transpile.
type workerRequest struct {
	Code     string `json:"code"`
	Filename string `json:"filename"`
	Tsconfig string `json:"tsconfig,omitempty"`
	// Module asks for ConvertModule instead of a transpile.
	Module bool `json:"module,omitempty"`
}

// workerMessage is what a worker sends: "ready" once at start, then one
// answer per request.
type workerMessage struct {
	Ready       bool            `json:"ready,omitempty"`
	JS          string          `json:"js,omitempty"`
	SourceMap   []byte          `json:"sourceMap,omitempty"`
	Filename    string          `json:"filename,omitempty"`
	SyntaxError *SyntaxError    `json:"syntaxError,omitempty"`
	Failure     *TranspileError `json:"failure,omitempty"`
}

// NewWorkers validates cfg; it starts nothing (see Start).
func NewWorkers(cfg WorkersConfig) (*Workers, error) {
	if cfg.Size <= 0 {
		cfg.Size = DefaultWorkers
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTranspileTimeout
	}
	if cfg.MemoryLimitBytes == 0 {
		cfg.MemoryLimitBytes = DefaultWorkerMemoryLimit
	}
	if cfg.MaxStackBytes <= 0 {
		cfg.MaxStackBytes = DefaultWorkerMaxStack
	}
	pool, err := workerpool.New(workerpool.Config[workerMessage]{
		Name:             "TypeScript transpile",
		Size:             cfg.Size,
		Command:          cfg.Command,
		Env:              cfg.Env,
		MemoryLimitBytes: cfg.MemoryLimitBytes,
		MaxStackBytes:    cfg.MaxStackBytes,
		Init:             awaitReady,
		Logger:           cfg.Logger,
	})
	if err != nil {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "TypeScript transpile workers: %v", err)
	}
	return &Workers{pool: pool, timeout: cfg.Timeout}, nil
}

// awaitReady is a new worker's handshake: its first message says it runs.
func awaitReady(ctx context.Context, wk *workerpool.Worker[workerMessage]) error {
	select {
	case m := <-wk.Messages():
		if !m.Ready {
			return errors.New("the worker's first message is not ready")
		}
		return nil
	case <-wk.Dead():
		return errors.New("the worker exited during start")
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Start starts the workers and waits until each is ready (or ctx ends).
func (w *Workers) Start(ctx context.Context) error {
	if err := w.pool.Start(ctx); err != nil {
		return fmt.Errorf("start the TypeScript transpile workers: %w", err)
	}
	return nil
}

// Close stops the workers and waits for them. Transpiles in flight end
// with wasmexec.EUnavailable.
func (w *Workers) Close() error { return w.pool.Close() }

// Transpile is the package's Transpile, run in a worker process within
// ctx. It waits for a free worker as long as ctx allows; once a worker has
// the code, it gets the transpile timeout (or less, if ctx ends first).
//
// Errors: *SyntaxError (the code does not parse); *TranspileError (the
// worker crashed, ran out of memory or stack, or overran the timeout: it is
// killed and a fresh one takes the next request); wasmexec.ETooLarge past
// MaxSourceBytes; an error wrapping ctx.Err() when ctx ends first;
// wasmexec.EUnavailable once the workers are closed or not started.
func (w *Workers) Transpile(ctx context.Context, code, filename string) (*Program, error) {
	return w.TranspileWith(ctx, code, filename, "")
}

// TranspileWith is Transpile under a tsconfig.json's compilerOptions (see
// the package's TranspileWith).
func (w *Workers) TranspileWith(ctx context.Context, code, filename, tsconfig string) (*Program, error) {
	if filename == "" {
		filename = DefaultFilename
	}
	if err := checkSize(code); err != nil {
		return nil, err
	}
	return w.run(ctx, workerRequest{Code: code, Filename: filename, Tsconfig: tsconfig})
}

// run sends req to a worker and awaits its answer.
func (w *Workers) run(ctx context.Context, req workerRequest) (*Program, error) {
	if err := checkSize(req.Code); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		wk, err := w.pool.Acquire(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("waiting for a TypeScript transpile worker: %w", ctx.Err())
			}
			return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the TypeScript transpiler is not running (%v)", err)
		}
		if err := wk.Send(req); err != nil {
			// The worker died before it had read all of the code. Dead of
			// its memory cap or stack while reading it, that is the code's
			// (a request too large for a worker); otherwise it died of
			// something else: try a fresh worker once.
			wk.Kill()
			select {
			case <-wk.Dead():
				if e := wk.Exit(); e.Cause == workerpool.OutOfMemory || e.Cause == workerpool.StackOverflow {
					return nil, deathError(e, w.pool.MemoryLimitBytes())
				}
			case <-ctx.Done():
				return nil, fmt.Errorf("transpile: %w", ctx.Err())
			}
			if attempt == 0 {
				continue
			}
			return nil, &TranspileError{Reason: ReasonCrashed, Message: "the TypeScript transpiler is failing: " + err.Error()}
		}
		return w.await(ctx, wk)
	}
}

// await waits for wk's answer to the request it was sent.
func (w *Workers) await(ctx context.Context, wk *workerpool.Worker[workerMessage]) (*Program, error) {
	timer := time.NewTimer(w.timeout)
	defer timer.Stop()
	select {
	case m := <-wk.Messages():
		w.pool.Release(wk)
		return m.program()
	case <-wk.Dead():
		// An answer written just before the exit is queued already.
		select {
		case m := <-wk.Messages():
			return m.program()
		default:
		}
		return nil, deathError(wk.Exit(), w.pool.MemoryLimitBytes())
	case <-timer.C:
		wk.Kill() // esbuild cannot be interrupted
		return nil, &TranspileError{Reason: ReasonTimeout,
			Message: fmt.Sprintf("the TypeScript transpiler did not finish within %v", w.timeout)}
	case <-ctx.Done():
		wk.Kill()
		return nil, fmt.Errorf("transpile: %w", ctx.Err())
	case <-w.pool.Closing():
		wk.Kill()
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the TypeScript transpiler is shut down")
	}
}

func (m *workerMessage) program() (*Program, error) {
	switch {
	case m.SyntaxError != nil:
		return nil, m.SyntaxError
	case m.Failure != nil:
		return nil, m.Failure
	}
	return &Program{JS: m.JS, Filename: m.Filename, SourceMap: m.SourceMap}, nil
}

// deathError describes a transpile whose worker died under it.
func deathError(e workerpool.Exit, memLimit int64) *TranspileError {
	switch e.Cause {
	case workerpool.StackOverflow:
		return &TranspileError{Reason: ReasonStackOverflow,
			Message: "the TypeScript transpiler ran out of stack: the code is nested too deeply"}
	case workerpool.OutOfMemory:
		return &TranspileError{Reason: ReasonMemoryLimit,
			Message: fmt.Sprintf("the TypeScript transpiler ran out of memory (limit %d bytes)", memLimit)}
	}
	msg := "the TypeScript transpiler crashed: " + e.Status
	if e.Stderr != "" {
		msg += " (" + firstLine(e.Stderr) + ")"
	}
	return &TranspileError{Reason: ReasonCrashed, Message: msg}
}

// WorkerMain is the body of `wasmexec ts-transpile-worker`: it applies the
// limits its pool set (workerpool.ApplyLimits), says it is ready, then
// transpiles one framed request at a time until stdin closes.
func WorkerMain(stdin io.Reader, stdout io.Writer) error {
	if _, err := workerpool.ApplyLimits(); err != nil {
		return err
	}
	if os.Getenv("GOMAXPROCS") == "" {
		// A transform is one file, and esbuild's goroutines for it hand off
		// to each other: with one P none of them waits for a parked thread
		// to wake on another CPU, which measured ~15% of a small
		// transpile's latency after the worker sat idle (its usual state
		// between runs). A worker stuck on hostile code also burns one CPU,
		// not every one.
		runtime.GOMAXPROCS(1)
	}
	in := bufio.NewReader(stdin)
	out := bufio.NewWriter(stdout)
	send := func(m workerMessage) error {
		if err := workerpool.WriteFrame(out, m); err != nil {
			return err
		}
		return out.Flush()
	}
	if err := send(workerMessage{Ready: true}); err != nil {
		return err
	}
	for {
		var req workerRequest
		if err := workerpool.ReadFrame(in, &req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var m workerMessage
		var p *Program
		var err error
		if req.Module {
			var js string
			js, err = ConvertModule(req.Code, req.Filename, req.Tsconfig)
			p = &Program{JS: js, Filename: req.Filename}
		} else {
			p, err = TranspileWith(req.Code, req.Filename, req.Tsconfig)
		}
		var se *SyntaxError
		var te *TranspileError
		switch {
		case errors.As(err, &se):
			m.SyntaxError = se
		case errors.As(err, &te):
			m.Failure = te
		case err != nil:
			m.Failure = &TranspileError{Reason: ReasonCrashed, Message: err.Error()}
		default:
			m = workerMessage{JS: p.JS, SourceMap: p.SourceMap, Filename: p.Filename}
		}
		if err := send(m); err != nil {
			return err
		}
	}
}
