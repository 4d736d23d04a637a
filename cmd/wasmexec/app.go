package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec/auth"
	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/server"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/cluster"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
	"github.com/wasmexec/wasmexec/metrics"
	"github.com/wasmexec/wasmexec/npm"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/pypi"
	"github.com/wasmexec/wasmexec/store"
	"github.com/wasmexec/wasmexec/templates"
	"github.com/wasmexec/wasmexec/vfs"
)

// options are the settings of `wasmexec serve` (and of in-process eval).
type options struct {
	addr           string
	dataDir        string
	cacheDir       string
	npmRegistry    string
	pyIndexURL     string
	pyAllowedIndex string
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
	workspaceFiles int
	completedTTLMs int64
	maxCompleted   int
	liveWarning    int
	maxProcesses   int
	storeEnabled   bool
	storeKind      string // sqlite | postgres | none
	storeURL       string
	dbPath         string
	maxContexts    int
	// ctxMemoryBytes is the memory budget of live contexts (0 until
	// resolveDensity: a share of the machine's); ctxMaxDiskBytes bounds
	// their records and workspaces likewise.
	ctxMemoryBytes  int64
	ctxMaxDiskBytes int64
	densityLog      []any // what resolveDensity chose, for the start-up log
	tscheckWorkers  int
	// tscheckLegacyWorkers run TypeScript 5.9 (0: disabled).
	tscheckLegacyWorkers int
	tscheckNice          int
	tsWorkers            int
	transpileMs          int64
	tscheckMemory        int64
	tscheckDOM           bool
	tscheckWarmDOM       bool
	ctxQueueDepth        int
	ctxIdleTTLMs         int64
	ctxHibernateMs       int64
	ctxSnapshotMs        int64
	procTimeoutMs        int64
	procMaxTimeout       int64
	signalGraceMs        int64
	storeSync            string
	scratchDir           string
	authKeysFile         string
	insecureOpen         bool
	eventsWindow         int
	// Templates.
	templateMaxState  int64
	templatesMaxBytes int64
	templateBuilds    int
	// Network.
	networkAllow            string
	networkMaxRequests      int
	networkMaxResponseBytes int64
	// shutdownGraceMs is how long in-flight work may take to finish after
	// SIGINT/SIGTERM before it is cancelled.
	shutdownGraceMs int64
	// cluster: several servers sharing contexts (cluster.go).
	cluster clusterOptions
	// fromEnv names the flags set from WASMEXEC_* variables (flag → variable).
	fromEnv map[string]string
	// inProcess: eval or prepare, not a server (TypeScript may be
	// transpiled in this process).
	inProcess bool
}

