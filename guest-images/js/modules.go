package main

import (
	"embed"
	"fmt"
	"net/url"
	"os"
	"path"
	"strings"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

// The module system: CommonJS as Node has it (a module cache, require
// relative to each module's directory, module.exports), with ES modules
// converted to CommonJS as they load (esm.go), files resolved by Node's
// rules (resolve.go) and node: built-ins (builtins/ and builtinModule).
//
// A context keeps its guest, so its module cache lives across cells, as in
// Node's REPL: a module is evaluated once and later imports share it. A
// file whose size or modification time changed since it was loaded is
// loaded again (agents edit files between cells).

//go:embed builtins
var builtinFS embed.FS

type moduleRecord struct {
	module      *goja.Object
	size, mtime int64
	// shipped: loaded from a shipped source (sources.go), so size and
	// mtime are unknown until the sources are dropped.
	shipped bool
}

type modules struct {
	d        *driver
	cache    map[string]*moduleRecord // by absolute path (or builtin:name)
	builtins map[string]goja.Value
	res      resolver
	errCtor  goja.Constructor
	json     goja.Callable // JSON.parse
	// sources are the request's shipped files, by path (sources.go).
	sources map[string]string
}

func newModules(d *driver) *modules {
	m := &modules{d: d, cache: map[string]*moduleRecord{}, builtins: map[string]goja.Value{}}
	m.errCtor, _ = goja.AssertConstructor(d.vm.Get("Error"))
	m.json, _ = goja.AssertFunction(d.vm.Get("JSON").(*goja.Object).Get("parse"))
	// Buffer is a global, as in Node, made on first use; so are URL and
	// URLSearchParams (node:url) and TextEncoder and TextDecoder
	// (builtins/text).
	for name, module := range map[string]string{"Buffer": "buffer", "URL": "url", "URLSearchParams": "url", "TextEncoder": textModule, "TextDecoder": textModule} {
		d.lazyGlobal(name, func() goja.Value {
			return m.builtin(module).(*goja.Object).Get(name)
		})
	}
	must(d.process.Set("cwd", getwd))
	return m
}

// begin starts a request: package.json files are read afresh.
func (m *modules) begin() { m.res.pkgs = nil }

// A module converted under a tsconfig is cached like any other: a later
// run with another tsconfig reuses it until the file changes.

// throw raises a JS Error with a Node error code.
func (m *modules) throw(code, format string, args ...any) {
	e, err := m.errCtor(nil, m.d.vm.ToValue(fmt.Sprintf(format, args...)))
	if err != nil {
		panic(err)
	}
	_ = e.Set("code", code)
	panic(e)
}

// throwType and throwRange raise a TypeError or RangeError with a Node
// error code.
func (m *modules) throwType(code, format string, args ...any) {
	e := m.d.vm.NewTypeError(fmt.Sprintf(format, args...))
	_ = e.Set("code", code)
	panic(e)
}

func (m *modules) throwRange(code, format string, args ...any) {
	ctor, _ := goja.AssertConstructor(m.d.vm.Get("RangeError"))
	e, err := ctor(nil, m.d.vm.ToValue(fmt.Sprintf(format, args...)))
	if err != nil {
		panic(err)
	}
	_ = e.Set("code", code)
	panic(e)
}

// requireFn returns require for code in dir. kind is "import" for code
// converted from ES module syntax, whose imports became require calls: they
// resolve with the "import" conditions.
func (m *modules) requireFn(dir, kind string) goja.Value {
	vm := m.d.vm
	req := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		spec := call.Argument(0).String()
		return m.require(spec, dir, kind)
	}).(*goja.Object)
	// A FunctionCall function: goja wraps any other signature by
	// reflection, which cost more than the rest of a module's require.
	_ = req.Set("resolve", func(call goja.FunctionCall) goja.Value {
		spec := call.Argument(0).String()
		if name, ok := builtinName(spec); ok {
			return vm.ToValue(name)
		}
		p, err := m.res.resolve(spec, dir, "require")
		if err != nil {
			m.throw("MODULE_NOT_FOUND", "Cannot find module '%s' from '%s'", spec, dir)
		}
		return vm.ToValue(p)
	})
	_ = req.Set("cache", vm.NewObject())
	return req
}

// require loads spec seen from dir; kind is "import" or "require".
func (m *modules) require(spec, dir, kind string) goja.Value {
	if name, ok := builtinName(spec); ok {
		return m.builtin(name)
	}
	p, err := m.res.resolve(spec, dir, kind)
	if err != nil {
		m.throw("MODULE_NOT_FOUND", "Cannot find module '%s' from '%s'", spec, dir)
	}
	return m.load(p)
}

