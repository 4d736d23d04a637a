package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// The web platform's common globals (what the WinterTC Minimum Common API
// asks for and Node 20 has): DOMException, Event, EventTarget,
// CustomEvent, AbortController, AbortSignal, structuredClone, Blob, File,
// performance and crypto are JavaScript (builtins/web), evaluated when a
// run first reads the global: a guest starts from a snapshot taken after
// init, and what init evaluates is heap every start carries and every GC
// cycle marks. atob and btoa are Go.

// webGlobals maps each lazy global to its module under builtins/web.
var webGlobals = []struct{ name, module string }{
	{"DOMException", "domexception"},
	{"Event", "event"},
	{"EventTarget", "event"},
	{"CustomEvent", "event"},
	{"AbortController", "abort"},
	{"AbortSignal", "abort"},
	{"structuredClone", "clone"},
	{"Blob", "blob"},
	{"File", "blob"},
	{"performance", "performance"},
	{"crypto", "crypto"},
}

// webModule names a module under builtins/web among the built-ins: not a
// node: name, so only the driver and the embedded modules reach it.
func webModule(name string) string { return " web/" + name }

// nativeModule names the driver's helpers for the embedded modules.
const nativeModule = " native"

func (d *driver) installWeb(g *goja.Object) {
	for _, w := range webGlobals {
		w := w
		d.lazyGlobal(w.name, func() goja.Value {
			return d.mods.builtin(webModule(w.module)).(*goja.Object).Get(w.name)
		})
	}
	must(g.Set("atob", d.atob))
	must(g.Set("btoa", d.btoa))
	// goja has no Symbol.asyncIterator. esbuild's helpers for lowered
	// async generators and for await look it up and fall back to
	// Symbol.for("Symbol.asyncIterator"): the global is that symbol, so
	// hand-written async iterables (streams) and lowered code agree.
	sym := g.Get("Symbol").(*goja.Object)
	forFn, _ := goja.AssertFunction(sym.Get("for"))
	ai, err := forFn(sym, d.vm.ToValue("Symbol.asyncIterator"))
	must(err)
	must(sym.DefineDataProperty("asyncIterator", ai, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	d.installCaptureStackTrace(g)
	d.installIntl(g)
}

// lazyGlobal defines name on the global object as an accessor that, read
// first, replaces itself by a data property holding make's value, and,
// written first, by the written value: a global as Node has it
// (writable, configurable, not enumerable) that costs nothing until used.
func (d *driver) lazyGlobal(name string, make func() goja.Value) {
	g := d.vm.GlobalObject()
	set := func(v goja.Value) {
		must(g.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	}
	getter := d.vm.ToValue(func(goja.FunctionCall) goja.Value {
		v := make()
		set(v)
		return v
	})
	setter := d.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		set(call.Argument(0))
		return goja.Undefined()
	})
	must(g.DefineAccessorProperty(name, getter, setter, goja.FLAG_TRUE, goja.FLAG_FALSE))
}

// domException makes a DOMException (builtins/web/domexception.js).
func (d *driver) domException(message, name string) *goja.Object {
	ctor := d.mods.builtin(webModule("domexception")).(*goja.Object).Get("DOMException")
	e, err := d.vm.New(ctor, d.vm.ToValue(message), d.vm.ToValue(name))
	if err != nil {
		panic(err)
	}
	return e
}

func (d *driver) needArgs(call goja.FunctionCall, name string) {
	if len(call.Arguments) == 0 {
		e := d.vm.NewTypeError("The \"data\" argument must be specified")
		_ = e.Set("code", "ERR_MISSING_ARGS")
		panic(e)
	}
}

// btoa is the HTML spec's: each UTF-16 code unit of the string is a byte,
// and one above 0xFF is an InvalidCharacterError.
func (d *driver) btoa(call goja.FunctionCall) goja.Value {
	d.needArgs(call, "btoa")
	s := call.Argument(0).ToString().(goja.String)
	n := s.Length()
	b := make([]byte, n)
	for i := 0; i < n; i++ {
		c := s.CharAt(i)
		if c > 0xFF {
			panic(d.domException("Invalid character", "InvalidCharacterError"))
		}
		b[i] = byte(c)
	}
	return d.vm.ToValue(base64.StdEncoding.EncodeToString(b))
}

// atob is the HTML spec's forgiving-base64 decode: ASCII whitespace is
// dropped, padding is optional, and anything else that is not base64 is an
// InvalidCharacterError. Each byte is a code unit of the result.
func (d *driver) atob(call goja.FunctionCall) goja.Value {
	d.needArgs(call, "atob")
	s := call.Argument(0).ToString().(goja.String)
	n := s.Length()
	buf := make([]byte, 0, n)
	for i := 0; i < n; i++ {
		switch c := s.CharAt(i); {
		case c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ':
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=':
			buf = append(buf, byte(c))
		default:
			panic(d.badBase64())
		}
	}
	if len(buf)%4 == 0 {
		buf = bytes.TrimSuffix(buf, []byte("="))
		buf = bytes.TrimSuffix(buf, []byte("="))
	}
	if len(buf)%4 == 1 || bytes.IndexByte(buf, '=') >= 0 {
		panic(d.badBase64())
	}
	out, err := base64.RawStdEncoding.DecodeString(string(buf))
	if err != nil {
		panic(d.badBase64())
	}
	return d.vm.ToValue(latin1(out))
}

func (d *driver) badBase64() *goja.Object {
	return d.domException("The string to be decoded is not correctly encoded.", "InvalidCharacterError")
}

// latin1 is the string whose code units are b's bytes.
func latin1(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) * 2)
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return sb.String()
}