func (o *options) register(fs *flag.FlagSet) {
	d := wasmexec.DefaultPolicy()
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address")
	fs.StringVar(&o.dataDir, "data-dir", "./data", "data directory: SQLite file, workspaces")
	fs.StringVar(&o.cacheDir, "cache-dir", defaultCacheDir(), "compiled-module cache (outside the clone)")
	fs.StringVar(&o.npmRegistry, "npm-registry", npm.DefaultRegistry, "npm registry for POST /v1/contexts/:id/npm/install (packages are cached under CACHE_DIR/npm)")
	fs.StringVar(&o.pyIndexURL, "python-index-url", pypi.DefaultIndex, "Python package index (PEP 503/691) for POST /v1/contexts/:id/pip/install and one-shot packages (wheels are cached under CACHE_DIR/pip)")
	fs.StringVar(&o.pyAllowedIndex, "python-allowed-index-urls", "", "comma-separated other indexes a request's indexUrl/extraIndexUrls may name (any other is a 400)")
	fs.StringVar(&o.imagesDir, "images-dir", "", "guest images, built by make guest-images (default: ./build/images, else the build/images of the repository this binary was built in)")
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
	fs.IntVar(&o.maxConcurrent, "max-concurrent", pipeline.DefaultMaxConcurrent, "runs at once; more queue briefly, then get 429")
	fs.Int64Var(&o.queueTimeoutMs, "queue-timeout-ms", pipeline.DefaultQueueTimeout.Milliseconds(), "how long a run waits for a slot before 429")
	fs.IntVar(&o.maxQueued, "max-queued", pipeline.DefaultMaxQueued, "runs waiting for a slot at once; more get 429 at once")
	fs.IntVar(&o.poolSize, "pool-size", engine.DefaultPoolSize, "pre-started guests kept per language (0 disables)")
	fs.Int64Var(&o.retainBytes, "retain-bytes", pipeline.DefaultRetainBytes, "retained output events per run (bytes)")
	fs.Int64Var(&o.workspaceQuota, "workspace-quota-bytes", vfs.DefaultQuotaBytes, "byte quota per workspace (a directory, empty file or symlink counts 4096)")
	fs.IntVar(&o.workspaceFiles, "workspace-max-files", vfs.DefaultMaxFiles, "entries (files, directories, symlinks) per workspace")
	fs.Int64Var(&o.completedTTLMs, "execution-completed-ttl-ms", 300000, "how long completed executions are kept")
	fs.IntVar(&o.maxCompleted, "execution-max-completed-executions", 1024, "how many completed executions are kept")
	fs.IntVar(&o.liveWarning, "execution-live-warning-threshold", 64, "warn when more executions are live")
	fs.IntVar(&o.maxProcesses, "max-processes", 32, "live processes at once")
	o.storeEnabled = true
	fs.StringVar(&o.storeKind, "store", "sqlite", "where completed executions are kept: sqlite (the --db file), postgres (the database at --store-url, which several nodes may share) or none")
	fs.StringVar(&o.storeURL, "store-url", "", "PostgreSQL URL for --store postgres: postgres://user:password@host:port/database?sslmode=… (logged with the password redacted)")
	fs.StringVar(&o.dbPath, "db", "", "SQLite file (default DATA_DIR/wasmexec.db)")
	fs.IntVar(&o.tscheckWorkers, "tscheck-workers", 1, "TypeScript 7 checker worker processes (0 disables the checker)")
	fs.IntVar(&o.tscheckLegacyWorkers, "tscheck-legacy-workers", 1, `TypeScript 5.9 checker worker processes, for checks with "typescriptVersion": "5.9"; started on the first of them (0: 5.9 disabled)`)
	fs.IntVar(&o.tscheckNice, "tscheck-nice", 10, "nice value of checker warm-ups, so they yield the CPU to runs (0: no change); TypeScript 5.9 workers keep it")
	fs.IntVar(&o.tsWorkers, "ts-transpile-workers", ts.DefaultWorkers, "TypeScript transpile worker processes (esbuild runs only there)")
	fs.Int64Var(&o.transpileMs, "transpile-timeout-ms", ts.DefaultTranspileTimeout.Milliseconds(), "how long one TypeScript transpile may run in its worker; past it the run fails with transpile_failed")
	fs.Int64Var(&o.tscheckMemory, "tscheck-memory-bytes", tscheck.DefaultMemoryLimit, "memory cap of each checker worker (0: no cap)")
	fs.BoolVar(&o.tscheckWarmDOM, "tscheck-warm-dom", true, "warm the dom lib: in TypeScript 7 workers' warm-up (~0.3 s of CPU), in idle TypeScript 5.9 workers once started (5-10 s of CPU and ~300 MB each); a first dom check is then fast")
	fs.BoolVar(&o.tscheckDOM, "tscheck-prewarm-dom", false, "pre-warm the dom lib in checker workers (slower start, fast first dom check)")
	fs.IntVar(&o.maxContexts, "max-contexts", contexts.DefaultMaxContexts, "execution contexts, live or hibernated (each keeps a record and a workspace in the data dir); more get 429")
	fs.Int64Var(&o.ctxMemoryBytes, "contexts-memory-bytes", 0, "memory budget of live contexts: past it the least recently used idle ones are hibernated, so the server's RSS stays under it (0: a quarter of the machine's memory or cgroup limit; logged at start)")
	fs.Int64Var(&o.ctxMaxDiskBytes, "contexts-max-disk-bytes", 0, "bytes the contexts' records and workspaces may take in the data dir; past it creating a context gets 429 (0: half of the data dir's file system; logged at start)")
	fs.IntVar(&o.ctxQueueDepth, "context-queue-depth", 16, "requests waiting per context; more get 429")
	fs.Int64Var(&o.ctxIdleTTLMs, "context-idle-ttl-ms", 15*60*1000, "an unused context is deleted after this long")
	fs.Int64Var(&o.ctxHibernateMs, "context-hibernate-after-ms", 60000, "an idle context's guest is captured and dropped from memory after this long; its next run restores it (0: never)")
	fs.Int64Var(&o.ctxSnapshotMs, "context-snapshot-after-ms", 2000, "a context idle this long after a run has its state written to DATA_DIR/context-state, which survives restarts and crashes (0: only at hibernation and graceful shutdown)")
	fs.Int64Var(&o.procTimeoutMs, "process-timeout-ms", 10*60*1000, "default wall-clock life of a process")
	fs.Int64Var(&o.procMaxTimeout, "process-max-timeout-ms", 60*60*1000, "largest timeoutMs a process may ask for")
	fs.Int64Var(&o.signalGraceMs, "signal-grace-ms", 2000, "how long SIGTERM/SIGINT wait before killing a process")
	fs.StringVar(&o.storeSync, "store-sync", "normal", "normal: a reported completion survives any crash of the process (kill -9), not of the machine; full: an fsync per commit, it survives power loss too (~10% less throughput)")
	fs.StringVar(&o.authKeysFile, "auth-keys-file", "", "API keys and tenants (JSON, see README); without it the server is open and listens only on loopback; reloaded on SIGHUP")
	fs.IntVar(&o.eventsWindow, "events-window", events.DefaultWindow, "lifecycle events kept for GET /v1/events resume (older ones are reported as truncated)")
	fs.BoolVar(&o.insecureOpen, "insecure-open", false, "listen on a non-loopback address without API keys (anyone who reaches the port can do anything)")
	fs.StringVar(&o.networkAllow, "network-allow", "", "comma-separated patterns runs may open the network to (host[:port], *.domain, * for any host name, scheme://host:port, IP or CIDR; an address only by an IP or CIDR pattern); empty: no network for anyone")
	fs.IntVar(&o.networkMaxRequests, "network-max-requests", egress.DefaultMaxRequests, "HTTP requests per run (each redirect hop counts)")
	fs.Int64Var(&o.networkMaxResponseBytes, "network-max-response-bytes", egress.DefaultMaxResponseBytes, "response body bytes per run, all requests together")
	fs.StringVar(&o.scratchDir, "scratch-dir", defaultScratchDir(), "one-shot workspaces (a tmpfs keeps run start-up fast)")
	fs.Int64Var(&o.shutdownGraceMs, "shutdown-grace-ms", 10000, "on SIGINT/SIGTERM, how long running work may take to finish before it is cancelled (answered and recorded as cancelled)")
	fs.Int64Var(&o.templateMaxState, "template-max-state-bytes", templates.DefaultMaxStateBytes, "a template whose captured guest state is larger is refused (its build ends failed with the size)")
	fs.Int64Var(&o.templatesMaxBytes, "templates-max-bytes", templates.DefaultMaxImplicitBytes, "what the implicit templates of one-shot package sets may hold together (state and workspaces); past it the least recently used are evicted (0: no implicit templates; negative: no bound)")
	fs.IntVar(&o.templateBuilds, "template-builds", templates.DefaultMaxBuilds, "template builds under way at once; more wait their turn")
	o.registerCluster(fs)
}

