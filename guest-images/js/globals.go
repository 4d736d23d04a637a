package main

import (
	"bytes"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// restore adapts a guest started from the snapshot to its own instance:
// the environment and cwd the host gave it, and fresh random seeds (the
// snapshot's would repeat in every guest).
func (d *driver) restore() {
	registerTick()
	refreshEnviron()
	env := d.vm.NewObject()
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			must(env.Set(k, v))
		}
	}
	must(d.process.Set("env", env))
	if pwd := os.Getenv("PWD"); pwd != "" {
		_ = chdir(pwd)
	}
	d.home = getwd()
	d.clock.start()
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
			s.log(d, call.Arguments)
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
	// Node's name for the global object; packages written for Node use
	// it (global.Date, global.process) as often as globalThis.
	must(g.DefineDataProperty("global", g, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))

	process := vm.NewObject()
	d.process = process
	d.loop.install(g, process)
	d.installFS(g)
	d.installFetch(g)
	d.installWeb(g)

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

	must(process.DefineAccessorProperty("argv", vm.ToValue(func() goja.Value {
		argv := append([]any{"wasmexec", d.file}, toAny(d.args)...)
		return vm.NewArray(argv...)
	}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE))
	d.installProcessInfo(process)
	must(process.Set("exit", func(call goja.FunctionCall) goja.Value {
		code := 0
		if len(call.Arguments) > 0 {
			code = int(call.Argument(0).ToInteger())
		}
		d.stdout.flush()
		d.stderr.flush()
		if d.exit == nil {
			d.exit = &exitRequest{code: code}
		}
		vm.Interrupt(exitRequest{code: code})
		return goja.Undefined()
	}))
	// process.stdout/stderr.write are native functions: a Go func wrapped
	// by reflection (ToValue of a map of funcs) cost ~6x a console.log.
	// write(chunk[, encoding][, callback]) writes bytes as Node does: a
	// Buffer or other view as its bytes (its toString would decode them as
	// UTF-8, each invalid byte becoming U+FFFD), a string as UTF-8 or in
	// the encoding given (hex, base64, latin1).
	for name, s := range map[string]*stream{"stdout": d.stdout, "stderr": d.stderr} {
		obj := vm.NewObject()
		must(obj.Set("write", func(call goja.FunctionCall) goja.Value {
			chunk, enc := call.Argument(0), call.Argument(1)
			if b, ok := viewBytes(chunk); ok {
				s.writeBytes(b)
			} else if _, isFunc := goja.AssertFunction(enc); !isFunc && !goja.IsUndefined(enc) && !goja.IsNull(enc) {
				s.writeBytes(bytesOf(chunk, enc))
			} else {
				s.writeString(chunk.String())
			}
			return vm.ToValue(true)
		}))
		must(process.Set(name, obj))
	}
	must(g.Set("process", process))

	// inputs is an accessor on the global object: the binding can't be
	// reassigned or deleted, and the value it returns is deeply frozen.
	must(g.DefineAccessorProperty("inputs", vm.ToValue(func() goja.Value { return d.inputs }), nil, goja.FLAG_FALSE, goja.FLAG_TRUE))
}

// intrinsics are the built-ins the driver calls, taken from the runtime
// before any user code ran: user code may replace Object.freeze, JSON.parse
// or Promise.prototype.then on the globals, never these references.
type intrinsics struct {
	freeze     goja.Callable // Object.freeze
	promise    *goja.Object  // Promise
	resolve    goja.Callable // Promise.resolve
	then       goja.Callable // Promise.prototype.then
	mapForEach goja.Callable // Map.prototype.forEach
	setForEach goja.Callable // Set.prototype.forEach
}

