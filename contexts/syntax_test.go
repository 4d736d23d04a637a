package contexts_test

import (
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
)

// Syntax goja can't parse or compile (async generators, for await over an
// async iterable, decorators, auto-accessors, using declarations, regular
// expressions with the d or v flag) is lowered by esbuild, in modules of
// either format and in cells, while what goja runs itself stays as it
// was.
var lowering = map[string]string{
	// A package whose CommonJS entry uses an async generator, as qs's
	// dependencies do; its own require keeps the require condition.
	"node_modules/agen/package.json": `{"name": "agen", "main": "index.js"}`,
	"node_modules/agen/index.js": "const dual = require('dual');\n" +
		"async function* range(n) { for (let i = 0; i < n; i++) yield await Promise.resolve(i) }\n" +
		"async function sum(it) { let s = 0; for await (const x of it) s += x; return s }\n" +
		"module.exports = { range, sum, flavour: dual.flavour };\n",
	"node_modules/dual/package.json": `{"name": "dual", "exports": {".": {"import": "./esm.mjs", "require": "./cjs.cjs"}}}`,
	"node_modules/dual/esm.mjs":      "export const flavour = 'esm';\n",
	"node_modules/dual/cjs.cjs":      "exports.flavour = 'cjs';\n",
	"lib/stream.mjs": "export class Chunks {\n  constructor(xs) { this.xs = xs }\n" +
		"  async *[Symbol.asyncIterator]() { for (const x of this.xs) yield x }\n}\n" +
		"export async function collect(it) { const out = []; for await (const x of it) out.push(x); return out }\n",
	"lib/deco.mjs": "export const seen = [];\nconst log = (v, ctx) => { seen.push(ctx.kind + ':' + String(ctx.name)) };\n" +
		"@log export class Box { @log get v() { return 1 } accessor n = 2; static #secret = 3; static peek(o) { return #secret in o } }\n",
}

func TestJSSyntaxLowered(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "lower"})
	run := func(code string) *wasmexec.Result {
		t.Helper()
		return MustRun(t, m, "lower", wasmexec.Request{Code: code, Files: lowering})
	}
	for _, tc := range []struct{ name, code, want string }{
		{"CommonJS package with an async generator", "const a = require('agen');\n[await a.sum(a.range(4)), a.flavour]", `[6,"cjs"]`},
		{"the package imported", "import { sum, range } from 'agen';\nawait sum(range(5))", "10"},
		{"ES module with an async iterable class", "import { Chunks, collect } from './lib/stream.mjs';\nawait collect(new Chunks(['a', 'b']))", `["a","b"]`},
		{"decorators, accessor, private in", "import { Box, seen } from './lib/deco.mjs';\nconst b = new Box(); [b.v, b.n, Box.peek(Box), seen]", `[1,2,true,["getter:v","class:Box"]]`},
		{"cell: async generator and top-level for await", "async function* gen() { yield 1; yield* [2, 3] }\nlet s = 0;\nfor await (const x of gen()) s += x;\ns", "6"},
		{"cell: for await over Symbol.asyncIterator", "const it = { [Symbol.asyncIterator]() { let i = 0; return { next: async () => ({ done: i >= 2, value: i++ }) } } };\nconst got = []; for await (const x of it) got.push(x); got", "[0,1]"},
		{"cell: for await over sync values as before", "let s = 0; for await (const x of [1, Promise.resolve(2)]) s += x; s", "3"},
		{"cell: using", "const log = [];\n{ using r = { [Symbol.for('Symbol.dispose')]() { log.push('disposed') } }; log.push('in') }\nlog", `["in","disposed"]`},
		{"cell: regexp d flag fails only when it runs", "const f = () => /a(b)/d.exec('ab');\nlet m; try { f() } catch (e) { m = e.name }\nm", `"SyntaxError"`},
		{"cell: an async generator declared in a script stays", "async function* later() { yield 'kept' }\n1", "1"},
		{"cell: the next cell uses it", "const out = []; for await (const x of later()) out.push(x); out", `["kept"]`},
	} {
		t.Run(tc.name, func(t *testing.T) { wantValue(t, run(tc.code), tc.want) })
	}
	t.Run("commonjs format", func(t *testing.T) {
		res := MustRun(t, m, "lower", wasmexec.Request{Code: "async function* g() { yield 4 }\nmodule.exports = (async () => { for await (const x of g()) return x })()", Format: "commonjs"})
		wantValue(t, res, "4")
	})
	t.Run("errors esbuild can't fix stay goja's", func(t *testing.T) {
		res := MustRun(t, m, "lower", wasmexec.Request{Code: "async function* g() { yield 1 }\nlet z = ;"})
		if res.Outcome != wasmexec.Failed || res.Error.Code != wasmexec.CodeSyntaxError || res.Error.Details["line"] != float64(2) && res.Error.Details["line"] != 2 {
			t.Fatalf("%s %+v", res.Outcome, res.Error)
		}
		if !strings.Contains(res.Error.Stack, "main.js:2:") {
			t.Fatalf("stack %q", res.Error.Stack)
		}
	})
}
