// Package testenv finds the guest images and module cache for tests, and
// shares one engine per test binary. A missing image skips the test with a
// clear message, unless WASMEXEC_REQUIRE_IMAGES=1 (set by make test), where
// it fails: CI must never pass by skipping.
package testenv

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/vfs"
)

// RepoRoot returns the repository root.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

// ImagesDir is where the built guest images are linked.
func ImagesDir() string {
	if d := os.Getenv("WASMEXEC_IMAGES_DIR"); d != "" {
		return d
	}
	return filepath.Join(RepoRoot(), "build", "images")
}

// CacheDir is the compiled-module cache.
func CacheDir() string {
	if d := os.Getenv("WASMEXEC_CACHE_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "wasmexec")
	}
	return filepath.Join(os.TempDir(), "wasmexec-cache")
}

// ImageDir returns the directory of image name or skips/fails tb.
func ImageDir(tb testing.TB, name string) string {
	tb.Helper()
	return BuiltDir(tb, name, "guest.json")
}

// BuiltDir returns the directory of built image name, which holds marker,
// or skips/fails tb.
func BuiltDir(tb testing.TB, name, marker string) string {
	tb.Helper()
	dir := filepath.Join(ImagesDir(), name)
	if _, err := os.Stat(filepath.Join(dir, marker)); err != nil {
		msg := "guest image " + name + " is not built (run make guest-images): " + dir
		if os.Getenv("WASMEXEC_REQUIRE_IMAGES") == "1" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	return dir
}

var (
	engineOnce sync.Once
	shared     *engine.Engine
	engineErr  error
	imagesMu   sync.Mutex
	images     = map[string]*engine.Image{}
)

// Engine returns the engine shared by the tests of one binary.
func Engine(tb testing.TB) *engine.Engine {
	tb.Helper()
	engineOnce.Do(func() {
		shared, engineErr = engine.NewEngine(engine.EngineConfig{CacheDir: CacheDir(), Extensions: map[string]engine.ImageExtension{
			python.ImageName: engine.ImageExtension(python.ImageExtension(ImagesDir())),
		}})
	})
	if engineErr != nil {
		tb.Fatal(engineErr)
	}
	return shared
}

// Image loads image name into the shared engine (once per binary).
func Image(tb testing.TB, name string) *engine.Image {
	tb.Helper()
	dir := ImageDir(tb, name)
	imagesMu.Lock()
	defer imagesMu.Unlock()
	if img := images[name]; img != nil {
		return img
	}
	img, err := Engine(tb).LoadImage(context.Background(), dir)
	if err != nil {
		tb.Fatal(err)
	}
	images[name] = img
	return img
}

// ScratchDir is a per-test directory on tmpfs when there is one (mkdir on
// the ext4 disks here costs ~1 ms, and every one-shot run makes one).
func ScratchDir(tb testing.TB) string {
	tb.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "wasmexec-test-"); err == nil {
			tb.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return tb.TempDir()
}

// Workspaces returns a workspace manager (an wasmexec.WorkspaceFactory) rooted
// in a scratch directory, with no quota.
func Workspaces(tb testing.TB) *vfs.Manager {
	tb.Helper()
	m, err := vfs.NewManager(ScratchDir(tb), 0)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// RunnerConfig is what a test sets of a pipeline over the real engine.
type RunnerConfig struct {
	Images        map[string]*engine.Image
	Languages     map[wasmexec.Language]wasmexec.LanguageDriver
	Policy        wasmexec.Policy
	Workspaces    wasmexec.WorkspaceFactory
	Network       *egress.Egress
	MaxConcurrent int
	MaxQueued     int
	QueueTimeout  time.Duration
	RetainBytes   int64
	// PoolSize: 0 is no pre-started guests in tests (they ask for them).
	PoolSize int
	// Store, when set, records every run (the persist step).
	Store pipeline.Store
	// Events, when set, receives the runs' execution events.
	Events events.Log
	// Tenants, when set, admits runs (the server's tenancy).
	Tenants pipeline.Tenants
	Logger  *slog.Logger
}

// Runner builds a pipeline over an engine driver from cfg for a test,
// filling in the default policy and a scratch workspace factory when cfg
// leaves them out, and closes the driver when the test ends.
func Runner(tb testing.TB, cfg RunnerConfig) *pipeline.Pipeline {
	tb.Helper()
	if cfg.Policy.Max.Fuel == 0 {
		cfg.Policy = wasmexec.DefaultPolicy()
	}
	if cfg.Workspaces == nil {
		cfg.Workspaces = Workspaces(tb)
	}
	if cfg.PoolSize == 0 {
		cfg.PoolSize = -1 // tests pre-start guests only when they ask
	}
	d := engine.NewDriver(engine.DriverConfig{Images: cfg.Images, Workspaces: cfg.Workspaces, PoolSize: cfg.PoolSize, PoolMemoryBytes: cfg.Policy.Default.MemoryBytes, Logger: cfg.Logger})
	tb.Cleanup(d.Close)
	var rec *pipeline.Recorder
	if cfg.Store != nil {
		rec = pipeline.NewRecorder(cfg.Store, nil)
	}
	p, err := pipeline.New(pipeline.Config{
		Driver: d, Languages: cfg.Languages, Policy: cfg.Policy, Workspaces: cfg.Workspaces, Network: cfg.Network,
		MaxConcurrent: cfg.MaxConcurrent, MaxQueued: cfg.MaxQueued, QueueTimeout: cfg.QueueTimeout, RetainBytes: cfg.RetainBytes,
		Recorder: rec, Events: cfg.Events, Tenants: cfg.Tenants, Logger: cfg.Logger,
	})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

var seconds = map[string]*engine.Image{}

// SecondImage loads image name a second time: a distinct *engine.Image (so a
// distinct guest family for contexts) of the same guest, once per binary.
func SecondImage(tb testing.TB, name string) *engine.Image {
	tb.Helper()
	dir := ImageDir(tb, name)
	imagesMu.Lock()
	defer imagesMu.Unlock()
	if img := seconds[name]; img != nil {
		return img
	}
	img, err := Engine(tb).LoadImage(context.Background(), dir)
	if err != nil {
		tb.Fatal(err)
	}
	seconds[name] = img
	return img
}

// StoreFunc is a pipeline.Store that hands each record to a test.
type StoreFunc func(ctx context.Context, r *wasmexec.Result, events []wasmexec.Event, truncated bool) error

func (f StoreFunc) Save(ctx context.Context, r *wasmexec.Result, events []wasmexec.Event, truncated bool) error {
	return f(ctx, r, events, truncated)
}

func (f StoreFunc) Ping(context.Context) error { return nil }
