package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v25"

	"github.com/wasmexec/wasmexec"
)

// wasmtimeVersion is part of every compiled-module cache key: serialized
// modules only load into the wasmtime that wrote them.
const wasmtimeVersion = "wasmtime-go/v25.0.0"

// EpochTick is how often the engine's epoch advances. A running guest is
// checked for its deadline and cancellation every epochCheckTicks ticks.
const (
	EpochTick       = 5 * time.Millisecond
	epochCheckTicks = 1
)

// EngineConfig configures an Engine.
type EngineConfig struct {
	// CacheDir holds compiled modules, keyed by image hash, wasmtime version
	// and engine configuration.
	CacheDir string
	Logger   *slog.Logger
	// Extensions add to the spec of the image they name (extend.go).
	Extensions map[string]ImageExtension
	// Extend, when set, is asked for an image's extension each time one
	// is loaded, instead of Extensions: what it adds may appear later
	// (the Python image's library layer, built after the server started).
	Extend func(name string) (ImageExtension, bool)
}

// Engine owns one wasmtime engine (fuel and epoch interruption on), the epoch
// ticker, and the guest images loaded into it.
type Engine struct {
	cfg    EngineConfig
	wt     *wasmtime.Engine
	log    *slog.Logger
	stop   chan struct{}
	done   chan struct{}
	mu     sync.Mutex
	images map[string]*Image
	live   atomic.Int64 // guests alive

	// hard holds the advisory mitigations (wasmhardening.go).
	hard engineHardening
	// learned: the pages runs from each template state wrote (learn.go).
	learned learnedStates
}

// engineConfigKey names the engine settings a serialized module depends on.
const engineConfigKey = "fuel=1;epoch=1;opt=speed;stack=4M;tailcall=0;simd=0;threads=0"

// maxWasmStack is the native stack a guest may use. wasmtime's 512 KiB
// default is too small for CPython recursing through C (a recursive
// __getattr__, sorted(key=...)): the guest would die with "call stack
// exhausted" before Python's own recursion limit raises RecursionError.
const maxWasmStack = 4 << 20

// WasmtimeConfig returns the wasmtime configuration every Engine runs
// guests with (engineConfigKey names it). A compiled module only loads into
// an engine with the same configuration; cmd/wasmexec-bench uses it to
// measure guests against bare wasmtime with the same settings.
func WasmtimeConfig() *wasmtime.Config {
	wc := wasmtime.NewConfig()
	wc.SetConsumeFuel(true)
	wc.SetEpochInterruption(true)
	wc.SetCraneliftOptLevel(wasmtime.OptLevelSpeed)
	wc.SetMaxWasmStack(maxWasmStack)
	hardenConfig(wc)
	return wc
}

// NewEngine creates the engine and starts its epoch ticker. Close stops it.
func NewEngine(cfg EngineConfig) (*Engine, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.CacheDir == "" {
		return nil, fmt.Errorf("engine: CacheDir is required")
	}
	e := &Engine{
		cfg:    cfg,
		wt:     wasmtime.NewEngineWithConfig(WasmtimeConfig()),
		log:    cfg.Logger,
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
		images: map[string]*Image{},
	}
	if err := e.harden(); err != nil {
		return nil, err
	}
	go e.tick()
	return e, nil
}

func (e *Engine) tick() {
	defer close(e.done)
	t := time.NewTicker(EpochTick)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case <-t.C:
			e.wt.IncrementEpoch()
		}
	}
}

// Close stops the epoch ticker. Guests must be closed first.
func (e *Engine) Close() error {
	close(e.stop)
	<-e.done
	return e.releaseHardening()
}

// LiveGuests returns the number of guests currently instantiated.
func (e *Engine) LiveGuests() int64 { return e.live.Load() }

