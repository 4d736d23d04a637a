package tscheck

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	osexec "os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/workerpool"
)

// NativeConfig configures a NativePool: TypeScript 7's native compiler,
// run in its API mode (`tsc --api`).
type NativeConfig struct {
	// Size is the number of worker processes (default 1). Each keeps its
	// parsed lib files: RSS ~100 MB with es2022, ~200 MB with dom.
	Size int
	// Dir holds the compiler: the executable tsc, its lib*.d.ts files and
	// VERSION (the image's ts7/ directory).
	Dir string
	// MemoryLimitBytes caps each worker (see native_proc.go). 0 means
	// DefaultMemoryLimit; negative, none.
	MemoryLimitBytes int64
	// WarmLibs are the lib sets each worker checks once before it takes
	// work, so a first check with them is warm. Default {{"es2022",
	// "dom"}, {"es2022"}}: the last stays the open project, which a
	// first check with the same libs only updates. An empty non-nil slice
	// warms nothing.
	WarmLibs [][]string
	// WarmNice is the nice value workers start with, for their warm-up, so
	// it yields the CPU to runs; once warm they are raised back to 0 where
	// the server may do so (root or CAP_SYS_NICE), else they stay there.
	// Default 10; negative means 0 (no change).
	WarmNice int
	// Credential is whom workers run as. Nil: the user nobody when the
	// server runs as root, else the server's own user.
	Credential *syscall.Credential
	// LaunchCommand starts the launcher (LaunchMain), e.g. [os.Args[0],
	// "tscheck7-launch"]: it caps its memory, drops to Credential and
	// becomes the compiler. Required.
	LaunchCommand []string
	// Logger receives starts, exits and failures (default: discarded).
	Logger *slog.Logger
}

// NativePool type-checks with TypeScript 7. Each worker is one compiler
// process in API mode: a check is a snapshot update (the changed files of
// an in-memory project, served through file-system callbacks) and a few
// diagnostics requests. It is safe for concurrent use; checks beyond Size
// wait for a free worker.
type NativePool struct {
	cfg     NativeConfig
	log     *slog.Logger
	version string
	exe     string // the executable workers run (maybe a copy)
	libDir  string // its directory
	tmpDir  string // the copy, removed on Close
	cred    *syscall.Credential
	spawn   *spawner

	idle    chan *nativeWorker
	closing chan struct{}
	wg      sync.WaitGroup
	started atomic.Bool
	closed  atomic.Bool
	live    atomic.Int32 // warm workers, idle or busy
	warming atomic.Int32 // workers starting or warming up
	first   chan error

	mu    sync.Mutex
	procs map[*nativeWorker]struct{}

	// Warm-up accounting, for readiness and benchmarks.
	warmCPUMs  atomic.Int64 // CPU the workers' warm-ups took, µs
	warmCount  atomic.Int64 // warm-ups done
	reniceErr  atomic.Value // error: why workers stay at WarmNice
	checkCount atomic.Int64
}

// Native pool limits.
const (
	// maxNativeFiles bounds the files of one check (the 5.9 checker takes
	// maxFiles); TypeScript 7 checks thousands of small files in a second.
	maxNativeFiles = 20000
	// memoryKillShare: the watchdog kills a worker whose resident memory
	// passes this share of its cap while a check runs.
	memoryKillShare = 0.9
)

