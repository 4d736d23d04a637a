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
//
// It wires and does nothing else: what a server does lives in the packages
// it wires, each tested there. Its files: main.go (the commands, serve and
// its graceful shutdown, prepare), flags.go (the serve flags) and
// config.go (their checks and defaults, density.go: the contexts' share of
// the machine), app.go (the parts made at start, /readyz, close), wire.go
// (the runner and the services built once the guest images are loaded,
// and the HTTP server over them), cluster.go and frontdoor.go (cluster
// mode, the API keys), eval.go (eval and exec).
//
// Size: the flags and their checks are most of it (over sixty flags, each
// checked with its range), beside the wiring of every package and the
// CLI; each file is one of them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
	"github.com/wasmexec/wasmexec/languages/ts/typecheck"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/store"
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
		ownProcessGroup()
		err = tscheck.WorkerMain(os.Stdin, os.Stdout)
	case "tscheck7-launch":
		// Becomes TypeScript 7's compiler; it returns only on failure.
		ownProcessGroup()
		err = tscheck.LaunchMain(os.Args[2:])
	case "ts-transpile-worker":
		ownProcessGroup()
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

// ownProcessGroup moves a worker process (TypeScript checker, transpiler)
// out of the server's process group, so a terminal's Ctrl-C (SIGINT to the
// foreground group) reaches only the server, which stops its workers itself
// after its graceful shutdown instead of seeing them die (and restarting
// them) in the middle of it. Workers still end with the server, by their
// parent-death signal (internal/workerpool).
func ownProcessGroup() {
	syscall.Setpgid(0, 0)
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

// errShutdown is the cause of the cancel of in-flight work when the
// shutdown grace runs out: results say "the run was cancelled: the server
// is shutting down".
var errShutdown = errors.New("the server is shutting down")

func serve(args []string) error {
	o, err := parseOptions("serve", args)
	if err != nil {
		return err
	}
	log := newLogger(o.logLevel)
	a, err := newApp(o, log) // checks every setting first
	if err != nil {
		return err
	}
	defer a.close()
	log.Info("contexts: memory budget of live contexts and bound of their disk use", a.opts.densityLog...)
	keys, err := frontDoor(a.opts, log)
	if err != nil {
		return err
	}
	a.keys = keys

	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	// loadCtx bounds loading (images, checker warm-up); work is the base
	// context of every request, cancelled with errShutdown.
	loadCtx, stopLoading := context.WithCancel(context.Background())
	defer stopLoading()
	work, cancelWork := context.WithCancelCause(context.Background())
	defer cancelWork(nil)
	l, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("--addr=%s: listen: %w", o.addr, err)
	}
	// Until the images are loaded, a minimal API answers: /healthz, /readyz
	// (503) and 503 unavailable for work. Then the full API takes over; the
	// TypeScript checker warms up after that (its route answers 503 until
	// it is ready).
	var handler atomic.Pointer[http.Handler]
	loading := server.New(a.serverConfig()).Handler()
	handler.Store(&loading)
	httpSrv := &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*handler.Load()).ServeHTTP(w, r) }),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return work },
	}
	loaded := make(chan struct{})
	go func() {
		defer close(loaded)
		err := a.load(loadCtx)
		var chk *typecheck.Service
		if err == nil {
			chk, err = a.newChecker()
		}
		if err != nil {
			a.images.Done(err)
			if loadCtx.Err() == nil {
				log.Error("loading guest images failed; the server stays unready", "err", err)
			}
			return
		}
		full := server.New(a.serverConfig()).Handler()
		handler.Store(&full)
		a.images.Done(nil) // /readyz turns 200 once the full API answers
		log.Info("wasmexec ready", "addr", "http://"+l.Addr().String())
		if chk != nil {
			log.Info("starting TypeScript checker workers (pre-warming lib files); /v1/typescript/check answers 503 until they are ready", "workers", o.tscheckWorkers)
			chk.Start(loadCtx)
		}
	}()
	log.Info("wasmexec listening (loading guest images; /readyz turns 200 when done)", "addr", l.Addr().String(), "dataDir", o.dataDir)
	errc := make(chan error, 1)
	go func() {
		err := httpSrv.Serve(l)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		errc <- err
	}()
	var sig os.Signal
	select {
	case err := <-errc:
		return err
	case sig = <-sigs:
	}
	// A second signal exits at once.
	go func() {
		s := <-sigs
		log.Warn("second signal: exiting now, without waiting for in-flight work", "signal", s.String())
		code := 130
		if s == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
	grace := time.Duration(o.shutdownGraceMs) * time.Millisecond
	log.Info("shutting down: no new work; in-flight work may finish within the grace, then it is cancelled (a second signal exits at once)", "signal", sig.String(), "grace", grace.String())
	stopLoading()
	<-loaded
	return shutdown(a, httpSrv, cancelWork, grace, log)
}

// shutdown stops the server within grace: new connections are refused at
// once and processes get EOF on stdin; what still runs when the grace is
// nearly over (a margin of up to a second stays for the answers) is
// cancelled with errShutdown, so every client gets its answer (a run:
// outcome cancelled, "the server is shutting down") and every record is
// stored. It returns an error only if answers are still missing a while
// after the grace.
func shutdown(a *app, httpSrv *http.Server, cancelWork context.CancelCauseFunc, grace time.Duration, log *slog.Logger) error {
	start := time.Now()
	served := make(chan error, 1)
	go func() { served <- httpSrv.Shutdown(context.Background()) }()
	// Lifecycle streams (/v1/events) are not work: they end now, so an open
	// one doesn't hold the shutdown for its whole grace.
	a.events.Close()
	a.mu.Lock()
	procs, runs := a.procs, a.runner
	a.mu.Unlock()
	cancelAt := grace - min(grace/4, time.Second)
	procsCtx, stopProcs := context.WithTimeout(context.Background(), cancelAt)
	defer stopProcs()
	procsDone := make(chan struct{})
	go func() {
		defer close(procsDone)
		if procs != nil {
			procs.Shutdown(procsCtx)
		}
	}()
	timer := time.NewTimer(cancelAt)
	defer timer.Stop()
	select {
	case err := <-served:
		stopProcs()
		<-procsDone
		log.Info("shut down: all work finished", "took", time.Since(start).Round(time.Millisecond).String())
		return err
	case <-timer.C:
	}
	// Processes first, so their live streams end with the exit event; then
	// every request's context.
	live := int64(0)
	if runs != nil {
		live = runs.Live() // runs holding a run slot
	}
	log.Warn("shutdown grace is running out: cancelling in-flight work", "runs", live)
	stopProcs()
	<-procsDone
	cancelWork(errShutdown)
	select {
	case err := <-served:
		log.Info("shut down: in-flight work was cancelled and answered", "took", time.Since(start).Round(time.Millisecond).String())
		return err
	case <-time.After(grace - cancelAt + 5*time.Second):
		httpSrv.Close()
		return fmt.Errorf("shutdown: requests still unanswered %s after the grace of %s; closed their connections", 5*time.Second, grace)
	}
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

var _ server.History = (*store.Store)(nil) // the store is the history, no adapter