// load evaluates the module at p (an absolute path), once.
func (m *modules) load(p string) goja.Value {
	if src, ok := m.sources[p]; ok {
		if rec := m.cache[p]; rec != nil && rec.shipped {
			return rec.module.Get("exports")
		}
		return m.evaluate(p, src, &moduleRecord{shipped: true})
	}
	st, err := os.Stat(p)
	if err != nil {
		m.throw("MODULE_NOT_FOUND", "Cannot find module '%s'", p)
	}
	if rec := m.cache[p]; rec != nil && !rec.shipped && rec.size == st.Size() && rec.mtime == st.ModTime().UnixNano() {
		return rec.module.Get("exports")
	}
	src, err := os.ReadFile(p)
	if err != nil {
		m.throw("MODULE_NOT_FOUND", "Cannot read module '%s': %v", p, err)
	}
	rec := &moduleRecord{size: st.Size(), mtime: st.ModTime().UnixNano()}
	return m.evaluate(p, string(src), rec)
}

// evaluate runs a module's source; rec is cached before it runs, so a
// cycle sees the exports as far as they are.
func (m *modules) evaluate(p, src string, rec *moduleRecord) goja.Value {
	vm := m.d.vm
	module := vm.NewObject()
	exports := vm.NewObject()
	_ = module.Set("exports", exports)
	_ = module.Set("id", p)
	_ = module.Set("filename", p)
	_ = module.Set("loaded", false)
	rec.module = module
	m.cache[p] = rec
	ok := false
	defer func() {
		if !ok {
			delete(m.cache, p)
		}
	}()
	if strings.HasSuffix(p, ".json") {
		v, err := m.json(nil, vm.ToValue(src))
		if err != nil {
			panic(err)
		}
		_ = module.Set("exports", v)
		ok = true
		return v
	}
	fn, kind, helpers := m.compile(p, src)
	dir := path.Dir(p)
	if strings.HasPrefix(p, builtinPrefix) {
		dir = path.Dir(strings.TrimPrefix(p, builtinPrefix))
	}
	call, _ := goja.AssertFunction(fn)
	args := append([]goja.Value{exports, m.requireFnAt(p, dir, kind), module, vm.ToValue(p), vm.ToValue(dir)}, helpers...)
	if _, err := call(exports, args...); err != nil {
		panic(err)
	}
	_ = module.Set("loaded", true)
	ok = true
	return module.Get("exports")
}

// requireFnAt is require for a module at p: an embedded built-in requires
// its own files.
func (m *modules) requireFnAt(p, dir, kind string) goja.Value {
	if !strings.HasPrefix(p, builtinPrefix) {
		return m.requireFn(dir, kind)
	}
	return m.d.vm.ToValue(func(spec string) goja.Value {
		if strings.HasPrefix(spec, " ") { // the driver's own (nativeModule, webModule)
			return m.builtin(spec)
		}
		spec = strings.TrimSuffix(spec, "/") // require("punycode/")
		if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
			f := path.Join(dir, spec)
			if !strings.HasSuffix(f, ".js") && !strings.HasSuffix(f, ".json") {
				f += ".js"
			}
			return m.embeddedAt(f, spec)
		}
		// An embedded module's own dependencies are embedded beside it.
		dep := builtinPrefix + "builtins/deps/" + spec + "/index.js"
		if rec := m.cache[dep]; rec != nil {
			return rec.module.Get("exports")
		}
		if b, err := builtinFS.ReadFile(strings.TrimPrefix(dep, builtinPrefix)); err == nil {
			return m.evaluate(dep, string(b), &moduleRecord{})
		}
		return m.require(spec, "/", "require")
	})
}

const (
	modPrefixBare = "(function (exports, require, module, __filename, __dirname"
	modPrefix     = modPrefixBare + ") { "
	modSuffix     = "\n})"
)

