// Package processes runs long-lived guests ("processes") that clients talk
// to while they run: live stdin, signals, wait, and output replay by cursor
// or as a live stream (server/processes.go serves it over HTTP).
//
// A process is one `execute` request in a guest of its own, with a live
// wasmexec.Stdin (bounded), a retained wasmexec.OutputLog (a bounded window of its
// output events) and no output limit: output past limits.outputBytes is no
// longer captured in the result but still flows through the event log.
//
// States (wasmexec.ProcessState): running → exited. A process is running from
// the moment Spawn returns until its guest has stopped and its record was
// completed (handed to Runner.Complete, i.e. persisted); then it is exited,
// and Wait, Get and Output still answer for it for a while (Config.KeepExited,
// Config.ExitedTTL). Its completed record stays in the execution store as
// kind "process".
//
// Signals: SIGTERM and SIGINT close the process's stdin at once (a guest
// blocked reading stdin sees EOF and may finish normally; a guest that asks
// learns the signal there, wasmexec.Stdin.CloseBySignal, and the Python guest
// then runs its handler or ends as the signal's default action would) and
// kill the guest after Config.SignalGrace if it is still running; SIGKILL
// kills it at once. A process that finishes by itself within the grace
// period exits with its own exit code; one that ends by the signal reports
// it (outcome signalled, exit code 128+n).
//
// Error codes: not_found (unknown pid), invalid_argument, conflict (the
// process has exited, stdin closed), payload_too_large (a stdin write larger
// than the whole stdin buffer), overloaded (maxProcesses reached, or the
// stdin buffer is full until the guest reads), unavailable (shutting down).
package processes

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

// Config wires a Manager.
type Config struct {
	// Runner prepares jobs, starts guests and completes (persists) runs.
	Runner wasmexec.Runner
	// MaxProcesses caps running processes (default 32); more get
	// overloaded (429).
	MaxProcesses int
	// StdinBufferBytes caps the unread stdin of one process (default: the
	// runner policy's MaxStdinBytes).
	StdinBufferBytes int64
	// RetainBytes caps the output event log of one process (default 4 MiB:
	// a live reader may lag that far behind a flood before it loses
	// events); older events are dropped and readers behind them see
	// truncated. The completed record keeps this window.
	RetainBytes int64
	// SignalGrace is how long SIGTERM/SIGINT wait before killing (default 2s).
	SignalGrace time.Duration
	// DefaultTimeout and MaxTimeout bound a process's wall-clock life
	// (default: the runner policy's DefaultTimeout and MaxTimeout).
	DefaultTimeout, MaxTimeout time.Duration
	// KeepExited and ExitedTTL bound how many exited processes stay
	// queryable here (with their output log) and for how long (defaults 64,
	// 5 minutes). Their records remain in the execution store.
	KeepExited int
	ExitedTTL  time.Duration
	// Workspace returns the workspace directory of a context, so a process
	// with a contextId runs in it. Nil: contextId is rejected.
	Workspace func(contextID string) (dir string, err error)
	// Quota, when set, returns the check a process in a context's
	// workspace is watched with (it is stopped, quota_exceeded, once the
	// check fails).
	Quota func(contextID string) (wasmexec.QuotaCheck, error)
	// PIDBase is the first pid of this server's range (default 1; in a
	// cluster, the server's number above wasmexec.PIDShift). The first process
	// gets one past the largest pid of the range that StateDir and History
	// have seen, so pids stay unique across restarts.
	PIDBase int64
	// StateDir, when set, keeps the last pid given out at Close.
	StateDir string
	// History, when set, gives the pids of earlier processes' records.
	History PIDHistory
	Logger  *slog.Logger
}

// Manager owns the processes of a server. It is safe for concurrent use.
type Manager struct {
	cfg     Config
	log     *slog.Logger
	nextPID atomic.Int64

	mu      sync.Mutex
	procs   map[int64]*proc
	byExec  map[string]*proc
	running int
	exited  []*proc // exited processes still kept, oldest first
	closed  bool
	wg      sync.WaitGroup
}

