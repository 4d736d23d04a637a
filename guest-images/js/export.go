package main

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"

	"github.com/dop251/goja"
)

// exportJSON turns a completion value into JSON. It follows JSON.stringify
// (toJSON, Dates as ISO strings, undefined/functions dropped inside objects and
// null inside arrays) except where JSON.stringify would lose or reject the
// value; there it writes a marker {"$type": ..., "$repr": ...}:
//   - top-level undefined: no value at all (has == false);
//   - a top-level function or symbol; BigInt anywhere; NaN and ±Infinity;
//   - a cycle (the repeated object); nesting deeper than maxExportDepth;
//   - Map and Set (as their entries) and a pending Promise.
//
// Getters and toJSON run (they are user code): call it where a throw or an
// exit is the current run's outcome (see driver.guard).
func exportJSON(vm *goja.Runtime, builtin *intrinsics, v goja.Value) (raw json.RawMessage, has bool, err error) {
	if v == nil || goja.IsUndefined(v) {
		return nil, false, nil
	}
	e := exporter{vm: vm, builtin: builtin, seen: map[*goja.Object]bool{}}
	if obj, ok := v.(*goja.Object); ok {
		if _, isFn := goja.AssertFunction(obj); isFn {
			e.marker("function", "[Function: "+obj.Get("name").String()+"]")
			return e.buf.Bytes(), true, nil
		}
	}
	if err := e.value(v, 0, false); err != nil {
		return nil, false, err
	}
	return e.buf.Bytes(), true, nil
}

const maxExportDepth = 64

type exporter struct {
	vm      *goja.Runtime
	builtin *intrinsics
	buf     bytes.Buffer
	seen    map[*goja.Object]bool
}

func (e *exporter) marker(typ, repr string) {
	e.buf.WriteString(`{"$type":`)
	e.str(typ)
	e.buf.WriteString(`,"$repr":`)
	e.str(repr)
	e.buf.WriteByte('}')
}

func (e *exporter) str(s string) {
	b, _ := json.Marshal(s)
	e.buf.Write(b)
}

// skippable reports whether JSON.stringify would omit v as an object member.
func skippable(v goja.Value) bool {
	if v == nil || goja.IsUndefined(v) {
		return true
	}
	if obj, ok := v.(*goja.Object); ok {
		_, isFn := goja.AssertFunction(obj)
		return isFn
	}
	_, isSym := v.(*goja.Symbol)
	return isSym
}

func (e *exporter) value(v goja.Value, depth int, inArray bool) error {
	if depth > maxExportDepth {
		e.marker("truncated", "[nested too deeply]")
		return nil
	}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		e.buf.WriteString("null")
		return nil
	}
	if _, isSym := v.(*goja.Symbol); isSym {
		if inArray {
			e.buf.WriteString("null")
		} else {
			e.marker("symbol", v.String())
		}
		return nil
	}
	obj, isObj := v.(*goja.Object)
	if !isObj {
		switch x := v.Export().(type) {
		case bool:
			e.buf.WriteString(strconv.FormatBool(x))
		case string:
			e.str(x)
		case int64:
			e.buf.WriteString(strconv.FormatInt(x, 10))
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				e.marker("number", v.String())
			} else {
				b, _ := json.Marshal(x)
				e.buf.Write(b)
			}
		default:
			if v.ExportType() != nil && v.ExportType().String() == "*big.Int" {
				e.marker("bigint", v.String()+"n")
			} else {
				e.str(v.String())
			}
		}
		return nil
	}
	if toJSON, ok := goja.AssertFunction(obj.Get("toJSON")); ok {
		r, err := toJSON(obj)
		if err != nil {
			return err
		}
		if r2, ok := r.(*goja.Object); !ok || r2 != obj {
			return e.value(r, depth+1, inArray)
		}
	}
	if _, isFn := goja.AssertFunction(obj); isFn {
		e.buf.WriteString("null")
		return nil
	}
	if e.seen[obj] {
		e.marker("circular", "[Circular]")
		return nil
	}
	e.seen[obj] = true
	defer delete(e.seen, obj)

	if p, ok := promiseOf(obj); ok {
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return e.value(p.Result(), depth+1, inArray)
		default:
			e.marker("Promise", "Promise { <pending> }")
			return nil
		}
	}
	switch kind := className(obj); kind {
	case "Array":
		e.buf.WriteByte('[')
		n := obj.Get("length").ToInteger()
		for i := int64(0); i < n; i++ {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			if err := e.value(obj.Get(strconv.FormatInt(i, 10)), depth+1, true); err != nil {
				return err
			}
		}
		e.buf.WriteByte(']')
		return nil
	case "Map", "Set":
		// The driver's own forEach reads the entries (no user iterator).
		var entries []any
		forEach := e.builtin.setForEach
		collect := func(call goja.FunctionCall) goja.Value {
			entries = append(entries, call.Argument(0))
			return goja.Undefined()
		}
		if kind == "Map" {
			forEach = e.builtin.mapForEach
			collect = func(call goja.FunctionCall) goja.Value {
				entries = append(entries, e.vm.NewArray(call.Argument(1), call.Argument(0)))
				return goja.Undefined()
			}
		}
		if _, err := forEach(obj, e.vm.ToValue(collect)); err != nil {
			return err
		}
		e.buf.WriteString(`{"$type":`)
		e.str(kind)
		e.buf.WriteString(`,"entries":`)
		if err := e.value(e.vm.NewArray(entries...), depth+1, false); err != nil {
			return err
		}
		e.buf.WriteByte('}')
		return nil
	}
	e.buf.WriteByte('{')
	first := true
	for _, k := range obj.Keys() {
		mv := obj.Get(k)
		if skippable(mv) {
			continue
		}
		if !first {
			e.buf.WriteByte(',')
		}
		first = false
		e.str(k)
		e.buf.WriteByte(':')
		if err := e.value(mv, depth+1, false); err != nil {
			return err
		}
	}
	e.buf.WriteByte('}')
	return nil
}

var (
	mapExportType = reflect.TypeOf([][2]any{})
	setExportType = reflect.TypeOf([]any{})
)

// className distinguishes arrays, maps and sets by what they are (goja's
// class name is "Object" for maps and sets), not by their constructor
// property, which user code can change.
func className(obj *goja.Object) string {
	if c := obj.ClassName(); c != "Object" {
		return c
	}
	switch obj.ExportType() {
	case mapExportType:
		return "Map"
	case setExportType:
		return "Set"
	}
	return "Object"
}
