package contexts_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// Modules in the JavaScript guest: ES modules
// and CommonJS, static and dynamic, from the workspace and node_modules,
// node: built-ins, and cells that export.

// project is a small workspace: ES modules, CommonJS, JSON, TypeScript and
// two packages in node_modules, one with conditional exports.
var project = map[string]string{
	"lib/math.mjs":                     "export const add = (a, b) => a + b;\nexport default function twice(x) { return 2 * x }\n",
	"lib/cjs.js":                       "exports.greet = name => 'hello ' + name;\nexports.kind = typeof module;\n",
	"lib/data.json":                    `{"answer": 42}`,
	"lib/shape.ts":                     "export interface P { x: number }\nexport const norm = (p: P): number => Math.abs(p.x);\n",
	"lib/index.js":                     "module.exports = { fromIndex: true };\n",
	"lib/boom.mjs":                     "\n\nexport function boom() {\n  throw new Error('kaboom');\n}\n",
	"node_modules/dual/package.json":   `{"name": "dual", "exports": {".": {"import": "./esm.mjs", "require": "./cjs.cjs"}, "./feature": "./feature.js", "./sub/*": "./subs/*.js"}}`,
	"node_modules/dual/esm.mjs":        "export const flavour = 'esm';\n",
	"node_modules/dual/cjs.cjs":        "exports.flavour = 'cjs';\n",
	"node_modules/dual/feature.js":     "module.exports = 'feature';\n",
	"node_modules/dual/subs/a.js":      "module.exports = 'sub a';\n",
	"node_modules/plain/package.json":  `{"name": "plain", "main": "lib/main.js"}`,
	"node_modules/plain/lib/main.js":   "const dual = require('dual'); module.exports = { plain: true, dual: dual.flavour };\n",
	"node_modules/@scope/pkg/index.js": "export default 'scoped';\n",
}