// installCaptureStackTrace adds V8's Error.captureStackTrace(obj, fn),
// which goja lacks and many packages' error classes call unguarded: obj
// gets a stack of the calls that led here, above fn's frame. The header
// ("Name: message") is read when the stack is, as V8 formats it lazily.
func (d *driver) installCaptureStackTrace(g *goja.Object) {
	vm := d.vm
	errCtor := g.Get("Error").(*goja.Object)
	must(errCtor.Set("stackTraceLimit", 10))
	capture := func(call goja.FunctionCall) goja.Value {
		obj, ok := call.Argument(0).(*goja.Object)
		if !ok {
			panic(vm.NewTypeError("Invalid argument: captureStackTrace needs an object"))
		}
		frames := vm.CaptureCallStack(0, nil)
		if len(frames) > 0 {
			frames = frames[1:] // this native function
		}
		if fn, ok := call.Argument(1).(*goja.Object); ok {
			name := fn.Get("name").String()
			skip := 1 // unnamed (a class constructor): its frame is the caller's
			for i, f := range frames {
				if name != "" && f.FuncName() == name {
					skip = i + 1
					break
				}
			}
			frames = frames[min(skip, len(frames)):]
		}
		var b strings.Builder
		for _, f := range frames[:min(len(frames), maxStackFrames)] {
			var fb bytes.Buffer
			f.Write(&fb)
			b.WriteString("\n\tat ")
			b.Write(fb.Bytes())
		}
		trace := b.String()
		var getter, setter goja.Value
		getter = vm.ToValue(func(call goja.FunctionCall) goja.Value {
			header := "Error"
			if d.guard(func() { header = errorHeader(obj) }) != nil {
				header = "Error"
			}
			return vm.ToValue(header + trace)
		})
		setter = vm.ToValue(func(call goja.FunctionCall) goja.Value {
			_ = obj.DefineDataProperty("stack", call.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			return goja.Undefined()
		})
		if err := obj.DefineAccessorProperty("stack", getter, setter, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			panic(err)
		}
		return goja.Undefined()
	}
	must(errCtor.Set("captureStackTrace", capture))
}

// errorHeader is Error.prototype.toString's "name: message" of obj.
func errorHeader(obj *goja.Object) string {
	name, msg := "Error", ""
	if v := obj.Get("name"); v != nil && !goja.IsUndefined(v) {
		name = v.String()
	}
	if v := obj.Get("message"); v != nil && !goja.IsUndefined(v) {
		msg = v.String()
	}
	switch {
	case msg == "":
		return name
	case name == "":
		return msg
	}
	return name + ": " + msg
}

// native is what the embedded modules ask the driver for (the " native"
// module): entropy, digests, UTF-8, the clock and unref'd timers.
func (m *modules) native() goja.Value {
	d := m.d
	vm := d.vm
	o := vm.NewObject()
	// fill fills a view's bytes with host entropy (WASI random_get).
	must(o.Set("fill", func(call goja.FunctionCall) goja.Value {
		b, ok := viewBytes(call.Argument(0))
		if !ok {
			panic(vm.NewTypeError("not an ArrayBuffer view"))
		}
		_, _ = rand.Read(b)
		return call.Argument(0)
	}))
	// digest(alg, data) is an ArrayBuffer of the hash of data's bytes.
	must(o.Set("digest", func(call goja.FunctionCall) goja.Value {
		h := newHash(call.Argument(0).String())
		if h == nil {
			panic(vm.NewTypeError("unsupported digest " + call.Argument(0).String()))
		}
		b, ok := viewBytes(call.Argument(1))
		if !ok {
			panic(vm.NewTypeError("not a BufferSource"))
		}
		h.Write(b)
		return vm.ToValue(vm.NewArrayBuffer(h.Sum(nil)))
	}))
	// utf8 encodes a string (lone surrogates as U+FFFD).
	must(o.Set("utf8", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(vm.NewArrayBuffer([]byte(call.Argument(0).String())))
	}))
	// text decodes a view's bytes as UTF-8 (malformed sequences as U+FFFD).
	must(o.Set("text", func(call goja.FunctionCall) goja.Value {
		b, _ := viewBytes(call.Argument(0))
		return vm.ToValue(strings.ToValidUTF8(string(b), "\uFFFD"))
	}))
	// detach detaches an ArrayBuffer (structuredClone's transfer).
	must(o.Set("detach", func(call goja.FunctionCall) goja.Value {
		if obj, ok := call.Argument(0).(*goja.Object); ok {
			if ab, ok := obj.Export().(goja.ArrayBuffer); ok {
				ab.Detach()
			}
		}
		return goja.Undefined()
	}))
	must(o.Set("now", func(goja.FunctionCall) goja.Value { return vm.ToValue(d.clock.now()) }))
	must(o.Set("timeOrigin", func(goja.FunctionCall) goja.Value { return vm.ToValue(d.clock.originMs()) }))
	// timer(fn, ms) is an unref'd setTimeout the user can't replace.
	must(o.Set("timer", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(vm.NewTypeError("callback must be a function"))
		}
		ms := call.Argument(1).ToFloat()
		if !(ms >= 1 && ms <= timeoutMax) {
			ms = 1
		}
		t := d.loop.add(fn, time.Duration(ms*float64(time.Millisecond)), false, nil)
		t.unref = true
		d.loop.refs--
		return t.obj
	}))
	// defer(fn) runs fn from the event loop, once the current callback
	// and its promise jobs are done (Node's callbacks of I/O).
	must(o.Set("defer", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(vm.NewTypeError("callback must be a function"))
		}
		d.loop.add(fn, 0, false, nil)
		return goja.Undefined()
	}))
	must(o.Set("isProxy", func(call goja.FunctionCall) goja.Value {
		obj, ok := call.Argument(0).(*goja.Object)
		return vm.ToValue(ok && obj.ExportType() == proxyType)
	}))
	// promiseState is [state, result] of a promise, for util.inspect.
	must(o.Set("promiseState", func(call goja.FunctionCall) goja.Value {
		p, ok := promiseOf(call.Argument(0))
		if !ok {
			return vm.NewArray("pending", goja.Undefined())
		}
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return vm.NewArray("fulfilled", p.Result())
		case goja.PromiseStateRejected:
			return vm.NewArray("rejected", p.Result())
		}
		return vm.NewArray("pending", goja.Undefined())
	}))
	must(o.Set("clearTimer", func(call goja.FunctionCall) goja.Value {
		d.loop.clearValue(call.Argument(0))
		return goja.Undefined()
	}))
	// reportError fails the run with err once the current callback is
	// done, as an uncaught exception ends a Node process: an event
	// listener's throw must not stop the other listeners.
	must(o.Set("reportError", func(call goja.FunctionCall) goja.Value {
		d.loop.report(call.Argument(0))
		return goja.Undefined()
	}))
	return o
}

