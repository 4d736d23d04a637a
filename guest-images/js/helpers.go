package main

import (
	"strings"

	"github.com/dop251/goja"
)

// esbuild puts its runtime helpers (__defProp, __export, __copyProps,
// __toCommonJS, __toESM, ...) at the top of every converted module, and
// goja would compile them again for each one: a few million instructions
// per module. The guest compiles them once, before the image's snapshot,
// into a frozen object on a non-writable global, and the helpers of each
// conversion whose text is exactly what esbuild emitted there are taken
// from it instead (shareHelpers).

// helpersGlobal is how converted code reaches the shared helpers.
const helpersGlobal = `globalThis[Symbol.for("wasmexec.esbuildHelpers")]`

// sharedHelpers maps a helper's name to the exact text esbuild emits.
var sharedHelpers = map[string]string{}

// sharedHelperValues maps a helper's name to its shared function.
var sharedHelperValues = map[string]goja.Value{}

// helperSample makes esbuild emit every helper a CommonJS conversion
// uses, and those of lowered async generators and for await.
const helperSample = "import d, { f } from './a.mjs';\nexport * from './b.mjs';\nexport default 1;\nf(d)\n" +
	"export async function* g() { for await (const x of d) yield* x }\n"

// helperName returns the name of the helper code starts with: "var
// __name = " at its very start, name being letters.
func helperName(code string) (string, bool) {
	rest, ok := strings.CutPrefix(code, "var __")
	if !ok {
		return "", false
	}
	n := 0
	for n < len(rest) && (rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z') {
		n++
	}
	if n == 0 || !strings.HasPrefix(rest[n:], " = ") {
		return "", false
	}
	return "__" + rest[:n], true
}

type helperDef struct {
	name, text string
	lines      int
}

// leadingHelpers splits off the helper definitions at the start of code:
// each starts with "var __name = " at the left margin and ends on the
// first line at the left margin that ends with ";".
func leadingHelpers(code string) (defs []helperDef, rest string) {
	for {
		name, ok := helperName(code)
		if !ok {
			return defs, code
		}
		end, lines := 0, 0
		for {
			nl := strings.IndexByte(code[end:], '\n')
			if nl < 0 {
				return defs, code
			}
			line := code[end : end+nl]
			end += nl + 1
			lines++
			if strings.HasSuffix(line, ";") && (lines == 1 || line != "" && line[0] != ' ') {
				break
			}
		}
		defs = append(defs, helperDef{name: name, text: code[:end], lines: lines})
		code = code[end:]
	}
}

// initHelpers compiles the helpers once and publishes them.
func (d *driver) initHelpers() {
	t, msg := transformESM(helperSample, "helpers.mjs")
	if msg != nil {
		fatalf("esbuild helpers: %s", msg.Text)
	}
	defs, _ := leadingHelpers(t.script())
	var b strings.Builder
	// The function takes the Go helpers (nativehelpers.go), keeps
	// esbuild's __export and __copyProps for their slow paths, and puts
	// the Go ones in their place before anything captures them.
	b.WriteString("(function (native) {\n")
	names := make([]string, 0, len(defs))
	for _, h := range defs {
		b.WriteString(h.text)
		names = append(names, h.name+": "+h.name)
		sharedHelpers[h.name] = h.text
	}
	for _, n := range []string{"__export", "__copyProps", "__toCommonJS"} {
		if sharedHelpers[n] == "" {
			fatalf("esbuild helpers: esbuild no longer emits %s", n)
		}
	}
	b.WriteString("var js = [__export, __copyProps];\n")
	b.WriteString("__export = native.export; __copyProps = native.copyProps; __toCommonJS = native.toCommonJS;\n")
	b.WriteString("return [Object.freeze({" + strings.Join(names, ", ") + "}), js];\n})")
	fn, err := d.vm.RunString(b.String())
	if err != nil {
		fatalf("esbuild helpers: %v", err)
	}
	call, _ := goja.AssertFunction(fn)
	objectFn := d.vm.Get("Object").(*goja.Object)
	nh := &nativeHelpers{vm: d.vm, objectProto: objectFn.Get("prototype").(*goja.Object)}
	nh.hasOwn, _ = goja.AssertFunction(nh.objectProto.Get("hasOwnProperty"))
	res, err := call(goja.Undefined(), nh.object())
	if err != nil {
		fatalf("esbuild helpers: %v", err)
	}
	pair := res.(*goja.Object)
	v := pair.Get("0")
	for name := range sharedHelpers {
		sharedHelperValues[name] = v.(*goja.Object).Get(name)
	}
	js := pair.Get("1").(*goja.Object)
	nh.jsExport, _ = goja.AssertFunction(js.Get("0"))
	nh.jsCopyProps, _ = goja.AssertFunction(js.Get("1"))
	sym := d.vm.Get("Symbol").(*goja.Object)
	forFn, _ := goja.AssertFunction(sym.Get("for"))
	key, err := forFn(sym, d.vm.ToValue("wasmexec.esbuildHelpers"))
	if err != nil {
		fatalf("esbuild helpers: %v", err)
	}
	must(d.vm.GlobalObject().DefineDataPropertySymbol(key.(*goja.Symbol), v, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	// The sample's conversion is not code anyone runs.
	delete(conversions.byKey, conversionKey(helperSample, "helpers.mjs"))
}

// shareHelpers takes off the leading helpers of code that are exactly
// the shared ones and returns the names code needs bound to them and what
// is left (the helpers' lines left empty, so the line count stays: the
// helpers' lines map to no source, and every line after them stays where
// the source map says). helperBinding(names)+body runs as code did; a
// module's wrapper takes the names as parameters instead (modules.go),
// which costs nothing like the destructuring (~170 k instructions).
func shareHelpers(code string) (names []string, body string) {
	defs, rest := leadingHelpers(code)
	if len(defs) == 0 || len(sharedHelpers) == 0 {
		return nil, code
	}
	var shared []string
	var kept strings.Builder
	lines := 0
	for _, h := range defs {
		if sharedHelpers[h.name] == h.text {
			shared = append(shared, h.name)
			lines += h.lines
		} else {
			kept.WriteString(h.text)
		}
	}
	if len(shared) == 0 {
		return nil, code
	}
	// Only the helpers the code names are bound: esbuild emits the ones
	// the helpers it calls use (__defProp for __export, ...), which the
	// shared object's own helpers already have, and each name bound costs
	// the compile and the destructuring (a module that exports binds two
	// of seven). A name that appears anywhere (even in a string) is kept.
	for _, n := range shared {
		if strings.Contains(rest, n) || strings.Contains(kept.String(), n) {
			names = append(names, n)
		}
	}
	return names, strings.Repeat("\n", lines) + kept.String() + rest
}

// helperBinding is the statement that binds names to the shared helpers,
// or "" for none.
func helperBinding(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "var { " + strings.Join(names, ", ") + " } = " + helpersGlobal + ";"
}

// warmModules runs a small ES module through the loader before the
// snapshot: goja creates many built-ins on first use (property
// descriptors, iterators, getters), and a fresh guest would otherwise pay
// for that in the first module it loads.
func (d *driver) warmModules() {
	const p = "/wasmexec-warm/warm.mjs"
	src := "import { join } from 'path';\nexport const f = (x) => join('a', x);\nexport default f('b');\n"
	defer func() {
		if r := recover(); r != nil {
			fatalf("warm the module loader: %v", r)
		}
	}()
	d.mods.evaluate(p, src, &moduleRecord{})
	delete(d.mods.cache, p)
	delete(conversions.byKey, conversionKey(src, p))
}
