package main

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/languages/ts/typecheck"
	"github.com/wasmexec/wasmexec/mcp"
	"github.com/wasmexec/wasmexec/metrics"
	"github.com/wasmexec/wasmexec/npm"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/pypi"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/templates"
	"github.com/wasmexec/wasmexec/vfs"
)

// The wiring of a server once its guest images are loaded: the runner,
// the services over it, and the HTTP server's configuration over them.

// load loads (compiling on first use) every guest image present, then
// builds the runner. It runs in the background of serve; /readyz is false
// until it finishes. An image still being built is loaded when its build
// completes (images.Set.Watch); its languages answer 503 until then.
func (a *app) load(ctx context.Context) error {
	start := time.Now()
	loaded := map[string]*engine.Image{}
	missing, err := a.images.LoadPresent(ctx, func(ctx context.Context, name, dir string) (string, error) {
		img, err := a.engine.LoadImage(ctx, dir)
		if err != nil {
			return "", err
		}
		loaded[name] = img
		return img.Hash, nil
	})
	if err != nil {
		return err
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
		Images:          loaded,
		Workspaces:      a.ws,
		PoolSize:        cmp.Or(a.opts.poolSize, -1), // --pool-size 0 turns pools off
		PoolMemoryBytes: policy.Default.MemoryBytes,
		Missing:         a.images.Missing,
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
	pcfg := processes.Config{
		Runner:         r,
		MaxProcesses:   a.opts.maxProcesses,
		SignalGrace:    time.Duration(a.opts.signalGraceMs) * time.Millisecond,
		DefaultTimeout: time.Duration(a.opts.procTimeoutMs) * time.Millisecond,
		MaxTimeout:     time.Duration(a.opts.procMaxTimeout) * time.Millisecond,
		Workspace:      ctxs.WorkspaceDir,
		Quota:          ctxs.ProcessQuota,
		StateDir:       a.opts.dataDir,
		Logger:         a.log,
	}
	if a.cluster != nil {
		pcfg.PIDBase = a.cluster.PIDBase() // this server's range of pids
	}
	if a.store != nil {
		pcfg.History = a.store // pids of earlier processes are not given again
	}
	procs, err = processes.New(pcfg)
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
	a.driver, a.runner, a.ctxs, a.procs, a.tpl = d, r, ctxs, procs, tpl
	a.mu.Unlock()
	a.prom.Update(func(p *metrics.Parts) { p.Runs, p.Guests, p.Contexts, p.Processes = r, d, ctxs, procs })
	if a.cluster != nil {
		a.cluster.StartAdopting()
	}
	if missing && !a.opts.inProcess {
		go a.images.Watch(ctx, a.lateLoader(d))
	}
	a.log.Info("guest images ready", "images", len(loaded), "took", time.Since(start).Round(time.Millisecond).String())
	return nil
}

func (a *app) serverConfig() server.Config {
	cfg := server.Config{
		Ready:          a.readiness,
		MetricsHandler: a.prom.Handler(),
		ObserveHTTP:    a.prom.ObserveHTTP,
		BodyLimit:      a.opts.bodyLimitBytes,
		Logger:         a.log,
	}
	if a.store != nil {
		cfg.History = a.store
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.runner != nil { // nil while loading: runs answer server.ErrLoading
		cfg.Runner = a.runner
	}
	if a.ctxs != nil {
		cfg.Contexts = a.ctxs
	}
	if a.procs != nil {
		cfg.Processes = a.procs
	}
	if a.tpl != nil {
		cfg.Templates = a.tpl
	}
	switch {
	case a.checker != nil:
		cfg.Checker = a.checker
		cfg.CheckerInfo = a.checker.Info
	case a.runner == nil && a.opts.tscheckWorkers > 0: // still loading
		cfg.Checker = typecheck.Loading{}
	}
	if a.ctxs != nil {
		ctxs := a.ctxs
		cfg.NPM = &npm.Service{
			Client: a.npmClient(),
			Hold: func(ctx context.Context, id string) (npm.Workspace, func(), error) {
				ws, release, err := ctxs.Hold(ctx, id)
				if err != nil {
					return npm.Workspace{}, nil, err
				}
				return npm.Workspace{Dir: ws.Root, Measure: ws.WouldExceed, Room: func(ctx context.Context, stage string, names []string) (npm.Room, error) {
					r, err := ws.RoomReplacing(ctx, stage, names)
					return npm.Room(r), err
				}}, release, nil
			},
			Persist: func(ctx context.Context, r *wasmexec.Result) error { return a.recorder.Record(ctx, r, nil) },
		}
	}
	if a.ctxs != nil {
		pip := a.pipService()
		pip.Persist = func(ctx context.Context, r *wasmexec.Result) error { return a.recorder.Record(ctx, r, nil) }
		cfg.Pip = pip
	}
	if a.keys != nil {
		cfg.Auth, cfg.Tenants = a.keys, a.tenants
	}
	cfg.Events = a.events
	cfg.ContextDeletions = cfg.Contexts != nil
	if a.ctxs != nil {
		cfg.ContextOwners = a.ctxs.Owners()
		cfg.ContextTenant = a.ctxs.Tenant
	}
	if a.cluster != nil && a.ctxs != nil { // not while loading: claims need the contexts manager
		cfg.Cluster, cfg.NodeSecret = a.cluster, a.opts.cluster.secret
	}
	cfg = server.Guard(cfg)
	if cfg.Contexts != nil {
		f := cfg.ContextDeleted
		a.contextDeleted.Store(&f)
		ev := cfg.ContextEvent
		a.contextEvent.Store(&ev)
	}
	if cfg.Templates != nil {
		te := cfg.TemplateEvent
		a.templateEvent.Store(&te)
	}
	mc := mcp.Config{Runner: cfg.Runner, Contexts: server.ClusterContexts(cfg), Checker: cfg.Checker, NPM: cfg.NPM, Pip: cfg.Pip, History: cfg.History, Templates: cfg.Templates, BodyLimit: cfg.BodyLimit, Logger: a.log, RebindingProtection: a.keys == nil}
	if cfg.Processes != nil {
		mc.Processes = server.NewProcessAPI(cfg)
	}
	cfg.MCP = mcp.Handler(mc)
	return cfg
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

// npmClient is the npm client of installs and one-shot packages: the
// --npm-registry, its packages cached under CACHE_DIR/npm.
// One client serves both, so they share its packument cache.
func (a *app) npmClient() *npm.Client {
	a.npmOnce.Do(func() {
		a.npm = &npm.Client{Registry: a.opts.npmRegistry, CacheDir: filepath.Join(a.opts.cacheDir, "npm"), StageRoom: a.opts.stageRoom()}
	})
	return a.npm
}