// New returns a Manager; Close stops it.
func New(cfg Config) (*Manager, error) {
	if cfg.Runner == nil {
		return nil, fmt.Errorf("processes: a Runner is required")
	}
	pol := cfg.Runner.Policy()
	if cfg.MaxProcesses <= 0 {
		cfg.MaxProcesses = 32
	}
	if cfg.StdinBufferBytes <= 0 {
		cfg.StdinBufferBytes = pol.MaxStdinBytes
	}
	if cfg.RetainBytes <= 0 {
		cfg.RetainBytes = 4 << 20
	}
	if cfg.SignalGrace <= 0 {
		cfg.SignalGrace = 2 * time.Second
	}
	if cfg.DefaultTimeout <= 0 {
		cfg.DefaultTimeout = pol.DefaultTimeout
	}
	if cfg.MaxTimeout <= 0 {
		cfg.MaxTimeout = max(pol.MaxTimeout, cfg.DefaultTimeout)
	}
	if cfg.DefaultTimeout > cfg.MaxTimeout {
		return nil, fmt.Errorf("processes: default timeout %s is above the maximum %s", cfg.DefaultTimeout, cfg.MaxTimeout)
	}
	if cfg.KeepExited <= 0 {
		cfg.KeepExited = 64
	}
	if cfg.ExitedTTL <= 0 {
		cfg.ExitedTTL = 5 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	m := &Manager{cfg: cfg, log: cfg.Logger, procs: map[int64]*proc{}, byExec: map[string]*proc{}}
	m.nextPID.Store(m.firstPID(context.Background()) - 1)
	return m, nil
}

// LastPID returns the largest pid given out so far (before the first
// spawn: one less than the first pid).
func (m *Manager) LastPID() int64 { return m.nextPID.Load() }

// proc is one process. Fields above mu are fixed at spawn.
type proc struct {
	m           *Manager
	pid         int64
	executionID string
	language    wasmexec.Language
	command     string
	contextID   string
	started     time.Time
	stdin       *wasmexec.Stdin
	log         *wasmexec.OutputLog
	kill        context.CancelFunc
	done        chan struct{} // closed once exit is set (or the spawn failed)

	mu          sync.Mutex
	visible     bool // false while the guest starts
	stdinClosed bool
	signal      wasmexec.Signal // last signal sent
	killedBy    wasmexec.Signal // the signal that cancelled the run
	shutdown    bool            // stopped by the server's shutdown (Close, Shutdown)
	grace       *time.Timer
	exit        *wasmexec.ProcessExit
	exitedAt    time.Time
}

func (p *proc) describe() *wasmexec.Process {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := &wasmexec.Process{
		PID: p.pid, ExecutionID: p.executionID, State: wasmexec.ProcessRunning, Language: p.language,
		Command: p.command, ContextID: p.contextID, StartedAtMs: wasmexec.Millis(p.started),
		StdinClosed: p.stdinClosed, Signal: p.signal,
	}
	if p.exit != nil {
		d.State, d.Exit, d.StdinClosed = wasmexec.ProcessExited, p.exit, true
	}
	return d
}

// killWith cancels the run, recording sig as the cause unless one is set.
func (p *proc) killWith(sig wasmexec.Signal) {
	p.mu.Lock()
	if p.exit == nil && p.killedBy == "" {
		p.killedBy = sig
	}
	p.mu.Unlock()
	p.kill()
}

// killForShutdown is killWith for the server's shutdown: the record says
// the shutdown stopped the process.
func (p *proc) killForShutdown(sig wasmexec.Signal) {
	p.mu.Lock()
	if p.exit == nil && p.killedBy == "" {
		p.killedBy, p.shutdown = sig, true
	}
	p.mu.Unlock()
	p.kill()
}

// Spawn validates req, starts its guest and returns the descriptor while
// the program runs. Errors: invalid_argument, context_not_found (from the
// Workspace hook), not_found (file), overloaded (maxProcesses),
// unavailable (shutting down, image not loaded).
func (m *Manager) Spawn(ctx context.Context, req *wasmexec.SpawnRequest) (*wasmexec.Process, error) {
	if req.Language == "" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "language is required")
	}
	switch {
	case req.Code == "" && req.File == "":
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "code or file is required")
	case req.Code != "" && req.File != "":
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "give code or file, not both")
	case req.File != "" && req.ContextID == "":
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "file names a file in a context's workspace: contextId is required")
	case req.ContextID != "" && m.cfg.Workspace == nil:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "execution contexts are not enabled on this server")
	}
	timeout := time.Duration(req.TimeoutMs) * time.Millisecond
	switch {
	case req.TimeoutMs < 0:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "timeoutMs must be positive")
	case timeout == 0:
		timeout = m.cfg.DefaultTimeout
	case timeout > m.cfg.MaxTimeout:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "timeoutMs %d is above the maximum %d for processes", req.TimeoutMs, m.cfg.MaxTimeout.Milliseconds())
	}

	// Reserve a slot and register the process (hidden) before touching the
	// workspace, so KillContext also stops a process still starting.
	// The run outlives the request but keeps its values (tenant, request
	// id): the record it leaves belongs to the caller's tenant.
	runCtx, kill := context.WithCancel(context.WithoutCancel(ctx))
	p := &proc{
		m: m, executionID: wasmexec.NewID("exe"), language: req.Language, contextID: req.ContextID,
		started: time.Now(), stdin: wasmexec.NewStdin(m.cfg.StdinBufferBytes), kill: kill, done: make(chan struct{}),
	}
	m.mu.Lock()
	switch {
	case m.closed:
		m.mu.Unlock()
		kill()
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the server is shutting down")
	case m.running >= m.cfg.MaxProcesses:
		n := m.running
		m.mu.Unlock()
		kill()
		return nil, wasmexec.Errorf(wasmexec.EOverloaded, "%d processes are running, the maximum (maxProcesses %d); wait for one to exit or signal one", n, m.cfg.MaxProcesses)
	}
	p.pid = m.nextPID.Add(1)
	p.log = wasmexec.NewOutputLog(p.pid, m.cfg.RetainBytes)
	m.running++
	m.procs[p.pid] = p
	m.byExec[p.executionID] = p
	m.wg.Add(1)
	m.mu.Unlock()

	runReq, err := m.request(p, req)
	started := make(chan error, 1)
	if err == nil {
		go func() {
			defer m.wg.Done()
			defer kill()
			m.run(runCtx, p, runReq, timeout, func(err error) { started <- err })
		}()
		select {
		case err = <-started:
		case <-ctx.Done(): // the client gave up while the guest started
			kill()
			err = <-started
		}
	} else {
		m.wg.Done()
	}
	if err != nil {
		m.mu.Lock()
		m.running--
		delete(m.procs, p.pid)
		delete(m.byExec, p.executionID)
		m.mu.Unlock()
		close(p.done) // for KillContext; the process was never visible
		kill()
		return nil, err
	}
	p.mu.Lock()
	p.visible = true
	p.mu.Unlock()
	m.log.Debug("process spawned", "pid", p.pid, "executionId", p.executionID, "language", p.language, "contextId", p.contextID)
	return p.describe(), nil
}

