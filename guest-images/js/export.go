package main

import (
	"bytes"
	"encoding/json"
	"math"
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
func exportJSON(vm *goja.Runtime, v goja.Value) (raw json.RawMessage, has bool, err error) {
	if v == nil || goja.IsUndefined(v) {
		return nil, false, nil
	}
	e := exporter{vm: vm, seen: map[*goja.Object]bool{}}
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
	vm   *goja.Runtime
	buf  bytes.Buffer
	seen map[*goja.Object]bool
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

	switch x := obj.Export().(type) {
	case *goja.Promise:
		switch x.State() {
		case goja.PromiseStateFulfilled:
			return e.value(x.Result(), depth+1, inArray)
		default:
			e.marker("Promise", "Promise { <pending> }")
			return nil
		}
	}
	switch className(e.vm, obj) {
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
		arrayFrom, _ := goja.AssertFunction(e.vm.Get("Array").ToObject(e.vm).Get("from"))
		entries, err := arrayFrom(goja.Undefined(), obj)
		if err != nil {
			return err
		}
		e.buf.WriteString(`{"$type":`)
		e.str(className(e.vm, obj))
		e.buf.WriteString(`,"entries":`)
		if err := e.value(entries, depth+1, false); err != nil {
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

// className distinguishes arrays, maps and sets (goja reports "Object" for
// the latter two).
func className(vm *goja.Runtime, obj *goja.Object) string {
	if c := obj.ClassName(); c == "Array" {
		return c
	}
	for _, name := range []string{"Map", "Set"} {
		if ctor, ok := vm.Get(name).(*goja.Object); ok && obj.Get("constructor") != nil && obj.Get("constructor").SameAs(ctor) {
			return name
		}
	}
	return "Object"
}
