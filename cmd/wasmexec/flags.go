package main

import (
	"flag"
	"log/slog"
	"math"
	"os"
	"strings"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
	"github.com/wasmexec/wasmexec/npm"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/pypi"
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
