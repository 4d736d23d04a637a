#!/usr/bin/env python3
"""Fewer Go maps in goja objects.

Three changes, each about goja's map of an object's named properties: an
array's length stays out of it, so does a function's length and name until
something looks at the function's properties, and the map is made on an
object's first property rather than with the object (the lazy functions
and most arrays never have one). Together they took mathjs's live heap
from 96 to 70 MiB (docs/RATIONALE.md, "mathjs in 256 MiB").

goja stored every array's length property in the array's Go map of named
properties: the first entry allocates the map's first group (8 slots of
key and value, 288 bytes), more than the array object itself. Loading
mathjs makes ~60,000 arrays that stay alive (typed-function's signature
tables): 17 MiB of its ~96 MiB live heap, and 64 MiB allocated on the way,
were those groups. The array already answers "length" itself wherever it
is read, set or defined (getOwnPropStr, setOwnStr, defineOwnPropertyStr);
the patch makes it answer in the remaining places too: hasOwnProperty,
delete (refused: length is not configurable), the key lists
(Object.getOwnPropertyNames, Reflect.ownKeys) and the key iteration that
Object.freeze, seal and for-in use, where length comes after the indices
and before the other names, as before. An array that turns sparse (goja's
other array representation) puts length back first in its map; one that
turns dense again takes it out.
Applied by build.sh to a private copy of goja; fails loudly if goja changes
shape.
"""
import sys

from replace_once import replace_once

goja = sys.argv[1]


def patch(rel, pairs):
    replace_once("patch-goja-lean", goja + "/" + rel, pairs)


patch("array.go", [
    ("\ta.lengthProp.writable = true\n\n\ta._put(\"length\", &a.lengthProp)\n}\n",
     "\ta.lengthProp.writable = true\n}\n"),
    # array -> sparse: the sparse array keeps length in its map, first.
    ("\t\t\t\tsa.lengthProp.writable = a.lengthProp.writable\n\t\t\t\tsa._put(\"length\", &sa.lengthProp)\n",
     "\t\t\t\tsa.lengthProp.writable = a.lengthProp.writable\n"
     "\t\t\t\tsa.ensurePropOrder()\n"
     "\t\t\t\tsa.valuesForWrite()[\"length\"] = &sa.lengthProp\n"
     "\t\t\t\tsa.propNames = append([]unistring.String{\"length\"}, sa.propNames...)\n"
     "\t\t\t\tsa.lastSortedPropLen = len(sa.propNames)\n"),
    ("\t\tif prop != nil {\n\t\t\treturn propIterItem{name: name, value: prop}, i.next\n\t\t}\n\t}\n\n\treturn i.a.baseObject.iterateStringKeys()()\n}\n",
     "\t\tif prop != nil {\n\t\t\treturn propIterItem{name: name, value: prop}, i.next\n\t\t}\n\t}\n\n"
     "\treturn propIterItem{name: asciiString(\"length\"), value: i.a.getLengthProp()}, i.a.baseObject.iterateStringKeys()\n}\n"),
    ("\t\t\taccum = append(accum, asciiString(name))\n\t\t}\n\t}\n\treturn a.baseObject.stringKeys(all, accum)\n}\n",
     "\t\t\taccum = append(accum, asciiString(name))\n\t\t}\n\t}\n"
     "\tif all {\n\t\taccum = append(accum, asciiString(\"length\"))\n\t}\n"
     "\treturn a.baseObject.stringKeys(all, accum)\n}\n"),
    ("\t\treturn idx < uint32(len(a.values)) && a.values[idx] != nil\n\t} else {\n\t\treturn a.baseObject.hasOwnPropertyStr(name)\n\t}\n}\n",
     "\t\treturn idx < uint32(len(a.values)) && a.values[idx] != nil\n\t} else {\n"
     "\t\treturn name == \"length\" || a.baseObject.hasOwnPropertyStr(name)\n\t}\n}\n"),
    ("\t\treturn a._deleteIdxProp(idx, throw)\n\t}\n\treturn a.baseObject.deleteStr(name, throw)\n}\n",
     "\t\treturn a._deleteIdxProp(idx, throw)\n\t}\n"
     "\tif name == \"length\" {\n"
     "\t\ta.val.runtime.typeErrorResult(throw, \"Cannot delete property 'length' of %s\", a.val.toString())\n"
     "\t\treturn false\n\t}\n"
     "\treturn a.baseObject.deleteStr(name, throw)\n}\n"),
])

patch("array_sparse.go", [
    # sparse -> array: the array answers length itself.
    ("\t\t\tar.lengthProp.writable = a.lengthProp.writable\n\t\t\ta._put(\"length\", &ar.lengthProp)\n",
     "\t\t\tar.lengthProp.writable = a.lengthProp.writable\n\t\t\tar._delete(\"length\")\n"),
])

