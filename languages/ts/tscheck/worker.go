package tscheck

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/workerpool"
)

//go:embed driver.js
var driverSource string

// defaultMaxCallStack bounds goja's JavaScript call depth in a worker. The
// compiler's recursive-descent parser and checker recurse a dozen frames per
// nesting level; this admits realistic code and turns 20k nested parentheses
// into a stack_overflow failure instead of unbounded Go stack growth.
const defaultMaxCallStack = 12000

// defaultGCPercent is the worker's GOGC unless the environment sets one.
const defaultGCPercent = 200

// maxGoStack caps the worker's Go stack (goja recurses in Go for native
// callbacks); the pool passes it to the worker (workerpool.ApplyLimits).
// Hitting it kills the worker, which the pool reports as failed.
const maxGoStack = 512 << 20

// WorkerMain is the body of a type-checker worker process (`wasmexec
// tscheck-worker`). It speaks the pool's framed protocol on stdin/stdout,
// runs until stdin closes, and returns nil then. The process should exit
// when it returns. It applies the limits its pool set first
// (workerpool.ApplyLimits: RLIMIT_DATA and the goroutine stack limit), so a
// runaway check ends the process rather than the machine.
func WorkerMain(stdin io.Reader, stdout io.Writer) error {
	w := &worker{out: stdout}
	limit, err := workerpool.ApplyLimits()
	if err != nil {
		w.send(workerMessage{Type: msgFatal, Msg: err.Error()})
		return err
	}
	w.memLimit = limit
	if os.Getenv("GOGC") == "" {
		// The parsed lib files are a large, long-lived heap (~200 MB with
		// es2022) that every GC cycle marks; collecting less often saves
		// ~20% CPU per check. SetMemoryLimit still bounds the heap.
		debug.SetGCPercent(defaultGCPercent)
	}

	reqs := make(chan workerRequest)
	readErr := make(chan error, 1)
	go func() {
		defer close(reqs)
		for {
			var req workerRequest
			if err := workerpool.ReadFrame(stdin, &req); err != nil {
				if !errors.Is(err, io.EOF) {
					readErr <- err
				}
				// The pool is gone or closing: stop the running check too.
				w.interrupt(w.activeID(), "cancelled")
				return
			}
			if req.Op == opCancel {
				w.interrupt(req.ID, "cancelled")
				continue
			}
			// A request for the VM stops a background warm-up (and keeps
			// one from starting) until the main loop has taken it.
			w.mu.Lock()
			w.waiting++
			if w.active == backgroundID {
				w.vm.Interrupt("preempted")
			}
			w.mu.Unlock()
			reqs <- req
		}
	}()

	for {
		var (
			req workerRequest
			ok  bool
		)
		if len(w.background) > 0 {
			select {
			case req, ok = <-reqs:
			default:
				w.warmBackground()
				continue
			}
		} else {
			req, ok = <-reqs
		}
		if !ok {
			break
		}
		w.mu.Lock()
		w.waiting--
		w.mu.Unlock()
		switch req.Op {
		case opInit:
			if err := w.init(req); err != nil {
				w.send(workerMessage{Type: msgFatal, Msg: err.Error()})
				return err
			}
		case opCheck:
			if w.vm == nil {
				w.send(workerMessage{Type: msgResult, ID: req.ID, Outcome: string(wasmexec.Failed),
					Error: &wireError{Code: wasmexec.CodeInternal, Message: "worker not initialized"}})
				continue
			}
			res := w.check(req)
			if !res.Recycle && w.overGuard() {
				res.Recycle = true
			}
			w.send(res)
			if res.Recycle {
				// goja keeps references to a failed check's values (its
				// stack is not cleared), so memory may stay high: start over.
				return nil
			}
		default:
			w.send(workerMessage{Type: msgLog, Msg: "unknown op " + strconv.Quote(req.Op)})
		}
	}
	select {
	case err := <-readErr:
		return fmt.Errorf("read request: %w", err)
	default:
		return nil
	}
}