func TestJSModules(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "mods"})
	run := func(code string) *wasmexec.Result {
		t.Helper()
		return MustRun(t, m, "mods", wasmexec.Request{Code: code, Files: project})
	}
	for _, tc := range []struct{ name, code, want string }{
		{"static ESM import", "import twice, { add } from './lib/math.mjs';\ntwice(add(1, 2))", "6"},
		{"CommonJS from ESM", "import { greet } from './lib/cjs.js';\ngreet('you')", `"hello you"`},
		{"default of CommonJS", "import cjs from './lib/cjs.js';\ncjs.kind", `"object"`},
		{"JSON", "import data from './lib/data.json';\ndata.answer", "42"},
		{"TypeScript file", "import { norm } from './lib/shape';\nnorm({x: -3})", "3"},
		{"directory index", "import x from './lib';\nx.fromIndex", "true"},
		{"require in a script", "require('./lib/cjs.js').greet('cjs')", `"hello cjs"`},
		{"require an ES module", "require('./lib/math.mjs').add(2, 3)", "5"},
		{"dynamic import", "const m = await import('./lib/math.mjs');\nm.add(4, 5)", "9"},
		{"dynamic import in a script", "import('./lib/math.mjs').then(m => m.default(21))", "42"},
		{"exports import condition", "import { flavour } from 'dual';\nflavour", `"esm"`},
		{"exports require condition", "require('dual').flavour", `"cjs"`},
		{"exports subpath", "require('dual/feature')", `"feature"`},
		{"exports pattern", "require('dual/sub/a')", `"sub a"`},
		{"main and nested require", "import p from 'plain';\n[p.plain, p.dual]", `[true,"cjs"]`},
		{"scoped package", "import s from '@scope/pkg';\ns", `"scoped"`},
		{"node:fs", "import { readFileSync } from 'node:fs';\nreadFileSync('lib/data.json', 'utf8').length", "14"},
		{"require node:path", "const path = require('node:path');\npath.join('a', '..', 'b', 'c.js')", `"b/c.js"`},
		{"path without node:", "import { basename } from 'path';\nbasename('/x/y.txt', '.txt')", `"y"`},
		{"events", "import { EventEmitter } from 'node:events';\nconst e = new EventEmitter(); let got; e.on('x', v => got = v); e.emit('x', 7); got", "7"},
		{"fs/promises", "import { readFile } from 'node:fs/promises';\n(await readFile('lib/data.json', 'utf8')).trim()", `"{\"answer\": 42}"`},
		{"util.format", "import util from 'node:util';\nutil.format('%s=%d', 'a', 1)", `"a=1"`},
		{"os is a fixed view", "import os from 'node:os';\n[os.platform(), os.EOL]", `["linux","\n"]`},
		{"querystring", "import qs from 'node:querystring';\nqs.parse('a=1&b=2').b", `"2"`},
		{"buffer", "import { Buffer } from 'node:buffer';\nBuffer.from('héllo').toString('base64')", `"aMOpbGxv"`},
		{"global Buffer", "Buffer.from([104, 105]).toString()", `"hi"`},
		{"string_decoder", "const { StringDecoder } = require('string_decoder');\nconst d = new StringDecoder('utf8'); d.write(Buffer.from([0xE2, 0x82])) + d.write(Buffer.from([0xAC]))", `"€"`},
		{"assert passes", "import assert from 'node:assert';\nassert.deepStrictEqual({a: [1]}, {a: [1]}); assert.throws(() => { throw new TypeError('x') }, TypeError); 1", "1"},
		{"assert fails", "import assert from 'node:assert';\ntry { assert.strictEqual(1, 2) } catch (e) { [e.name, e.code] }", `["AssertionError","ERR_ASSERTION"]`},
		{"crypto hashes", "import { createHash } from 'node:crypto';\n['md5', 'sha1', 'sha256', 'sha512'].map(a => createHash(a).update('abc').digest('hex').slice(0, 8))", `["90015098","a9993e36","ba7816bf","ddaf35a1"]`},
		{"crypto random", "const c = require('crypto');\n[c.randomUUID().length, c.randomBytes(5).length, c.getRandomValues(new Uint8Array(4)).length, /^[0-9a-f-]{36}$/.test(c.randomUUID())]", `[36,5,4,true]`},
		{"url: URL", "import { URL } from 'node:url';\nconst u = new URL('https://user:pw@EXAMPLE.com:8080/a/../b?x=1#f');\n[u.host, u.pathname, u.searchParams.get('x'), u.hash, u.username]", `["example.com:8080","/b","1","#f","user"]`},
		{"url: global URL, IDN host", "new URL('http://münchen.de/ä?q=ü').href", `"http://xn--mnchen-3ya.de/%C3%A4?q=%C3%BC"`},
		{"url: URLSearchParams", "const { URLSearchParams } = require('url');\nconst p = new URLSearchParams('a=1&b=2&a=3'); p.append('c', 'd e'); p.sort(); [p.getAll('a'), p.toString(), [...p.keys()].length]", `[["1","3"],"a=1\u0026a=3\u0026b=2\u0026c=d+e",4]`},
		{"url: fileURLToPath", "import { fileURLToPath } from 'node:url';\n[fileURLToPath('file:///workspace/a%20b.txt'), fileURLToPath(new URL('file:///x/y'))]", `["/workspace/a b.txt","/x/y"]`},
		{"url: fileURLToPath refuses", "{ const url = require('url');\n[['http://x/a'], ['file://host/a'], ['file:///a%2Fb']].map(([u]) => { try { url.fileURLToPath(u) } catch (e) { return e.code } }) }", `["ERR_INVALID_URL_SCHEME","ERR_INVALID_FILE_URL_HOST","ERR_INVALID_FILE_URL_PATH"]`},
		{"url: pathToFileURL", "const { pathToFileURL } = require('node:url');\n[pathToFileURL('/tmp/a b#c.txt').href, pathToFileURL('lib/').href]", `["file:///tmp/a%20b%23c.txt","file:///workspace/lib/"]`},
		{"url: legacy parse", "const lp = require('url').parse('http://user@host.com:8080/p/a/t/h?query=string&n=1#hash', true);\n[lp.protocol, lp.auth, lp.hostname, lp.port, lp.pathname, lp.query.query, lp.hash]", `["http:","user","host.com","8080","/p/a/t/h","string","#hash"]`},
		{"url: legacy format and resolve", "import url from 'url';\n[url.format({protocol: 'https', hostname: 'x.org', pathname: '/a', query: {b: 1}}), url.resolve('/one/two/three', 'four'), url.resolve('http://example.com/one', '/two')]", `["https://x.org/a?b=1","/one/two/four","http://example.com/two"]`},
		{"url: format of a URL", "require('node:url').format(new URL('https://a:b@x.org/p?q#h'), { auth: false, fragment: false })", `"https://x.org/p?q"`},
		{"url: domainToASCII", "{ const url = require('url');\n[url.domainToASCII('español.com'), url.domainToUnicode('xn--espaol-zwa.com'), url.domainToASCII('xn--iñvalid.com')] }", `["xn--espaol-zwa.com","español.com",""]`},
		{"TextEncoder and TextDecoder", "{ const b = new TextEncoder().encode('h€llo 😀');\n[b.length, new TextDecoder().decode(b), new TextDecoder().decode(new Uint8Array([0xff, 0x41])) === '\\ufffdA'] }", `[12,"h€llo 😀",true]`},
		{"crypto digest to Buffer", "require('node:crypto').createHash('sha256').update(Buffer.from('abc')).digest().length", "32"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantValue(t, run(tc.code), tc.want) })
	}
}