# A function's length and name: a JavaScript function (a function
# expression or declaration, an arrow function, a method) keeps them in
# fields until something looks at its own properties by other means than
# calling it or reading another name: reading or asking for length or name,
# adding, defining or deleting any property, listing or iterating its keys.
# Then they go into its map, first, as init put them. Most of the functions
# a package makes are only ever called (mathjs keeps ~40,000 of them:
# 11 MiB of map groups, 40 MiB allocated). baseObject's flag sits in
# padding after extensible; a function object grows by its name's 16
# bytes, against the map, its group and a property for the name.
patch("object.go", [
    ("\tprototype  *Object\n\textensible bool\n\n\tvalues    map[unistring.String]Value\n",
     "\tprototype  *Object\n\textensible bool\n"
     "\t// lazyFn: a function whose length and name are not in values yet\n"
     "\t// (patch-goja-lean.py).\n"
     "\tlazyFn bool\n\n\tvalues    map[unistring.String]Value\n"),
    ("func (o *baseObject) init() {\n\to.values = make(map[unistring.String]Value)\n}\n",
     "func (o *baseObject) init() {\n}\n\n"
     "// unlazyFn puts a lazy function's length and name into its map.\n"
     "func (o *baseObject) unlazyFn() {\n"
     "\to.lazyFn = false\n"
     "\to.val.self.(interface{ putLenName() }).putLenName()\n"
     "}\n\n"
     "// unlazyFnFor does when name is one of them.\n"
     "func (o *baseObject) unlazyFnFor(name unistring.String) {\n"
     "\tif o.lazyFn && (name == \"length\" || name == \"name\") {\n"
     "\t\to.unlazyFn()\n"
     "\t}\n"
     "}\n\n"
     "// valuesForWrite makes the map on the first property (objects that\n"
     "// never get one, most arrays and functions, have none).\n"
     "func (o *baseObject) valuesForWrite() map[unistring.String]Value {\n"
     "\tif o.values == nil {\n"
     "\t\to.values = make(map[unistring.String]Value)\n"
     "\t}\n"
     "\treturn o.values\n"
     "}\n"),
    ("func (o *baseObject) getStr(name unistring.String, receiver Value) Value {\n\tprop := o.values[name]\n",
     "func (o *baseObject) getStr(name unistring.String, receiver Value) Value {\n\to.unlazyFnFor(name)\n\tprop := o.values[name]\n"),
    ("func (o *baseObject) getOwnPropStr(name unistring.String) Value {\n\treturn o.values[name]\n",
     "func (o *baseObject) getOwnPropStr(name unistring.String) Value {\n\to.unlazyFnFor(name)\n\treturn o.values[name]\n"),
    ("func (o *baseObject) deleteStr(name unistring.String, throw bool) bool {\n",
     "func (o *baseObject) deleteStr(name unistring.String, throw bool) bool {\n\to.unlazyFnFor(name)\n"),
    ("func (o *baseObject) setOwnStr(name unistring.String, val Value, throw bool) bool {\n\townDesc := o.values[name]\n",
     "func (o *baseObject) setOwnStr(name unistring.String, val Value, throw bool) bool {\n\tif o.lazyFn {\n\t\to.unlazyFn()\n\t}\n\townDesc := o.values[name]\n"),
    ("\t\t} else {\n\t\t\to.values[name] = val\n\t\t\tnames := copyNamesIfNeeded(o.propNames, 1)\n",
     "\t\t} else {\n\t\t\to.valuesForWrite()[name] = val\n\t\t\tnames := copyNamesIfNeeded(o.propNames, 1)\n"),
    ("func (o *baseObject) setForeignStr(name unistring.String, val, receiver Value, throw bool) (bool, bool) {\n",
     "func (o *baseObject) setForeignStr(name unistring.String, val, receiver Value, throw bool) (bool, bool) {\n\to.unlazyFnFor(name)\n"),
    ("func (o *baseObject) hasOwnPropertyStr(name unistring.String) bool {\n",
     "func (o *baseObject) hasOwnPropertyStr(name unistring.String) bool {\n\to.unlazyFnFor(name)\n"),
    ("func (o *baseObject) defineOwnPropertyStr(name unistring.String, descr PropertyDescriptor, throw bool) bool {\n\texistingVal := o.values[name]\n\tif v, ok := o._defineOwnProperty(name, existingVal, descr, throw); ok {\n\t\to.values[name] = v\n",
     "func (o *baseObject) defineOwnPropertyStr(name unistring.String, descr PropertyDescriptor, throw bool) bool {\n\tif o.lazyFn {\n\t\to.unlazyFn()\n\t}\n\texistingVal := o.values[name]\n\tif v, ok := o._defineOwnProperty(name, existingVal, descr, throw); ok {\n\t\to.valuesForWrite()[name] = v\n"),
    ("func (o *baseObject) _put(name unistring.String, v Value) {\n\tif _, exists := o.values[name]; !exists {\n\t\tnames := copyNamesIfNeeded(o.propNames, 1)\n\t\to.propNames = append(names, name)\n\t}\n\n\to.values[name] = v\n",
     "func (o *baseObject) _put(name unistring.String, v Value) {\n\tif o.lazyFn {\n\t\to.unlazyFn()\n\t}\n\tif _, exists := o.values[name]; !exists {\n\t\tnames := copyNamesIfNeeded(o.propNames, 1)\n\t\to.propNames = append(names, name)\n\t}\n\n\to.valuesForWrite()[name] = v\n"),
    ("func (o *baseObject) iterateStringKeys() iterNextFunc {\n",
     "func (o *baseObject) iterateStringKeys() iterNextFunc {\n\tif o.lazyFn {\n\t\to.unlazyFn()\n\t}\n"),
    ("func (o *baseObject) stringKeys(all bool, keys []Value) []Value {\n",
     "func (o *baseObject) stringKeys(all bool, keys []Value) []Value {\n\tif o.lazyFn {\n\t\to.unlazyFn()\n\t}\n"),
])