// request resolves the workspace file a process runs, if any, into the
// run's request.
func (m *Manager) request(p *proc, req *wasmexec.SpawnRequest) (*wasmexec.Request, error) {
	code, filename := req.Code, ""
	if req.File != "" {
		dir, err := m.cfg.Workspace(req.ContextID)
		if err != nil {
			return nil, err
		}
		clean, err := vfs.Clean(req.File)
		if err != nil {
			return nil, err
		}
		if clean == "" {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "file must name a file, not the workspace")
		}
		b, err := (&vfs.Workspace{Root: dir}).ReadFile(clean)
		if err != nil {
			return nil, err
		}
		if len(b) == 0 {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "file %q is empty", clean)
		}
		code, filename = string(b), clean
	}
	p.command = command(req.Language, filename, req.Args)
	return &wasmexec.Request{
		Kind: wasmexec.KindExecute, Language: req.Language, Code: code, ContextID: req.ContextID, Filename: filename,
		Env: req.Env, Args: req.Args, Cwd: req.Cwd, Limits: req.Limits, Format: req.Format,
		Network: req.Network, Secrets: req.Secrets, Template: req.Template,
		Output: wasmexec.OutputOptions{Capture: wasmexec.CaptureAll, RetainEvents: true},
	}, nil
}

// run runs the process through the run lifecycle (without a global run
// slot: processes have their own maximum) and completes it. started is
// called once the guest runs, or with the error that stopped the spawn.
func (m *Manager) run(ctx context.Context, p *proc, req *wasmexec.Request, timeout time.Duration, started func(error)) {
	opts := wasmexec.RunOptions{
		Unslotted: true, Timeout: timeout, Stdin: p.stdin, Log: p.log, NoOutputLimit: true,
		Kind: wasmexec.KindProcess, ExecutionID: p.executionID, PID: p.pid,
		Started: started,
	}
	if p.contextID != "" {
		dir, err := m.cfg.Workspace(p.contextID)
		if err != nil {
			started(err)
			return
		}
		opts.Workspace = dir
		if m.cfg.Quota != nil {
			q, err := m.cfg.Quota(p.contextID)
			if err != nil {
				started(err)
				return
			}
			opts.Quota = q
		}
	}
	var exit *wasmexec.ProcessExit
	opts.Settle = func(res *wasmexec.Result) {
		p.stdin.Close()
		p.mu.Lock()
		killedBy, shutdown, sent := p.killedBy, p.shutdown, p.signal
		if p.grace != nil {
			p.grace.Stop()
		}
		p.mu.Unlock()
		exit = exitOf(p, res, killedBy, sent, m.cfg.SignalGrace)
		if shutdown && res.Outcome == wasmexec.Cancelled {
			res.Error = &wasmexec.ErrorData{Code: "cancelled", Name: "ShutdownError",
				Message: "the process was stopped by the server's shutdown",
				Details: map[string]any{"signal": string(killedBy), "reason": "shutdown"}}
			exit.Error = res.Error
		}
		if extra, err := json.Marshal(exit); err == nil {
			res.Extra = extra
		}
	}
	res, err := m.cfg.Runner.Run(ctx, req, opts)
	if err != nil {
		return // the spawn failed: Spawn cleans up
	}
	_ = res

	// The slot is free before anyone can see the exit (a client that waited
	// for it may spawn at once).
	m.mu.Lock()
	m.running--
	m.mu.Unlock()
	now := time.Now()
	p.mu.Lock()
	p.exit, p.exitedAt, p.stdinClosed = exit, now, true
	p.mu.Unlock()
	// Evict older exited processes before this exit is visible, so a client
	// that waited for it sees the pool of exited processes as it will stay.
	m.mu.Lock()
	m.exited = append(m.exited, p)
	m.evictLocked(now)
	m.mu.Unlock()
	close(p.done)
	m.log.Debug("process exited", "pid", p.pid, "outcome", exit.Outcome, "signal", exit.Signal)
}