// ImageSpec describes a guest image directory, read from its guest.json.
type ImageSpec struct {
	Name string `json:"name"`
	// Wasm is the module file, relative to the image directory.
	Wasm string `json:"wasm"`
	// Argv is the guest's argv (argv[0] first).
	Argv []string `json:"argv"`
	// Env is set for every guest of this image, before the run's own env.
	Env map[string]string `json:"env"`
	// Preopens maps directories relative to the image directory to guest
	// paths. They hold the image's own read-only files (e.g. a stdlib).
	Preopens map[string]string `json:"preopens"`
	// MinMemoryBytes is the least memory limit the guest can start under.
	MinMemoryBytes int64 `json:"minMemoryBytes"`
	// OOMExitCode is the exit status the guest's runtime uses when it runs
	// out of memory (2 for Go), used to classify memory_limit.
	OOMExitCode int `json:"oomExitCode"`
	// Init lists exported functions that initialize a reactor guest
	// (e.g. _initialize, then the driver's own init), and Entry the function
	// that then serves requests. Without them, _start does both.
	Init  []string `json:"init"`
	Entry string   `json:"entry"`
	// Snapshot runs Init once at image load and bakes the resulting memory
	// and globals into the module, so guests start initialized.
	Snapshot bool `json:"snapshot"`
	// SnapshotWarmUp says the entry may be called again after it returned
	// (its recv got -1): the snapshot then also serves one warm-up request,
	// so guests start warm (Image.Warm). A driver whose entry runs once per
	// guest leaves it false.
	SnapshotWarmUp bool `json:"snapshotWarmUp"`
	// Suspend says the driver honours recv's -2 (docs/PROTOCOL.md): it
	// returns from Entry with its state intact and may be entered again,
	// so a guest can be captured between runs (hibernate.go).
	Suspend bool `json:"suspend"`
	// WorkspaceDirs are created in every guest's workspace before it
	// starts (extend.go).
	WorkspaceDirs []string `json:"workspaceDirs,omitempty"`
}

// ReadImageSpec reads dir/guest.json.
func ReadImageSpec(dir string) (ImageSpec, error) {
	var spec ImageSpec
	b, err := os.ReadFile(filepath.Join(dir, "guest.json"))
	if err != nil {
		return spec, fmt.Errorf("read guest image spec: %w", err)
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		return spec, fmt.Errorf("parse %s: %w", filepath.Join(dir, "guest.json"), err)
	}
	if spec.Name == "" || spec.Wasm == "" {
		return spec, fmt.Errorf("%s: name and wasm are required", filepath.Join(dir, "guest.json"))
	}
	return spec, nil
}

// Image is a compiled guest module ready to instantiate.
type Image struct {
	Spec   ImageSpec
	Dir    string
	Hash   string // sha256 of the .wasm
	engine *Engine
	module *wasmtime.Module
	views  map[string]string // preopen → its read-only view (readonly.go)
	// Snapshotted is true when module starts initialized (Init already ran),
	// and Warm when it also served warmUpRequest once (SnapshotWarmUp).
	Snapshotted, Warm bool
	// ModuleFile is the compiled module (in the cache) guests instantiate.
	ModuleFile string

	linkOnce sync.Once
	link     *wasmtime.Linker // shared by the image's guests
	linkErr  error
	// hot are the memory pages a guest of a snapshotted image writes to
	// start and serve a small request, populated in every new guest (see
	// prefault_linux.go).
	hot []pageRun
	// snapshotKey names the snapshot's inputs (captured states depend on it).
	snapshotKey string
}

