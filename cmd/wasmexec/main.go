// Command wasmexec runs untrusted JavaScript, TypeScript and Python in
// WebAssembly guests and serves them over HTTP.
//
//	wasmexec serve [flags]                      start the server
//	wasmexec eval --lang javascript 'code'      evaluate once (server or in-process)
//	wasmexec prepare                            compile guest images into the cache
//
// Every serve flag is also an environment variable WASMEXEC_<FLAG>, e.g.
// --execution-completed-ttl-ms is WASMEXEC_EXECUTION_COMPLETED_TTL_MS; a flag
// given on the command line wins.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/mcp"
	"github.com/wasmexec/wasmexec/server"
)

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "eval", "exec":
		err = evalCmd(os.Args[1], os.Args[2:])
	case "prepare":
		err = prepare(os.Args[2:])
	case "tscheck-worker":
		err = tscheckWorker()
	case "ts-transpile-worker":
		err = ts.WorkerMain(os.Stdin, os.Stdout)
	case "help", "-h", "--help":
		usage()
		return
	default:
		fmt.Fprintf(os.Stderr, "wasmexec: unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if errors.Is(err, errHelp) {
		return
	}
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(int(ee))
		}
		fmt.Fprintln(os.Stderr, "wasmexec:", err)
		os.Exit(1)
	}
}

type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit %d", int(e)) }

func usage() {
	fmt.Fprint(os.Stderr, `usage:
  wasmexec serve [flags]                         start the HTTP server (flags: wasmexec serve -h)
  wasmexec eval --lang LANG [--server URL] CODE  evaluate CODE and print its value and output
  wasmexec exec --lang LANG [--server URL] CODE  execute CODE as a program
  wasmexec prepare [flags]                       compile the guest images into the module cache
`)
}

// parseOptions reads the serve options of a command from its flags, then
// from WASMEXEC_* variables for the flags not given.
func parseOptions(name string, args []string) (options, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	var o options
	o.register(fs)
	usage := func(w io.Writer) {
		what := "start the HTTP server"
		if name == "prepare" {
			what = "compile the guest images into the module cache"
		}
		fmt.Fprintf(w, "usage: wasmexec %s [flags]: %s\n\n", name, what)
		fmt.Fprintln(w, "Every flag is also an environment variable WASMEXEC_<FLAG> (e.g. --timeout-ms is")
		fmt.Fprintln(w, "WASMEXEC_TIMEOUT_MS); a flag on the command line wins.")
		fmt.Fprintln(w)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	if err := parseFlags(fs, args, usage); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q: wasmexec %s takes flags only (wasmexec %s -h lists them)", fs.Arg(0), name, name)
	}
	fromEnv, err := applyEnv(fs, nil)
	o.fromEnv = fromEnv
	return o, err
}

func serve(args []string) error {
	o, err := parseOptions("serve", args)
	if err != nil {
		return err
	}
	log := newLogger(o.logLevel)
	keys, err := frontDoor(o, log)
	if err != nil {
		return err
	}
	a, err := newApp(o, log)
	if err != nil {
		return err
	}
	defer a.close()
	a.keys = keys

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	l, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("--addr=%s: listen: %w", o.addr, err)
	}
	// Until the images are loaded, a minimal API answers: /healthz, /readyz
	// (503) and 503 unavailable for work. Then the full API takes over.
	var handler atomic.Pointer[http.Handler]
	loading := server.New(a.serverConfig()).Handler()
	handler.Store(&loading)
	httpSrv := &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*handler.Load()).ServeHTTP(w, r) }),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() {
		if err := a.load(ctx); err != nil {
			a.mu.Lock()
			a.loadErr = err
			a.mu.Unlock()
			log.Error("loading guest images failed; the server stays unready", "err", err)
			return
		}
		full := server.New(a.serverConfig()).Handler()
		handler.Store(&full)
		log.Info("wasmexec ready", "addr", "http://"+l.Addr().String())
	}()
	log.Info("wasmexec listening (loading guest images; /readyz turns 200 when done)", "addr", l.Addr().String(), "dataDir", o.dataDir)
	errc := make(chan error, 1)
	// Processes end first on shutdown, so their live streams send the exit
	// event and finish instead of holding Shutdown until its deadline.
	httpSrv.RegisterOnShutdown(func() {
		a.mu.Lock()
		procs := a.procs
		a.mu.Unlock()
		if procs != nil {
			procs.Close()
		}
		a.events.Close() // end the lifecycle streams
	})
	go func() {
		err := httpSrv.Serve(l)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		errc <- err
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return httpSrv.Shutdown(shutCtx)
}

func (a *app) serverConfig() server.Config {
	cfg := server.Config{
		Runner:         a,
		Ready:          a.readiness,
		MetricsHandler: a.prom.Handler(),
		ObserveHTTP:    a.prom.ObserveHTTP,
		BodyLimit:      a.opts.bodyLimitBytes,
		Logger:         a.log,
	}
	if a.store != nil {
		cfg.History = history{a.store}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ctxs != nil {
		cfg.Contexts = a.ctxs
	}
	if a.procs != nil {
		cfg.Processes = a.procs
	}
	if a.checker != nil {
		cfg.Checker = a.checker
	}
	if a.keys != nil {
		cfg.Auth = a.keys
	}
	cfg.Events = a.events
	cfg.ContextDeletions = cfg.Contexts != nil
	cfg = server.Guard(cfg)
	if cfg.Contexts != nil {
		f := cfg.ContextDeleted
		a.contextDeleted.Store(&f)
	}
	cfg.MCP = mcp.Handler(mcp.Config{Runner: cfg.Runner, Contexts: cfg.Contexts, Checker: cfg.Checker, BodyLimit: cfg.BodyLimit, Logger: a.log, RebindingProtection: a.keys == nil})
	return cfg
}

// prepare compiles every built guest image into the module cache, so the
// first server start (and the test suite) only mmaps them.
func prepare(args []string) error {
	o, err := parseOptions("prepare", args)
	if err != nil {
		return err
	}
	o.poolSize, o.storeEnabled, o.tscheckWorkers, o.tsWorkers, o.inProcess = 0, false, 0, 0, true
	a, err := newApp(o, newLogger(o.logLevel))
	if err != nil {
		return err
	}
	defer a.close()
	return a.load(context.Background())
}
