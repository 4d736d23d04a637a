package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/pypi"
	"github.com/wasmexec/wasmexec/store"
)

// envName maps a flag to its environment variable by one fixed rule, so
// neither needs looking up: --execution-completed-ttl-ms →
// WASMEXEC_EXECUTION_COMPLETED_TTL_MS.
func envName(flagName string) string {
	return "WASMEXEC_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// errHelp is returned when -h/--help was asked for: the usage went to
// stdout and the command exits 0.
var errHelp = errors.New("help requested")

// parseFlags parses args into fs, printing the usage to stdout on -h and
// keeping the flag package's own output (a dump of every flag after any
// mistake) quiet: a mistake is one line naming the flag.
func parseFlags(fs *flag.FlagSet, args []string, usage func(w io.Writer)) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		usage(os.Stdout)
		return errHelp
	}
	if err != nil {
		return fmt.Errorf("%v (wasmexec %s -h lists the flags)", err, fs.Name())
	}
	return nil
}

// applyEnv sets every flag not given on the command line from its
// environment variable, so a flag always wins over the environment. It
// returns the flags it set, by name, with the variable each came from.
func applyEnv(fs *flag.FlagSet, given map[string]bool) (map[string]string, error) {
	if given == nil {
		given = map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	}
	fromEnv := map[string]string{}
	var errs []string
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] {
			return
		}
		if v, ok := os.LookupEnv(envName(f.Name)); ok {
			if err := f.Value.Set(v); err != nil {
				errs = append(errs, fmt.Sprintf("%s=%q (--%s): %v", envName(f.Name), v, f.Name, err))
				return
			}
			fromEnv[f.Name] = envName(f.Name)
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("bad configuration: %s", strings.Join(errs, "; "))
	}
	return fromEnv, nil
}

func defaultCacheDir() string {
	if d := os.Getenv("WASMEXEC_CACHE_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return d + "/wasmexec"
	}
	return "./data/cache"
}

// defaultScratchDir puts one-shot workspaces on /dev/shm when there is one:
// creating and removing a directory there costs ~30 µs against ~0.5-1 ms on
// the ext4 disks measured here, and every one-shot run does both.
func defaultScratchDir() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return fmt.Sprintf("/dev/shm/wasmexec-%d", os.Getuid())
	}
	return ""
}

// guestImages are the images a server loads; each serves some languages.
var guestImages = []string{js.ImageName, python.ImageName}

// imagesDirCandidates are where the guest images are looked for when
// neither --images-dir nor WASMEXEC_IMAGES_DIR says: ./build/images (the
// repository root, as make run does), then the build/images of the
// repository this binary was built in (bin/wasmexec → ../build/images).
func imagesDirCandidates() []string {
	c := []string{"./build/images"}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			d := filepath.Join(filepath.Dir(filepath.Dir(exe)), "build", "images")
			if abs, err := filepath.Abs(c[0]); err != nil || abs != d {
				c = append(c, d)
			}
		}
	}
	return c
}

// imagesIn returns the specs of the guest images built in dir.
func imagesIn(dir string) map[string]engine.ImageSpec {
	specs := map[string]engine.ImageSpec{}
	for _, name := range guestImages {
		if spec, err := engine.ReadImageSpec(filepath.Join(dir, name)); err == nil {
			specs[name] = spec
		}
	}
	return specs
}

// findImages resolves --images-dir: the directory given, else the first
// candidate holding an image. The error says where it looked and how to
// point at the images.
func (o *options) findImages() (map[string]engine.ImageSpec, error) {
	var looked []string
	dirs := []string{o.imagesDir}
	if o.imagesDir == "" {
		dirs = imagesDirCandidates()
	}
	for _, d := range dirs {
		if specs := imagesIn(d); len(specs) > 0 {
			o.imagesDir = d
			return specs, nil
		}
		looked = append(looked, d)
	}
	if o.imagesDir != "" {
		return nil, fmt.Errorf("%s: no guest images in %s (looked for %s/guest.json); build them with make guest-images in the wasmexec repository and point --images-dir (or WASMEXEC_IMAGES_DIR) at its build/images",
			o.name("images-dir", o.imagesDir), o.imagesDir, strings.Join(guestImages, "/guest.json, "))
	}
	return nil, fmt.Errorf("no guest images found (looked in %s); build them with make guest-images in the wasmexec repository, then run from its root or pass --images-dir REPO/build/images (or set WASMEXEC_IMAGES_DIR)",
		strings.Join(looked, " and "))
}