type worker struct {
	out   io.Writer
	outMu sync.Mutex

	vm      *goja.Runtime
	checkFn goja.Callable
	discard goja.Callable
	libDir  string

	// mu guards active: the id of the running check, 0 when none. The
	// timeout timer and cancel requests interrupt the VM only under mu and
	// only for the active check, so an interrupt never leaks into the next.
	mu           sync.Mutex
	active       uint64
	lastStarted  uint64 // highest check id started
	cancelBefore uint64 // a check cancelled before it started
	waiting      int    // requests read but not yet taken by the main loop

	// background are the lib sets still to warm when idle.
	background [][]string

	// memLimit is the RLIMIT_DATA (0: none). While a check runs, a watchdog
	// interrupts it once the Go runtime holds memGuard of it, so a runaway
	// check usually ends as a clean memory_limit result instead of the
	// runtime dying on a failed mmap.
	memLimit int64
}

// memGuard is the share of the memory limit at which a check is stopped.
const memGuard = 0.8

func (w *worker) send(m workerMessage) {
	w.outMu.Lock()
	defer w.outMu.Unlock()
	if err := workerpool.WriteFrame(w.out, m); err != nil {
		// The pool is gone or the pipe is broken; nothing useful to do.
		fmt.Fprintf(os.Stderr, "tscheck worker: write: %v\n", err)
	}
}

func (w *worker) log(msg string, attrs map[string]any) {
	w.send(workerMessage{Type: msgLog, Msg: msg, Attrs: attrs})
}

// compiledTS caches the compiled typescript.js per process (one per worker
// process in production; tests running WorkerMain in-process share it).
var compiledTS struct {
	sync.Mutex
	path string
	prog *goja.Program
}