// NewNativePool validates cfg and the compiler directory. It starts
// nothing; call Start.
func NewNativePool(cfg NativeConfig) (*NativePool, error) {
	if cfg.Size <= 0 {
		cfg.Size = 1
	}
	if cfg.MemoryLimitBytes == 0 {
		cfg.MemoryLimitBytes = DefaultMemoryLimit
	}
	if cfg.WarmLibs == nil {
		cfg.WarmLibs = [][]string{{"es2022", "dom"}, {"es2022"}}
	}
	if cfg.WarmNice == 0 {
		cfg.WarmNice = 10
	}
	cfg.WarmNice = max(cfg.WarmNice, 0)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if len(cfg.LaunchCommand) == 0 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "tscheck: LaunchCommand is required")
	}
	for _, f := range []string{"tsc", "VERSION", "lib.d.ts", "lib.es2022.d.ts"} {
		if _, err := os.Stat(filepath.Join(cfg.Dir, f)); err != nil {
			return nil, &wasmexec.Error{Code: wasmexec.EUnavailable,
				Message: fmt.Sprintf("TypeScript 7 image incomplete: %s missing in %q (run guest-images/build-cached.sh typescript)", f, cfg.Dir), Err: err}
		}
	}
	v, err := os.ReadFile(filepath.Join(cfg.Dir, "VERSION"))
	if err != nil {
		return nil, &wasmexec.Error{Code: wasmexec.EUnavailable, Message: "TypeScript 7 image: cannot read VERSION", Err: err}
	}
	p := &NativePool{
		cfg:     cfg,
		log:     cfg.Logger.With("component", "tscheck7"),
		version: strings.TrimSpace(string(v)),
		// Room for a dead worker not yet drained next to its replacement.
		idle:    make(chan *nativeWorker, 2*cfg.Size),
		closing: make(chan struct{}),
		first:   make(chan error, cfg.Size),
		procs:   map[*nativeWorker]struct{}{},
	}
	return p, nil
}

// Version is the compiler's version ("7.0.2").
func (p *NativePool) Version() string { return p.version }

// Ready reports whether at least one worker is warm.
func (p *NativePool) Ready() bool { return p.started.Load() && !p.closed.Load() && p.live.Load() > 0 }

// Warming is the number of workers starting or warming up.
func (p *NativePool) Warming() int { return int(p.warming.Load()) }

// Stats reports warm-up work: how many warm-ups ran, the CPU time they
// took, and why workers stay at the lower priority ("" when they do not).
func (p *NativePool) Stats() (warmUps int64, warmCPU time.Duration, niced string) {
	if e, ok := p.reniceErr.Load().(error); ok && e != nil {
		niced = e.Error()
	}
	return p.warmCount.Load(), time.Duration(p.warmCPUMs.Load()) * time.Microsecond, niced
}

// Start starts the workers and waits until each is warm (well under a
// second each) or ctx ends. Workers keep being (re)started in the
// background until Close either way.
func (p *NativePool) Start(ctx context.Context) error {
	if p.closed.Load() {
		return wasmexec.Errorf(wasmexec.EUnavailable, "tscheck: pool closed")
	}
	if !p.started.CompareAndSwap(false, true) {
		return wasmexec.Errorf(wasmexec.EConflict, "tscheck: pool already started")
	}
	t := time.Now()
	cred := p.cfg.Credential
	if cred == nil {
		c, err := unprivileged()
		if err != nil {
			return err
		}
		cred = c
	}
	p.cred = cred
	p.exe, p.libDir = filepath.Join(p.cfg.Dir, "tsc"), p.cfg.Dir
	if cred != nil && int(cred.Uid) != os.Geteuid() {
		dir, err := copyForUnprivileged(p.cfg.Dir)
		if err != nil {
			return fmt.Errorf("tscheck: copy the compiler for its unprivileged user: %w", err)
		}
		p.tmpDir, p.exe, p.libDir = dir, filepath.Join(dir, "tsc"), dir
	}
	sp, err := newSpawner(p.cfg.WarmNice)
	if err != nil {
		p.log.Warn("cannot lower the priority of checker warm-ups", "err", err)
		if sp, err = newSpawner(0); err != nil {
			return err
		}
	}
	p.spawn = sp
	p.log.Info("starting TypeScript 7 checker workers", "workers", p.cfg.Size, "typescript", p.version,
		"warm", p.cfg.WarmLibs, "memoryLimitBytes", p.cfg.MemoryLimitBytes, "nice", p.cfg.WarmNice, "unprivileged", cred != nil)
	for i := 0; i < p.cfg.Size; i++ {
		p.wg.Add(1)
		go p.runSlot(i)
	}
	for n := 0; n < p.cfg.Size; n++ {
		select {
		case err := <-p.first:
			if err != nil {
				return fmt.Errorf("tscheck: TypeScript 7 worker: %w", err)
			}
		case <-ctx.Done():
			return fmt.Errorf("tscheck: start TypeScript 7 workers: %w", ctx.Err())
		case <-p.closing:
			return wasmexec.Errorf(wasmexec.EUnavailable, "tscheck: pool closed")
		}
	}
	p.log.Info("TypeScript 7 checker ready", "workers", p.cfg.Size, "ms", ms(time.Since(t)))
	return nil
}