// exitOf turns a run's result into the process exit, and makes the
// result's error say which signal stopped it: one the host killed it with
// (killedBy), or the signal sent (sent) that the guest ended by itself as
// its default action, exiting with status 128+n (a guest that handled the
// signal exits as it chooses). A signalled exit has exit code 128+n, as a
// Linux shell reports it.
func exitOf(p *proc, res *wasmexec.Result, killedBy, sent wasmexec.Signal, grace time.Duration) *wasmexec.ProcessExit {
	e := &wasmexec.ProcessExit{PID: p.pid, ExecutionID: p.executionID, Error: res.Error, ExitedAtMs: res.CompletedAtMs, DurationMs: res.DurationMs}
	switch res.Outcome {
	case wasmexec.TimedOut:
		e.Outcome = wasmexec.ExitTimedOut
	case wasmexec.Cancelled:
		if killedBy == "" {
			killedBy = wasmexec.SIGKILL
		}
		e.Outcome, e.Signal = wasmexec.ExitSignalled, killedBy
		msg := "the process was killed by " + string(killedBy)
		if killedBy != wasmexec.SIGKILL {
			msg += fmt.Sprintf(" after the %s grace period (stdin was closed at once)", grace)
		}
		res.Error = &wasmexec.ErrorData{Code: "cancelled", Name: "SignalError", Message: msg, Details: map[string]any{"signal": string(killedBy)}}
		e.Error = res.Error
		code := 128 + killedBy.Number()
		e.ExitCode = &code
	case wasmexec.Failed:
		// The guest ends itself as the signal's default action with
		// wasmexec.SignalExitStatus (after learning it from its stdin), or
		// exits 128+n as Python does after an uncaught KeyboardInterrupt.
		n := sent.Number()
		byDefault := res.ExitCode == wasmexec.SignalExitStatus && p.stdin.SignalTaken()
		if n != 0 && sent != wasmexec.SIGKILL && res.Error != nil && res.Error.Code == wasmexec.CodeExit && (byDefault || res.ExitCode == 128+n) {
			code := 128 + n
			e.Outcome, e.Signal, e.ExitCode = wasmexec.ExitSignalled, sent, &code
			res.Error = &wasmexec.ErrorData{Code: wasmexec.CodeExit, Name: "SignalError", Message: "the process was terminated by " + string(sent),
				Details: map[string]any{"signal": string(sent)}}
			e.Error = res.Error
			break
		}
		fallthrough
	default:
		code := res.ExitCode
		if res.Outcome != wasmexec.Succeeded && code == 0 {
			code = 1
		}
		e.Outcome, e.ExitCode = wasmexec.ExitExited, &code
	}
	return e
}

