// Command js is the JavaScript guest of wasmexec: goja built for wasip1 plus a
// driver that speaks the control protocol (docs/PROTOCOL.md). One guest keeps
// one goja runtime for its whole life, so an execution context's globals
// persist between requests.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/dop251/goja"
)

type request struct {
	Cwd      string          `json:"cwd"`
	Op       string          `json:"op"`
	Code     string          `json:"code"`
	Filename string          `json:"filename"`
	Inputs   json.RawMessage `json:"inputs"`
	Args     []string        `json:"args"`
	Format   string          `json:"format"`
	// FilePath names a workspace file to run as the entry point instead
	// of Code (relative to the cwd).
	FilePath string `json:"filePath"`
	// TsconfigPath names a workspace tsconfig.json for the run.
	TsconfigPath string `json:"tsconfigPath"`
	// Conversions are modules the host converted ahead (esm.go).
	Conversions []shipped `json:"conversions"`
	// Sources are files of a workspace that is the run's own, by path,
	// as they are on disk when the run starts (sources.go).
	Sources []source `json:"sources"`
	// Live: readers follow the output (a process); writes go through at
	// once (host.go).
	Live bool `json:"live"`
	// MemoryBytes is the run's memory limit (0: not given).
	MemoryBytes int64 `json:"memoryBytes"`
}

type errorData struct {
	Code    string         `json:"code"`
	Name    string         `json:"name,omitempty"`
	Message string         `json:"message"`
	Stack   string         `json:"stack,omitempty"`
	Details map[string]any `json:"details,omitempty"`
	// moduleSyntax marks a syntax error at import or export (compile).
	moduleSyntax bool
}

type response struct {
	Status   string          `json:"status"` // ok | error | exit
	Value    json.RawMessage `json:"value,omitempty"`
	HasValue bool            `json:"hasValue"`
	Error    *errorData      `json:"error,omitempty"`
	ExitCode int             `json:"exitCode,omitempty"`
}

// maxCallStackSize bounds JS recursion so runaway recursion is a catchable
// stack_overflow instead of the Go runtime running out of memory.
const maxCallStackSize = 10000

// The guest is a WASI reactor (built with -buildmode=c-shared): the host
// calls _initialize and wasmexec_init once — at image load, when it takes a
// snapshot of the initialized memory — and then wasmexec_serve in every
// guest, which loops recv → run → send until the host has no more requests.
func main() {}

var d *driver

//go:wasmexport wasmexec_init
func wasmexecInit() {
	d = newDriver()
	// The snapshot holds a large live heap (goja, esbuild, the built-ins'
	// sources), and each GC cycle marks all of it: with the default
	// GOGC=100 an allocating loop spent about half its fuel in GC. Collect
	// when the heap has grown 4x instead; the guest's memory limit still
	// bounds it: each request sets a soft memory limit at 3/4 of the run's
	// (begin), past which the runtime collects as often as it must. The
	// collector stops the world to mark (GODEBUG in build.sh), so a cycle
	// starts and ends at the limit instead of overshooting it.
	debug.SetGCPercent(400)
	// Collect once now, before the snapshot: a guest then starts with the
	// most headroom before the next cycle. Left to chance, init could end
	// just short of it, and every guest's first request would pay for a
	// cycle (marking the whole heap writes pages each guest then copies).
	runtime.GC()
}

//go:wasmexport wasmexec_serve
func wasmexecServe() {
	if d == nil {
		d = newDriver()
	}
	d.restore()
	for {
		msg, ok := recv()
		if !ok {
			return
		}
		var req request
		var resp response
		if err := req.decode(msg); err != nil {
			resp = response{Status: "error", Error: &errorData{Code: "internal", Message: "bad request: " + err.Error()}}
		} else {
			resp = d.handle(&req)
		}
		out, err := json.Marshal(resp)
		if err != nil {
			out, _ = json.Marshal(response{Status: "error", Error: &errorData{Code: "internal", Message: "encode result: " + err.Error()}})
		}
		send(out)
	}
}

