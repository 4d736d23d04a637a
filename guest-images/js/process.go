package main

import (
	"math/big"
	"time"

	"github.com/dop251/goja"
)

// nodeVersion is the Node release whose built-ins the guest follows
// (packages read process.version(s) to pick code paths).
const nodeVersion = "20.0.0"

// installProcessInfo adds process's static facts and the calls packages
// make at load time: platform and versions, hrtime, uptime, memoryUsage,
// emitWarning, and the EventEmitter methods, which register nothing (the
// guest has no signals, and 'exit' and 'beforeExit' listeners don't run).
func (d *driver) installProcessInfo(p *goja.Object) {
	vm := d.vm
	must(p.Set("platform", "linux"))
	must(p.Set("arch", "wasm32"))
	must(p.Set("version", "v"+nodeVersion))
	versions := vm.NewObject()
	must(versions.Set("node", nodeVersion))
	must(p.Set("versions", versions))
	release := vm.NewObject()
	must(release.Set("name", "node"))
	must(p.Set("release", release))
	must(p.Set("pid", 1))
	must(p.Set("ppid", 0))
	must(p.Set("title", "wasmexec"))
	must(p.Set("execArgv", vm.NewArray()))
	must(p.Set("execPath", "/usr/local/bin/node"))
	must(p.Set("exitCode", goja.Undefined()))
	must(p.Set("hrtime", d.hrtime))
	hr := p.Get("hrtime").(*goja.Object)
	must(hr.Set("bigint", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(big.NewInt(time.Now().UnixNano()))
	}))
	must(p.Set("uptime", func(goja.FunctionCall) goja.Value { return vm.ToValue(d.clock.now() / 1000) }))
	must(p.Set("memoryUsage", func(goja.FunctionCall) goja.Value {
		o := vm.NewObject()
		for _, k := range []string{"rss", "heapTotal", "heapUsed", "external", "arrayBuffers"} {
			_ = o.Set(k, 0)
		}
		return o
	}))
	must(p.Set("cpuUsage", func(goja.FunctionCall) goja.Value {
		o := vm.NewObject()
		_ = o.Set("user", 0)
		_ = o.Set("system", 0)
		return o
	}))
	must(p.Set("umask", func(goja.FunctionCall) goja.Value { return vm.ToValue(0o22) }))
	must(p.Set("emitWarning", func(call goja.FunctionCall) goja.Value {
		w := call.Argument(0)
		msg := w.String()
		if o, ok := w.(*goja.Object); ok {
			msg = errorHeader(o)
		} else if t := call.Argument(1); !goja.IsUndefined(t) {
			if _, isStr := t.Export().(string); isStr {
				msg = t.String() + ": " + msg
			} else {
				msg = "Warning: " + msg
			}
		} else {
			msg = "Warning: " + msg
		}
		d.stderr.writeLine("(node) " + msg)
		return goja.Undefined()
	}))
	self := func(call goja.FunctionCall) goja.Value { return p }
	for _, name := range []string{"on", "once", "off", "addListener", "removeListener", "removeAllListeners", "prependListener", "prependOnceListener", "setMaxListeners"} {
		must(p.Set(name, self))
	}
	must(p.Set("emit", func(goja.FunctionCall) goja.Value { return vm.ToValue(false) }))
	must(p.Set("listeners", func(goja.FunctionCall) goja.Value { return vm.NewArray() }))
	must(p.Set("listenerCount", func(goja.FunctionCall) goja.Value { return vm.ToValue(0) }))
}

// hrtime is process.hrtime([previous]): [seconds, nanoseconds].
func (d *driver) hrtime(call goja.FunctionCall) goja.Value {
	ns := time.Now().UnixNano()
	if prev, ok := call.Argument(0).(*goja.Object); ok {
		ns -= prev.Get("0").ToInteger()*1e9 + prev.Get("1").ToInteger()
	}
	return d.vm.NewArray(ns/1e9, ns%1e9)
}