// Close kills the workers (checks in flight end as cancelled) and waits
// for them. It is idempotent.
func (p *NativePool) Close() error {
	if !p.closed.CompareAndSwap(false, true) {
		p.wg.Wait()
		return nil
	}
	close(p.closing)
	p.mu.Lock()
	for w := range p.procs {
		w.kill(killClosing)
	}
	p.mu.Unlock()
	p.wg.Wait()
	if p.spawn != nil {
		p.spawn.stop()
	}
	if p.tmpDir != "" {
		os.RemoveAll(p.tmpDir)
	}
	return nil
}

// runSlot keeps one worker alive until Close, backing off while starts
// keep failing.
func (p *NativePool) runSlot(slot int) {
	defer p.wg.Done()
	firstAttempt := true
	gap := 100 * time.Millisecond
	for !p.closed.Load() {
		p.warming.Add(1)
		w, err := p.startWorker()
		p.warming.Add(-1)
		if err == nil {
			p.live.Add(1)
		}
		if firstAttempt {
			p.first <- err
			firstAttempt = false
		}
		if err != nil {
			if p.closed.Load() {
				return
			}
			p.log.Error("TypeScript 7 worker failed to start", "slot", slot, "err", err, "retryIn", gap)
			select {
			case <-time.After(gap):
			case <-p.closing:
				return
			}
			gap = min(gap*2, 30*time.Second)
			continue
		}
		gap = 100 * time.Millisecond
		p.idle <- w
		<-w.gone
		p.live.Add(-1)
		p.mu.Lock()
		delete(p.procs, w)
		p.mu.Unlock()
		if p.closed.Load() {
			return
		}
		if w.reason != killRecycle {
			p.log.Warn("TypeScript 7 worker ended; starting a fresh one", "slot", slot, "pid", w.pid,
				"reason", w.reason, "exit", w.exitStatus, "stderr", w.stderr.Summary())
		}
	}
}

// Why a worker was ended.
const (
	killTimeout   = "timeout"
	killCancelled = "cancelled"
	killMemory    = "memory"
	killClosing   = "closing"
	killRecycle   = "recycle"
	killBroken    = "broken" // its stream failed: it died or misbehaved
)

// nativeWorker is one compiler process.
type nativeWorker struct {
	pool   *NativePool
	cmd    *osexec.Cmd
	pid    int
	stdin  io.WriteCloser
	conn   *apiConn
	stderr *tailBuffer

	fs         *nativeFS         // what the callbacks serve: the current check's files
	prev       map[string]string // the previous check's files
	openConfig string            // the project opened in the compiler
	checks     int
	globals    map[string][]apiDiagnostic // global diagnostics by nativePrepared.globalKey

	killOnce   sync.Once
	killed     atomic.Bool
	reason     string // set by kill, before gone closes
	exitStatus string
	exitCause  string // wasmexec.Code* of a death by itself, from stderr
	gone       chan struct{}
}