func (o *options) policy() wasmexec.Policy {
	return wasmexec.Policy{
		Default:        wasmexec.Limits{Fuel: o.fuel, MemoryBytes: o.memoryBytes, OutputBytes: o.outputBytes},
		Max:            wasmexec.Limits{Fuel: o.maxFuel, MemoryBytes: o.maxMemoryBytes, OutputBytes: o.maxOutputBytes},
		DefaultTimeout: time.Duration(o.timeoutMs) * time.Millisecond,
		MaxTimeout:     time.Duration(o.maxTimeoutMs) * time.Millisecond,
		MaxStdinBytes:  o.stdinBytes,
	}
}

// stageRoom is what a one-shot run's packages may hold: its workspace's
// limits, since they are copied into it.
func (o *options) stageRoom() npm.Room {
	l := o.workspaceLimits()
	r := npm.Room{Bytes: l.Quota, Files: l.MaxFiles, EntryBytes: l.EntryBytes}
	if r.Bytes <= 0 {
		r.Bytes = math.MaxInt64
	}
	if r.Files <= 0 {
		r.Files = math.MaxInt
	}
	return r
}

func (o *options) workspaceLimits() vfs.Limits {
	l := vfs.DefaultLimits()
	l.Quota, l.MaxFiles = o.workspaceQuota, o.workspaceFiles
	return l
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
	// npm is the npm client (npmClient), made once.
	npmOnce sync.Once
	npm     *npm.Client

	// recorder is the persist step of runs and of the other records
	// (TypeScript checks, installs): nothing is reported before its
	// record is committed.
	recorder *pipeline.Recorder
	// tenants are the tenants' counters, shared by the pipeline (run
	// admission) and the server's guard.
	tenants *server.Tenants

	mu      sync.Mutex
	driver  *engine.Driver
	runner  *pipeline.Pipeline
	ctxs    *contexts.Manager
	procs   *processes.Manager
	checker *checker
	// checkerState says why there is no checker (disabled, not built).
	checkerState string
	// tsWorkers transpile TypeScript outside the server process.
	tsWorkers *ts.Workers
	images    map[string]*engine.Image
	// imageErrs are the images built after start that failed to load.
	imageErrs map[string]error
	loadErr   error
	ready     atomic.Bool
	// keys are the API keys (nil: an open server).
	keys *auth.Keys
	// events is the lifecycle event log of GET /v1/events: this server's
	// Hub, or with a PostgreSQL store the log every server shares
	// (eventLog, stopped by the store's Close).
	events   events.Log
	eventLog *store.EventLog
	// prom is the Prometheus instrumentation of GET /metrics.
	prom *metrics.Metrics
	// contextDeleted publishes context.deleted (server.Config.ContextDeleted).
	contextDeleted atomic.Pointer[func(string)]
	// contextEvent publishes context.hibernated/restored (server.Config.ContextEvent).
	contextEvent atomic.Pointer[func(string, string)]
	// cluster is this server's part of a cluster (nil: a single server).
	cluster *cluster.Cluster
	// tpl keeps the templates (nil while loading).
	tpl *templates.Manager
	// templateEvent publishes template.* events (server.Config.TemplateEvent).
	templateEvent atomic.Pointer[func(string, *wasmexec.Template)]
}