patch("object_template.go", [
    ("\t\tv := f(o.val.runtime)\n\t\to.values[p] = v\n",
     "\t\tv := f(o.val.runtime)\n\t\to.valuesForWrite()[p] = v\n"),
    ("\tif v, ok := o._defineOwnProperty(name, existingVal, descr, throw); ok {\n\t\to.values[name] = v\n",
     "\tif v, ok := o._defineOwnProperty(name, existingVal, descr, throw); ok {\n\t\to.valuesForWrite()[name] = v\n"),
    ("\t\t\to.values[name] = nil // white hole\n",
     "\t\t\to.valuesForWrite()[name] = nil // white hole\n"),
    ("\t\tif _, exists := o.values[name]; !exists {\n\t\t\to.values[name] = f(o.val.runtime)\n",
     "\t\tif _, exists := o.values[name]; !exists {\n\t\t\to.valuesForWrite()[name] = f(o.val.runtime)\n"),
])

patch("func.go", [
    ("type baseFuncObject struct {\n\tbaseObject\n\n\tlenProp valueProperty\n}\n",
     "type baseFuncObject struct {\n\tbaseObject\n\n\tlenProp valueProperty\n"
     "\t// lazyName is the name of a lazy function (baseObject.lazyFn).\n"
     "\tlazyName unistring.String\n}\n"),
    ("\tf._putProp(\"name\", stringValueFromRaw(name), false, false, true)\n}\n",
     "\tf._putProp(\"name\", stringValueFromRaw(name), false, false, true)\n}\n\n"
     "// initLazy is init for a function whose length and name go into its\n"
     "// map only when something looks for them there (baseObject.lazyFn).\n"
     "func (f *baseFuncObject) initLazy(name unistring.String, length Value) {\n"
     "\tf.lenProp.configurable = true\n"
     "\tf.lenProp.value = length\n"
     "\tf.lazyName = name\n"
     "\tf.lazyFn = true\n"
     "}\n\n"
     "func (f *baseFuncObject) putLenName() {\n"
     "\tf._put(\"length\", &f.lenProp)\n"
     "\tf._putProp(\"name\", stringValueFromRaw(f.lazyName), false, false, true)\n"
     "\tf.lazyName = \"\"\n"
     "}\n"),
])

patch("runtime.go", [
    ("\tf = &funcObject{}\n\tr.initBaseJsFunction(&f.baseJsFuncObject, strict)\n\tf.val.self = f\n\tf.init(name, intToValue(int64(length)))\n",
     "\tf = &funcObject{}\n\tr.initBaseJsFunction(&f.baseJsFuncObject, strict)\n\tf.val.self = f\n\tf.initLazy(name, intToValue(int64(length)))\n"),
    ("\tf = &arrowFuncObject{}\n\tr.initArrowFunc(f, strict)\n\tf.val.self = f\n\tf.init(name, intToValue(int64(length)))\n",
     "\tf = &arrowFuncObject{}\n\tr.initArrowFunc(f, strict)\n\tf.val.self = f\n\tf.initLazy(name, intToValue(int64(length)))\n"),
    ("\tf = &methodFuncObject{}\n\tr.initBaseJsFunction(&f.baseJsFuncObject, strict)\n\tf.val.self = f\n\tf.init(name, intToValue(int64(length)))\n",
     "\tf = &methodFuncObject{}\n\tr.initBaseJsFunction(&f.baseJsFuncObject, strict)\n\tf.val.self = f\n\tf.initLazy(name, intToValue(int64(length)))\n"),
])