func (p *NativePool) startWorker() (*nativeWorker, error) {
	args := append(append([]string{}, p.cfg.LaunchCommand[1:]...), p.exe, "--api", "--cwd", "/",
		"--callbacks=readFile,fileExists,directoryExists,getAccessibleEntries,realpath")
	cmd := osexec.Command(p.cfg.LaunchCommand[0], args...)
	cmd.Dir = "/"
	// Nothing of the server's environment.
	cmd.Env = []string{"HOME=/", "LANG=C.UTF-8", "GOTRACEBACK=single"}
	if lim := p.cfg.MemoryLimitBytes; lim > 0 {
		cmd.Env = append(cmd.Env, "GOMEMLIMIT="+strconv.FormatInt(int64(float64(lim)*0.7), 10),
			envLaunchDataLimit+"="+strconv.FormatInt(lim, 10))
	}
	if p.cred != nil {
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d:%d", envLaunchCred, p.cred.Uid, p.cred.Gid))
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	w := &nativeWorker{pool: p, cmd: cmd, stderr: &tailBuffer{}, gone: make(chan struct{}), globals: map[string][]apiDiagnostic{}}
	cmd.Stderr = w.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w.stdin = stdin
	w.conn = newAPIConn(stdout, stdin, func(name string, arg []byte) ([]byte, error) {
		if w.fs == nil {
			return nil, errors.New("no check in progress")
		}
		return w.fs.answer(name, arg)
	})
	p.mu.Lock()
	if p.closed.Load() {
		p.mu.Unlock()
		return nil, errors.New("pool closed")
	}
	if err := p.spawn.start(cmd); err != nil {
		p.mu.Unlock()
		return nil, fmt.Errorf("start %s: %w", p.exe, err)
	}
	w.pid = cmd.Process.Pid
	p.procs[w] = struct{}{}
	p.mu.Unlock()

	fail := func(err error) (*nativeWorker, error) {
		w.kill(killBroken)
		return nil, fmt.Errorf("%w (exit: %s; stderr: %s)", err, w.exitStatus, w.stderr.Summary())
	}
	t := time.Now()
	var init struct {
		CurrentDirectory string `json:"currentDirectory"`
	}
	if err := w.conn.call("initialize", nil, &init); err != nil {
		return fail(fmt.Errorf("initialize: %w", err))
	}
	for _, libs := range p.cfg.WarmLibs {
		prep, err := p.prepare(prewarmRequest(libs))
		if err == nil {
			var res *Result
			res, err = w.run(context.Background(), prep)
			if err == nil && res == nil {
				err = errors.New("the compiler exited")
			} else if err == nil && res.Outcome != wasmexec.Succeeded {
				err = fmt.Errorf("%s: %s", res.Outcome, res.Error.Message)
			} else if err == nil && len(res.Diagnostics) > 0 {
				err = fmt.Errorf("unexpected diagnostic: %s", res.Diagnostics[0].Message)
			}
		}
		if err != nil {
			return fail(fmt.Errorf("warm %v: %w", libs, err))
		}
	}
	cpu := procCPUMs(w.pid)
	p.warmCPUMs.Add(int64(cpu * 1000))
	p.warmCount.Add(1)
	if p.cfg.WarmNice != 0 {
		if err := workerpool.Renice(w.pid, 0); err != nil {
			p.reniceErr.Store(fmt.Errorf("workers stay at nice %d: %w", p.cfg.WarmNice, err))
		}
	}
	p.log.Info("TypeScript 7 worker warm", "pid", w.pid, "ms", ms(time.Since(t)), "cpuMs", cpu, "rssBytes", procRSS(w.pid))
	return w, nil
}

func prewarmRequest(libs []string) Request {
	l, _ := json.Marshal(libs)
	// At /main.ts, where a request's code goes: the warmed project is then
	// the one a first check updates, not one it replaces.
	return Request{Code: "export {};\nconst x: number = 1;\n", Options: map[string]json.RawMessage{"lib": l}}
}

// kill ends the worker once, for reason, and reaps it.
func (w *nativeWorker) kill(reason string) {
	w.killOnce.Do(func() {
		w.reason = reason
		w.killed.Store(true)
		if w.cmd.Process != nil {
			_ = w.cmd.Process.Kill()
		}
		w.stdin.Close()
		go func() {
			err := w.cmd.Wait()
			w.exitStatus = "exit status 0"
			if err != nil {
				w.exitStatus = err.Error()
			}
			w.exitCause = deathCause(w.stderr.String())
			close(w.gone)
		}()
	})
}

// deathCause classifies a compiler that died by itself from what it wrote.
func deathCause(stderr string) string {
	switch {
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory") ||
		strings.Contains(stderr, "pthread_create failed"):
		return wasmexec.CodeMemoryLimit
	case strings.Contains(stderr, "stack overflow") || strings.Contains(stderr, "stack exceeds"):
		return wasmexec.CodeStackOverflow
	}
	return wasmexec.CodeInternal
}

// nativePrepared is a validated request: the files the worker serves
// (user files, the sandbox declarations and the generated tsconfig).
type nativePrepared struct {
	files      map[string]string
	toUser     map[string]string
	configPath string
	tsconfig   string   // the request's tsconfig, as it spelled it ("" without)
	targets    []string // files whose diagnostics are reported
	timeout    time.Duration
	// globalKey is what the program's global diagnostics depend on: the
	// options, the tsconfig extended, the sandbox's declarations, and with
	// noLib (where user files may be what declares the global types) the
	// files themselves.
	globalKey string
}

func (p *NativePool) prepare(req Request) (*nativePrepared, error) {
	pf, err := prepareFiles(req, maxNativeFiles)
	if err != nil {
		return nil, err
	}
	tsconfig := ""
	if req.TsconfigPath != "" {
		n, ok := normalizePath(req.TsconfigPath)
		text, exists := pf.files[n]
		if !ok || !exists {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "tsconfigPath %q is not one of the files", req.TsconfigPath)
		}
		tsconfig = n
		_ = text
	}
	cfgPath := nativeConfigPath(tsconfig)
	if _, clash := pf.files[cfgPath]; clash {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "files: %q is reserved for the checker's own tsconfig", pf.toUser[cfgPath])
	}
	// Sandbox declarations are decided on the options; the config lists them.
	roots := append([]string{}, pf.roots...)
	text, domLibs, sandbox, err := nativeOptions(req.Options, tsconfig, pf.files[tsconfig], nil)
	if err != nil {
		return nil, err
	}
	files := pf.files
	texts := sandboxTexts()
	for _, a := range sandboxFiles(sandbox, domLibs, pf.files) {
		files[a] = texts[a]
		roots = append(roots, a)
	}
	text, _, _, err = nativeOptions(req.Options, tsconfig, pf.files[tsconfig], roots)
	if err != nil {
		return nil, err
	}
	files[cfgPath] = text
	h := sha256.New()
	fmt.Fprintf(h, "%q\n%q\n%q\n", cfgPath, optionsOnly(text), files[tsconfig])
	for _, r := range roots[len(pf.roots):] {
		fmt.Fprintf(h, "%s\n", r)
	}
	if strings.Contains(text, `"noLib"`) || strings.Contains(files[tsconfig], "noLib") {
		keys := make([]string, 0, len(files))
		for k := range files {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(h, "%q %q\n", k, files[k])
		}
	}
	targets := pf.checkFiles
	if targets == nil {
		targets = pf.roots
	}
	return &nativePrepared{files: files, toUser: pf.toUser, configPath: cfgPath, tsconfig: req.TsconfigPath, targets: targets, timeout: pf.timeout,
		globalKey: string(h.Sum(nil))}, nil
}