type driver struct {
	process *goja.Object
	fs      *goja.Object // the driver's own fs: what require('fs') returns
	vm      *goja.Runtime
	builtin intrinsics
	loop    *eventLoop
	mods    *modules
	// dir is where the run's own require and import resolve from: the
	// cwd, or the directory of the file it runs.
	dir    string
	stdout *stream
	stderr *stream
	stdin  *stdinReader
	inputs goja.Value
	args   []string
	file   string
	home   string // the cwd of a run that names none
	clock  guestClock
	// exit is set by process.exit: whatever runs after it in the same
	// request (a getter, a toJSON, a promise job), the request ends with
	// that exit, and never a later one.
	exit *exitRequest
	// guardFn calls guarded; see guard.
	guardFn goja.Callable
	guarded func()
}

// exitRequest is the interrupt value process.exit stops the runtime with:
// an interrupt, unlike an exception, can't be caught by the script.
type exitRequest struct{ code int }

func newDriver() *driver {
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallStackSize)
	vm.SetFieldNameMapper(goja.UncapFieldNameMapper())
	d := &driver{
		vm:     vm,
		stdout: &stream{fd: 1},
		stderr: &stream{fd: 2},
		stdin:  &stdinReader{},
		inputs: goja.Null(),
	}
	d.builtin = captureIntrinsics(vm)
	d.guardFn, _ = goja.AssertFunction(vm.ToValue(func(goja.FunctionCall) goja.Value {
		d.guarded()
		return goja.Undefined()
	}))
	d.loop = newEventLoop(vm, &d.builtin)
	d.installGlobals()
	d.mods = newModules(d)
	// esbuild builds tables on its first transform: do it here, before
	// the image's snapshot, so no run pays for it.
	_, _ = transformESM("import a from 'a';\nexport const b = await import('b');\n", "warm.mts")
	d.initHelpers()
	d.warmModules()
	d.warmFetch()
	warmDecoders()
	// Cells of a context may declare a top-level let, const or class
	// again, as in Chrome DevTools' console: agents resend whole cells.
	// goja does this with build.sh's patch (patch-goja-repl.py); the
	// assertion keeps the source building against goja as published.
	if r, ok := any(vm).(interface{ SetReplLexicals(bool) }); ok {
		r.SetReplLexicals(true)
	}
	return d
}

// warmDecoders decodes a request with every field, a package.json and a
// tsconfig.json once before the image's snapshot: encoding/json builds a
// type's decoder on its first use, and a fresh guest would otherwise
// build them again in every run that ships conversions or sources.
func warmDecoders() {
	var req request
	_ = req.decode([]byte("{\"op\":\"evaluate\",\"code\":\"\",\"inputs\":{},\"args\":[\"\"],\"conversions\":[{\"key\":\"\",\"len\":1}],\"sources\":[{\"path\":\"/\",\"len\":1}],\"live\":false,\"memoryBytes\":1}\x00ab"))
	_ = json.Unmarshal([]byte(`{"name":"","main":"","exports":{},"imports":{}}`), &packageJSON{})
	_ = json.Unmarshal([]byte(`{"compilerOptions":{"baseUrl":"","paths":{"":[""]}}}`), &tsconfig{})
}

// guard runs f, which may run user code (a getter, toJSON, toString), the
// way goja runs a call from Go: a throw or an interrupt (process.exit) in
// there comes back as an error instead of unwinding the driver.
func (d *driver) guard(f func()) error {
	prev := d.guarded
	d.guarded = f
	defer func() { d.guarded = prev }()
	_, err := d.guardFn(goja.Undefined())
	return err
}

