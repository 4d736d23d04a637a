package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/auth"
	"github.com/wasmexec/wasmexec/cluster"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/images"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/languages/ts/typecheck"
	"github.com/wasmexec/wasmexec/metrics"
	"github.com/wasmexec/wasmexec/npm"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/store"
	"github.com/wasmexec/wasmexec/templates"
	"github.com/wasmexec/wasmexec/vfs"
)

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
	checker *typecheck.Service
	// checkerState says why there is no checker (disabled, not built).
	checkerState string
	// tsWorkers transpile TypeScript outside the server process.
	tsWorkers *ts.Workers
	// images are the guest images, served as they are built; Done once
	// the server serves them.
	images *images.Set
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

// contexts is the contexts manager (nil while loading).
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
	// layer may be built after the server started (package images).
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
	a := &app{opts: o, log: log, engine: e, ws: mgr, events: events.New(o.eventsWindow), prom: metrics.New()}
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
	a.images = images.New(images.Config{
		Dir:    o.imagesDir,
		Names:  guestImages,
		Layers: map[string][]string{python.ImageName: {python.LayerImage}},
		Languages: []images.Language{
			{Name: wasmexec.JavaScript, Image: js.ImageName},
			{Name: wasmexec.TypeScript, Image: js.ImageName},
			{Name: wasmexec.Python, Image: python.ImageName},
		},
		Logger: log,
	})
	a.recorder = pipeline.NewRecorder(st, a.prom)
	a.tenants = server.NewTenants()
	// The rest of the parts /metrics reads are built once the images are
	// loaded (load).
	parts := metrics.Parts{LiveGuests: e.LiveGuests}
	if a.store != nil {
		parts.History = a.store
	}
	if a.eventLog != nil {
		parts.EventLog = a.eventLog
	}
	a.prom.Watch(parts)
	return a, nil
}

// newChecker builds the TypeScript checkers (not started: the server
// starts them once it serves), or records why there are none.
func (a *app) newChecker() (*typecheck.Service, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	chk, why, err := typecheck.New(typecheck.Config{
		ImageDir:         filepath.Join(a.opts.imagesDir, "typescript"),
		Workers:          a.opts.tscheckWorkers,
		LegacyWorkers:    a.opts.tscheckLegacyWorkers,
		MemoryLimitBytes: a.opts.tscheckMemory,
		Nice:             a.opts.tscheckNice,
		WarmDOM:          a.opts.tscheckWarmDOM,
		PrewarmDOM:       a.opts.tscheckDOM,
		NativeLaunch:     []string{self, "tscheck7-launch"},
		LegacyWorker:     []string{self, "tscheck-worker"},
		Persist:          a.recorder.Record,
		Logger:           a.log,
	})
	a.mu.Lock()
	a.checker, a.checkerState = chk, why
	a.mu.Unlock()
	return chk, err
}

// readiness is /readyz: ready (200) once runs are served; the body lists
// each part: the languages (their guest image loaded), the TypeScript
// checker (warming up for seconds after start) and the history.
func (a *app) readiness() (bool, map[string]any) {
	a.mu.Lock()
	tc := typecheck.Part(a.checker, a.checkerState)
	a.mu.Unlock()
	history := map[string]any{"ready": true, "state": "ready"}
	if a.store == nil {
		history = map[string]any{"ready": false, "state": "disabled"}
	}
	ready, d := a.images.Readiness(map[string]any{"typescriptCheck": tc, "history": history})
	if v, ok := tc["typeScriptVersion"]; ok {
		d["typescript"] = v
	}
	return ready, d
}

// lateLoader loads an image built after start and hands it to the
// driver d.
func (a *app) lateLoader(d *engine.Driver) images.LoadFunc {
	return func(ctx context.Context, name, dir string) (string, error) {
		img, err := a.engine.LoadImage(ctx, dir)
		if err != nil {
			return "", err
		}
		if m := img.Spec.MinMemoryBytes; m > a.opts.memoryBytes || m > a.opts.maxMemoryBytes {
			// What options.validate checks at start for the images present.
			return "", fmt.Errorf("the image needs %d bytes of guest memory, more than --memory-bytes or --max-memory-bytes allows", m)
		}
		if !d.AddImage(name, img) {
			return "", errors.New("the driver is closed")
		}
		return img.Hash, nil
	}
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
		chk.Close()
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