// name renders a flag and its value for a message, with the variable it
// came from when it came from the environment.
func (o *options) name(flagName string, value any) string {
	s := fmt.Sprintf("--%s=%v", flagName, value)
	if v := o.fromEnv[flagName]; v != "" {
		s += " (from " + v + ")"
	}
	return s
}

// Upper bounds that keep durations and wasm32 memory meaningful.
const (
	maxRunTimeoutMs     = 24 * 60 * 60 * 1000     // a day
	maxProcessTimeoutMs = 7 * 24 * 60 * 60 * 1000 // a week
	minCheckerMemory    = 256 << 20
	maxShutdownGraceMs  = 10 * 60 * 1000
)

// validate checks every setting, naming each bad one with its flag and
// the accepted range. specs are the guest images found: their
// minMemoryBytes bound --memory-bytes and --max-memory-bytes from below.
func (o *options) validate(specs map[string]engine.ImageSpec) error {
	var errs []string
	bad := func(flagName string, value any, format string, args ...any) {
		errs = append(errs, o.name(flagName, value)+": "+fmt.Sprintf(format, args...))
	}
	between := func(flagName string, v, lo, hi int64, why string) {
		if v < lo || v > hi {
			bad(flagName, v, "accepted %d..%d%s", lo, hi, why)
		}
	}
	atLeast := func(flagName string, v, lo int64, why string) {
		if v < lo {
			bad(flagName, v, "accepted %d or more%s", lo, why)
		}
	}

	if err := pypi.ValidateIndexURLs(o.pyIndexURL); err != nil {
		bad("python-index-url", o.pyIndexURL, "accepted an http(s) URL: %v", err)
	}
	if err := pypi.ValidateIndexURLs(o.allowedIndexes()...); err != nil {
		bad("python-allowed-index-urls", o.pyAllowedIndex, "accepted comma-separated http(s) URLs: %v", err)
	}
	if o.dataDir == "" {
		bad("data-dir", `""`, "a directory is required")
	}
	if o.cacheDir == "" {
		bad("cache-dir", `""`, "a directory is required")
	}
	if _, port, err := net.SplitHostPort(o.addr); err != nil {
		bad("addr", o.addr, "accepted HOST:PORT, e.g. 127.0.0.1:8080")
	} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		bad("addr", o.addr, "the port must be a number in 0..65535")
	}
	switch strings.ToLower(o.logLevel) {
	case "debug", "info", "warn", "error":
	default:
		bad("log-level", o.logLevel, "accepted debug, info, warn or error")
	}
	switch o.storeSync {
	case "normal", "full":
	default:
		bad("store-sync", o.storeSync, "accepted normal or full")
	}
	switch o.storeKind {
	case "sqlite", "true":
		o.storeKind = "sqlite"
		if o.storeURL != "" {
			bad("store-url", store.RedactURL(o.storeURL), "applies to --store postgres only (the store is sqlite)")
		}
	case "postgres":
		if o.storeURL == "" {
			bad("store", o.storeKind, "needs --store-url postgres://user:password@host:port/database (or WASMEXEC_STORE_URL)")
		} else if err := (store.Config{URL: o.storeURL}).Validate(); err != nil {
			bad("store-url", store.RedactURL(o.storeURL), "accepted postgres://… or postgresql://… URLs")
		}
	case "none", "false":
		o.storeKind, o.storeEnabled = "none", false
	default:
		bad("store", o.storeKind, "accepted sqlite, postgres or none")
	}

	// Limits: defaults within their maxima.
	between("max-timeout-ms", o.maxTimeoutMs, 1, maxRunTimeoutMs, "")
	between("timeout-ms", o.timeoutMs, 1, max(1, o.maxTimeoutMs), " (at most --max-timeout-ms)")
	var minMem int64
	var minImage string
	for _, name := range sortedKeys(specs) {
		if m := specs[name].MinMemoryBytes; m > minMem {
			minMem, minImage = m, name
		}
	}
	memWhy := ""
	if minImage != "" {
		memWhy = fmt.Sprintf("; the %s guest image needs at least %d", minImage, minMem)
	}
	between("max-memory-bytes", o.maxMemoryBytes, max(1, minMem), wasmexec.MaxMemoryBytes, " (4 GiB, all a 32-bit guest can address"+memWhy+")")
	between("memory-bytes", o.memoryBytes, max(1, minMem), max(1, o.maxMemoryBytes), " (at most --max-memory-bytes"+memWhy+")")
	if o.maxFuel == 0 {
		bad("max-fuel", o.maxFuel, "accepted 1 or more")
	}
	if o.fuel == 0 || o.fuel > max(1, o.maxFuel) {
		bad("fuel", o.fuel, "accepted 1..%d (at most --max-fuel)", max(1, o.maxFuel))
	}
	atLeast("max-output-bytes", o.maxOutputBytes, 1, "")
	between("output-bytes", o.outputBytes, 1, max(1, o.maxOutputBytes), " (at most --max-output-bytes)")
	atLeast("stdin-bytes", o.stdinBytes, 1, "")
	atLeast("body-limit-bytes", o.bodyLimitBytes, 1, "")
	atLeast("workspace-quota-bytes", o.workspaceQuota, 0, " (0: no quota)")
	atLeast("workspace-max-files", int64(o.workspaceFiles), 0, " (0: no limit)")

	// Load.
	atLeast("max-concurrent", int64(o.maxConcurrent), 1, "")
	atLeast("max-queued", int64(o.maxQueued), 1, "")
	atLeast("queue-timeout-ms", o.queueTimeoutMs, 1, "")
	atLeast("pool-size", int64(o.poolSize), 0, " (0: no pre-started guests)")
	atLeast("retain-bytes", o.retainBytes, 1, "")

	// Network.
	if _, err := egress.ParseList(splitPatterns(o.networkAllow)); err != nil {
		bad("network-allow", o.networkAllow, "%s", wasmexec.ErrorMessage(err))
	}
	atLeast("network-max-requests", int64(o.networkMaxRequests), 1, "")
	between("network-max-response-bytes", o.networkMaxResponseBytes, 1, egress.MaxResponseBytesLimit, "")

	// History.
	atLeast("execution-completed-ttl-ms", o.completedTTLMs, 1, "")
	atLeast("execution-max-completed-executions", int64(o.maxCompleted), 1, "")
	atLeast("execution-live-warning-threshold", int64(o.liveWarning), 1, "")

	// Contexts and processes.
	atLeast("max-contexts", int64(o.maxContexts), 1, "")
	if o.ctxMemoryBytes < 0 || o.ctxMaxDiskBytes < 0 {
		atLeast("contexts-memory-bytes", o.ctxMemoryBytes, 0, " (0: the default)")
		atLeast("contexts-max-disk-bytes", o.ctxMaxDiskBytes, 0, " (0: the default)")
	} else {
		memWhy, diskWhy := o.resolveDensity()
		o.densityLog = []any{"memoryBudgetBytes", o.ctxMemoryBytes, "memoryBudget", memWhy, "maxDiskBytes", o.ctxMaxDiskBytes, "maxDisk", diskWhy, "maxContexts", o.maxContexts}
		o.validateDensity(bad)
	}
	atLeast("context-queue-depth", int64(o.ctxQueueDepth), 1, "")
	atLeast("context-idle-ttl-ms", o.ctxIdleTTLMs, 1, "")
	atLeast("context-hibernate-after-ms", o.ctxHibernateMs, 0, " (0: never)")
	atLeast("context-snapshot-after-ms", o.ctxSnapshotMs, 0, " (0: only at hibernation and shutdown)")
	atLeast("max-processes", int64(o.maxProcesses), 1, "")
	between("process-max-timeout-ms", o.procMaxTimeout, 1, maxProcessTimeoutMs, "")
	between("process-timeout-ms", o.procTimeoutMs, 1, max(1, o.procMaxTimeout), " (at most --process-max-timeout-ms)")
	atLeast("signal-grace-ms", o.signalGraceMs, 1, "")

	// TypeScript.
	atLeast("tscheck-workers", int64(o.tscheckWorkers), 0, " (0: no checker)")
	atLeast("tscheck-legacy-workers", int64(o.tscheckLegacyWorkers), 0, " (0: TypeScript 5.9 disabled)")
	between("tscheck-nice", int64(o.tscheckNice), 0, 19, "")
	if !o.inProcess {
		// esbuild can crash its process on hostile code (a Go stack
		// overflow is fatal): a server runs it only in worker processes.
		atLeast("ts-transpile-workers", int64(o.tsWorkers), 1, " (esbuild runs only in worker processes)")
	}
	atLeast("transpile-timeout-ms", o.transpileMs, 1, "")
	atLeast("events-window", int64(o.eventsWindow), 1, "")
	if o.tscheckMemory != 0 && o.tscheckMemory < minCheckerMemory {
		bad("tscheck-memory-bytes", o.tscheckMemory, "accepted 0 (no cap) or %d or more (the compiler needs that much to load)", int64(minCheckerMemory))
	}

	between("shutdown-grace-ms", o.shutdownGraceMs, 0, maxShutdownGraceMs, "")
	o.validateCluster(bad)

	if len(errs) > 0 {
		return fmt.Errorf("bad configuration (wasmexec serve -h lists the flags):\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