func compileTypeScript(path string) (*goja.Program, error) {
	compiledTS.Lock()
	defer compiledTS.Unlock()
	if compiledTS.prog != nil && compiledTS.path == path {
		return compiledTS.prog, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	prog, err := goja.Compile("typescript.js", string(src), false)
	if err != nil {
		return nil, fmt.Errorf("compile typescript.js: %w", err)
	}
	compiledTS.path, compiledTS.prog = path, prog
	return prog, nil
}

func (w *worker) init(req workerRequest) error {
	start := time.Now()
	w.libDir = filepath.Join(req.ImageDir, "lib")
	tsPath := filepath.Join(req.ImageDir, "typescript.js")
	prog, err := compileTypeScript(tsPath)
	if err != nil {
		return fmt.Errorf("load %s: %w", tsPath, err)
	}
	compiled := time.Since(start)

	vm := goja.New()
	maxStack := req.MaxCallSize
	if maxStack <= 0 {
		maxStack = defaultMaxCallStack
	}
	vm.SetMaxCallStackSize(maxStack)
	if err := vm.Set("__tscheck_readLib", w.readLib); err != nil {
		return err
	}
	if err := vm.Set("__tscheck_ambientTexts", sandboxTexts()); err != nil {
		return err
	}
	if _, err := vm.RunProgram(prog); err != nil {
		return fmt.Errorf("run typescript.js: %w", err)
	}
	if _, err := vm.RunScript("driver.js", driverSource); err != nil {
		return fmt.Errorf("run driver.js: %w", err)
	}
	api := vm.Get("__tscheck").ToObject(vm)
	var ok bool
	if w.checkFn, ok = goja.AssertFunction(api.Get("check")); !ok {
		return errors.New("driver.js: check is not a function")
	}
	if w.discard, ok = goja.AssertFunction(api.Get("discardUnverified")); !ok {
		return errors.New("driver.js: discardUnverified is not a function")
	}
	infoFn, ok := goja.AssertFunction(api.Get("info"))
	if !ok {
		return errors.New("driver.js: info is not a function")
	}
	infoVal, err := infoFn(goja.Undefined())
	if err != nil {
		return fmt.Errorf("driver info: %w", err)
	}
	var info struct {
		Version string              `json:"version"`
		Libs    []string            `json:"libs"`
		Options map[string][]string `json:"options"`
	}
	if err := json.Unmarshal([]byte(infoVal.String()), &info); err != nil {
		return fmt.Errorf("driver info: %w", err)
	}
	w.vm = vm
	w.log("typescript loaded", map[string]any{
		"version": info.Version, "compileMs": ms(compiled), "totalMs": ms(time.Since(start)),
	})

	for _, libs := range req.Prewarm {
		t := time.Now()
		payload := prewarmPayload(libs)
		res := w.runCheck(0, payload, 0)
		if res.Outcome != string(wasmexec.Succeeded) {
			msg := res.Outcome
			if res.Error != nil {
				msg += ": " + res.Error.Message
			}
			return fmt.Errorf("pre-warm %v: %s", libs, msg)
		}
		if len(res.Diagnostics) > 0 {
			return fmt.Errorf("pre-warm %v: unexpected diagnostic: %s", libs, res.Diagnostics[0].Message)
		}
		w.log("lib set pre-warmed", map[string]any{"libs": libs, "ms": ms(time.Since(t))})
	}
	w.background = req.Background
	w.send(workerMessage{Type: msgReady, Version: info.Version, Libs: info.Libs, Enums: info.Options,
		DurationMs: ms(time.Since(start))})
	return nil
}

// backgroundID is the check id of background warm-ups (pool ids count up
// from 1 and never reach it).
const backgroundID = math.MaxUint64

// msgWarmedInBackground is the log message of a finished background warm-up.
const msgWarmedInBackground = "lib set warmed in the background"

// warmBackground warms the first background lib set, unless a request
// arrives first: then it stops (keeping what it parsed, see driver.js
// discardUnverified) and is tried again when the worker is idle.
func (w *worker) warmBackground() {
	libs := w.background[0]
	t := time.Now()
	res := w.runCheck(backgroundID, prewarmPayload(libs), 0)
	switch {
	case res.Outcome == string(wasmexec.Succeeded):
		w.background = w.background[1:]
		w.log(msgWarmedInBackground, map[string]any{"libs": libs, "ms": ms(time.Since(t))})
	case res.Outcome == string(wasmexec.Cancelled):
		// preempted by a request: try again when idle
	default:
		msg := res.Outcome
		if res.Error != nil {
			msg += ": " + res.Error.Message
		}
		w.background = nil
		w.log("background warm-up failed; not retried", map[string]any{"libs": libs, "error": msg})
	}
}

func prewarmPayload(libs []string) *checkPayload {
	opts := CompilerOptions{Lib: libs}
	o, domLibs := opts.tsOptions()
	files := map[string]string{"/__prewarm.ts": "export {};\nconst x: number = 1;\n"}
	return &checkPayload{
		Files:   files,
		Roots:   []string{"/__prewarm.ts"},
		Options: o,
		Ambient: sandboxFiles(true, domLibs, files),
	}
}

// readLib serves lib.*.d.ts files to driver.js (which keeps them); null
// when absent.
func (w *worker) readLib(name string) goja.Value {
	if strings.ContainsAny(name, `/\`) || !strings.HasPrefix(name, "lib.") || !strings.HasSuffix(name, ".d.ts") {
		return goja.Null()
	}
	b, err := os.ReadFile(filepath.Join(w.libDir, name))
	if err != nil {
		return goja.Null()
	}
	return w.vm.ToValue(string(b))
}

func (w *worker) activeID() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.active
}

// interrupt stops check id if it runs. A cancel for a check that has not
// started yet (it is still queued behind the reader) is remembered.
func (w *worker) interrupt(id uint64, reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case id == 0:
	case w.active == id:
		w.vm.Interrupt(reason)
	case reason == "cancelled" && id > w.lastStarted:
		w.cancelBefore = id
	}
}

func (w *worker) check(req workerRequest) workerMessage {
	if req.Check == nil {
		return workerMessage{Type: msgResult, ID: req.ID, Outcome: string(wasmexec.Failed),
			Error: &wireError{Code: wasmexec.CodeInternal, Message: "check request without payload"}}
	}
	timeout := time.Duration(req.TimeoutMs) * time.Millisecond
	return w.runCheck(req.ID, req.Check, timeout)
}

// runCheck runs one check on the VM. id 0 is internal (pre-warm) work that
// cannot be cancelled; a zero timeout means none.
func (w *worker) runCheck(id uint64, payload *checkPayload, timeout time.Duration) (res workerMessage) {
	start := time.Now()
	cpu0 := processCPU()
	res = workerMessage{Type: msgResult, ID: id}
	defer func() { res.CPUMs = ms(processCPU() - cpu0) }()
	reqJSON, err := json.Marshal(payload)
	if err != nil {
		res.Outcome = string(wasmexec.Failed)
		res.Error = &wireError{Code: wasmexec.CodeInternal, Message: err.Error()}
		return res
	}

	w.mu.Lock()
	if id != 0 && w.cancelBefore == id || id == backgroundID && w.waiting > 0 {
		w.mu.Unlock()
		res.Outcome = string(wasmexec.Cancelled)
		res.Error = &wireError{Code: CodeCancelled, Message: "type check cancelled"}
		return res
	}
	w.active = id
	if id != backgroundID {
		w.lastStarted = max(w.lastStarted, id)
	}
	w.mu.Unlock()
	var timer *time.Timer
	if timeout > 0 {
		timer = time.AfterFunc(timeout, func() { w.interrupt(id, "timeout") })
	}
	stopWatch := w.watchMemory(id)

	val, err := w.checkFn(goja.Undefined(), w.vm.ToValue(string(reqJSON)))

	stopWatch()
	if timer != nil {
		timer.Stop()
	}
	w.mu.Lock()
	w.active = 0
	w.mu.Unlock()
	w.vm.ClearInterrupt()
	res.DurationMs = ms(time.Since(start))

	if err == nil {
		var out struct {
			Invalid     string             `json:"invalid"`
			Diagnostics []Diagnostic       `json:"diagnostics"`
			Timings     map[string]float64 `json:"timings"`
		}
		if err = json.Unmarshal([]byte(val.String()), &out); err == nil {
			if out.Invalid != "" {
				res.Outcome = wireInvalid
				res.Error = &wireError{Code: wasmexec.EInvalid, Message: out.Invalid}
			} else {
				res.Outcome = string(wasmexec.Succeeded)
				res.Diagnostics = out.Diagnostics
				res.Timings = out.Timings
				if res.Diagnostics == nil {
					res.Diagnostics = []Diagnostic{}
				}
			}
			return res
		}
	}

	// The check did not finish: forget whatever it half-built.
	if _, derr := w.discard(goja.Undefined()); derr != nil {
		fmt.Fprintf(os.Stderr, "tscheck worker: discard after failed check: %v\n", derr)
	}
	w.vm.ClearInterrupt()

	var intr *goja.InterruptedError
	var so *goja.StackOverflowError
	var exc *goja.Exception
	switch {
	case errors.As(err, &intr):
		reason, _ := intr.Value().(string)
		switch reason {
		case "cancelled", "preempted":
			res.Outcome = string(wasmexec.Cancelled)
			res.Error = &wireError{Code: CodeCancelled, Message: "type check cancelled"}
		case "memory":
			res.Outcome = string(wasmexec.Failed)
			res.Error = &wireError{Code: wasmexec.CodeMemoryLimit,
				Message: fmt.Sprintf("the type checker ran out of memory (limit %d bytes)", w.memLimit)}
			res.Recycle = true
		default:
			res.Outcome = string(wasmexec.TimedOut)
			res.Error = &wireError{Code: CodeTimeout, Message: fmt.Sprintf("type check did not finish within %v", timeout)}
		}
	case errors.As(err, &so):
		res.Outcome = string(wasmexec.Failed)
		res.Error = &wireError{Code: wasmexec.CodeStackOverflow,
			Message: "the type checker ran out of stack (input nested too deeply)"}
	case errors.As(err, &exc):
		res.Outcome = string(wasmexec.Failed)
		res.Error = &wireError{Code: wasmexec.CodeInternal, Message: "the type checker threw: " + firstLine(exc.Error())}
	default:
		res.Outcome = string(wasmexec.Failed)
		res.Error = &wireError{Code: wasmexec.CodeInternal, Message: "the type checker failed: " + firstLine(err.Error())}
	}
	return res
}

// memInUse is the memory the Go runtime holds and has not returned to the
// OS: what a check grows.
func memInUse() uint64 {
	samples := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(samples)
	return samples[0].Value.Uint64() - samples[1].Value.Uint64()
}

// overGuard reports whether, after a GC, the worker still holds more than
// memGuard of its limit.
func (w *worker) overGuard() bool {
	if w.memLimit <= 0 {
		return false
	}
	guard := uint64(float64(w.memLimit) * memGuard)
	if memInUse() <= guard {
		return false
	}
	runtime.GC()
	return memInUse() > guard
}

// watchMemory samples the runtime's memory while check id runs and
// interrupts it past memGuard of the limit. The returned func stops it.
func (w *worker) watchMemory(id uint64) (stop func()) {
	if w.memLimit <= 0 || id == 0 {
		return func() {}
	}
	guard := uint64(float64(w.memLimit) * memGuard)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if memInUse() > guard {
				w.interrupt(id, "memory")
				return
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// processCPU is the CPU time the process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