// handle runs one request. Everything a request can leave behind is reset
// before it starts (stdin buffer and EOF, timers, a pending interrupt or
// exit, the cwd) and the result is complete when handle returns: the value
// is serialized here, so nothing user code does (a getter, a toJSON, an
// exit) can surface in a later request.
func (d *driver) handle(req *request) (resp response) {
	d.begin(req)
	defer func() {
		if p := recover(); p != nil {
			if d.exit != nil {
				resp = exitResponse(d.exit)
			} else {
				resp = response{Status: "error", Error: &errorData{Code: "internal", Name: "InternalError", Message: fmt.Sprint(p)}}
			}
		}
		d.end()
	}()
	cwd := req.Cwd
	if cwd == "" {
		cwd = d.home
	}
	if cwd != "" {
		if err := chdir(cwd); err != nil {
			return response{Status: "error", Error: &errorData{Code: "exception", Name: "Error", Message: "cwd: " + err.Error()}}
		}
	}
	if err := d.setInputs(req.Inputs); err != nil {
		return response{Status: "error", Error: &errorData{Code: "internal", Message: "inputs: " + err.Error()}}
	}
	code, format := req.Code, req.Format
	d.dir = getwd()
	if resp, ok := d.loadTsconfig(req.TsconfigPath); !ok {
		return resp
	}
	if req.FilePath != "" {
		p := req.FilePath
		if !path.IsAbs(p) {
			p = path.Join(d.dir, p)
		}
		src, err := d.mods.readSource(p)
		if err != nil {
			return response{Status: "error", Error: &errorData{Code: "exception", Name: "Error", Message: "filePath: " + err.Error()}}
		}
		code, d.file, d.dir = stripShebang(src), p, path.Dir(p)
		// A file is a module, as in Node: CommonJS runs in its function
		// wrapper, its value is module.exports.
		if format == formatCommonJS {
			format = formatFile
		}
		switch path.Ext(p) {
		case ".cjs", ".cts":
			format = formatFile
		case ".mjs", ".mts", ".ts", ".tsx", ".jsx":
			format = "module"
		}
	}
	switch req.Op {
	case "evaluate":
		return d.run(code, format, true)
	case "execute":
		r := d.run(code, format, false)
		r.Value, r.HasValue = nil, false
		return r
	default:
		return response{Status: "error", Error: &errorData{Code: "internal", Message: "unknown op " + req.Op}}
	}
}

// begin resets the per-request state.
func (d *driver) begin(req *request) {
	d.vm.ClearInterrupt()
	d.exit = nil
	d.loop.reset()
	d.stdin.reset()
	d.mods.begin()
	if req.MemoryBytes > 0 {
		// GC harder near the limit (GOGC is 400, see wasmexecInit).
		debug.SetMemoryLimit(req.MemoryBytes / 4 * 3)
	}
	addShipped(req.Conversions)
	d.mods.setSources(req.Sources)
	pending.live = req.Live
	d.args = req.Args
	d.file = req.Filename
	if d.file == "" {
		d.file = "main.js"
	}
}

// end drops what a request leaves behind: timers of a failed request, an
// interrupt process.exit set when no JavaScript ran after it.
func (d *driver) end() {
	d.loop.reset()
	d.vm.ClearInterrupt()
	d.exit = nil
}

// run compiles and runs code, runs timers until none are left, settles the
// result and serializes the value. See compile for the forms code can take.
func (d *driver) run(code, format string, wantValue bool) response {
	p, serr := compile(d.file, code, format)
	if serr != nil {
		return response{Status: "error", Error: serr}
	}
	var module *goja.Object
	switch {
	case p.module:
		module = d.moduleGlobals()
	case p.commonjs:
		d.commonjsGlobals()
	default:
		must(d.vm.GlobalObject().Set("require", d.mods.requireFn(d.dir, "require")))
	}
	v, err := d.vm.RunProgram(p.prg)
	if err == nil && module != nil {
		err = d.guard(func() { d.exportGlobals(module) })
	}
	if err == nil && p.mode == modeCommonJS {
		v, err = d.callCommonJS(v)
	}
	if err == nil {
		err = d.loop.run()
	}
	if err != nil {
		return d.failure(err)
	}
	if d.exit != nil {
		return exitResponse(d.exit)
	}
	var resp response
	var serialErr error
	if err := d.guard(func() { resp, serialErr = d.settle(p, v, wantValue) }); err != nil {
		return d.failure(err)
	}
	if serialErr != nil {
		return d.failure(serialErr)
	}
	if d.exit != nil {
		return exitResponse(d.exit)
	}
	return resp
}

// callCommonJS calls the CommonJS wrapper function: exports, the driver's
// require, module and the file name; this is exports, as in Node.
func (d *driver) callCommonJS(fn goja.Value) (goja.Value, error) {
	call, ok := goja.AssertFunction(fn)
	if !ok {
		return nil, errors.New("commonjs wrapper is not a function")
	}
	module := d.vm.NewObject()
	exports := d.vm.NewObject()
	if err := module.DefineDataProperty("exports", exports, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
		return nil, err
	}
	if _, err := call(exports, exports, d.mods.requireFn(d.dir, "require"), module, d.vm.ToValue(d.file)); err != nil {
		return nil, err
	}
	return module, nil
}

// moduleGlobals gives code converted from ES module syntax what the
// conversion refers to: module, exports and require (from the run's dir).
func (d *driver) moduleGlobals() *goja.Object {
	g := d.vm.GlobalObject()
	module := d.vm.NewObject()
	must(module.Set("exports", d.vm.NewObject()))
	must(g.Set("module", module))
	must(g.Set("exports", module.Get("exports")))
	must(g.Set("require", d.mods.requireFn(d.dir, "import")))
	return module
}