func (a *app) contexts() *contexts.Manager {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctxs
}

func newApp(o options, log *slog.Logger) (*app, error) {
	specs, imagesErr := o.findImages()
	if err := o.validate(specs); err != nil {
		return nil, err
	}
	if imagesErr != nil {
		return nil, imagesErr
	}
	if err := o.policy().Validate(); err != nil {
		return nil, fmt.Errorf("bad configuration: %w", err)
	}
	if err := os.MkdirAll(o.dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	// The Python image's extension is read at each load: its library
	// layer may be built after the server started (images.go).
	e, err := engine.NewEngine(engine.EngineConfig{CacheDir: o.cacheDir, Logger: log, Extend: func(name string) (engine.ImageExtension, bool) {
		if name != python.ImageName {
			return engine.ImageExtension{}, false
		}
		return engine.ImageExtension(python.ImageExtension(o.imagesDir)), true
	}})
	if err != nil {
		return nil, err
	}
	scratch := o.scratchDir
	if scratch == "" {
		scratch = filepath.Join(o.dataDir, "scratch")
	}
	mgr, removed, err := vfs.OpenScratch(scratch, o.workspaceLimits())
	if err != nil {
		if mgr == nil {
			return nil, err
		}
		log.Warn("remove stale one-shot workspaces", "err", err)
	}
	if removed > 0 {
		log.Info("removed the scratch of earlier servers", "dir", scratch, "count", removed)
	}
	a := &app{opts: o, log: log, engine: e, ws: mgr, images: map[string]*engine.Image{}, imageErrs: map[string]error{}, events: events.New(o.eventsWindow), prom: metrics.New()}
	if o.storeEnabled {
		path := o.dbPath
		if path == "" {
			path = filepath.Join(o.dataDir, "wasmexec.db")
		}
		cfg := store.Config{
			Path:         path,
			CompletedTTL: time.Duration(o.completedTTLMs) * time.Millisecond,
			MaxCompleted: o.maxCompleted,
			Sync:         o.storeSync,
			Logger:       log,
		}
		if o.storeKind == "postgres" {
			cfg.Path, cfg.URL = "", o.storeURL
		}
		st, err := store.Open(context.Background(), cfg)
		if err != nil {
			e.Close()
			mgr.Close()
			return nil, fmt.Errorf("open the execution store: %w", err)
		}
		a.store = st
		if o.storeKind == "postgres" {
			// Every server on the database gives the same GET /v1/events.
			l, err := st.OpenEventLog(context.Background(), store.EventLogConfig{Window: o.eventsWindow})
			if err != nil {
				st.Close()
				e.Close()
				mgr.Close()
				return nil, fmt.Errorf("open the lifecycle event log: %w", err)
			}
			a.events, a.eventLog = l, l
		}
		if err := a.openCluster(context.Background()); err != nil {
			st.Close()
			e.Close()
			mgr.Close()
			return nil, fmt.Errorf("join the cluster: %w", err)
		}
	}
	// A nil *store.Store must not become a non-nil pipeline.Store.
	var st pipeline.Store
	if a.store != nil {
		st = a.store
	}
	a.recorder = pipeline.NewRecorder(st, a.prom)
	a.tenants = server.NewTenants()
	a.prom.Watch(a.parts)
	return a, nil
}

// load loads (compiling on first use) every guest image present, then
// builds the runner. It runs in the background of serve; /readyz is false
// until it finishes. An image still being built is loaded when its build
// completes (watchImages, images.go); its languages answer 503 until then.
func (a *app) load(ctx context.Context) error {
	start := time.Now()
	images := map[string]*engine.Image{}
	missing := false
	for _, name := range guestImages {
		dir := filepath.Join(a.opts.imagesDir, name)
		if !a.loadable(name) {
			missing = true
			if state, st := a.imageState(name); state == "building" {
				a.log.Info("guest image still being built; it is loaded when its build completes, and its languages answer 503 until then", "image", name, "build", st.Image, "step", fmt.Sprintf("%d/%d", st.Step, st.Steps), "log", st.Log)
			} else {
				a.log.Warn("guest image not built; its languages are unavailable (run make guest-images)", "image", name, "dir", dir, "state", state)
			}
			continue
		}
		img, err := a.engine.LoadImage(ctx, dir)
		if err != nil {
			return fmt.Errorf("load guest image %s: %w", name, err)
		}
		images[name] = img
	}
	if len(images) == 0 && !a.pendingBuilds() {
		return errors.New("no guest images found in " + a.opts.imagesDir + "; run make guest-images")
	}
	// Every language is served, its image loaded or not: a run whose
	// image is missing is told why (engine.DriverConfig.Missing).
	langs := map[wasmexec.Language]wasmexec.LanguageDriver{}
	{
		pkgs := a.npmClient()
		langs[wasmexec.JavaScript] = js.Driver{Packages: pkgs}
		// Without workers (in-process eval, prepare) esbuild runs in this
		// process; a server always has workers (see options.validate).
		tsDriver := ts.Driver{Packages: pkgs, Cache: ts.NewTranspileCache(0)}
		if a.opts.tsWorkers > 0 {
			self, err := os.Executable()
			if err != nil {
				return err
			}
			w, err := ts.NewWorkers(ts.WorkersConfig{
				Command: []string{self, "ts-transpile-worker"},
				Size:    a.opts.tsWorkers,
				Timeout: time.Duration(a.opts.transpileMs) * time.Millisecond,
				Logger:  a.log,
			})
			if err != nil {
				return err
			}
			if err := w.Start(ctx); err != nil {
				w.Close()
				return err
			}
			a.mu.Lock()
			a.tsWorkers = w
			a.mu.Unlock()
			tsDriver.Workers = w
			// ES modules a run brings are converted in the same workers,
			// ahead of the guest (languages/ts/modules.go).
			conv := &ts.ModuleConverter{Workers: w}
			tsDriver.Modules = conv
			langs[wasmexec.JavaScript] = js.Driver{Packages: pkgs, Modules: conv}
		}
		langs[wasmexec.TypeScript] = tsDriver
	}
	langs[wasmexec.Python] = python.Driver{Packages: a.pipService()}
	network, err := a.opts.egress()
	if err != nil {
		return err
	}
	policy := a.opts.policy()
	d := engine.NewDriver(engine.DriverConfig{
		Images:          images,
		Workspaces:      a.ws,
		PoolSize:        cmp.Or(a.opts.poolSize, -1), // --pool-size 0 turns pools off
		PoolMemoryBytes: policy.Default.MemoryBytes,
		Missing:         a.missingImage,
		Logger:          a.log,
	})
	r, err := pipeline.New(pipeline.Config{
		Driver:               d,
		Network:              network,
		Languages:            langs,
		Policy:               policy,
		Workspaces:           a.ws,
		MaxConcurrent:        a.opts.maxConcurrent,
		QueueTimeout:         time.Duration(a.opts.queueTimeoutMs) * time.Millisecond,
		MaxQueued:            a.opts.maxQueued,
		RetainBytes:          a.opts.retainBytes,
		LiveWarningThreshold: a.opts.liveWarning,
		Recorder:             a.recorder,
		Tenants:              a.tenants,
		Events:               a.events,
		Logger:               a.log,
	})
	if err != nil {
		d.Close()
		return err
	}
	ctxWS, err := vfs.NewManagerLimits(filepath.Join(a.opts.dataDir, "contexts"), a.opts.workspaceLimits())
	if err != nil {
		d.Close()
		return err
	}
	// Templates build through the pipeline and runs start from them in
	// it: made after it, handed to it before it serves.
	tpl, err := templates.New(templates.Config{
		Runner:           r,
		Dir:              filepath.Join(a.opts.dataDir, "templates"),
		WorkspaceLimits:  a.opts.workspaceLimits(),
		MaxStateBytes:    a.opts.templateMaxState,
		MaxImplicitBytes: a.opts.templatesMaxBytes,
		MaxBuilds:        a.opts.templateBuilds,
		Shared:           sharedTemplates(a.cluster),
		Scratch:          a.ws,
		Spares:           2,
		SpareGuests:      2,
		OnEvent: func(typ string, t *wasmexec.Template) {
			if f := a.templateEvent.Load(); f != nil {
				(*f)(typ, t)
			}
		},
		Logger: a.log,
	})
	if err != nil {
		d.Close()
		return err
	}
	r.SetTemplates(tpl)
	// procs is made after the contexts (it takes their workspaces); the
	// contexts call into it only from their idle loops, started below
	// once it exists, and from Close (nil when processes.New failed).
	var procs *processes.Manager
	killProcs := func(id string) {
		if procs != nil {
			procs.KillContext(id)
		}
	}
	ctxs, err := contexts.New(contexts.Config{
		Runner:         r,
		Workspaces:     ctxWS,
		IdleTTL:        time.Duration(a.opts.ctxIdleTTLMs) * time.Millisecond,
		MaxContexts:    a.opts.maxContexts,
		MemoryBudget:   a.opts.ctxMemoryBytes,
		ReleaseMemory:  engine.ReleaseFreedMemory,
		MaxDiskBytes:   a.opts.ctxMaxDiskBytes,
		QueueDepth:     a.opts.ctxQueueDepth,
		StateDir:       filepath.Join(a.opts.dataDir, "context-state"),
		HibernateAfter: time.Duration(a.opts.ctxHibernateMs) * time.Millisecond,
		SnapshotAfter:  time.Duration(a.opts.ctxSnapshotMs) * time.Millisecond,
		LiveProcesses: func(id string) int {
			if procs == nil {
				return 0
			}
			return procs.ContextProcesses(id)
		},
		OnEvent: func(typ, id string) {
			if f := a.contextEvent.Load(); f != nil {
				(*f)(typ, id)
			}
		},
		OnDelete: func(id string) {
			killProcs(id)
			if f := a.contextDeleted.Load(); f != nil {
				(*f)(id)
			}
		},
		OnMoved:   killProcs,
		Shared:    sharedContexts(a.cluster),
		Templates: tpl,
		Logger:    a.log,
	})
	if err != nil {
		tpl.Close()
		d.Close()
		return err
	}
	procs, err = processes.New(processes.Config{
		Runner:         r,
		MaxProcesses:   a.opts.maxProcesses,
		SignalGrace:    time.Duration(a.opts.signalGraceMs) * time.Millisecond,
		DefaultTimeout: time.Duration(a.opts.procTimeoutMs) * time.Millisecond,
		MaxTimeout:     time.Duration(a.opts.procMaxTimeout) * time.Millisecond,
		Workspace:      ctxs.WorkspaceDir,
		Quota:          ctxs.ProcessQuota,
		PIDBase:        a.pidBase(),
		StateDir:       a.opts.dataDir,
		History:        a.pidHistory(),
		Logger:         a.log,
	})
	if err != nil {
		ctxs.Close()
		tpl.Close()
		d.Close()
		return err
	}
	// The contexts' idle loops call into the processes (OnDelete,
	// LiveProcesses): they start once both exist.
	ctxs.Start()
	tpl.Start() // the builds a restart found under way
	a.mu.Lock()
	a.images, a.driver, a.runner, a.ctxs, a.procs, a.tpl = images, d, r, ctxs, procs, tpl
	a.mu.Unlock()
	if a.cluster != nil {
		a.cluster.StartAdopting()
	}
	if missing && !a.opts.inProcess {
		go a.watchImages(ctx)
	}
	a.ready.Store(true)
	a.log.Info("guest images ready", "images", len(images), "took", time.Since(start).Round(time.Millisecond).String())
	return nil
}

// newChecker builds the TypeScript checkers (not started: see
// checker.start), or returns nil when they are disabled or not built.
func (a *app) newChecker() (*checker, error) {
	dir := filepath.Join(a.opts.imagesDir, "typescript")
	switch {
	case a.opts.tscheckWorkers == 0:
		a.setCheckerState(checkerDisabled)
		return nil, nil
	case !exists(filepath.Join(dir, "typescript.js")) && !exists(filepath.Join(dir, "ts7", "tsc")):
		a.setCheckerState(checkerNotBuilt)
		a.log.Warn("TypeScript checker image not built; /v1/typescript/check is unavailable (run make guest-images)", "dir", dir)
		return nil, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var native *tscheck.NativePool
	if exists(filepath.Join(dir, "ts7", "tsc")) {
		// The default lib set last: a worker keeps the last project open,
		// and the first check updates it rather than load another.
		warm := [][]string{{"es2022"}}
		if a.opts.tscheckWarmDOM || a.opts.tscheckDOM {
			warm = [][]string{{"es2022", "dom"}, {"es2022"}}
		}
		native, err = tscheck.NewNativePool(tscheck.NativeConfig{
			Size:             a.opts.tscheckWorkers,
			Dir:              filepath.Join(dir, "ts7"),
			MemoryLimitBytes: cmp.Or(a.opts.tscheckMemory, -1), // 0: no cap
			WarmLibs:         warm,
			WarmNice:         cmp.Or(a.opts.tscheckNice, -1),
			LaunchCommand:    []string{self, "tscheck7-launch"},
			Logger:           a.log,
		})
		if err != nil {
			return nil, err
		}
	} else {
		a.log.Warn("TypeScript 7 is not in the typescript image; checks need typescriptVersion 5.9 until it is rebuilt (make guest-images)", "dir", dir)
	}
	var legacy *tscheck.Pool
	if a.opts.tscheckLegacyWorkers > 0 && exists(filepath.Join(dir, "typescript.js")) {
		prewarm := [][]string{{"es2022"}}
		if a.opts.tscheckDOM {
			prewarm = append(prewarm, []string{"es2022", "dom"})
		}
		legacy, err = tscheck.NewPool(tscheck.PoolConfig{
			Size:             a.opts.tscheckLegacyWorkers,
			WorkerCommand:    []string{self, "tscheck-worker"},
			ImageDir:         dir,
			MemoryLimitBytes: cmp.Or(a.opts.tscheckMemory, -1), // 0: no cap
			PrewarmLibs:      prewarm,
			BackgroundLibs:   backgroundLibs(a.opts.tscheckWarmDOM),
			Nice:             max(a.opts.tscheckNice, 0),
			Logger:           a.log,
		})
		if err != nil {
			return nil, err
		}
	}
	chk := newCheckerFront(native, legacy, a.recorder.Record, a.log)
	a.mu.Lock()
	a.checker = chk
	a.mu.Unlock()
	return chk, nil
}

func (a *app) setCheckerState(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.checkerState = s
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// readiness is /readyz: ready (200) once runs are served; the body lists
// each part: the languages (their guest image loaded), the TypeScript
// checker (warming up for seconds after start) and the history.
func (a *app) readiness() (bool, map[string]any) {
	// Where the missing images stand (read before the lock: it reads
	// files and takes the lock itself).
	a.mu.Lock()
	var missing []string
	for _, name := range guestImages {
		if a.images[name] == nil {
			missing = append(missing, name)
		}
	}
	a.mu.Unlock()
	building := map[string]map[string]any{}
	for _, name := range missing {
		building[name] = imagePart(a.imageState(name))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	ready := a.ready.Load()
	imgs := map[string]string{}
	for name, img := range a.images {
		imgs[name] = img.Hash[:12]
	}
	parts := map[string]any{}
	for _, l := range []struct {
		lang  wasmexec.Language
		image string
	}{{wasmexec.JavaScript, js.ImageName}, {wasmexec.TypeScript, js.ImageName}, {wasmexec.Python, python.ImageName}} {
		p := map[string]any{"ready": ready && a.images[l.image] != nil, "image": l.image, "state": "ready"}
		switch {
		case a.loadErr != nil:
			p["state"] = "failed"
		case !ready:
			p["state"] = "loading"
		case a.images[l.image] == nil:
			for k, v := range building[l.image] {
				p[k] = v
			}
		}
		parts[string(l.lang)] = p
	}
	d := map[string]any{"images": imgs, "parts": parts}
	switch {
	case a.checker != nil:
		st := a.checker.status()
		parts["typescriptCheck"] = st
		if v, ok := st["typeScriptVersion"]; ok {
			d["typescript"] = v
		}
	case a.checkerState != "":
		parts["typescriptCheck"] = map[string]any{"ready": false, "state": a.checkerState}
	default:
		parts["typescriptCheck"] = map[string]any{"ready": false, "state": "loading"}
	}
	if a.store != nil {
		parts["history"] = map[string]any{"ready": true, "state": "ready"}
	} else {
		parts["history"] = map[string]any{"ready": false, "state": "disabled"}
	}
	if a.loadErr != nil {
		d["error"] = a.loadErr.Error()
	}
	return ready, d
}

// imagePart is a missing image's part of /readyz: its state and, while
// it is being built, the step, the time elapsed and the estimate left
// (leftSeconds, absent when there is none yet); once failed, the log.
func imagePart(state string, st buildStatus) map[string]any {
	p := map[string]any{"state": state}
	switch state {
	case "building":
		p["step"], p["steps"], p["stepLabel"], p["elapsedSeconds"] = st.Step, st.Steps, st.Label, st.ElapsedSeconds
		if st.LeftSeconds >= 0 {
			p["leftSeconds"], p["estimate"] = st.LeftSeconds, st.Estimate
		}
		if st.Image != "" {
			p["build"] = st.Image
		}
		if st.Log != "" {
			p["log"] = st.Log
		}
	case "failed":
		if st.Label != "" {
			p["error"] = st.Label
		}
		if st.Log != "" {
			p["log"] = st.Log
		}
	}
	return p
}

// Run implements server.Runner, answering 503 until the images are loaded.
func (a *app) Run(ctx context.Context, req *wasmexec.Request, opts wasmexec.RunOptions) (*wasmexec.Result, error) {
	if !a.ready.Load() {
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the server is still loading its guest images; see /readyz")
	}
	return a.runner.Run(ctx, req, opts)
}

// pidBase is the first pid of this server's range: in a cluster, its
// number above wasmexec.PIDShift.
func (a *app) pidBase() int64 {
	if a.cluster != nil {
		return a.cluster.PIDBase()
	}
	return 1
}

// pidHistory is the store as the processes read earlier pids from it (nil:
// none, not a nil *store.Store).
func (a *app) pidHistory() processes.PIDHistory {
	if a.store == nil {
		return nil
	}
	return a.store
}

func (a *app) close() {
	a.mu.Lock()
	tsWorkers, chk, procs, ctxs, driver, tpl := a.tsWorkers, a.checker, a.procs, a.ctxs, a.driver, a.tpl
	a.mu.Unlock()
	if a.cluster != nil {
		a.cluster.StopAdopting() // the contexts manager closes below
	}
	if tsWorkers != nil {
		tsWorkers.Close()
	}
	if chk != nil {
		chk.close()
	}
	if procs != nil {
		procs.Close()
	}
	if ctxs != nil {
		ctxs.Close()
	}
	if tpl != nil {
		tpl.Close() // builds under way are built again at the next start
	}
	a.leaveCluster()
	if driver != nil {
		driver.Close()
	}
	if a.store != nil {
		if err := a.store.Close(); err != nil {
			a.log.Error("close the execution store", "err", err)
		}
	}
	a.engine.Close()
	if err := a.ws.Close(); err != nil {
		a.log.Warn("remove one-shot scratch", "err", err)
	}
}

// liveWork is the number of runs holding a run slot, for the shutdown log.
func (a *app) liveWork() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.runner == nil {
		return 0
	}
	return a.runner.Live()
}

// parts are what /metrics reads at each scrape (some nil while loading).
func (a *app) parts() metrics.Parts {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := metrics.Parts{LiveGuests: a.engine.LiveGuests}
	if a.runner != nil {
		p.Runs = a.runner
	}
	if a.driver != nil {
		p.Guests = a.driver
	}
	if a.ctxs != nil {
		p.Contexts = a.ctxs
	}
	if a.procs != nil {
		p.Processes = a.procs
	}
	if a.store != nil {
		p.History = a.store
	}
	if a.eventLog != nil {
		p.EventLog = a.eventLog
	}
	return p
}

// backgroundLibs are the lib sets checker workers warm when idle: dom, or
// nothing (an empty, non-nil list).
func backgroundLibs(dom bool) [][]string {
	if dom {
		return [][]string{{"es2022", "dom"}}
	}
	return [][]string{}
}

// pipService is the pip install service of contexts and one-shot
// packages: --python-index-url and --python-allowed-index-urls, wheels
// cached under CACHE_DIR/pip.
func (a *app) pipService() *pypi.Service {
	s := &pypi.Service{
		Client:  &pypi.Client{CacheDir: filepath.Join(a.opts.cacheDir, "pip")},
		Index:   a.opts.pyIndexURL,
		Allowed: a.opts.allowedIndexes(),
	}
	if a.ctxs != nil {
		s.Workspace, s.ReplaceDir = a.ctxs.WorkspaceDir, a.ctxs.ReplaceDir
		s.Hold = func(ctx context.Context, id string) (func(), error) {
			_, release, err := a.ctxs.Hold(ctx, id)
			return release, err
		}
	}
	return s
}

// allowedIndexes splits --python-allowed-index-urls.
func (o *options) allowedIndexes() []string {
	var out []string
	for _, u := range strings.Split(o.pyAllowedIndex, ",") {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// npmClient is the npm client of installs and one-shot packages: the
// --npm-registry, its packages cached under CACHE_DIR/npm.
// One client serves both, so they share its packument cache.
func (a *app) npmClient() *npm.Client {
	a.npmOnce.Do(func() {
		a.npm = &npm.Client{Registry: a.opts.npmRegistry, CacheDir: filepath.Join(a.opts.cacheDir, "npm"), StageRoom: a.opts.stageRoom()}
	})
	return a.npm
}

// egress builds the guests' network from --network-* (nil: no network).
func (o *options) egress() (*egress.Egress, error) {
	return egress.New(egress.Config{
		Allow:            splitPatterns(o.networkAllow),
		MaxRequests:      o.networkMaxRequests,
		MaxResponseBytes: o.networkMaxResponseBytes,
	})
}

// splitPatterns splits a comma-separated list, dropping empty items.
func splitPatterns(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