// evictLocked forgets exited processes past KeepExited or ExitedTTL.
func (m *Manager) evictLocked(now time.Time) {
	for len(m.exited) > 0 {
		p := m.exited[0]
		if len(m.exited) <= m.cfg.KeepExited && now.Sub(p.exitedAt) < m.cfg.ExitedTTL {
			return
		}
		m.exited[0] = nil
		m.exited = m.exited[1:]
		delete(m.procs, p.pid)
		delete(m.byExec, p.executionID)
	}
}

func (m *Manager) get(pid int64) (*proc, error) {
	m.mu.Lock()
	m.evictLocked(time.Now())
	p := m.procs[pid]
	m.mu.Unlock()
	if p != nil {
		p.mu.Lock()
		vis := p.visible
		p.mu.Unlock()
		if vis {
			return p, nil
		}
	}
	return nil, wasmexec.Errorf(wasmexec.ENotFound, "no process %d (exited processes are kept for %s, at most %d of them; completed runs stay in /v1/executions)", pid, m.cfg.ExitedTTL, m.cfg.KeepExited)
}

// Get returns the descriptor of pid (not_found).
func (m *Manager) Get(pid int64) (*wasmexec.Process, error) {
	p, err := m.get(pid)
	if err != nil {
		return nil, err
	}
	return p.describe(), nil
}

// List returns running and recently exited processes by pid.
func (m *Manager) List() []*wasmexec.Process {
	m.mu.Lock()
	m.evictLocked(time.Now())
	ps := make([]*proc, 0, len(m.procs))
	for _, p := range m.procs {
		ps = append(ps, p)
	}
	m.mu.Unlock()
	sort.Slice(ps, func(i, j int) bool { return ps[i].pid < ps[j].pid })
	out := make([]*wasmexec.Process, 0, len(ps))
	for _, p := range ps {
		p.mu.Lock()
		vis := p.visible
		p.mu.Unlock()
		if vis {
			out = append(out, p.describe())
		}
	}
	return out
}

// Running returns the number of running processes.
func (m *Manager) Running() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.running
}

// ContextProcesses returns how many processes are running in contextID's
// workspace (a context with live processes is not idle).
func (m *Manager) ContextProcesses(contextID string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, p := range m.procs {
		if p.contextID == contextID {
			select {
			case <-p.done:
			default:
				n++
			}
		}
	}
	return n
}

