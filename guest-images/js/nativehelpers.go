package main

import (
	"reflect"

	"github.com/dop251/goja"
)

// Every ES module the guest loads calls esbuild's __export (its exports
// as getters) and __toCommonJS (a copy of them with __esModule), and an
// import of CommonJS calls __toESM, which copies too (__copyProps). In goja
// they are slow: a for-in walks the prototype chain through maps, a for-of
// runs the iterator protocol, and a module with one export spent ~420 k
// instructions in the two (a trivial cell is ~240 k). The shared helpers
// (helpers.go) get Go versions of these three, doing the same steps in
// the same order (the same traps, for a Proxy), and esbuild's own
// functions for what the fast paths leave out.

// nativeHelpers holds what the Go helpers need: esbuild's versions for
// the cases they hand back, and intrinsics taken before any user code ran.
type nativeHelpers struct {
	vm          *goja.Runtime
	jsExport    goja.Callable
	jsCopyProps goja.Callable
	objectProto *goja.Object
	hasOwn      goja.Callable // Object.prototype.hasOwnProperty
}

// object returns the Go helpers as a JS object (export, copyProps,
// toCommonJS).
func (h *nativeHelpers) object() *goja.Object {
	o := h.vm.NewObject()
	must(o.Set("export", h.export))
	must(o.Set("copyProps", h.copyProps))
	must(o.Set("toCommonJS", h.toCommonJS))
	return o
}

// callJS calls esbuild's own version of a helper with call's arguments.
func (h *nativeHelpers) callJS(fn goja.Callable, call goja.FunctionCall) goja.Value {
	v, err := fn(goja.Undefined(), call.Arguments...)
	if err != nil {
		panic(err)
	}
	return v
}

// export is __export(target, all): for (var name in all)
// __defProp(target, name, { get: all[name], enumerable: true }), all being
// an object literal of getters. It takes all's own enumerable keys, as a
// module namespace has them: esbuild's for-in would also take enumerable
// properties someone added to Object.prototype (and fail on them), and
// making sure there are none costs as much as the for-in (Object.prototype
// is built lazily and enumerating it builds it).
func (h *nativeHelpers) export(call goja.FunctionCall) goja.Value {
	target, ok := call.Argument(0).(*goja.Object)
	all, ok2 := call.Argument(1).(*goja.Object)
	if !ok || !ok2 || all.Prototype() != h.objectProto {
		return h.callJS(h.jsExport, call)
	}
	names := all.Keys()
	getters := make([]goja.Value, len(names))
	for i, name := range names {
		getters[i] = all.Get(name)
		if _, ok := goja.AssertFunction(getters[i]); !ok {
			return h.callJS(h.jsExport, call) // it throws as esbuild's does
		}
	}
	for i, name := range names {
		if err := target.DefineAccessorProperty(name, getters[i], nil, goja.FLAG_NOT_SET, goja.FLAG_TRUE); err != nil {
			panic(err)
		}
	}
	return goja.Undefined()
}

// copyProps is __copyProps(to, from, except): for each own property name
// key of from (an object or a function) that to lacks and that is not
// except, to gets a getter of from[key], enumerable as key is on from.
// The fast path takes two objects that are not proxies, for which no
// step runs user code (getters are only installed), so whether a key is
// enumerable is known from from's keys up front; a proxy goes to
// esbuild's version, whose traps run in its own order.
func (h *nativeHelpers) copyProps(call goja.FunctionCall) goja.Value {
	to := call.Argument(0)
	from, ok := call.Argument(1).(*goja.Object)
	if !ok {
		return to // not an object: esbuild's copies nothing either
	}
	toObj, ok := to.(*goja.Object)
	if !ok || toObj.ExportType() == proxyType || from.ExportType() == proxyType {
		return h.callJS(h.jsCopyProps, call)
	}
	except := call.Argument(2)
	enumerable := map[string]bool{}
	for _, key := range from.Keys() {
		enumerable[key] = true
	}
	for _, key := range from.GetOwnPropertyNames() {
		k := h.vm.ToValue(key)
		has, err := h.hasOwn(toObj, k)
		if err != nil {
			panic(err)
		}
		if has.ToBoolean() || k.StrictEquals(except) {
			continue
		}
		flag := goja.FLAG_FALSE
		if enumerable[key] {
			flag = goja.FLAG_TRUE
		}
		key := key
		get := h.vm.ToValue(func(goja.FunctionCall) goja.Value { return from.Get(key) })
		if err := toObj.DefineAccessorProperty(key, get, nil, goja.FLAG_NOT_SET, flag); err != nil {
			panic(err)
		}
	}
	return to
}

// proxyType is what ExportType says of a Proxy.
var proxyType = reflect.TypeOf(goja.Proxy{})

// toCommonJS is __toCommonJS(mod): __copyProps(__defProp({}, "__esModule",
// { value: true }), mod).
func (h *nativeHelpers) toCommonJS(call goja.FunctionCall) goja.Value {
	to := h.vm.NewObject()
	must(to.DefineDataProperty("__esModule", h.vm.ToValue(true), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	return h.copyProps(goja.FunctionCall{This: goja.Undefined(), Arguments: []goja.Value{to, call.Argument(0)}})
}