// LoadImage loads the image in dir: from the compiled-module cache when
// present (mmap, about a millisecond), otherwise by compiling it once (tens of
// seconds for large guests, with progress in the log) and caching the result.
func (e *Engine) LoadImage(ctx context.Context, dir string) (*Image, error) {
	spec, err := ReadImageSpec(dir)
	if err != nil {
		return nil, err
	}
	if err := e.extend(dir, &spec); err != nil {
		return nil, err
	}
	wasmPath := filepath.Join(dir, spec.Wasm)
	hash, err := fileSHA256(wasmPath)
	if err != nil {
		return nil, fmt.Errorf("hash guest image %s: %w", spec.Name, err)
	}
	cacheFile := func(variant string) string {
		key := sha256.Sum256([]byte(hash + "|" + wasmtimeVersion + "|" + engineConfigKey + "|" + variant))
		return filepath.Join(e.cfg.CacheDir, "modules", fmt.Sprintf("%s-%s.cwasm", spec.Name, hex.EncodeToString(key[:8])))
	}
	img := &Image{Spec: spec, Dir: dir, Hash: hash, engine: e}
	if spec.Snapshot {
		// An image that asks for a snapshot and can't have one is broken
		// (e.g. a changed image): refuse it here, at load (make prepare),
		// rather than start half-initialized guests at run time.
		// The snapshot depends on more than the .wasm: the init functions and
		// everything they read (argv, env, the preopened files, e.g. a stdlib
		// zip with the driver inside).
		inputs, err := snapshotInputsHash(dir, spec)
		if err != nil {
			return nil, fmt.Errorf("snapshot guest image %s: hash its inputs: %w", spec.Name, err)
		}
		mod, err := e.loadSnapshot(ctx, spec, dir, wasmPath, cacheFile(snapshotVersion+"|"+inputs))
		if err != nil {
			return nil, fmt.Errorf("snapshot guest image %s: %w", spec.Name, err)
		}
		img.module, img.Snapshotted, img.ModuleFile = mod, true, cacheFile(snapshotVersion+"|"+inputs)
		img.Warm = spec.SnapshotWarmUp
		img.snapshotKey = snapshotVersion + "|" + inputs
	}
	if img.module == nil {
		cachePath := cacheFile("plain")
		mod, err := wasmtime.NewModuleDeserializeFile(e.wt, cachePath)
		if err != nil {
			if mod, err = e.compile(ctx, spec.Name, wasmPath, cachePath); err != nil {
				return nil, err
			}
		} else {
			e.log.Info("guest image loaded from cache", "image", spec.Name, "cache", cachePath)
		}
		img.module, img.ModuleFile = mod, cachePath
	}
	if img.Snapshotted {
		if img.hot, err = img.learnHotPages(ctx); err != nil {
			e.log.Warn("could not learn the pages guests write; guests start without them populated", "image", spec.Name, "err", err)
		} else {
			pages := 0
			for _, r := range img.hot {
				pages += r.n
			}
			e.log.Debug("pages each guest starts with populated", "image", spec.Name, "pages", pages, "runs", len(img.hot))
		}
	}
	e.readOnlyPreopens(img)
	e.mu.Lock()
	e.images[spec.Name] = img
	e.mu.Unlock()
	return img, nil
}

// learnHotPages runs the warm-up request in a throwaway guest and returns
// the pages it wrote.
func (img *Image) learnHotPages(ctx context.Context) ([]pageRun, error) {
	ws, err := os.MkdirTemp("", "wasmexec-learn-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(ws)
	g, err := img.instantiate(GuestOptions{Workspace: ws})
	if err != nil {
		return nil, err
	}
	defer g.Close()
	res := g.RunOnce(ctx, wasmexec.CallInput{Payload: warmUpRequest, Fuel: initFuel, Output: wasmexec.NewOutput(wasmexec.CaptureNone, 1<<10, nil)})
	if res.Response == nil {
		return nil, fmt.Errorf("warm-up request failed: %s %+v", res.Outcome, res.Error)
	}
	return writtenPages(g.mem.UnsafeData(g.store))
}

func (e *Engine) compile(ctx context.Context, name, wasmPath, cachePath string) (*wasmtime.Module, error) {
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return nil, fmt.Errorf("read guest image %s: %w", name, err)
	}
	start := time.Now()
	e.log.Info("compiling guest image (once per image and engine configuration)", "image", name, "sizeMB", len(wasm)>>20)
	progress := make(chan struct{})
	go func() {
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-progress:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				e.log.Info("still compiling guest image", "image", name, "elapsed", time.Since(start).Round(time.Second).String())
			}
		}
	}()
	mod, err := wasmtime.NewModule(e.wt, wasm)
	close(progress)
	if err != nil {
		return nil, fmt.Errorf("compile guest image %s: %w", name, err)
	}
	ser, err := mod.Serialize()
	if err != nil {
		return nil, fmt.Errorf("serialize guest image %s: %w", name, err)
	}
	if err := writeFileAtomic(cachePath, ser); err != nil {
		return nil, fmt.Errorf("cache compiled guest image %s: %w", name, err)
	}
	e.log.Info("guest image compiled", "image", name, "took", time.Since(start).Round(time.Millisecond).String(), "cache", cachePath)
	// Load the cached copy so the module is backed by the mmapped file.
	if m2, err := wasmtime.NewModuleDeserializeFile(e.wt, cachePath); err == nil {
		return m2, nil
	}
	return mod, nil
}

func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// snapshotInputsHash hashes what a snapshot is made from besides the
// module: the image spec and every file under the image's preopens.
func snapshotInputsHash(dir string, spec ImageSpec) (string, error) {
	h := sha256.New()
	js, err := json.Marshal(spec)
	if err != nil {
		return "", err
	}
	h.Write(js)
	for _, rel := range sortedKeys(spec.Preopens) {
		root := filepath.Join(dir, rel)
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			name, _ := filepath.Rel(root, path)
			sum, err := fileSHA256(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s\x00%s\x00%s\n", rel, name, sum)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
