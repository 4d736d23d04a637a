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
}

type errorData struct {
	Code    string         `json:"code"`
	Name    string         `json:"name,omitempty"`
	Message string         `json:"message"`
	Stack   string         `json:"stack,omitempty"`
	Details map[string]any `json:"details,omitempty"`
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
func wasmexecInit() { d = newDriver() }

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
		if err := json.Unmarshal(msg, &req); err != nil {
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
	vm      *goja.Runtime
	loop    *eventLoop
	stdout  *stream
	stderr  *stream
	stdin   *stdinReader
	inputs  goja.Value
	args    []string
	file    string
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
	d.loop = newEventLoop(vm)
	d.installGlobals()
	return d
}

func (d *driver) handle(req *request) (resp response) {
	d.args = req.Args
	d.file = req.Filename
	if d.file == "" {
		d.file = "main.js"
	}
	if req.Cwd != "" {
		if err := os.Chdir(req.Cwd); err != nil {
			return response{Status: "error", Error: &errorData{Code: "exception", Name: "Error", Message: "cwd: " + err.Error()}}
		}
	}
	if err := d.setInputs(req.Inputs); err != nil {
		return response{Status: "error", Error: &errorData{Code: "internal", Message: "inputs: " + err.Error()}}
	}
	defer func() {
		if p := recover(); p != nil {
			if ex, ok := p.(exitRequest); ok {
				resp = response{Status: "exit", ExitCode: ex.code}
				return
			}
			resp = response{Status: "error", Error: &errorData{Code: "internal", Name: "InternalError", Message: fmt.Sprint(p)}}
		}
		d.loop.reset()
	}()
	code := req.Code
	if req.Format == "commonjs" {
		code = commonJSWrapper(code)
	}
	switch req.Op {
	case "evaluate":
		return d.evaluate(code, true)
	case "execute":
		r := d.evaluate(code, false)
		r.Value, r.HasValue = nil, false
		return r
	default:
		return response{Status: "error", Error: &errorData{Code: "internal", Message: "unknown op " + req.Op}}
	}
}

// evaluate runs code as a script and returns its completion value. Code that
// only parses with top-level await is run as the body of an async function
// whose last expression statement is returned; the awaited value is the
// result. A completion value that is a promise is awaited too, as REPLs do.
func (d *driver) evaluate(code string, wantValue bool) response {
	prg, err := goja.Compile(d.file, code, false)
	if err != nil && strings.Contains(code, "await") {
		if wrapped, ok := wrapTopLevelAwait(d.file, code); ok {
			if p2, err2 := goja.Compile(d.file, wrapped, false); err2 == nil {
				prg, err = p2, nil
			}
		}
	}
	if err != nil {
		return errorResponse(err)
	}
	v, err := d.vm.RunProgram(prg)
	if err == nil {
		err = d.loop.run()
	}
	if err != nil {
		return d.failure(err)
	}
	if p, ok := promiseOf(v); ok {
		switch p.State() {
		case goja.PromiseStateFulfilled:
			v = p.Result()
		case goja.PromiseStateRejected:
			return exceptionResponse(p.Result(), "")
		}
	}
	if !wantValue {
		return response{Status: "ok"}
	}
	raw, has, err := exportJSON(d.vm, v)
	if err != nil {
		return d.failure(err)
	}
	return response{Status: "ok", Value: raw, HasValue: has}
}

func (d *driver) failure(err error) response {
	var intr *goja.InterruptedError
	if errors.As(err, &intr) {
		d.vm.ClearInterrupt()
		if ex, ok := intr.Value().(exitRequest); ok {
			return response{Status: "exit", ExitCode: ex.code}
		}
	}
	return errorResponse(err)
}

func (e exitRequest) Error() string { return fmt.Sprintf("exit %d", e.code) }

func promiseOf(v goja.Value) (*goja.Promise, bool) {
	if v == nil {
		return nil, false
	}
	p, ok := v.Export().(*goja.Promise)
	return p, ok
}

func errorResponse(err error) response {
	var syn *goja.CompilerSyntaxError
	var so *goja.StackOverflowError
	var ex *goja.Exception
	switch {
	case errors.As(err, &syn):
		ed := &errorData{Code: "syntax_error", Name: "SyntaxError", Message: syn.Message}
		if syn.File != nil {
			pos := syn.File.Position(syn.Offset)
			ed.Details = map[string]any{"line": pos.Line, "column": pos.Column}
			ed.Stack = fmt.Sprintf("SyntaxError: %s\n\tat %s:%d:%d", syn.Message, syn.File.Name(), pos.Line, pos.Column)
		}
		return response{Status: "error", Error: ed}
	case errors.As(err, &so):
		return response{Status: "error", Error: &errorData{Code: "stack_overflow", Name: "RangeError", Message: "Maximum call stack size exceeded", Stack: stackOf(&so.Exception)}}
	case errors.As(err, &ex):
		return exceptionResponse(ex.Value(), stackOf(ex))
	default:
		return response{Status: "error", Error: &errorData{Code: "internal", Name: "InternalError", Message: err.Error()}}
	}
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
// Error, or the string form of anything else that was thrown.
func exceptionResponse(v goja.Value, stack string) response {
	ed := &errorData{Code: "exception", Name: "Error"}
	if obj, ok := v.(*goja.Object); ok {
		if n := obj.Get("name"); n != nil && !goja.IsUndefined(n) {
			ed.Name = n.String()
		}
		if m := obj.Get("message"); m != nil && !goja.IsUndefined(m) {
			ed.Message = m.String()
		} else {
			ed.Message = v.String()
		}
		if s := obj.Get("stack"); s != nil && !goja.IsUndefined(s) && s.String() != "" {
			stack = s.String()
		}
	} else if v != nil {
		ed.Name = "Uncaught"
		ed.Message = v.String()
	}
	if stack != "" && !strings.HasPrefix(stack, ed.Name) {
		stack = ed.Name + ": " + ed.Message + "\n" + stack
	}
	ed.Stack = strings.TrimRight(stack, "\n")
	return response{Status: "error", Error: ed}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format, args...)
	os.Exit(70)
}

// commonJSWrapper runs code in a CommonJS function scope: module, exports
// and require (only the driver's own "fs") are defined, top-level
// declarations stay local, and the completion value is module.exports. It
// keeps the code on the same lines, so stacks stay right.
func commonJSWrapper(code string) string {
	return "(function (module, require) { var exports = module.exports; " + code + "\n;return module.exports})" +
		"({exports: {}}, function require(name) { if (name === 'fs' || name === 'node:fs') return fs; throw new Error('Cannot find module ' + JSON.stringify(name) + ': wasmexec guests have no module loader') })"
}
