package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec/engine"

	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/store"
	"github.com/wasmexec/wasmexec/vfs"
)

// options are the settings of `wasmexec serve` (and of in-process eval).
type options struct {
	addr           string
	dataDir        string
	cacheDir       string
	imagesDir      string
	logLevel       string
	timeoutMs      int64
	maxTimeoutMs   int64
	memoryBytes    int64
	maxMemoryBytes int64
	fuel           uint64
	maxFuel        uint64
	outputBytes    int64
	maxOutputBytes int64
	stdinBytes     int64
	bodyLimitBytes int64
	maxConcurrent  int
	maxQueued      int
	queueTimeoutMs int64
	poolSize       int
	retainBytes    int64
	workspaceQuota int64
	completedTTLMs int64
	maxCompleted   int
	liveWarning    int
	maxProcesses   int
	storeEnabled   bool
	dbPath         string
	maxContexts    int
	tscheckWorkers int
	tsWorkers      int
	tscheckMemory  int64
	tscheckDOM     bool
	ctxQueueDepth  int
	ctxIdleTTLMs   int64
	procTimeoutMs  int64
	procMaxTimeout int64
	signalGraceMs  int64
	storeSync      string
	scratchDir     string
}

func (o *options) register(fs *flag.FlagSet) {
	d := exec.DefaultPolicy()
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address")
	fs.StringVar(&o.dataDir, "data-dir", "./data", "data directory: SQLite file, workspaces")
	fs.StringVar(&o.cacheDir, "cache-dir", defaultCacheDir(), "compiled-module cache (outside the clone)")
	fs.StringVar(&o.imagesDir, "images-dir", "./build/images", "guest images (built by make guest-images)")
	fs.StringVar(&o.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.Int64Var(&o.timeoutMs, "timeout-ms", d.DefaultTimeout.Milliseconds(), "default wall-clock timeout per run")
	fs.Int64Var(&o.maxTimeoutMs, "max-timeout-ms", d.MaxTimeout.Milliseconds(), "largest timeoutMs a request may ask for")
	fs.Int64Var(&o.memoryBytes, "memory-bytes", d.Default.MemoryBytes, "default guest memory limit")
	fs.Int64Var(&o.maxMemoryBytes, "max-memory-bytes", d.Max.MemoryBytes, "largest limits.memoryBytes a request may ask for")
	fs.Uint64Var(&o.fuel, "fuel", d.Default.Fuel, "default fuel per run (about 6.5e9 per CPU second, depending on the program)")
	fs.Uint64Var(&o.maxFuel, "max-fuel", d.Max.Fuel, "largest limits.fuel a request may ask for")
	fs.Int64Var(&o.outputBytes, "output-bytes", d.Default.OutputBytes, "default output limit per stream")
	fs.Int64Var(&o.maxOutputBytes, "max-output-bytes", d.Max.OutputBytes, "largest limits.outputBytes a request may ask for")
	fs.Int64Var(&o.stdinBytes, "stdin-bytes", d.MaxStdinBytes, "stdin buffer limit")
	fs.Int64Var(&o.bodyLimitBytes, "body-limit-bytes", 16<<20, "request body limit")
	fs.IntVar(&o.maxConcurrent, "max-concurrent", engine.DefaultMaxConcurrent, "runs at once; more queue briefly, then get 429")
	fs.Int64Var(&o.queueTimeoutMs, "queue-timeout-ms", engine.DefaultQueueTimeout.Milliseconds(), "how long a run waits for a slot before 429")
	fs.IntVar(&o.maxQueued, "max-queued", engine.DefaultMaxQueued, "runs waiting for a slot at once; more get 429 at once")
	fs.IntVar(&o.poolSize, "pool-size", engine.DefaultPoolSize, "pre-started guests kept per language (0 disables)")
	fs.Int64Var(&o.retainBytes, "retain-bytes", engine.DefaultRetainBytes, "retained output events per run (bytes)")
	fs.Int64Var(&o.workspaceQuota, "workspace-quota-bytes", 64<<20, "byte quota per workspace")
	fs.Int64Var(&o.completedTTLMs, "execution-completed-ttl-ms", 300000, "how long completed executions are kept")
	fs.IntVar(&o.maxCompleted, "execution-max-completed-executions", 1024, "how many completed executions are kept")
	fs.IntVar(&o.liveWarning, "execution-live-warning-threshold", 64, "warn when more executions are live")
	fs.IntVar(&o.maxProcesses, "max-processes", 32, "live processes at once")
	fs.BoolVar(&o.storeEnabled, "store", true, "keep completed executions in SQLite")
	fs.StringVar(&o.dbPath, "db", "", "SQLite file (default DATA_DIR/wasmexec.db)")
	fs.IntVar(&o.tscheckWorkers, "tscheck-workers", 1, "TypeScript checker worker processes (0 disables the checker)")
	fs.IntVar(&o.tsWorkers, "ts-transpile-workers", 2, "TypeScript transpile worker processes (0: transpile in the server process)")
	fs.Int64Var(&o.tscheckMemory, "tscheck-memory-bytes", 2<<30, "memory cap of each checker worker")
	fs.BoolVar(&o.tscheckDOM, "tscheck-prewarm-dom", false, "pre-warm the dom lib in checker workers (slower start, fast first dom check)")
	fs.IntVar(&o.maxContexts, "max-contexts", 64, "execution contexts at once; more get 429")
	fs.IntVar(&o.ctxQueueDepth, "context-queue-depth", 16, "requests waiting per context; more get 429")
	fs.Int64Var(&o.ctxIdleTTLMs, "context-idle-ttl-ms", 15*60*1000, "an unused context is deleted after this long")
	fs.Int64Var(&o.procTimeoutMs, "process-timeout-ms", 10*60*1000, "default wall-clock life of a process")
	fs.Int64Var(&o.procMaxTimeout, "process-max-timeout-ms", 60*60*1000, "largest timeoutMs a process may ask for")
	fs.Int64Var(&o.signalGraceMs, "signal-grace-ms", 2000, "how long SIGTERM/SIGINT wait before killing a process")
	fs.StringVar(&o.storeSync, "store-sync", "normal", "normal: a reported completion survives any crash of the process (kill -9), not of the machine; full: an fsync per commit, it survives power loss too (~10% less throughput)")
	fs.StringVar(&o.scratchDir, "scratch-dir", defaultScratchDir(), "one-shot workspaces (a tmpfs keeps run start-up fast)")
}

func (o *options) validate() error {
	switch {
	case o.completedTTLMs <= 0:
		return fmt.Errorf("--execution-completed-ttl-ms must be a positive integer, got %d", o.completedTTLMs)
	case o.maxCompleted <= 0:
		return fmt.Errorf("--execution-max-completed-executions must be a positive integer, got %d", o.maxCompleted)
	case o.liveWarning <= 0:
		return fmt.Errorf("--execution-live-warning-threshold must be a positive integer, got %d", o.liveWarning)
	case o.maxConcurrent <= 0:
		return fmt.Errorf("--max-concurrent must be positive")
	case o.poolSize < 0:
		return fmt.Errorf("--pool-size must not be negative")
	case o.maxProcesses <= 0:
		return fmt.Errorf("--max-processes must be positive")
	case o.maxContexts <= 0 || o.ctxQueueDepth <= 0 || o.ctxIdleTTLMs <= 0:
		return fmt.Errorf("--max-contexts, --context-queue-depth and --context-idle-ttl-ms must be positive")
	case o.procTimeoutMs <= 0 || o.procMaxTimeout < o.procTimeoutMs || o.signalGraceMs <= 0:
		return fmt.Errorf("--process-timeout-ms must be positive and at most --process-max-timeout-ms; --signal-grace-ms positive")
	}
	return o.policy().Validate()
}

func (o *options) policy() exec.Policy {
	return exec.Policy{
		Default:        exec.Limits{Fuel: o.fuel, MemoryBytes: o.memoryBytes, OutputBytes: o.outputBytes},
		Max:            exec.Limits{Fuel: o.maxFuel, MemoryBytes: o.maxMemoryBytes, OutputBytes: o.maxOutputBytes},
		DefaultTimeout: time.Duration(o.timeoutMs) * time.Millisecond,
		MaxTimeout:     time.Duration(o.maxTimeoutMs) * time.Millisecond,
		MaxStdinBytes:  o.stdinBytes,
	}
}

func newLogger(level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}

// app is the wired service: engine, images, runner and the optional parts.
type app struct {
	opts   options
	log    *slog.Logger
	engine *engine.Engine
	ws     *vfs.Manager
	store  *store.Store

	mu      sync.Mutex
	runner  *engine.Runner
	ctxs    *contexts.Manager
	procs   *processes.Manager
	checker *checker
	// tsWorkers transpile TypeScript outside the server process.
	tsWorkers *ts.Workers
	images    map[string]*engine.Image
	loadErr   error
	ready     atomic.Bool
}

func newApp(o options, log *slog.Logger) (*app, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	e, err := engine.NewEngine(engine.EngineConfig{CacheDir: o.cacheDir, Logger: log})
	if err != nil {
		return nil, err
	}
	scratch := o.scratchDir
	if scratch == "" {
		scratch = filepath.Join(o.dataDir, "scratch")
	}
	mgr, err := vfs.NewManager(scratch, o.workspaceQuota)
	if err != nil {
		return nil, err
	}
	a := &app{opts: o, log: log, engine: e, ws: mgr, images: map[string]*engine.Image{}}
	if o.storeEnabled {
		path := o.dbPath
		if path == "" {
			path = filepath.Join(o.dataDir, "wasmexec.db")
		}
		st, err := store.Open(context.Background(), store.Config{
			Path:         path,
			CompletedTTL: time.Duration(o.completedTTLMs) * time.Millisecond,
			MaxCompleted: o.maxCompleted,
			Sync:         o.storeSync,
			Logger:       log,
		})
		if err != nil {
			e.Close()
			return nil, fmt.Errorf("open the execution store: %w", err)
		}
		a.store = st
	}
	return a, nil
}

// persist is the runner's OnComplete hook: a completion is durable in
// SQLite before it is reported to the client.
func (a *app) persist(ctx context.Context, r *exec.Result, log *exec.OutputLog) error {
	if a.store == nil {
		return nil
	}
	var events []exec.Event
	var truncated bool
	if log != nil {
		events, truncated = log.Snapshot()
	}
	return a.store.Save(ctx, r, events, truncated)
}

// load loads (compiling on first use) every guest image present, then
// builds the runner. It runs in the background of serve; /readyz is false
// until it finishes.
func (a *app) load(ctx context.Context) error {
	start := time.Now()
	images := map[string]*engine.Image{}
	for _, name := range []string{js.ImageName, python.ImageName} {
		dir := filepath.Join(a.opts.imagesDir, name)
		if _, err := os.Stat(filepath.Join(dir, "guest.json")); err != nil {
			a.log.Warn("guest image not built; its languages are unavailable (run make guest-images)", "image", name, "dir", dir)
			continue
		}
		img, err := a.engine.LoadImage(ctx, dir)
		if err != nil {
			return fmt.Errorf("load guest image %s: %w", name, err)
		}
		images[name] = img
	}
	if len(images) == 0 {
		return errors.New("no guest images found in " + a.opts.imagesDir + "; run make guest-images")
	}
	langs := map[exec.Language]exec.LanguageDriver{}
	if images[js.ImageName] != nil {
		langs[exec.JavaScript] = js.Driver{}
		tsDriver := ts.Driver{}
		if a.opts.tsWorkers > 0 {
			self, err := os.Executable()
			if err != nil {
				return err
			}
			a.tsWorkers = ts.NewWorkers([]string{self, "ts-transpile-worker"}, a.opts.tsWorkers, 5*time.Second)
			tsDriver.Workers = a.tsWorkers
		}
		langs[exec.TypeScript] = tsDriver
	}
	if images[python.ImageName] != nil {
		langs[exec.Python] = python.Driver{}
	}
	r, err := engine.NewRunner(engine.RunnerConfig{
		Images:               images,
		Languages:            langs,
		Policy:               a.opts.policy(),
		Workspaces:           a.ws,
		MaxConcurrent:        a.opts.maxConcurrent,
		QueueTimeout:         time.Duration(a.opts.queueTimeoutMs) * time.Millisecond,
		MaxQueued:            a.opts.maxQueued,
		PoolSize:             cmp.Or(a.opts.poolSize, -1), // --pool-size 0 turns pools off
		RetainBytes:          a.opts.retainBytes,
		LiveWarningThreshold: a.opts.liveWarning,
		OnComplete:           a.persist,
		Logger:               a.log,
	})
	if err != nil {
		return err
	}
	ctxWS, err := vfs.NewManager(filepath.Join(a.opts.dataDir, "contexts"), a.opts.workspaceQuota)
	if err != nil {
		r.Close()
		return err
	}
	var procs *processes.Manager
	ctxs, err := contexts.New(contexts.Config{
		Runner:      r,
		Workspaces:  ctxWS,
		IdleTTL:     time.Duration(a.opts.ctxIdleTTLMs) * time.Millisecond,
		MaxContexts: a.opts.maxContexts,
		QueueDepth:  a.opts.ctxQueueDepth,
		OnDelete:    func(id string) { procs.KillContext(id) },
		Logger:      a.log,
	})
	if err != nil {
		r.Close()
		return err
	}
	procs, err = processes.New(processes.Config{
		Runner:         r,
		MaxProcesses:   a.opts.maxProcesses,
		SignalGrace:    time.Duration(a.opts.signalGraceMs) * time.Millisecond,
		DefaultTimeout: time.Duration(a.opts.procTimeoutMs) * time.Millisecond,
		MaxTimeout:     time.Duration(a.opts.procMaxTimeout) * time.Millisecond,
		Workspace:      ctxs.WorkspaceDir,
		Logger:         a.log,
	})
	if err != nil {
		ctxs.Close()
		r.Close()
		return err
	}
	var chk *checker
	if dir := filepath.Join(a.opts.imagesDir, "typescript"); a.opts.tscheckWorkers > 0 {
		if _, err := os.Stat(filepath.Join(dir, "typescript.js")); err != nil {
			a.log.Warn("TypeScript checker image not built; /v1/typescript/check is unavailable (run make guest-images)", "dir", dir)
		} else {
			self, err := os.Executable()
			if err != nil {
				return err
			}
			prewarm := [][]string{{"es2022"}}
			if a.opts.tscheckDOM {
				prewarm = append(prewarm, []string{"es2022", "dom"})
			}
			pool, err := tscheck.NewPool(tscheck.PoolConfig{
				Size:             a.opts.tscheckWorkers,
				WorkerCommand:    []string{self, "tscheck-worker"},
				ImageDir:         dir,
				MemoryLimitBytes: a.opts.tscheckMemory,
				PrewarmLibs:      prewarm,
				Logger:           a.log,
			})
			if err != nil {
				return err
			}
			a.log.Info("starting TypeScript checker workers (pre-warming lib files)", "workers", a.opts.tscheckWorkers)
			if err := pool.Start(ctx); err != nil {
				pool.Close()
				return fmt.Errorf("start the TypeScript checker: %w", err)
			}
			chk = &checker{pool: pool, persist: a.persist}
		}
	}
	a.mu.Lock()
	a.images, a.runner, a.ctxs, a.procs, a.checker = images, r, ctxs, procs, chk
	a.mu.Unlock()
	a.ready.Store(true)
	a.log.Info("guest images ready", "images", len(images), "took", time.Since(start).Round(time.Millisecond).String())
	return nil
}

func (a *app) readiness() (bool, map[string]any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	imgs := map[string]string{}
	for name, img := range a.images {
		imgs[name] = img.Hash[:12]
	}
	d := map[string]any{"images": imgs}
	if a.checker != nil {
		d["typescript"] = a.checker.pool.Version()
	}
	if a.loadErr != nil {
		d["error"] = a.loadErr.Error()
	}
	return a.ready.Load(), d
}

// Run implements server.Runner, answering 503 until the images are loaded.
func (a *app) Run(ctx context.Context, req *exec.Request, opts exec.RunOptions) (*exec.Result, error) {
	if !a.ready.Load() {
		return nil, exec.Errorf(exec.EUnavailable, "the server is still loading its guest images; see /readyz")
	}
	return a.runner.Run(ctx, req, opts)
}

func (a *app) close() {
	if a.tsWorkers != nil {
		a.tsWorkers.Close()
	}
	if a.checker != nil {
		a.checker.pool.Close()
	}
	if a.procs != nil {
		a.procs.Close()
	}
	if a.ctxs != nil {
		a.ctxs.Close()
	}
	if a.runner != nil {
		a.runner.Close()
	}
	if a.store != nil {
		if err := a.store.Close(); err != nil {
			a.log.Error("close the execution store", "err", err)
		}
	}
	a.engine.Close()
}

// history adapts store.Store to server.History.
type history struct{ s *store.Store }

func (h history) Get(ctx context.Context, id string) (*exec.Result, error) { return h.s.Get(ctx, id) }

func (h history) Output(ctx context.Context, id, after string, limit int) (*exec.Replay, error) {
	return h.s.Output(ctx, id, after, limit)
}

func (h history) List(ctx context.Context, f server.ListFilter) (*server.ListPage, error) {
	p, err := h.s.List(ctx, store.ListFilter{ContextID: f.ContextID, Language: f.Language, Outcome: f.Outcome, Kind: f.Kind, After: f.After, Limit: f.Limit})
	if err != nil {
		return nil, err
	}
	return &server.ListPage{Executions: p.Executions, NextCursor: p.NextCursor, HasMore: p.HasMore}, nil
}

// metrics feeds GET /metrics.
func (a *app) metrics() map[string]float64 {
	m := map[string]float64{"wasmexec_guests_live": float64(a.engine.LiveGuests())}
	a.mu.Lock()
	r := a.runner
	a.mu.Unlock()
	if r != nil {
		m["wasmexec_runs_live"] = float64(r.Live())
		for img, hm := range r.PoolStats() {
			m[`wasmexec_pool_hits_total{image="`+img+`"}`] = float64(hm[0])
			m[`wasmexec_pool_misses_total{image="`+img+`"}`] = float64(hm[1])
		}
	}
	if a.store != nil {
		if n, size, err := a.store.Stats(context.Background()); err == nil {
			m["wasmexec_store_executions"] = float64(n)
			m["wasmexec_store_bytes"] = float64(size)
		}
	}
	return m
}