// Check type-checks one request. Bad requests return a *wasmexec.Error
// (wasmexec.EInvalid, wasmexec.ETooLarge); a closed pool, wasmexec.EUnavailable.
// Everything else — type errors, a deadline, a dead worker, ctx ending — is
// a Result.
func (p *NativePool) Check(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	if p.closed.Load() {
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "type checker is shut down")
	}
	if !p.started.Load() {
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "type checker is not started yet")
	}
	prep, err := p.prepare(req)
	if err != nil {
		return nil, err
	}
	for {
		var w *nativeWorker
		select {
		case w = <-p.idle:
		case <-ctx.Done():
			r := &Result{Outcome: wasmexec.Cancelled, Diagnostics: []Diagnostic{},
				Error: &wasmexec.ErrorData{Code: CodeCancelled, Message: "type check cancelled"}}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				r.Outcome, r.Error = wasmexec.TimedOut, &wasmexec.ErrorData{Code: CodeTimeout, Message: "deadline exceeded before the type check started"}
			}
			r.TypeScriptVersion, r.DurationMs = p.version, ms(time.Since(start))
			return r, nil
		case <-p.closing:
			return nil, wasmexec.Errorf(wasmexec.EUnavailable, "type checker is shut down")
		}
		if w.killed.Load() {
			continue // ended while idle; its slot starts another
		}
		res, err := w.run(ctx, prep)
		if err != nil {
			p.release(w)
			return nil, err
		}
		if res == nil {
			continue // the worker was gone before it took the request
		}
		p.checkCount.Add(1)
		p.release(w)
		res.TypeScriptVersion, res.DurationMs = p.version, ms(time.Since(start))
		return res, nil
	}
}

