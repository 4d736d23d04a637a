// Package workerpool keeps a fixed number of helper processes ("workers")
// for work that must not run in the server process because it may crash it
// (a Go stack overflow is a fatal error, not a panic), eat its memory, or
// never return: the TypeScript transpiler (esbuild) and the TypeScript
// checker (the official compiler in goja).
//
// A worker is a process started from Config.Command that reads framed JSON
// requests on stdin and writes framed JSON messages on stdout (WriteFrame,
// ReadFrame). It calls ApplyLimits first thing, so it runs under the
// memory cap and goroutine stack limit its pool chose. The pool starts
// Config.Size workers, runs Config.Init on each (a handshake), and hands
// idle ones out with Acquire; a caller sends its request, waits for the
// answer on Worker.Messages (or for Worker.Dead), and gives the worker back
// with Release — or Kill, when the work overran. Every worker that exits,
// for whatever reason, is replaced by a fresh one, so the next request is
// served by a healthy worker; starts that keep failing back off up to
// maxRestartGap. Why a dead worker died is Worker.Exit: out of memory,
// out of stack, or another crash.
package workerpool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	osexec "os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Config configures a Pool whose workers send messages of type M.
type Config[M any] struct {
	// Name is what the workers do, for logs ("TypeScript transpile").
	Name string
	// Size is the number of worker processes (default 1).
	Size int
	// Command starts one worker, e.g. [os.Args[0], "ts-transpile-worker"].
	Command []string
	// Env is added to the environment the workers inherit ("KEY=value").
	Env []string
	// MemoryLimitBytes caps each worker's memory: the worker applies it to
	// itself (ApplyLimits) as RLIMIT_DATA, with the Go runtime's soft memory
	// limit below it. 0 or negative: no cap.
	MemoryLimitBytes int64
	// MaxStackBytes is each worker's goroutine stack limit
	// (debug.SetMaxStack). 0: the Go runtime's default.
	MaxStackBytes int64
	// Nice is the priority workers give themselves at start (ApplyLimits),
	// e.g. 10 for work that must yield the CPU to runs. 0: unchanged.
	Nice int
	// Init, when set, runs on every new worker before it takes work (e.g.
	// a handshake: wait for its "ready" message). An error kills the worker
	// and counts as a failed start.
	Init func(ctx context.Context, w *Worker[M]) error
	// Route, when set, sees every message first; true means it consumed the
	// message (e.g. a log line), which then does not reach Messages.
	Route func(w *Worker[M], m M) bool
	// StopGrace bounds Close's wait for workers to exit once their stdin
	// is closed; the rest are killed (default DefaultStopGrace).
	StopGrace time.Duration
	// Logger receives starts, exits and protocol errors (default: discarded).
	Logger *slog.Logger
}

// DefaultStopGrace is Config.StopGrace's default.
const DefaultStopGrace = 5 * time.Second

const (
	// firstRestartGap and maxRestartGap bound the back-off between failed
	// starts of one slot's worker.
	firstRestartGap = 100 * time.Millisecond
	maxRestartGap   = 30 * time.Second
	// inboxSize is how many messages a worker may have written that no one
	// has read yet; more are dropped (with a warning).
	inboxSize = 4
)

// ErrClosed is returned by Acquire once the pool is closing.
var ErrClosed = errors.New("workerpool: closed")

// ErrNotStarted is returned by Acquire before Start.
var ErrNotStarted = errors.New("workerpool: not started")

// ErrStarted is returned by a second Start.
var ErrStarted = errors.New("workerpool: already started")

// Pool keeps Config.Size workers alive until Close. It is safe for
// concurrent use.
type Pool[M any] struct {
	cfg Config[M]
	log *slog.Logger

	idleMu  sync.Mutex
	idle    []*Worker[M]
	wake    chan struct{} // signalled when idle may be non-empty
	closeCh chan struct{}
	wg      sync.WaitGroup
	live    atomic.Int32 // started workers, idle or busy
	started atomic.Bool
	closed  atomic.Bool

	mu    sync.Mutex
	procs map[*Worker[M]]struct{}
	first chan slotStart // each slot's first start, for Start
}

type slotStart struct {
	slot int
	err  error
}