// A cell may export; in a context its exports and top-level bindings stay
// visible to later cells, with or without top-level await.
func TestJSCellsExport(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "cells"})
	run := func(code string) *wasmexec.Result {
		t.Helper()
		return MustRun(t, m, "cells", wasmexec.Request{Code: code})
	}
	wantValue(t, run("export const x = 1;\nconst hidden = 2;\nx + hidden"), "3")
	wantValue(t, run("x + hidden"), "3")
	wantValue(t, run("export const later = await Promise.resolve(40);\nlater"), "40")
	wantValue(t, run("later + 2"), "42")
	wantValue(t, run("import { join } from 'node:path';\nexport function j(a, b) { return join(a, b) }"), "")
	wantValue(t, run("j('a', 'b')"), `"a/b"`)
}

// A throw in an imported module points at that module's own line.
func TestJSModuleStackPointsAtTheFile(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "stack"})
	res := MustRun(t, m, "stack", wasmexec.Request{Code: "import { boom } from './lib/boom.mjs';\nboom()", Files: project})
	if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Message != "kaboom" {
		t.Fatalf("got %s %+v", res.Outcome, res.Error)
	}
	if !strings.Contains(res.Error.Stack, "lib/boom.mjs:4:") {
		t.Fatalf("stack does not point at lib/boom.mjs line 4:\n%s", res.Error.Stack)
	}
}

// Bad imports fail with errors that say what is wrong.
func TestJSModuleErrors(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "bad"})
	for _, tc := range []struct{ name, code, code2, want string }{
		{"unsupported built-in", "import cp from 'node:child_process'", wasmexec.CodeException, "node:child_process is not available in wasmexec: wasmexec runs no processes"},
		{"unsupported without node:", "require('http')", wasmexec.CodeException, "node:http is not available in wasmexec: the sandbox has no network"},
		{"missing file", "import x from './nope.js'", wasmexec.CodeException, "Cannot find module './nope.js'"},
		{"missing package", "require('left-pad')", wasmexec.CodeException, "Cannot find module 'left-pad'"},
		{"syntax error in a cell with exports", "export const = 1", wasmexec.CodeSyntaxError, "Expected identifier"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, m, "bad", wasmexec.Request{Code: tc.code})
			if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != tc.code2 || !strings.Contains(res.Error.Message, tc.want) {
				t.Fatalf("got %s %+v, want %s containing %q", res.Outcome, res.Error, tc.code2, tc.want)
			}
		})
	}
	wantValue(t, MustRun(t, m, "bad", wasmexec.Request{Code: "1+1"}), "2")
}

// filePath runs a workspace file as the entry point: in
// a context and in a one-shot run with files, ES module, CommonJS and
// TypeScript entries, resolving imports from the file's own directory.
func TestJSFilePath(t *testing.T) {
	files := map[string]string{
		"app/main.mjs":  "import { add } from '../lib/math.mjs';\nimport { helper } from './helper.js';\nconsole.log('sum', add(1, 2));\nhelper(add(20, 1))",
		"app/helper.js": "exports.helper = x => x * 2;\n",
		"app/main.cjs":  "const { greet } = require('../lib/cjs.js');\nmodule.exports = greet('file');\ngreet('file')",
		"app/main.ts":   "import { norm } from '../lib/shape';\nconst n: number = norm({ x: -5 });\nn",
		"app/fail.mjs":  "import { boom } from '../lib/boom.mjs';\nboom();\n",
	}
	for k, v := range project {
		files[k] = v
	}
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "fp"})
	for _, tc := range []struct{ file, want string }{
		{"app/main.mjs", "42"},
		{"app/main.cjs", `"hello file"`},
		{"app/main.ts", "5"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			wantValue(t, MustRun(t, m, "fp", wasmexec.Request{FilePath: tc.file, Files: files}), tc.want)
		})
	}
	res := MustRun(t, m, "fp", wasmexec.Request{FilePath: "app/fail.mjs", Files: files})
	if res.Outcome != wasmexec.Failed || res.Error == nil || !strings.Contains(res.Error.Stack, "lib/boom.mjs:4:") {
		t.Fatalf("got %s %+v", res.Outcome, res.Error)
	}
	for _, bad := range []string{"../x.js", "/workspace/a.js", "a/../b.js", "data.json"} {
		_, err := tryRun(m, "fp", wasmexec.Request{FilePath: bad})
		wantCode(t, err, wasmexec.EInvalid)
	}
	res = MustRun(t, m, "fp", wasmexec.Request{FilePath: "missing.js"})
	if res.Outcome != wasmexec.Failed || res.Error == nil || !strings.Contains(res.Error.Message, "missing.js") {
		t.Fatalf("missing file: %s %+v", res.Outcome, res.Error)
	}

	// One-shot, with files.
	r := MustRunner(t, testenv.RunnerConfig{})
	one, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindExecute, Language: wasmexec.JavaScript, FilePath: "app/main.mjs", Files: files}, wasmexec.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if one.Outcome != wasmexec.Succeeded || one.Stdout == nil || *one.Stdout != "sum 3\n" {
		t.Fatalf("one-shot: %s %v %+v", one.Outcome, one.Stdout, one.Error)
	}
}

