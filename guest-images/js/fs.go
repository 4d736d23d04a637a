package main

import (
	"os"
	"path"

	"github.com/dop251/goja"
)

// installFS adds a small synchronous `fs` global (a subset of Node's) over
// WASI. The guest sees only what the host preopened: /workspace (its cwd)
// and nothing of the host's file system. It is the only way JavaScript
// changes the file system, so every call that does first drops the
// request's shipped sources (sources.go).
func (d *driver) installFS(g *goja.Object) {
	vm := d.vm
	throw := func(err error) {
		panic(vm.NewGoError(err))
	}
	fs := vm.NewObject()
	must(fs.Set("readFileSync", func(p string, enc goja.Value) goja.Value {
		b, err := os.ReadFile(p)
		if err != nil {
			throw(err)
		}
		if enc == nil || goja.IsUndefined(enc) || goja.IsNull(enc) {
			return vm.ToValue(vm.NewArrayBuffer(b))
		}
		return vm.ToValue(string(b))
	}))
	must(fs.Set("writeFileSync", func(p string, data goja.Value) {
		d.mods.dropSources()
		var b []byte
		if ab, ok := data.Export().(goja.ArrayBuffer); ok {
			b = ab.Bytes()
		} else {
			b = []byte(data.String())
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			throw(err)
		}
	}))
	must(fs.Set("appendFileSync", func(p, data string) {
		d.mods.dropSources()
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err == nil {
			_, err = f.WriteString(data)
			f.Close()
		}
		if err != nil {
			throw(err)
		}
	}))
	must(fs.Set("existsSync", func(p string) bool {
		_, err := os.Stat(p)
		return err == nil
	}))
	must(fs.Set("readdirSync", func(p string) []string {
		des, err := os.ReadDir(p)
		if err != nil {
			throw(err)
		}
		names := make([]string, len(des))
		for i, de := range des {
			names[i] = de.Name()
		}
		return names
	}))
	must(fs.Set("mkdirSync", func(p string, opts goja.Value) {
		d.mods.dropSources()
		var err error
		if o, ok := opts.(*goja.Object); ok && o.Get("recursive") != nil && o.Get("recursive").ToBoolean() {
			err = os.MkdirAll(p, 0o755)
		} else {
			err = os.Mkdir(p, 0o755)
		}
		if err != nil {
			throw(err)
		}
	}))
	must(fs.Set("unlinkSync", func(p string) {
		d.mods.dropSources()
		if err := os.Remove(p); err != nil {
			throw(err)
		}
	}))
	must(fs.Set("rmSync", func(p string) {
		d.mods.dropSources()
		if err := os.RemoveAll(p); err != nil {
			throw(err)
		}
	}))
	// fs.promises (and node:fs/promises): the same calls, settled at once.
	promises := vm.NewObject()
	for _, name := range []string{"readFile", "writeFile", "appendFile", "readdir", "mkdir", "unlink", "rm"} {
		syncFn, _ := goja.AssertFunction(fs.Get(name + "Sync"))
		must(promises.Set(name, func(call goja.FunctionCall) goja.Value {
			p, resolve, reject := vm.NewPromise()
			v, err := syncFn(fs, call.Arguments...)
			if err != nil {
				if ex, ok := err.(*goja.Exception); ok {
					_ = reject(ex.Value())
				} else {
					_ = reject(vm.NewGoError(err))
				}
			} else {
				_ = resolve(v)
			}
			return vm.ToValue(p)
		}))
	}
	must(promises.Set("access", func(p string) goja.Value {
		pr, resolve, reject := vm.NewPromise()
		if _, err := os.Stat(p); err != nil {
			_ = reject(vm.NewGoError(err))
		} else {
			_ = resolve(goja.Undefined())
		}
		return vm.ToValue(pr)
	}))
	must(fs.Set("promises", promises))
	d.fs = fs
	must(g.Set("fs", fs))
	must(g.DefineAccessorProperty("__dirname", vm.ToValue(func() string { return path.Clean(getwd()) }), nil, goja.FLAG_FALSE, goja.FLAG_TRUE))
}