// release gives a worker back, unless it is gone or holds too much memory
// (then it is replaced: a fresh one is warm in well under a second).
func (p *NativePool) release(w *nativeWorker) {
	if w.killed.Load() || p.closed.Load() {
		return
	}
	if lim := p.cfg.MemoryLimitBytes; lim > 0 && float64(procRSS(w.pid)) > float64(lim)*0.5 {
		w.kill(killRecycle)
		return
	}
	p.idle <- w
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// run checks prep on w. A nil result with a nil error means w was gone
// before it got the request (the caller tries another worker); an error is
// a request the compiler rejected (wasmexec.EInvalid).
func (w *nativeWorker) run(ctx context.Context, prep *nativePrepared) (*Result, error) {
	t0 := time.Now()
	p := w.pool
	fail := func(stage string, err error) (*Result, error) {
		w.kill(killBroken)
		<-w.gone
		return w.deadResult(stage, err, prep.timeout), nil
	}
	// Bounds: the deadline, the caller's ctx, the memory watchdog.
	timer := time.AfterFunc(prep.timeout, func() { w.kill(killTimeout) })
	defer timer.Stop()
	stopCtx := context.AfterFunc(ctx, func() { w.kill(killCancelled) })
	defer stopCtx()
	stopWatch := w.watchMemory()
	defer stopWatch()

	w.fs = newNativeFS(p.libDir, prep.files)
	defer func() { w.fs = nil }()
	params := map[string]any{}
	if w.openConfig != prep.configPath {
		params["openProjects"] = []string{prep.configPath}
		if w.openConfig != "" {
			params["closeProjects"] = []string{w.openConfig}
		}
	}
	if w.prev != nil {
		var changed, created, deleted []string
		for f, text := range prep.files {
			if old, ok := w.prev[f]; !ok {
				created = append(created, f)
			} else if old != text {
				changed = append(changed, f)
			}
		}
		for f := range w.prev {
			if _, ok := prep.files[f]; !ok {
				deleted = append(deleted, f)
			}
		}
		params["fileChanges"] = map[string][]string{"changed": nonNil(changed), "created": nonNil(created), "deleted": nonNil(deleted)}
	}
	var snap struct {
		Snapshot uint64 `json:"snapshot"`
		Projects []struct {
			ID             string `json:"id"`
			ConfigFileName string `json:"configFileName"`
		} `json:"projects"`
	}
	w.checks++
	if err := w.conn.call("updateSnapshot", params, &snap); err != nil {
		if errors.Is(err, errSend) && !w.killed.Load() {
			// It was gone before it read the request (it died idle).
			w.kill(killBroken)
			return nil, nil
		}
		return fail("updateSnapshot", err)
	}
	// From here on the compiler holds this check's files.
	w.prev, w.openConfig = prep.files, prep.configPath
	tSnap := time.Now()
	project := ""
	for _, pr := range snap.Projects {
		if pr.ConfigFileName == prep.configPath {
			project = pr.ID
		}
	}
	if project == "" {
		return fail("updateSnapshot", fmt.Errorf("project %s not in the snapshot", prep.configPath))
	}
	timings := map[string]float64{"updateSnapshot": ms(tSnap.Sub(t0))}
	get := func(method, file string) ([]apiDiagnostic, error) {
		params := map[string]any{"snapshot": snap.Snapshot, "project": project}
		if file != "" {
			params["file"] = file
		}
		var out []apiDiagnostic
		t := time.Now()
		err := w.conn.call(method, params, &out)
		timings[method] += ms(time.Since(t))
		return out, err
	}
	// As tsc (GetDiagnosticsOfAnyProgram): the config's diagnostics, the
	// syntactic and program ones; global ones only without those, semantic
	// ones only without any. Lib files are not checked (see RATIONALE.md).
	var all []apiDiagnostic
	add := func(method, file string) error {
		d, err := get(method, file)
		all = append(all, d...)
		return err
	}
	if err := add("getConfigFileParsingDiagnostics", ""); err != nil {
		return fail("diagnostics", err)
	}
	nConfig := len(all)
	for _, f := range prep.targets {
		if err := add("getSyntacticDiagnostics", f); err != nil {
			return fail("diagnostics", err)
		}
	}
	if err := add("getProgramDiagnostics", ""); err != nil {
		return fail("diagnostics", err)
	}
	if len(all) == nConfig {
		// Global diagnostics (missing global types and the like) come from
		// the program's global declarations: the libs, the options and
		// the sandbox's declarations. The compiler builds fresh checkers to
		// find them (4 × ~50 ms with dom), so each worker remembers them
		// per globalKey rather than ask on every check.
		g, ok := w.globals[prep.globalKey]
		if !ok {
			var err error
			if g, err = get("getGlobalDiagnostics", ""); err != nil {
				return fail("diagnostics", err)
			}
			if len(w.globals) >= 64 {
				clear(w.globals)
			}
			w.globals[prep.globalKey] = g
		}
		all = append(all, g...)
	}
	if len(all) == nConfig {
		{
			for _, f := range prep.targets {
				if err := add("getSemanticDiagnostics", f); err != nil {
					return fail("diagnostics", err)
				}
			}
		}
	}
	if err := w.conn.call("release", map[string]any{"snapshot": snap.Snapshot}, nil); err != nil {
		return fail("release", err)
	}
	if w.killed.Load() {
		// Killed (deadline, cancel) just as it answered: report that.
		<-w.gone
		return w.deadResult("diagnostics", nil, prep.timeout), nil
	}
	res, err := p.toResult(all, prep)
	p.log.Debug("type check done", "pid", w.pid, "ms", ms(time.Since(t0)), "phasesMs", timings)
	return res, err
}

// watchMemory kills the worker if its resident memory passes
// memoryKillShare of the cap while a check runs.
func (w *nativeWorker) watchMemory() (stop func()) {
	lim := w.pool.cfg.MemoryLimitBytes
	if lim <= 0 {
		return func() {}
	}
	guard := int64(float64(lim) * memoryKillShare)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-w.gone:
				return
			case <-tick.C:
			}
			if procRSS(w.pid) > guard {
				w.kill(killMemory)
				return
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// deadResult describes a check whose worker ended under it.
func (w *nativeWorker) deadResult(stage string, err error, timeout time.Duration) *Result {
	r := &Result{Outcome: wasmexec.Failed, Diagnostics: []Diagnostic{}}
	switch w.reason {
	case killTimeout:
		r.Outcome = wasmexec.TimedOut
		r.Error = &wasmexec.ErrorData{Code: CodeTimeout, Message: fmt.Sprintf("type check did not finish within %v", timeout)}
	case killCancelled, killClosing:
		r.Outcome = wasmexec.Cancelled
		r.Error = &wasmexec.ErrorData{Code: CodeCancelled, Message: "type check cancelled"}
	case killMemory:
		r.Error = &wasmexec.ErrorData{Code: wasmexec.CodeMemoryLimit,
			Message: fmt.Sprintf("the type checker ran out of memory (limit %d bytes)", w.pool.cfg.MemoryLimitBytes)}
	default:
		switch w.exitCause {
		case wasmexec.CodeMemoryLimit:
			r.Error = &wasmexec.ErrorData{Code: wasmexec.CodeMemoryLimit,
				Message: fmt.Sprintf("the type checker ran out of memory (limit %d bytes)", w.pool.cfg.MemoryLimitBytes)}
		case wasmexec.CodeStackOverflow:
			r.Error = &wasmexec.ErrorData{Code: wasmexec.CodeStackOverflow, Message: "the type checker ran out of stack (input nested too deeply)"}
		default:
			msg := "the type checker died (" + w.exitStatus + ")"
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, os.ErrClosed) {
				msg = fmt.Sprintf("the type checker failed in %s: %v", stage, firstLine(err.Error()))
			}
			if s := w.stderr.Summary(); s != "" {
				msg += ": " + firstLine(s)
			}
			r.Error = &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: msg}
		}
	}
	return r
}