// WriteStdin appends data to pid's stdin. Errors: not_found; conflict
// (exited, or stdin closed); payload_too_large (data is larger than the
// whole stdin buffer); overloaded (the buffer is full until the guest
// reads: retry).
func (m *Manager) WriteStdin(pid int64, data []byte) error {
	p, err := m.get(pid)
	if err != nil {
		return err
	}
	if int64(len(data)) > m.cfg.StdinBufferBytes {
		return wasmexec.Errorf(wasmexec.ETooLarge, "a stdin write of %d bytes is larger than the stdin buffer of %d bytes; send it in smaller pieces", len(data), m.cfg.StdinBufferBytes)
	}
	p.mu.Lock()
	exited, closed := p.exit != nil, p.stdinClosed
	p.mu.Unlock()
	switch {
	case exited:
		return wasmexec.Errorf(wasmexec.EConflict, "process %d has exited", pid)
	case closed:
		return wasmexec.Errorf(wasmexec.EConflict, "the stdin of process %d is closed", pid)
	}
	if err := p.stdin.Write(data); err != nil {
		switch wasmexec.ErrorCode(err) {
		case wasmexec.ETooLarge:
			return wasmexec.Errorf(wasmexec.EOverloaded, "process %d has not read its stdin yet: %s; retry once it has", pid, wasmexec.ErrorMessage(err))
		case wasmexec.EConflict:
			return wasmexec.Errorf(wasmexec.EConflict, "the stdin of process %d is closed", pid)
		}
		return err
	}
	return nil
}

// CloseStdin marks EOF on pid's stdin (idempotent). The guest reads what is
// buffered, then EOF.
func (m *Manager) CloseStdin(pid int64) (*wasmexec.Process, error) {
	p, err := m.get(pid)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.stdinClosed = true
	p.mu.Unlock()
	p.stdin.Close()
	return p.describe(), nil
}

// ParseSignal accepts SIGTERM, SIGINT and SIGKILL, with or without the SIG
// prefix, any case; "" means SIGTERM (as kill(1) does).
func ParseSignal(s string) (wasmexec.Signal, error) {
	n := strings.ToUpper(strings.TrimSpace(s))
	if n == "" {
		return wasmexec.SIGTERM, nil
	}
	if !strings.HasPrefix(n, "SIG") {
		n = "SIG" + n
	}
	switch sig := wasmexec.Signal(n); sig {
	case wasmexec.SIGTERM, wasmexec.SIGINT, wasmexec.SIGKILL:
		return sig, nil
	}
	return "", wasmexec.Errorf(wasmexec.EInvalid, "unsupported signal %q (supported: SIGTERM, SIGINT, SIGKILL)", s)
}

// Signal sends sig to pid: SIGTERM/SIGINT close its stdin now and kill it
// after the grace period if it still runs; SIGKILL kills it now. Errors:
// not_found, conflict (already exited), invalid_argument.
func (m *Manager) Signal(pid int64, sig wasmexec.Signal) (*wasmexec.Process, error) {
	sig, err := ParseSignal(string(sig))
	if err != nil {
		return nil, err
	}
	p, err := m.get(pid)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.exit != nil {
		p.mu.Unlock()
		return nil, wasmexec.Errorf(wasmexec.EConflict, "process %d has already exited", pid)
	}
	p.signal = sig
	if sig == wasmexec.SIGKILL {
		p.mu.Unlock()
		p.killWith(wasmexec.SIGKILL)
		return p.describe(), nil
	}
	p.stdinClosed = true
	if p.grace == nil {
		p.grace = time.AfterFunc(m.cfg.SignalGrace, func() { p.killWith(sig) })
	}
	p.mu.Unlock()
	p.stdin.CloseBySignal(sig.Number())
	return p.describe(), nil
}

// Wait waits up to timeout for pid to exit. The answer has State running
// when it did not (timeout 0 only looks). Errors: not_found.
func (m *Manager) Wait(ctx context.Context, pid int64, timeout time.Duration) (*wasmexec.ProcessWait, error) {
	p, err := m.get(pid)
	if err != nil {
		return nil, err
	}
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		select {
		case <-p.done:
		case <-t.C:
		case <-ctx.Done():
		}
	}
	select {
	case <-p.done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return &wasmexec.ProcessWait{PID: pid, State: wasmexec.ProcessExited, Exit: p.exit}, nil
	default:
		return &wasmexec.ProcessWait{PID: pid, State: wasmexec.ProcessRunning}, nil
	}
}