// compile compiles a module's source to its wrapper function. ES module
// syntax (and TypeScript) goes through esbuild first; plain CommonJS is
// compiled as it is, and only a syntax error sends it to esbuild. kind is
// the require kind for the module's own require calls; helpers are the
// shared esbuild helpers the wrapper takes after its usual parameters.
func (m *modules) compile(p, src string) (goja.Value, string, []goja.Value) {
	src = stripShebang(src)
	needsTransform := loaderFor(p) != api.LoaderJS || strings.HasSuffix(p, ".mjs")
	if !needsTransform {
		if prg, err := goja.Compile(p, modPrefix+src+modSuffix, false); err == nil {
			v, err := m.d.vm.RunProgram(prg)
			if err != nil {
				panic(err)
			}
			return v, "require", nil
		}
	}
	t, msg := transformESM(src, p)
	if msg != nil {
		line, col := 0, 0
		if msg.Location != nil {
			line, col = msg.Location.Line, msg.Location.Column+1
		}
		e, _ := m.errCtor(nil, m.d.vm.ToValue(fmt.Sprintf("%s (%s:%d:%d)", msg.Text, p, line, col)))
		_ = e.Set("name", "SyntaxError")
		panic(e)
	}
	prefix := modPrefix
	var helpers []goja.Value
	if len(t.helpers) > 0 {
		// The helpers' binding was the module's first line, which maps to
		// no source: a longer line 1 moves nothing that has a position.
		prefix = modPrefixBare + ", " + strings.Join(t.helpers, ", ") + ") { "
		for _, name := range t.helpers {
			helpers = append(helpers, sharedHelperValues[name])
		}
	}
	prg, err := goja.Compile(p, prefix+t.body+modSuffix+"\n"+t.sourceMap, false)
	if err != nil {
		panic(m.d.vm.NewGoError(err))
	}
	v, err := m.d.vm.RunProgram(prg)
	if err != nil {
		panic(err)
	}
	// A CommonJS file that went through esbuild only for syntax goja
	// lacks (an async generator) keeps require's conditions: its require
	// calls are its own, not converted imports (which esbuild wraps in
	// __toESM), and it has no exports esbuild converted (__toCommonJS).
	kind := "import"
	if !needsTransform && !strings.Contains(t.body, "__toESM(") && !strings.Contains(t.body, "__toCommonJS(") {
		kind = "require"
	}
	return v, kind, helpers
}

func stripShebang(src string) string {
	if strings.HasPrefix(src, "#!") {
		return "//" + src[2:]
	}
	return src
}

// textModule names TextEncoder and TextDecoder's module among the
// built-ins: not a node: name, so nothing can import it.
const textModule = " text"

// builtinPrefix marks the paths of embedded built-in modules.
const builtinPrefix = "builtin:"

// unsupported are node: modules a sandbox can't offer, with the reason.
var unsupported = map[string]string{
	"child_process":       "wasmexec runs no processes from JavaScript",
	"cluster":             "wasmexec runs no processes from JavaScript",
	"worker_threads":      "the guest has one thread",
	"net":                 "the sandbox has no sockets",
	"tls":                 "the sandbox has no sockets",
	"dgram":               "the sandbox has no sockets",
	"dns":                 "the sandbox has no network",
	"http":                "the sandbox has no network",
	"https":               "the sandbox has no network",
	"http2":               "the sandbox has no network",
	"vm":                  "the sandbox offers no nested JavaScript contexts",
	"inspector":           "there is no debugger in the sandbox",
	"v8":                  "the engine is goja, not V8",
	"stream/web":          "the guest has no web streams (ReadableStream, WritableStream)",
	"repl":                "the sandbox runs no interactive shell",
	"readline":            "not implemented (read input with the stdin global: stdin.readLine(), stdin.read())",
	"readline/promises":   "not implemented (read input with the stdin global: stdin.readLine(), stdin.read())",
	"async_hooks":         "not implemented: goja tracks no asynchronous context",
	"diagnostics_channel": "not implemented",
	"domain":              "deprecated in Node, not implemented",
	"trace_events":        "there is no tracing in the sandbox",
	"wasi":                "the guest is a WASI module itself and runs no nested ones",
	"constants":           "deprecated in Node, not implemented (use os.constants and fs.constants)",
	"test":                "not implemented",
}

// builtinName says whether spec names a built-in ("node:x" or "x").
func builtinName(spec string) (string, bool) {
	name := strings.TrimPrefix(spec, "node:")
	if builtinSet[name] {
		return name, true
	}
	if _, ok := unsupported[name]; ok {
		return name, true
	}
	if strings.HasPrefix(spec, "node:") {
		return name, true
	}
	return "", false
}