// commonjsGlobals gives a CommonJS cell, run as a script, the names its
// function wrapper would have: a fresh module and exports, require (from
// the run's dir) and __filename.
func (d *driver) commonjsGlobals() {
	g := d.vm.GlobalObject()
	module := d.vm.NewObject()
	must(module.Set("exports", d.vm.NewObject()))
	must(g.Set("module", module))
	must(g.Set("exports", module.Get("exports")))
	must(g.Set("require", d.mods.requireFn(d.dir, "require")))
	must(g.Set("__filename", d.file))
}

// exportGlobals keeps a cell's exports visible to later cells: each one
// becomes a global (a configurable getter of the live export). Top-level declarations of a cell are globals already,
// except in a cell with top-level await (they live in its async wrapper).
func (d *driver) exportGlobals(module *goja.Object) {
	exports, ok := module.Get("exports").(*goja.Object)
	if !ok {
		return
	}
	g := d.vm.GlobalObject()
	for _, k := range exports.Keys() {
		if k == "__esModule" || k == "default" {
			continue
		}
		k := k
		getter := d.vm.ToValue(func() goja.Value { return exports.Get(k) })
		// A name taken by a non-configurable global stays the global's.
		_ = g.DefineAccessorProperty(k, getter, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}

// unsettled is the failure of code whose top-level await can never finish.
var unsettled = &errorData{
	Code:    "exception",
	Name:    "Error",
	Message: "top-level await never settles: the promise it waits for is still pending and no timer or callback is left that could settle it",
}

// settle turns what the code produced into the result (it runs in guard:
// getters and toJSON are user code). A top-level await whose promise is
// still pending once no timer is left can never finish: that is a failure.
// A completion value that is a promise is awaited: its result (or its
// rejection) is the run's, and a pending one is a marker.
func (d *driver) settle(p *program, v goja.Value, wantValue bool) (response, error) {
	has := true
	switch p.mode {
	case modeAsync:
		pr, ok := promiseOf(v)
		if !ok {
			return response{}, errors.New("async wrapper did not return a promise")
		}
		switch pr.State() {
		case goja.PromiseStatePending:
			return response{Status: "error", Error: unsettled}, nil
		case goja.PromiseStateRejected:
			return d.exceptionResponse(pr.Result(), ""), nil
		}
		// The wrapper's own array ([value]) or undefined (no value).
		v = goja.Undefined()
		has = false
		if arr, ok := pr.Result().(*goja.Object); ok {
			v, has = arr.Get("0"), true
		}
	case modeCommonJS:
		v = v.(*goja.Object).Get("exports")
	}
	if !has {
		return response{Status: "ok"}, nil
	}
	if pr, ok := promiseOf(v); ok {
		switch pr.State() {
		case goja.PromiseStateFulfilled:
			v = pr.Result()
		case goja.PromiseStateRejected:
			return d.exceptionResponse(pr.Result(), ""), nil
		}
	}
	if !wantValue {
		return response{Status: "ok"}, nil
	}
	raw, has, err := exportJSON(d.vm, &d.builtin, v)
	if err != nil {
		return response{}, err
	}
	return response{Status: "ok", Value: raw, HasValue: has}, nil
}

func exitResponse(e *exitRequest) response {
	return response{Status: "exit", ExitCode: e.code}
}

// failure describes an error of the run: an exit (process.exit, wherever it
// was called), a stack overflow or an exception.
func (d *driver) failure(err error) response {
	if d.exit != nil {
		return exitResponse(d.exit)
	}
	var intr *goja.InterruptedError
	if errors.As(err, &intr) {
		d.vm.ClearInterrupt()
		if ex, ok := intr.Value().(exitRequest); ok {
			return exitResponse(&ex)
		}
	}
	var so *goja.StackOverflowError
	var ex *goja.Exception
	switch {
	case errors.As(err, &so):
		return response{Status: "error", Error: &errorData{Code: "stack_overflow", Name: "RangeError", Message: "Maximum call stack size exceeded", Stack: stackOf(&so.Exception)}}
	case errors.As(err, &ex):
		r := d.exceptionResponse(ex.Value(), stackOf(ex))
		if d.exit != nil { // a getter of the thrown value exited
			return exitResponse(d.exit)
		}
		return r
	default:
		return response{Status: "error", Error: &errorData{Code: "internal", Name: "InternalError", Message: err.Error()}}
	}
}

func (e exitRequest) Error() string { return fmt.Sprintf("exit %d", e.code) }

var promiseType = reflect.TypeOf((*goja.Promise)(nil))

// promiseOf returns v as a promise. It never exports an object that is not
// one (Export reads every property: user getters).
func promiseOf(v goja.Value) (*goja.Promise, bool) {
	obj, ok := v.(*goja.Object)
	if !ok || obj.ExportType() != promiseType {
		return nil, false
	}
	p, ok := obj.Export().(*goja.Promise)
	return p, ok
}

// maxStackFrames caps reported stacks; runaway recursion would otherwise
// report ten thousand identical frames.
const maxStackFrames = 32

func stackOf(ex *goja.Exception) string {
	var b strings.Builder
	frames := ex.Stack()
	more := len(frames) - maxStackFrames
	if more > 0 {
		frames = frames[:maxStackFrames]
	}
	for _, f := range frames {
		b.WriteString("\tat ")
		var fb bytes.Buffer
		f.Write(&fb)
		b.Write(fb.Bytes())
		b.WriteByte('\n')
	}
	if more > 0 {
		fmt.Fprintf(&b, "\t... %d more frames\n", more)
	}
	return b.String()
}

// exceptionResponse describes a thrown value: name, message and stack of an
// Error, or the string form of anything else that was thrown. Reading them
// can run user code (getters, toString); each read is guarded, and one that
// throws is left out.
func (d *driver) exceptionResponse(v goja.Value, stack string) response {
	ed := &errorData{Code: "exception", Name: "Error"}
	if obj, ok := v.(*goja.Object); ok {
		if n := d.safeGet(obj, "name"); n != nil && !goja.IsUndefined(n) {
			ed.Name = d.safeString(n, "Error")
		}
		if m := d.safeGet(obj, "message"); m != nil && !goja.IsUndefined(m) {
			ed.Message = d.safeString(m, "")
		} else {
			ed.Message = d.safeString(v, "[object]")
		}
		if s := d.safeGet(obj, "stack"); s != nil && !goja.IsUndefined(s) {
			if str := d.safeString(s, ""); str != "" {
				stack = str
			}
		}
	} else if v != nil {
		ed.Name = "Uncaught"
		ed.Message = d.safeString(v, "")
	}
	if stack != "" && !strings.HasPrefix(stack, ed.Name) {
		stack = ed.Name + ": " + ed.Message + "\n" + stack
	}
	ed.Stack = strings.TrimRight(stack, "\n")
	return response{Status: "error", Error: ed}
}

// safeGet reads a property in guard; nil when reading it threw.
func (d *driver) safeGet(obj *goja.Object, key string) (v goja.Value) {
	if d.guard(func() { v = obj.Get(key) }) != nil {
		return nil
	}
	return v
}

// safeString converts v to a string in guard; def when that threw.
func (d *driver) safeString(v goja.Value, def string) (s string) {
	if d.guard(func() { s = v.String() }) != nil {
		return def
	}
	return s
}

func fatalf(format string, args ...any) {
	flushOutput()
	fmt.Fprintf(os.Stderr, format, args...)
	os.Exit(70)
}

// loadTsconfig reads the run's tsconfig.json (none when p is ""): its
// compilerOptions apply to the run's conversions and its paths and baseUrl
// to resolution. A file that is missing or does not parse fails the run.
func (d *driver) loadTsconfig(p string) (response, bool) {
	tsconfigRaw, d.mods.res.ts = "", nil
	if p == "" {
		return response{}, true
	}
	if !path.IsAbs(p) {
		p = path.Join(d.dir, p)
	}
	b, err := d.mods.readSource(p)
	fail := func(msg string) (response, bool) {
		return response{Status: "error", Error: &errorData{Code: "exception", Name: "Error", Message: "tsconfigPath: " + msg}}, false
	}
	if err != nil {
		return fail(err.Error())
	}
	ts := &tsconfig{dir: path.Dir(p)}
	if err := json.Unmarshal([]byte(b), ts); err != nil {
		return fail(p + " does not parse as JSON: " + err.Error())
	}
	tsconfigRaw, d.mods.res.ts = b, ts
	return response{}, true
}