// Output returns up to limit events of pid after the cursor. Errors:
// not_found, invalid_argument (a malformed cursor).
func (m *Manager) Output(pid int64, after string, limit int) (*wasmexec.Replay, error) {
	seq, err := wasmexec.ParseCursor(after)
	if err != nil {
		return nil, err
	}
	p, err := m.get(pid)
	if err != nil {
		return nil, err
	}
	r := p.log.Read(seq, limit)
	return &r, nil
}

// Follow returns pid's live output log (for streams: Read after a cursor,
// Wait for more; it is closed when the run ends) and a channel closed once
// the process has exited (Wait then answers at once). Errors: not_found.
func (m *Manager) Follow(pid int64) (*wasmexec.OutputLog, <-chan struct{}, error) {
	p, err := m.get(pid)
	if err != nil {
		return nil, nil, err
	}
	return p.log, p.done, nil
}

// ExecutionOutput serves /v1/executions/:id/output for processes this
// manager still holds (server.LiveOutput); ok is false for other ids.
func (m *Manager) ExecutionOutput(id, after string, limit int) (*wasmexec.Replay, bool, error) {
	m.mu.Lock()
	p := m.byExec[id]
	m.mu.Unlock()
	if p == nil {
		return nil, false, nil
	}
	p.mu.Lock()
	vis := p.visible
	p.mu.Unlock()
	if !vis {
		return nil, false, nil
	}
	seq, err := wasmexec.ParseCursor(after)
	if err != nil {
		return nil, true, err
	}
	r := p.log.Read(seq, limit)
	return &r, true, nil
}

// KillContext kills (SIGKILL) every process running in contextID's
// workspace, including ones still starting, and returns once they have
// stopped. It returns how many it killed.
func (m *Manager) KillContext(contextID string) int {
	m.mu.Lock()
	var victims []*proc
	for _, p := range m.procs {
		if p.contextID == contextID {
			victims = append(victims, p)
		}
	}
	m.mu.Unlock()
	n := 0
	for _, p := range victims {
		select {
		case <-p.done:
			continue
		default:
		}
		n++
		p.killWith(wasmexec.SIGKILL)
	}
	for _, p := range victims {
		<-p.done
	}
	return n
}

// Close kills every process now (SIGKILL), waits until all are completed
// and refuses new ones. The records say the server's shutdown stopped them
// (see Shutdown).
func (m *Manager) Close() {
	for _, p := range m.closeAndList() {
		p.killForShutdown(wasmexec.SIGKILL)
	}
	m.wg.Wait()
	m.keepLastPID()
}

// Shutdown ends every process for the server's shutdown, as SIGTERM does:
// stdin is closed at once (a process reading it sees EOF and may finish by
// itself, exited), and those still running when ctx ends are killed. The
// records of the killed say the server's shutdown stopped them (exit
// signalled, signal SIGTERM; error code cancelled, name ShutdownError).
// New spawns are refused (unavailable). It returns once every process has
// exited and its record was completed.
func (m *Manager) Shutdown(ctx context.Context) {
	ps := m.closeAndList()
	for _, p := range ps {
		p.mu.Lock()
		p.stdinClosed = true
		p.mu.Unlock()
		p.stdin.Close()
	}
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	for _, p := range ps {
		p.killForShutdown(wasmexec.SIGTERM)
	}
	<-done
}

// closeAndList refuses new spawns and returns the processes there are.
func (m *Manager) closeAndList() []*proc {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	ps := make([]*proc, 0, len(m.procs))
	for _, p := range m.procs {
		ps = append(ps, p)
	}
	return ps
}

// defaultFilenames are the names the language drivers give code that is
// not a workspace file.
var defaultFilenames = map[wasmexec.Language]string{wasmexec.JavaScript: "main.js", wasmexec.TypeScript: "main.ts", wasmexec.Python: "main.py"}

// command renders a process's command line, ps-style.
func command(lang wasmexec.Language, filename string, args []string) string {
	if filename == "" {
		filename = defaultFilenames[lang]
	}
	parts := []string{string(lang), filename}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$`") {
			a = strconv.Quote(a)
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}
