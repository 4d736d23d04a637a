#!/usr/bin/env python3
"""Iterate arrays without iterator result objects.

for-of, spread and destructuring over an array went through the iterator
protocol in full: each step called %ArrayIteratorPrototype%.next through a
FunctionCall, which made a {value, done} object, whose two properties were
then read back. When the iterator is an array iterator and its next is still
the built-in one, the step now reads the array directly (the same steps as
next: length, index, element, in that order, so getters and proxies see
what they saw before). Package loads that build tables with for-of
(typed-function in mathjs) spent ~11% of their CPU in those objects.
Applied by build.sh to a private copy of goja; fails loudly if goja changes
shape.
"""
import sys

from replace_once import replace_once

goja = sys.argv[1]


def patch(rel, pairs):
    replace_once("patch-goja-iter", goja + "/" + rel, pairs)


patch("runtime.go", [
    ("\tArrayIteratorPrototype        *Object\n",
     "\tArrayIteratorPrototype        *Object\n\tarrayIterNext                 *Object // the built-in %ArrayIteratorPrototype%.next\n"),
    ("type iteratorRecord struct {\n\titerator *Object\n\tnext     func(FunctionCall) Value\n}\n",
     "type iteratorRecord struct {\n\titerator *Object\n\tnext     func(FunctionCall) Value\n\t// arrayIter is the iterator when it is an array iterator whose next\n\t// is the built-in one: steps read the array directly.\n\tarrayIter *arrayIterObject\n}\n"),
    ("\tvar next func(FunctionCall) Value\n\n\tif obj, ok := iter.self.getStr(\"next\", nil).(*Object); ok {\n\t\tif call, ok := obj.self.assertCallable(); ok {\n\t\t\tnext = call\n\t\t}\n\t}\n\n\treturn &iteratorRecord{\n\t\titerator: iter,\n\t\tnext:     next,\n\t}\n",
     "\tvar next func(FunctionCall) Value\n\tvar arrayIter *arrayIterObject\n\n\tif obj, ok := iter.self.getStr(\"next\", nil).(*Object); ok {\n\t\tif call, ok := obj.self.assertCallable(); ok {\n\t\t\tnext = call\n\t\t}\n\t\tif obj == r.global.arrayIterNext {\n\t\t\tarrayIter, _ = iter.self.(*arrayIterObject)\n\t\t}\n\t}\n\n\treturn &iteratorRecord{\n\t\titerator:  iter,\n\t\tnext:      next,\n\t\tarrayIter: arrayIter,\n\t}\n"),
    ("func (ir *iteratorRecord) step() (value Value, ex *Exception) {\n\tr := ir.iterator.runtime\n\tex = r.vm.try(func() {\n",
     "func (ir *iteratorRecord) step() (value Value, ex *Exception) {\n\tr := ir.iterator.runtime\n\tif ai := ir.arrayIter; ai != nil {\n\t\tex = r.vm.try(func() {\n\t\t\tif v, done := ai.step(); done {\n\t\t\t\tir.close()\n\t\t\t} else {\n\t\t\t\tvalue = v\n\t\t\t}\n\t\t})\n\t\treturn\n\t}\n\tex = r.vm.try(func() {\n"),
    ("func (ir *iteratorRecord) iterate(step func(Value)) {\n\tr := ir.iterator.runtime\n\tfor {\n",
     "func (ir *iteratorRecord) iterate(step func(Value)) {\n\tr := ir.iterator.runtime\n\tfor ir.arrayIter != nil {\n\t\tvalue, done := ir.arrayIter.step()\n\t\tif done {\n\t\t\treturn\n\t\t}\n\t\tret := tryFunc(func() {\n\t\t\tstep(value)\n\t\t})\n\t\tif ret != nil {\n\t\t\t_ = tryFunc(func() {\n\t\t\t\tir.returnIter()\n\t\t\t})\n\t\t\tpanic(ret)\n\t\t}\n\t}\n\tfor {\n"),
    ("func (ir *iteratorRecord) close() {\n\tir.iterator = nil\n\tir.next = nil\n}\n",
     "func (ir *iteratorRecord) close() {\n\tir.iterator = nil\n\tir.next = nil\n\tir.arrayIter = nil\n}\n"),
    ("\tir.iterator = nil\n\tir.next = nil\n}\n\nfunc (ir *iteratorRecord) close() {",
     "\tir.iterator = nil\n\tir.next = nil\n\tir.arrayIter = nil\n}\n\nfunc (ir *iteratorRecord) close() {"),
])

patch("builtin_array.go", [
    ("\to._putProp(\"next\", r.newNativeFunc(r.arrayIterProto_next, \"next\", 0), true, false, true)\n",
     "\tr.global.arrayIterNext = r.newNativeFunc(r.arrayIterProto_next, \"next\", 0)\n\to._putProp(\"next\", r.global.arrayIterNext, true, false, true)\n"),
])

patch("array.go", [
    ("func (r *Runtime) createArrayIterator(",
     """// step is next without the result object: the value, or done.
func (ai *arrayIterObject) step() (Value, bool) {
	if ai.obj == nil {
		return nil, true
	}
	if ta, ok := ai.obj.self.(*typedArrayObject); ok {
		ta.viewedArrayBuf.ensureNotDetached(true)
	}
	l := toLength(ai.obj.self.getStr("length", nil))
	index := ai.nextIdx
	if index >= l {
		ai.obj = nil
		return nil, true
	}
	ai.nextIdx++
	idxVal := valueInt(index)
	if ai.kind == iterationKindKey {
		return idxVal, false
	}
	elementValue := nilSafe(ai.obj.self.getIdx(idxVal, nil))
	if ai.kind == iterationKindValue {
		return elementValue, false
	}
	return ai.val.runtime.newArrayValues([]Value{idxVal, elementValue}), false
}

func (r *Runtime) createArrayIterator("""),
])