// apiDiagnostic is a diagnostic as the API sends it: positions in UTF-16
// code units, a message chain to flatten as tsc prints it.
type apiDiagnostic struct {
	FileName     string          `json:"fileName"`
	Pos          int             `json:"pos"`
	End          int             `json:"end"`
	Code         int             `json:"code"`
	Category     int             `json:"category"`
	Text         string          `json:"text"`
	MessageChain []apiDiagnostic `json:"messageChain"`
}

// flatten is tsc's flattenDiagnosticMessageText with "\n".
func (d *apiDiagnostic) flatten() string {
	var b strings.Builder
	b.WriteString(d.Text)
	var walk func(c []apiDiagnostic, indent int)
	walk = func(c []apiDiagnostic, indent int) {
		for i := range c {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat("  ", indent))
			b.WriteString(c[i].Text)
			walk(c[i].MessageChain, indent+1)
		}
	}
	walk(d.MessageChain, 1)
	return b.String()
}

var categories = []string{"warning", "error", "suggestion", "message"}

// toResult sorts and deduplicates as tsc does, turns positions into lines
// and columns, and maps paths back to the request's. Diagnostics about the
// generated tsconfig are the request's options' fault: wasmexec.EInvalid.
func (p *NativePool) toResult(all []apiDiagnostic, prep *nativePrepared) (*Result, error) {
	type item struct {
		d   *apiDiagnostic
		msg string
	}
	items := make([]item, len(all))
	var bad []Diagnostic
	for i := range all {
		items[i] = item{&all[i], all[i].flatten()}
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.d.FileName != b.d.FileName {
			return a.d.FileName < b.d.FileName
		}
		if a.d.Pos != b.d.Pos {
			return a.d.Pos < b.d.Pos
		}
		if la, lb := a.d.End-a.d.Pos, b.d.End-b.d.Pos; la != lb {
			return la < lb
		}
		if a.d.Code != b.d.Code {
			return a.d.Code < b.d.Code
		}
		return a.msg < b.msg
	})
	r := &Result{Outcome: wasmexec.Succeeded, Diagnostics: []Diagnostic{}}
	lines := map[string][]int{}
	for i, it := range items {
		if i > 0 {
			prev := items[i-1]
			if prev.d.FileName == it.d.FileName && prev.d.Pos == it.d.Pos && prev.d.End == it.d.End &&
				prev.d.Code == it.d.Code && prev.msg == it.msg {
				continue
			}
		}
		d := Diagnostic{Code: it.d.Code, Category: "error", Message: it.msg}
		if it.d.Category >= 0 && it.d.Category < len(categories) {
			d.Category = categories[it.d.Category]
		}
		if f := it.d.FileName; f != "" {
			text, ok := prep.files[f]
			if !ok && strings.HasPrefix(f, p.libDir) {
				b, _ := os.ReadFile(f)
				text = string(b)
			}
			starts, ok := lines[f]
			if !ok {
				starts = lineStarts(text)
				lines[f] = starts
			}
			d.Line, d.Column = lineColumn(starts, it.d.Pos)
			switch {
			case prep.toUser[f] != "":
				d.FilePath = prep.toUser[f]
			case strings.HasPrefix(f, p.libDir):
				d.FilePath = "/lib/" + path.Base(f)
			default:
				d.FilePath = f
			}
		}
		if it.d.FileName == prep.configPath {
			bad = append(bad, d)
			continue
		}
		if d.Category == "error" {
			r.HasErrors = true
		}
		r.Diagnostics = append(r.Diagnostics, d)
	}
	if len(bad) > 0 {
		return nil, optionsError(bad, prep.tsconfig)
	}
	return r, nil
}

// lineStarts are the UTF-16 offsets where the lines of text start, with
// tsc's line breaks (CR, LF, CRLF, U+2028, U+2029).
func lineStarts(text string) []int {
	starts := []int{0}
	pos := 0
	prevCR := false
	for _, r := range text {
		n := 1
		if r >= 0x10000 {
			n = 2
		}
		switch {
		case r == '\n':
			if prevCR {
				starts[len(starts)-1] = pos + 1
			} else {
				starts = append(starts, pos+1)
			}
		case r == '\r', r == 0x2028, r == 0x2029:
			starts = append(starts, pos+n)
		}
		prevCR = r == '\r'
		pos += n
	}
	return starts
}

// lineColumn turns a UTF-16 offset into a 1-based line and column.
func lineColumn(starts []int, pos int) (int, int) {
	i := sort.Search(len(starts), func(i int) bool { return starts[i] > pos }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, pos - starts[i] + 1
}

// optionsOnly is a generated tsconfig without its file list.
func optionsOnly(config string) string {
	var cfg map[string]json.RawMessage
	if json.Unmarshal([]byte(config), &cfg) != nil {
		return config
	}
	delete(cfg, "files")
	b, _ := json.Marshal(cfg)
	return string(b)
}