func captureIntrinsics(vm *goja.Runtime) intrinsics {
	get := func(o *goja.Object, name string) *goja.Object {
		v, ok := o.Get(name).(*goja.Object)
		if !ok {
			fatalf("driver init: %s is missing\n", name)
		}
		return v
	}
	fn := func(o *goja.Object, name string) goja.Callable {
		f, ok := goja.AssertFunction(get(o, name))
		if !ok {
			fatalf("driver init: %s is not a function\n", name)
		}
		return f
	}
	g := vm.GlobalObject()
	promise := get(g, "Promise")
	return intrinsics{
		freeze:     fn(get(g, "Object"), "freeze"),
		promise:    promise,
		resolve:    fn(promise, "resolve"),
		then:       fn(get(promise, "prototype"), "then"),
		mapForEach: fn(get(get(g, "Map"), "prototype"), "forEach"),
		setForEach: fn(get(get(g, "Set"), "prototype"), "forEach"),
	}
}

// maxInputsDepth bounds the nesting of inputs (the host bounds it first).
const maxInputsDepth = 1000

// setInputs makes the run's inputs: decoded in Go and built as deeply
// frozen JavaScript values with the driver's own Object.freeze, so no code
// a previous run installed sees or changes them.
func (d *driver) setInputs(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		d.inputs = goja.Null()
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := d.jsonValue(dec, 0)
	if err != nil {
		return err
	}
	d.inputs = v
	return nil
}

func (d *driver) jsonValue(dec *json.Decoder, depth int) (goja.Value, error) {
	if depth > maxInputsDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxInputsDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return goja.Null(), nil
	case bool, string:
		return d.vm.ToValue(t), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, err
		}
		return d.vm.ToValue(f), nil
	case json.Delim:
		var obj *goja.Object
		if t == '[' {
			var items []any
			for dec.More() {
				v, err := d.jsonValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				items = append(items, v)
			}
			obj = d.vm.NewArray(items...)
		} else {
			obj = d.vm.NewObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				v, err := d.jsonValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				// A data property, as JSON.parse makes: no setter (not even
				// one on Object.prototype, e.g. for "__proto__") runs.
				if err := obj.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
					return nil, err
				}
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		if _, err := d.builtin.freeze(goja.Undefined(), obj); err != nil {
			return nil, err
		}
		return obj, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

func (d *driver) formatArgs(args []goja.Value) string {
	return string(d.appendArgs(nil, args))
}

// appendArgs appends console.log's rendering of args (space-separated).
func (d *driver) appendArgs(b []byte, args []goja.Value) []byte {
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, d.inspect(a, 0)...)
	}
	return b
}

// inspect renders a value for console output, roughly as Node does: strings
// bare at the top level, objects as JSON-ish text.
func (d *driver) inspect(v goja.Value, depth int) string {
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
	raw, _, err := exportJSON(d.vm, &d.builtin, v)
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

// stream is console output to fd 1 or 2, coalesced into chunks (write).
type stream struct {
	fd int32
}

func (s *stream) writeString(str string) { write(s.fd, str, "") }

func (s *stream) writeBytes(b []byte) {
	if len(b) == 0 {
		return
	}
	beginWrite(s.fd)
	pending.buf = append(pending.buf, b...)
	endWrite()
}

func (s *stream) writeLine(str string) { write(s.fd, str, "\n") }

// log writes console.log's line. Primitives go straight into the output
// buffer; a line with an object is formatted first, since rendering it
// may run user code (getters, toJSON) that logs too.
func (s *stream) log(d *driver, args []goja.Value) {
	for _, a := range args {
		if _, isObject := a.(*goja.Object); isObject {
			s.writeLine(d.formatArgs(args))
			return
		}
	}
	beginWrite(s.fd)
	pending.buf = append(d.appendArgs(pending.buf, args), '\n')
	endWrite()
}

// flush hands the waiting output to the host (of both streams: they share
// one buffer, in order).
func (s *stream) flush() { flushOutput() }

// stdinReader reads the run's stdin through the host, line by line. Each
// run has its own stdin: reset drops what the previous run left unread and
// its EOF.
type stdinReader struct {
	buf []byte
	eof bool
}

func (r *stdinReader) reset() {
	r.buf = nil
	r.eof = false
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
