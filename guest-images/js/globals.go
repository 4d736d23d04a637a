package main

import (
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	mrand "math/rand"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// restore adapts a guest started from the snapshot to its own instance:
// the environment and cwd the host gave it, and fresh random seeds (the
// snapshot's would repeat in every guest).
func (d *driver) restore() {
	refreshEnviron()
	env := d.vm.NewObject()
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			must(env.Set(k, v))
		}
	}
	must(d.process.Set("env", env))
	if pwd := os.Getenv("PWD"); pwd != "" {
		_ = os.Chdir(pwd)
	}
	var seed [8]byte
	if _, err := crand.Read(seed[:]); err == nil {
		d.vm.SetRandSource(mrand.New(mrand.NewSource(int64(binary.LittleEndian.Uint64(seed[:])))).Float64)
	}
}

// installGlobals defines what the driver adds to goja: console, timers,
// stdin, a minimal process object and the read-only inputs binding.
func (d *driver) installGlobals() {
	vm := d.vm
	g := vm.GlobalObject()

	console := vm.NewObject()
	logTo := func(s *stream) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			s.writeString(formatArgs(vm, call.Arguments) + "\n")
			return goja.Undefined()
		}
	}
	for _, name := range []string{"log", "info", "debug", "trace"} {
		must(console.Set(name, logTo(d.stdout)))
	}
	for _, name := range []string{"error", "warn"} {
		must(console.Set(name, logTo(d.stderr)))
	}
	must(g.Set("console", console))

	d.loop.install(g)
	d.installFS(g)

	stdin := vm.NewObject()
	must(stdin.Set("readLine", func() goja.Value {
		line, ok := d.stdin.readLine()
		if !ok {
			return goja.Null()
		}
		return vm.ToValue(line)
	}))
	must(stdin.Set("read", func() string { return d.stdin.readAll() }))
	must(g.Set("stdin", stdin))

	process := vm.NewObject()
	must(process.DefineAccessorProperty("argv", vm.ToValue(func() goja.Value {
		argv := append([]any{"wasmexec", d.file}, toAny(d.args)...)
		return vm.NewArray(argv...)
	}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE))
	d.process = process
	must(process.Set("exit", func(call goja.FunctionCall) goja.Value {
		code := 0
		if len(call.Arguments) > 0 {
			code = int(call.Argument(0).ToInteger())
		}
		d.stdout.flush()
		d.stderr.flush()
		vm.Interrupt(exitRequest{code: code})
		return goja.Undefined()
	}))
	must(process.Set("stdout", vm.ToValue(map[string]any{"write": func(s string) bool { d.stdout.writeString(s); return true }})))
	must(process.Set("stderr", vm.ToValue(map[string]any{"write": func(s string) bool { d.stderr.writeString(s); return true }})))
	must(g.Set("process", process))

	// inputs is an accessor on the global object: the binding can't be
	// reassigned or deleted, and the value it returns is deeply frozen.
	must(g.DefineAccessorProperty("inputs", vm.ToValue(func() goja.Value { return d.inputs }), nil, goja.FLAG_FALSE, goja.FLAG_TRUE))
}

var deepFreeze goja.Callable

func (d *driver) setInputs(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		d.inputs = goja.Null()
		return nil
	}
	if deepFreeze == nil {
		v, err := d.vm.RunString(`(function f(o){ if (o && typeof o === "object" && !Object.isFrozen(o)) { Object.freeze(o); for (const k of Object.keys(o)) f(o[k]); } return o; })`)
		if err != nil {
			return err
		}
		deepFreeze, _ = goja.AssertFunction(v)
	}
	parse, _ := goja.AssertFunction(d.vm.Get("JSON").ToObject(d.vm).Get("parse"))
	v, err := parse(goja.Undefined(), d.vm.ToValue(string(raw)))
	if err != nil {
		return err
	}
	v, err = deepFreeze(goja.Undefined(), v)
	if err != nil {
		return err
	}
	d.inputs = v
	return nil
}

func formatArgs(vm *goja.Runtime, args []goja.Value) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(inspect(vm, a, 0))
	}
	return b.String()
}

// inspect renders a value for console output, roughly as Node does: strings
// bare at the top level, objects as JSON-ish text.
func inspect(vm *goja.Runtime, v goja.Value, depth int) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if goja.IsNull(v) {
		return "null"
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		if depth > 0 {
			if s, isStr := v.Export().(string); isStr {
				b, _ := json.Marshal(s)
				return string(b)
			}
		}
		return v.String()
	}
	if _, isFn := goja.AssertFunction(obj); isFn {
		return "[Function: " + obj.Get("name").String() + "]"
	}
	switch obj.ClassName() {
	case "Error":
		if s := obj.Get("stack"); s != nil && !goja.IsUndefined(s) {
			return s.String()
		}
		return v.String()
	case "Date", "RegExp":
		return v.String()
	}
	if depth > 4 {
		return "[Object]"
	}
	raw, _, err := exportJSON(vm, v)
	if err != nil {
		return v.String()
	}
	return string(raw)
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func must(err error) {
	if err != nil {
		fatalf("driver init: %v\n", err)
	}
}

// stream writes console output straight to the host: one event per call,
// so an interactive process's replies are seen at once.
type stream struct {
	fd int32
}

func (s *stream) writeString(str string) { write(s.fd, []byte(str)) }

// flush exists for symmetry with buffered drivers; writes are unbuffered.
func (s *stream) flush() {}

// stdinReader reads the run's stdin through the host, line by line.
type stdinReader struct {
	buf []byte
	eof bool
}

func (r *stdinReader) fill() bool {
	if r.eof {
		return false
	}
	chunk := make([]byte, 32<<10)
	n := read(chunk)
	if n <= 0 {
		r.eof = true
		return false
	}
	r.buf = append(r.buf, chunk[:n]...)
	return true
}

func (r *stdinReader) readLine() (string, bool) {
	for {
		if i := strings.IndexByte(string(r.buf), '\n'); i >= 0 {
			line := string(r.buf[:i])
			r.buf = r.buf[i+1:]
			return strings.TrimSuffix(line, "\r"), true
		}
		if !r.fill() {
			if len(r.buf) == 0 {
				return "", false
			}
			line := string(r.buf)
			r.buf = nil
			return line, true
		}
	}
}

func (r *stdinReader) readAll() string {
	for r.fill() {
	}
	s := string(r.buf)
	r.buf = nil
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}