// tsconfigPath: paths and baseUrl map imports, compilerOptions (jsx)
// apply to the files the guest converts.
func TestJSTsconfigPath(t *testing.T) {
	files := map[string]string{
		"tsconfig.json":      `{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["src/lib/*"]}, "jsx": "react", "jsxFactory": "h"}}`,
		"src/lib/greet.ts":   "export const greet = (n: string): string => `hi ${n}`;\n",
		"src/view.tsx":       "const h = (tag: string, _p: unknown, ...kids: string[]) => `${tag}:${kids.join('')}`;\nexport const view = <b>bold</b>;\n",
		"src/main.ts":        "import { greet } from '@lib/greet';\nimport { view } from './view';\n[greet('ts'), view]",
		"src/plain/index.ts": "export default 'by baseUrl';\n",
	}
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "tsc"})
	wantValue(t, MustRun(t, m, "tsc", wasmexec.Request{FilePath: "src/main.ts", TsconfigPath: "tsconfig.json", Files: files}), `["hi ts","b:bold"]`)
	wantValue(t, MustRun(t, m, "tsc", wasmexec.Request{Code: "import p from 'src/plain';\np", TsconfigPath: "tsconfig.json"}), `"by baseUrl"`)
	res := MustRun(t, m, "tsc", wasmexec.Request{Code: "import { greet } from '@lib/greet';\ngreet('x')"})
	if res.Outcome != wasmexec.Failed || !strings.Contains(res.Error.Message, "Cannot find module '@lib/greet'") {
		t.Fatalf("without tsconfigPath: %s %+v", res.Outcome, res.Error)
	}
	res = MustRun(t, m, "tsc", wasmexec.Request{Code: "1", TsconfigPath: "missing.json"})
	if res.Outcome != wasmexec.Failed || !strings.Contains(res.Error.Message, "tsconfigPath") {
		t.Fatalf("missing tsconfig: %s %+v", res.Outcome, res.Error)
	}
	_, err := tryRun(m, "tsc", wasmexec.Request{Code: "1", TsconfigPath: "../tsconfig.json"})
	wantCode(t, err, wasmexec.EInvalid)
}

// A context converts a cell or module once: running the same ES module
// cell again reuses the conversion (an esbuild transform costs the guest
// millions of instructions whatever the code's size), so it burns a small
// fraction of the first run's fuel.
func TestJSConversionsAreCached(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "conv"})
	code := "import { add } from './lib/math.mjs';\nadd(3, 4)"
	first := MustRun(t, m, "conv", wasmexec.Request{Code: code, Files: project})
	wantValue(t, first, "7")
	again := MustRun(t, m, "conv", wasmexec.Request{Code: code})
	wantValue(t, again, "7")
	if again.FuelConsumed*4 > first.FuelConsumed {
		t.Fatalf("the same cell again burned %d fuel against %d the first time: its conversion was not reused", again.FuelConsumed, first.FuelConsumed)
	}
}