// New validates cfg. It starts nothing; call Start.
func New[M any](cfg Config[M]) (*Pool[M], error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("workerpool: Command is required")
	}
	if cfg.Size <= 0 {
		cfg.Size = 1
	}
	if cfg.Name == "" {
		cfg.Name = cfg.Command[0]
	}
	if cfg.StopGrace <= 0 {
		cfg.StopGrace = DefaultStopGrace
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Pool[M]{
		cfg:     cfg,
		log:     cfg.Logger.With("workers", cfg.Name),
		wake:    make(chan struct{}, 1),
		closeCh: make(chan struct{}),
		procs:   map[*Worker[M]]struct{}{},
		first:   make(chan slotStart, cfg.Size),
	}, nil
}

// Size is the number of workers the pool keeps.
func (p *Pool[M]) Size() int { return p.cfg.Size }

// MemoryLimitBytes is each worker's memory cap (0: none).
func (p *Pool[M]) MemoryLimitBytes() int64 { return max(p.cfg.MemoryLimitBytes, 0) }

// Start starts the workers and waits until each has started once (Init
// included). It returns an error if ctx ends first, the pool closes, or a
// worker's first start fails; either way workers keep being (re)started in
// the background until Close.
func (p *Pool[M]) Start(ctx context.Context) error {
	if p.closed.Load() {
		return ErrClosed
	}
	if !p.started.CompareAndSwap(false, true) {
		return ErrStarted
	}
	for i := 0; i < p.cfg.Size; i++ {
		p.wg.Add(1)
		go p.runSlot(i)
	}
	for n := 0; n < p.cfg.Size; n++ {
		select {
		case s := <-p.first:
			if s.err != nil {
				return fmt.Errorf("%s worker %d: %w", p.cfg.Name, s.slot, s.err)
			}
		case <-ctx.Done():
			return fmt.Errorf("start %s workers: %w", p.cfg.Name, ctx.Err())
		case <-p.closeCh:
			return ErrClosed
		}
	}
	return nil
}

// Ready reports whether the pool is started, not closed, and has at least
// one live worker.
func (p *Pool[M]) Ready() bool {
	return p.started.Load() && !p.closed.Load() && p.live.Load() > 0
}

// Closing is closed when Close begins: work in flight should stop.
func (p *Pool[M]) Closing() <-chan struct{} { return p.closeCh }

// Close stops the pool: each worker's stdin is closed, and Close waits for
// every process to exit (killing those still running after
// Config.StopGrace). It
// is idempotent.
func (p *Pool[M]) Close() error {
	if !p.closed.CompareAndSwap(false, true) {
		p.wg.Wait()
		return nil
	}
	close(p.closeCh)
	p.mu.Lock()
	procs := make([]*Worker[M], 0, len(p.procs))
	for w := range p.procs {
		procs = append(procs, w)
	}
	p.mu.Unlock()
	for _, w := range procs {
		w.stdin.Close()
	}
	// One grace period for all: once it is over, every worker still
	// running is killed.
	deadline := time.NewTimer(p.cfg.StopGrace)
	defer deadline.Stop()
	expired := false
	for _, w := range procs {
		if !expired {
			select {
			case <-w.dead:
				continue
			case <-deadline.C:
				expired = true
			}
		}
		w.Kill()
		<-w.dead
	}
	p.wg.Wait()
	return nil
}

// Acquire takes an idle live worker, waiting for one until ctx ends (then
// it returns ctx.Err()) or the pool closes (ErrClosed). The caller owns the
// worker until it calls Release (or Kill).
func (p *Pool[M]) Acquire(ctx context.Context) (*Worker[M], error) {
	if !p.started.Load() {
		return nil, ErrNotStarted
	}
	for {
		if p.closed.Load() {
			return nil, ErrClosed
		}
		p.idleMu.Lock()
		var w *Worker[M]
		for len(p.idle) > 0 && w == nil {
			last := len(p.idle) - 1
			c := p.idle[last]
			p.idle = p.idle[:last]
			if !c.isDead() {
				w = c
			}
		}
		more := len(p.idle) > 0
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
			return nil, ErrClosed
		}
	}
}

// Release gives a worker back after its work. A dead or retired worker, or
// any worker once the pool is closing, is not reused.
func (p *Pool[M]) Release(w *Worker[M]) {
	if p.closed.Load() || w.isDead() || w.retired.Load() {
		return
	}
	p.idleMu.Lock()
	p.idle = append(p.idle, w)
	p.idleMu.Unlock()
	p.signal()
}