// builtin returns the built-in module name, made on first use.
func (m *modules) builtin(name string) goja.Value {
	if v, ok := m.builtins[name]; ok {
		return v
	}
	if why, ok := unsupported[name]; ok {
		m.throw("ERR_UNSUPPORTED_BUILTIN", "node:%s is not available in wasmexec: %s", name, why)
	}
	vm := m.d.vm
	var v goja.Value
	switch name {
	case " fs": // the driver's own, the global
		v = m.d.fs
	case "fs":
		v = m.embedded("fs/index.js")
	case "fs/promises":
		v = m.builtin("fs").(*goja.Object).Get("promises")
	case "path", "path/posix":
		v = m.embedded("path/index.js")
	case "events":
		v = m.embedded("events/index.js")
	case "querystring":
		v = m.embedded("querystring/index.js")
	case "process":
		v = m.d.process
	case "timers":
		t := vm.NewObject()
		for _, n := range []string{"setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate", "queueMicrotask"} {
			if f := vm.GlobalObject().Get(n); f != nil {
				_ = t.Set(n, f)
			}
		}
		v = t
	case "timers/promises":
		v = m.embedded("timers/promises.js")
	case "util":
		v = m.embedded("util/index.js")
	case "console":
		v = vm.GlobalObject().Get("console")
	case "punycode":
		v = m.embedded("deps/punycode/index.js")
	case "sys":
		v = m.builtin("util")
	case "util/types":
		v = m.builtin("util").(*goja.Object).Get("types")
	case "stream":
		v = m.embedded("stream/lib/stream.js")
	case "stream/promises":
		v = m.embedded("stream/lib/stream/promises.js")
	case "zlib":
		v = m.embedded("zlib/index.js")
	case " zlib":
		v = m.zlibNative()
	case "perf_hooks":
		v = m.embedded("web/performance.js")
	case "tty":
		v = m.embedded("tty/index.js")
	case "module":
		v = m.nodeModule()
	case "os":
		v = m.embedded("os/index.js")
	case "buffer":
		v = m.embedded("buffer/index.js")
	case "string_decoder":
		v = m.embedded("string_decoder/index.js")
	case "assert", "assert/strict":
		v = m.embedded("assert/index.js")
	case "crypto":
		v = m.crypto()
	case "url":
		v = m.embedded("url/index.js")
	case textModule:
		v = m.embedded("text/index.js")
	case nativeModule:
		v = m.native()
	case intlModule:
		v = m.embedded("intl/index.js")
	case intlNative:
		v = m.intlNativeObject()
	default:
		if w, ok := strings.CutPrefix(name, webModule("")); ok {
			v = m.embedded("web/" + w + ".js")
			break
		}
		m.throw("ERR_UNKNOWN_BUILTIN_MODULE", "node:%s is not available in wasmexec (not implemented; see the README for the built-ins there are)", name)
	}
	m.builtins[name] = v
	return v
}

// embedded loads builtins/file, once: a file one built-in requires and
// another names is the same module.
// nodeModule is node:module's subset: createRequire, builtinModules and
// isBuiltin.
func (m *modules) nodeModule() goja.Value {
	vm := m.d.vm
	o := vm.NewObject()
	must(o.Set("createRequire", func(call goja.FunctionCall) goja.Value {
		from := call.Argument(0)
		p := from.String()
		if obj, ok := from.(*goja.Object); ok && obj.Get("href") != nil {
			p = obj.Get("href").String()
		}
		if rest, ok := strings.CutPrefix(p, "file://"); ok {
			if u, err := url.PathUnescape(rest); err == nil {
				p = u
			}
		}
		if !path.IsAbs(p) {
			m.throwType("ERR_INVALID_ARG_VALUE", "The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received %s", describe(from))
		}
		dir := p
		if !strings.HasSuffix(p, "/") {
			dir = path.Dir(p)
		}
		return m.requireFn(dir, "require")
	}))
	names := []any{}
	for _, n := range builtinList {
		names = append(names, n)
	}
	must(o.Set("builtinModules", vm.NewArray(names...)))
	must(o.Set("isBuiltin", func(call goja.FunctionCall) goja.Value {
		_, ok := builtinName(call.Argument(0).String())
		return vm.ToValue(ok && strings.TrimPrefix(call.Argument(0).String(), "node:") != "")
	}))
	return o
}

// builtinList is what node:module's builtinModules lists: the built-ins
// the guest has.
var builtinList = []string{"assert", "assert/strict", "buffer", "crypto", "events", "fs", "fs/promises", "module",
	"os", "path", "path/posix", "perf_hooks", "process", "querystring", "stream", "stream/promises", "string_decoder",
	"timers", "timers/promises", "tty", "url", "util", "util/types", "zlib", "console", "punycode", "sys"}

var builtinSet = func() map[string]bool {
	set := map[string]bool{}
	for _, n := range builtinList {
		set[n] = true
	}
	return set
}()

func (m *modules) embedded(file string) goja.Value {
	return m.embeddedAt("builtins/"+file, file)
}

// embeddedAt loads the embedded file f (a path under builtins/); spec is
// how it was asked for, for the error.
func (m *modules) embeddedAt(f, spec string) goja.Value {
	key := builtinPrefix + f
	if rec := m.cache[key]; rec != nil {
		return rec.module.Get("exports")
	}
	b, err := builtinFS.ReadFile(f)
	if err != nil {
		m.throw("MODULE_NOT_FOUND", "Cannot find module '%s'", spec)
	}
	return m.evaluate(key, string(b), &moduleRecord{})
}