// A one-shot run ships its module files in the request (the guest's
// workspace is its own, seeded with exactly them): imports resolve and
// load from there, stacks still point at the file's own line, and a file
// JavaScript writes is read from disk from then on, as in a context. A run
// in a workspace that isn't the run's own never gets them.
func TestJSOneShotShippedSources(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	oneShot := func(code string, files map[string]string) *wasmexec.Result {
		t.Helper()
		res, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: code, Files: files}, wasmexec.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	res := oneShot("import { boom } from './lib/boom.mjs';\nboom()", project)
	if res.Outcome != wasmexec.Failed || res.Error == nil || !strings.Contains(res.Error.Stack, "lib/boom.mjs:4:") {
		t.Fatalf("stack does not point at lib/boom.mjs line 4: %s %+v", res.Outcome, res.Error)
	}
	wantValue(t, oneShot("import { flavour } from 'dual';\nimport p from 'plain';\n[flavour, p.dual]", project), `["esm","cjs"]`)
	cycle := map[string]string{
		"c1.mjs": "import { b } from './c2.mjs';\nexport const a = 1;\nexport const viaB = () => b;\n",
		"c2.mjs": "import { a } from './c1.mjs';\nexport const b = 2;\nexport const viaA = () => a;\n",
	}
	wantValue(t, oneShot("import { viaB } from './c1.mjs';\nimport { viaA } from './c2.mjs';\n[viaB(), viaA()]", cycle), `[2,1]`)

	// Loaded once while the files are as shipped; reloaded from disk once
	// changed. The same code in a context (files read from disk) agrees.
	files := map[string]string{
		"mod.mjs":  "globalThis.n = (globalThis.n || 0) + 1;\nexport const v = 1;\n",
		"late.mjs": "export const v = 'shipped';\n",
	}
	code := "import fs from 'node:fs';\n" +
		"const a = (await import('./mod.mjs')).v;\n" +
		"const b = (await import('./mod.mjs')).v;\n" +
		"fs.writeFileSync('mod.mjs', 'export const v = 2;\\n');\n" +
		"fs.writeFileSync('late.mjs', \"export const v = 'written';\\n\");\n" +
		"[a, b, (await import('./mod.mjs')).v, globalThis.n, (await import('./late.mjs')).v]"
	const want = `[1,1,2,1,"written"]`
	wantValue(t, oneShot(code, files), want)
	m := MustManager(t, contexts.Config{Runner: r}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "agree"})
	wantValue(t, MustRun(t, m, "agree", wasmexec.Request{Code: code, Files: files}), want)

	// A workspace the caller owns and seeds: the file on disk wins over
	// the request's copy, which the runner does not ship.
	dir := t.TempDir()
	seed := func(context.Context) error {
		return os.WriteFile(filepath.Join(dir, "m.mjs"), []byte("export const v = 'disk';\n"), 0o644)
	}
	res, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: "import { v } from './m.mjs';\nv", Files: map[string]string{"m.mjs": "export const v = 'request';\n"}}, wasmexec.RunOptions{Workspace: dir, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	wantValue(t, res, `"disk"`)
}

// The interop the shared esbuild helpers provide (some in Go, with
// esbuild's own for proxies): live bindings, export *, a namespace of
// CommonJS (enumerability kept, default added) and of a Proxy, the same
// in a one-shot run and in a context.
func TestJSModuleInterop(t *testing.T) {
	files := map[string]string{
		"live.mjs":     "export let count = 0;\nexport function inc() { count++ }\n",
		"reexport.mjs": "export * from './live.mjs';\nexport const own = 1;\n",
		"proxy.cjs":    "module.exports = new Proxy({ a: 1 }, { ownKeys(t) { globalThis.traps = (globalThis.traps || 0) + 1; return Reflect.ownKeys(t) } });\n",
		"hidden.cjs":   "Object.defineProperty(exports, 'hidden', { value: 7, enumerable: false });\nexports.shown = 8;\n",
	}
	code := "import { count, inc } from './live.mjs';\nimport * as re from './reexport.mjs';\nimport * as px from './proxy.cjs';\nimport * as hd from './hidden.cjs';\n" +
		"inc(); inc();\n" +
		"[count, re.count, re.own, Object.keys(re).sort(), px.a, globalThis.traps > 0, hd.hidden, Object.keys(hd).sort(), Object.getOwnPropertyDescriptor(re, 'own').enumerable]"
	const want = `[2,2,1,["count","inc","own"],1,true,7,["default","shown"],true]`
	r := MustRunner(t, testenv.RunnerConfig{})
	res, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: code, Files: files}, wasmexec.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantValue(t, res, want)
	m := MustManager(t, contexts.Config{Runner: r}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "interop"})
	wantValue(t, MustRun(t, m, "interop", wasmexec.Request{Code: code, Files: files}), want)
}