// viewBytes is the bytes an ArrayBuffer or an ArrayBuffer view (a typed
// array, a DataView) shows, shared with it.
func viewBytes(v goja.Value) ([]byte, bool) {
	obj, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	switch x := obj.Export().(type) {
	case goja.ArrayBuffer:
		return x.Bytes(), true
	case []byte:
		return x, true
	}
	if buf, ok := obj.Get("buffer").Export().(goja.ArrayBuffer); ok {
		off, n := obj.Get("byteOffset").ToInteger(), obj.Get("byteLength").ToInteger()
		b := buf.Bytes()
		if off >= 0 && n >= 0 && off+n <= int64(len(b)) {
			return b[off : off+n], true
		}
	}
	return nil, false
}

// guestClock is performance's clock: milliseconds since the guest
// started (timeOrigin), from the wall clock (a guest can outlive the
// host process whose monotonic clock it started with), never going back.
type guestClock struct {
	origin time.Time
	last   float64
}

// start sets the origin once, in the guest's first entry: a guest resumed
// from hibernation keeps its own.
func (c *guestClock) start() {
	if c.origin.IsZero() {
		c.origin = time.Now().Round(0)
	}
}

func (c *guestClock) now() float64 {
	c.start()
	ms := float64(time.Now().Round(0).Sub(c.origin).Microseconds()) / 1000
	if ms < c.last {
		ms = c.last
	}
	c.last = ms
	return ms
}

func (c *guestClock) originMs() float64 {
	c.start()
	return float64(c.origin.UnixMicro()) / 1000
}