func (p *Pool[M]) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// removeIdle drops a dead worker from the idle set, if it is there.
func (p *Pool[M]) removeIdle(w *Worker[M]) {
	p.idleMu.Lock()
	defer p.idleMu.Unlock()
	for i, c := range p.idle {
		if c == w {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			return
		}
	}
}

// Idle is the number of workers waiting for work.
func (p *Pool[M]) Idle() int {
	p.idleMu.Lock()
	defer p.idleMu.Unlock()
	return len(p.idle)
}

// PIDs lists the live worker processes.
func (p *Pool[M]) PIDs() []int {
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

// runSlot keeps one worker alive until Close: start it, wait for its exit,
// start the next, backing off while starts keep failing.
func (p *Pool[M]) runSlot(slot int) {
	defer p.wg.Done()
	firstAttempt := true
	gap := firstRestartGap
	for !p.closed.Load() {
		t := time.Now()
		w, err := p.spawn(slot)
		if err == nil {
			p.live.Add(1) // before Start hears of it: then Ready holds
		}
		if firstAttempt {
			p.first <- slotStart{slot: slot, err: err}
			firstAttempt = false
		}
		if err != nil {
			if p.closed.Load() {
				return
			}
			p.log.Error("worker failed to start", "slot", slot, "err", err, "retryIn", gap)
			select {
			case <-time.After(gap):
			case <-p.closeCh:
				return
			}
			gap = min(gap*2, maxRestartGap)
			continue
		}
		gap = firstRestartGap
		p.log.Debug("worker ready", "slot", slot, "pid", w.pid, "ms", time.Since(t).Milliseconds())
		p.Release(w)
		<-w.dead
		p.live.Add(-1)
		p.removeIdle(w)
		p.mu.Lock()
		delete(p.procs, w)
		p.mu.Unlock()
		switch {
		case p.closed.Load():
			return
		case w.retired.Load():
			p.log.Info("worker retired; starting a fresh one", "slot", slot, "pid", w.pid)
		default:
			p.log.Warn("worker exited; starting a fresh one", "slot", slot, "pid", w.pid,
				"exit", w.exitDescription(), "stderr", w.stderr.Summary())
		}
	}
}

// spawn starts one worker process and runs Init on it.
func (p *Pool[M]) spawn(slot int) (*Worker[M], error) {
	cmd := osexec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	env := append(os.Environ(), p.cfg.Env...)
	if p.cfg.MemoryLimitBytes > 0 {
		env = append(env, EnvMemoryLimit+"="+strconv.FormatInt(p.cfg.MemoryLimitBytes, 10))
	}
	if p.cfg.MaxStackBytes > 0 {
		env = append(env, EnvMaxStack+"="+strconv.FormatInt(p.cfg.MaxStackBytes, 10))
	}
	if p.cfg.Nice != 0 {
		env = append(env, EnvNice+"="+strconv.Itoa(p.cfg.Nice))
	}
	cmd.Env = env
	// A worker must not outlive the server.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w := &Worker[M]{
		cmd:      cmd,
		stdin:    stdin,
		msgs:     make(chan M, inboxSize),
		dead:     make(chan struct{}),
		stderr:   &stderrBuffer{},
		memLimit: p.MemoryLimitBytes(),
	}
	cmd.Stderr = w.stderr

	p.mu.Lock()
	if p.closed.Load() {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	if err := cmd.Start(); err != nil {
		p.mu.Unlock()
		return nil, fmt.Errorf("start %q: %w", p.cfg.Command[0], err)
	}
	w.pid = cmd.Process.Pid
	p.procs[w] = struct{}{}
	p.mu.Unlock()

	go w.readLoop(stdout, p.cfg.Route, p.log.With("slot", slot, "pid", w.pid))

	if p.cfg.Init != nil {
		// Init ends when the pool closes.
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			select {
			case <-p.closeCh:
				cancel()
			case <-ctx.Done():
			}
		}()
		err := p.cfg.Init(ctx, w)
		cancel()
		if err != nil {
			w.Kill()
			<-w.dead
			if p.closed.Load() {
				return nil, ErrClosed
			}
			return nil, fmt.Errorf("%w (exit: %s; stderr: %s)", err, w.exitDescription(), w.stderr.Summary())
		}
	}
	return w, nil
}
