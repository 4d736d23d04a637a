package tscheck

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// nativeParityCases are checked by the pool and by TypeScript 7's own CLI
// (tsc -p on the same files and the same generated tsconfig); the
// diagnostics must be identical, field by field.
var nativeParityCases = []struct {
	name         string
	code         string
	files        map[string]string
	filePath     string
	tsconfigPath string
	opts         string // compilerOptions JSON
}{
	// A clean file, and the sandbox's globals.
	{name: "clean", code: "export const x: number = 1;\n"},
	{name: "sandbox globals", code: "console.log(inputs.a, __dirname);\nconst line: string | null = stdin.readLine();\nfs.writeFileSync('/workspace/a', 'x');\nsetTimeout(() => process.exit(0), 10);\nqueueMicrotask(() => {});\n"},
	{name: "sandbox globals off", code: "console.log(inputs);\n", opts: `{"sandboxGlobals": false}`},
	{name: "own declaration of a sandbox global", code: "const fs = { read() {} };\nfs.read();\nexport {};\n"},

	// Assignability.
	{name: "string to number", code: "const n: number = 'x';\n"},
	{name: "number to string", code: "let s: string = 1;\n"},
	{name: "object literal excess property", code: "const p: { a: number } = { a: 1, b: 2 };\n"},
	{name: "missing property", code: "interface P { a: number; b: string }\nconst p: P = { a: 1 };\n"},
	{name: "nested chain", code: "interface A { x: { y: number; z: string } }\nconst a: A = { x: { y: 1, z: 2 } } as any as { x: { y: number; z: number } };\n"},
	{name: "array element", code: "const xs: number[] = [1, 'two', 3];\n"},
	{name: "tuple length", code: "const t: [number, string] = [1, 'a', true];\n"},
	{name: "readonly assignment", code: "const o: { readonly a: number } = { a: 1 };\no.a = 2;\n"},
	{name: "const reassignment", code: "const c = 1;\nc = 2;\n"},
	{name: "union not assignable", code: "type U = 'a' | 'b';\nconst u: U = 'c';\n"},
	{name: "function return type", code: "function f(): number { return 'x'; }\n"},
	{name: "argument type", code: "function f(a: number) { return a; }\nf('1');\n"},
	{name: "argument count", code: "function f(a: number, b: number) { return a + b; }\nf(1);\nf(1, 2, 3);\n"},
	{name: "excess argument to method", code: "[1, 2].map((x) => x, 1, 2);\n"},
	{name: "property does not exist", code: "const o = { a: 1 };\no.b;\n"},
	{name: "did you mean", code: "const o = { length: 1 };\no.lenght;\n"},
	{name: "cannot find name", code: "foo();\nlet x = bar + 1;\n"},
	{name: "not callable", code: "const n = 1;\nn();\n"},
	{name: "not constructable", code: "const f = () => 1;\nnew f();\n"},
	{name: "possibly undefined", code: "function f(x?: { a: number }) { return x.a; }\n"},
	{name: "possibly null", code: "const e: string | null = Math.random() > 0.5 ? 'a' : null;\ne.length;\n"},
	{name: "implicit any parameter", code: "function f(a) { return a; }\n"},
	{name: "implicit any off", code: "function f(a) { return a; }\n", opts: `{"noImplicitAny": false}`},
	{name: "strict off", code: "function f(a) { return a.b; }\nconst x: string = null;\nlet y: number = undefined;\n", opts: `{"strict": false}`},
	{name: "strictNullChecks off", code: "const x: string = null;\n", opts: `{"strictNullChecks": false}`},
	{name: "unknown narrowing", code: "function f(u: unknown) { return u.toFixed(); }\n"},
	{name: "never exhaustiveness", code: "type S = { k: 'a' } | { k: 'b' };\nfunction f(s: S): number { switch (s.k) { case 'a': return 1; default: const n: never = s; return n; } }\n"},
	{name: "narrowing typeof", code: "function f(x: string | number) { if (typeof x === 'string') { return x.toUpperCase(); } return x.toUpperCase(); }\n"},
	{name: "narrowing in", code: "type A = { a: number }; type B = { b: string };\nfunction f(x: A | B) { if ('a' in x) return x.b; return x.a; }\n"},
	{name: "discriminated union", code: "type S = { kind: 'c'; r: number } | { kind: 's'; side: number };\nfunction area(s: S) { if (s.kind === 'c') return s.side; return s.r; }\n"},
	{name: "comparison no overlap", code: "const a: 'x' | 'y' = 'x';\nif (a === 'z') {}\n"},
	{name: "noImplicitReturns", code: "function f(x: number) { if (x) { return 1; } }\n", opts: `{"noImplicitReturns": true}`},
	{name: "noUncheckedIndexedAccess", code: "const xs: number[] = [];\nconst n: number = xs[0];\n", opts: `{"noUncheckedIndexedAccess": true}`},
	{name: "exactOptionalPropertyTypes", code: "const o: { a?: number } = { a: undefined };\n", opts: `{"exactOptionalPropertyTypes": true}`},
	{name: "noImplicitOverride", code: "class A { m() {} }\nclass B extends A { m() {} }\n", opts: `{"noImplicitOverride": true}`},
	{name: "noPropertyAccessFromIndexSignature", code: "const o: { [k: string]: number } = {};\no.x;\n", opts: `{"noPropertyAccessFromIndexSignature": true}`},

	// Unused.
	{name: "noUnusedLocals", code: "export function f() { const unused = 1; return 2; }\n", opts: `{"noUnusedLocals": true}`},
	{name: "noUnusedParameters", code: "export function f(a: number, b: number) { return a; }\n", opts: `{"noUnusedParameters": true}`},
	{name: "unused both", code: "import type { X } from './x';\nexport function f(a: number) { let b = 1; return 0; }\n",
		files: map[string]string{"x.ts": "export type X = number;\n"}, filePath: "main.ts", opts: `{"noUnusedLocals": true, "noUnusedParameters": true}`},

	// Generics.
	{name: "generic constraint", code: "function len<T extends { length: number }>(x: T) { return x.length; }\nlen(1);\n"},
	{name: "generic inference mismatch", code: "function same<T>(a: T, b: T) { return a; }\nsame(1, 'x');\n"},
	{name: "generic default and keyof", code: "function get<T, K extends keyof T>(o: T, k: K) { return o[k]; }\nget({ a: 1 }, 'b');\n"},
	{name: "mapped and conditional types", code: "type RO<T> = { readonly [K in keyof T]: T[K] };\ntype IsStr<T> = T extends string ? true : false;\nconst a: IsStr<number> = true;\nconst r: RO<{ x: number }> = { x: 1 };\nr.x = 2;\n"},
	{name: "template literal types", code: "type Ev = `on${'click' | 'key'}`;\nconst e: Ev = 'onHover';\n"},
	{name: "excessive instantiation", code: "type Rec<N extends unknown[]> = N['length'] extends 5000 ? N : Rec<[...N, 0]>;\ntype X = Rec<[]>;\n"},
	{name: "utility types", code: "interface U { id: number; name: string }\nconst p: Partial<U> = { id: 'x' };\nconst q: Pick<U, 'id'> = { id: 1, name: 'n' };\nconst r: Record<'a' | 'b', number> = { a: 1 };\n"},

	// Classes and interfaces.
	{name: "class implements", code: "interface I { m(): void; n: number }\nclass C implements I { m() {} }\n"},
	{name: "abstract instantiation", code: "abstract class A { abstract m(): void }\nnew A();\nclass B extends A {}\n"},
	{name: "private access", code: "class C { private x = 1; #y = 2 }\nnew C().x;\n"},
	{name: "this implicit any", code: "function f() { return this.x; }\n"},
	{name: "property not initialized", code: "class C { x: number; }\n"},

	// Async and promises.
	{name: "await non-async", code: "function f() { await Promise.resolve(1); }\n"},
	{name: "promise value misuse", code: "async function f() { return 1; }\nconst n: number = f();\n"},
	{name: "top-level await module", code: "const r = await Promise.resolve(1);\nexport { r };\n"},

	// Syntax errors (then no semantic ones).
	{name: "syntax error", code: "const x = ;\nconst y: number = 'no semantic check';\n"},
	{name: "unterminated string", code: "const s = 'abc;\n"},
	{name: "missing brace", code: "function f() {\n  return 1;\n"},
	{name: "unicode columns", code: "const s = \"héllo😀\"; const n: number = s;\n"},
	{name: "crlf lines", code: "const a = 1;\r\nconst b: string = a;\r\n"},

	// JSX is off: .ts files cannot hold it; .tsx without jsx option.
	{name: "jsx in ts", code: "const e = <div>hi</div>;\n"},
	{name: "tsx without jsx option", files: map[string]string{"app.tsx": "export const e = <div>hi</div>;\n"}},

	// Lib variants.
	{name: "lib es5 missing modern", code: "const m = new Map<string, number>();\n'a'.padStart(2);\n", opts: `{"lib": ["es5"]}`},
	{name: "lib es2015 no includes", code: "[1].includes(1);\n", opts: `{"lib": ["es2015"]}`},
	{name: "lib esnext", code: "const a = [3, 1].toSorted();\nconst g = Object.groupBy([1], (x) => x);\n", opts: `{"lib": ["esnext"]}`},
	{name: "lib dom", code: "document.querySelector('a')!.href = 1;\nconsole.log(window.innerWidth);\n", opts: `{"lib": ["es2022", "dom"]}`},
	{name: "dom missing", code: "document.title = 'x';\n"},
	{name: "target es2015", code: "const b = 10n;\n", opts: `{"target": "es2015"}`},

	// Modules with files and filePath.
	{name: "import missing export", files: map[string]string{"main.ts": "import { b } from './a';\nexport const x: string = b;\n", "a.ts": "export const a = 1;\n"}},
	{name: "import type error across files", files: map[string]string{"main.ts": "import { a } from './lib/a.js';\nconst s: string = a;\n", "lib/a.ts": "export const a = 1;\n"}},
	{name: "module not found", code: "import { x } from './nope';\nimport lodash from 'lodash';\n"},
	{name: "filePath limits the report", files: map[string]string{"main.ts": "import { f } from './util';\nf(1);\n", "util.ts": "export function f(s: string) { const n: number = s; return n; }\n"}, filePath: "main.ts"},
	{name: "filePath other file", files: map[string]string{"main.ts": "import { f } from './util';\nf(1);\n", "util.ts": "export function f(s: string) { const n: number = s; return n; }\n"}, filePath: "util.ts"},
	{name: "d.ts file", files: map[string]string{"main.ts": "const v: Version = 2;\n", "types/globals.d.ts": "type Version = string;\n"}},
	{name: "paths mapping", files: map[string]string{"main.ts": "import { a } from '@/a';\nconst s: string = a;\n", "src/a.ts": "export const a = 1;\n"}, opts: `{"paths": {"@/*": ["./src/*"]}}`},
	{name: "module nodenext", files: map[string]string{"main.ts": "import { a } from './a';\nconst s: string = a;\n", "a.ts": "export const a = 1;\n"}, opts: `{"module": "nodenext"}`},
	{name: "module commonjs", code: "import fsx = require('fs');\nexport = 1;\n", opts: `{"module": "commonjs"}`},
	{name: "verbatimModuleSyntax", files: map[string]string{"main.ts": "import { T } from './t';\nexport const x: T = 1;\n", "t.ts": "export type T = number;\n"}, opts: `{"verbatimModuleSyntax": true}`},
	{name: "isolatedModules re-export type", files: map[string]string{"main.ts": "export { T } from './t';\n", "t.ts": "export type T = number;\n"}, opts: `{"isolatedModules": true}`},

	// A tsconfig.json from the request.
	{name: "tsconfig strict off", files: map[string]string{"tsconfig.json": `{
  // comments are allowed
  "compilerOptions": { "strict": false, },
}`, "main.ts": "function f(a) { return a; }\nconst n: number = 'x';\n"}, tsconfigPath: "tsconfig.json"},
	{name: "tsconfig in a subdirectory with paths", files: map[string]string{"app/tsconfig.json": `{"compilerOptions": {"paths": {"~/*": ["./src/*"]}}}`,
		"app/main.ts": "import { a } from '~/a';\nconst s: string = a;\n", "app/src/a.ts": "export const a = 1;\n"}, tsconfigPath: "app/tsconfig.json"},
	{name: "tsconfig with a type error of its own", files: map[string]string{"tsconfig.json": `{"compilerOptions": {"strict": "yes"}}`, "main.ts": "export {};\n"}, tsconfigPath: "tsconfig.json"},
	{name: "tsconfig overridden by compilerOptions", files: map[string]string{"tsconfig.json": `{"compilerOptions": {"strict": false}}`, "main.ts": "function f(a) { return a; }\n"}, tsconfigPath: "tsconfig.json", opts: `{"strict": true}`},

	// Misc checks.
	{name: "enum and namespace", code: "enum E { A, B }\nconst e: E = 'A';\nnamespace N { export const x = 1 }\nN.y;\n"},
	{name: "decorators", code: "function d(t: any, c: ClassDecoratorContext) {}\n@d class C {}\n@d const x = 1;\n"},
	{name: "satisfies", code: "const c = { a: 1 } satisfies { a: string };\n"},
	{name: "unreachable code", code: "function f() { return 1; const x = 2; }\n", opts: `{"allowUnreachableCode": false}`},
	{name: "duplicate identifier", code: "let a = 1;\nlet a = 2;\nfunction g() {}\nfunction g() {}\n"},
	{name: "index signature", code: "const o: { [k: string]: number } = { a: 'x' };\n"},
	{name: "overloads", code: "function f(a: string): string;\nfunction f(a: number): number;\nfunction f(a: any) { return a; }\nf(true);\n"},
	{name: "symbols and bigint", code: "const s = Symbol();\nconst n: number = 1n;\nconst o = { [s]: 1 };\no[Symbol()];\n"},
	{name: "async without Promise lib", code: "async function f() { return 1; }\n", opts: `{"lib": ["es5"]}`},
}

func TestNativeParityWithTSC(t *testing.T) {
	if len(nativeParityCases) < 60 {
		t.Fatalf("only %d parity cases; the corpus must keep at least 60", len(nativeParityCases))
	}
	p := SharedNativePool(t)
	for _, tc := range nativeParityCases {
		t.Run(tc.name, func(t *testing.T) {
			req := Request{Code: tc.code, Files: tc.files, FilePath: tc.filePath, TsconfigPath: tc.tsconfigPath, Options: opts7(t, tc.opts)}
			res := MustNativeCheck(t, p, req)
			if res.Outcome != "succeeded" {
				t.Fatalf("outcome %s: %+v", res.Outcome, res.Error)
			}
			want := RunTSC7(t, p, req)
			got := res.Diagnostics
			if d := diffDiagnostics(got, want); d != "" {
				t.Errorf("pool and tsc 7 differ:\n%s", d)
			}
			if hasErr := anyError(want); res.HasErrors != hasErr {
				t.Errorf("hasErrors %v; tsc reported errors: %v", res.HasErrors, hasErr)
			}
		})
	}
}

func anyError(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Category == "error" {
			return true
		}
	}
	return false
}

// diffDiagnostics compares two lists as sets ordered by position; "" when
// equal.
func diffDiagnostics(got, want []Diagnostic) string {
	key := func(d Diagnostic) string {
		b, _ := json.Marshal(d)
		return fmt.Sprintf("%s|%06d|%06d|%s", d.FilePath, d.Line, d.Column, b)
	}
	norm := func(ds []Diagnostic) []string {
		var out []string
		for _, d := range ds {
			out = append(out, key(d))
		}
		sort.Strings(out)
		return out
	}
	g, w := norm(got), norm(want)
	if strings.Join(g, "\n") == strings.Join(w, "\n") {
		return ""
	}
	return "got:\n  " + strings.Join(g, "\n  ") + "\nwant (tsc):\n  " + strings.Join(w, "\n  ")
}

// TestNativeOptionErrors: options TypeScript 7 rejects are a 400 naming the
// option and, for a removed one, what replaced it.
func TestNativeOptionErrors(t *testing.T) {
	p := SharedNativePool(t)
	for _, tc := range []struct {
		name     string
		opts     string
		files    map[string]string
		tsconfig string
		want     []string // substrings of the message
	}{
		{name: "baseUrl", opts: `{"baseUrl": "."}`, want: []string{"baseUrl", "has been removed", `"paths"`}},
		{name: "target es5", opts: `{"target": "es5"}`, want: []string{"target=ES5", "es2015 or later"}},
		{name: "target es3", opts: `{"target": "es3"}`, want: []string{"--target", "es2015"}},
		{name: "moduleResolution node", opts: `{"moduleResolution": "node"}`, want: []string{"moduleResolution=node10", "bundler"}},
		{name: "moduleResolution classic", opts: `{"moduleResolution": "classic"}`, want: []string{"moduleResolution=Classic", "bundler"}},
		{name: "module amd", opts: `{"module": "amd"}`, want: []string{"module=AMD", "esnext"}},
		{name: "module none", opts: `{"module": "none"}`, want: []string{"--module", "commonjs"}},
		{name: "esModuleInterop false", opts: `{"esModuleInterop": false}`, want: []string{"esModuleInterop=false", "always on"}},
		{name: "allowSyntheticDefaultImports false", opts: `{"allowSyntheticDefaultImports": false}`, want: []string{"allowSyntheticDefaultImports=false", "always on"}},
		{name: "alwaysStrict false", opts: `{"alwaysStrict": false}`, want: []string{"alwaysStrict=false"}},
		{name: "outFile", opts: `{"outFile": "a.js"}`, want: []string{"outFile", "has been removed"}},
		{name: "downlevelIteration", opts: `{"downlevelIteration": true}`, want: []string{"downlevelIteration", "ES5"}},
		{name: "importsNotUsedAsValues", opts: `{"importsNotUsedAsValues": "remove"}`, want: []string{"importsNotUsedAsValues", "verbatimModuleSyntax"}},
		{name: "unknown option", opts: `{"bogus": 1}`, want: []string{"Unknown compiler option 'bogus'"}},
		{name: "bad lib", opts: `{"lib": ["es2099"]}`, want: []string{"--lib", "es2022"}},
		{name: "bad type", opts: `{"strict": "yes"}`, want: []string{"strict", "boolean"}},
		{name: "trace refused", opts: `{"traceResolution": true}`, want: []string{"traceResolution", "not supported"}},
		{name: "sandboxGlobals not a bool", opts: `{"sandboxGlobals": 1}`, want: []string{"sandboxGlobals"}},
		{name: "removed option in the tsconfig", files: map[string]string{"tsconfig.json": `{"compilerOptions": {"baseUrl": "."}}`, "main.ts": "export {};\n"},
			tsconfig: "tsconfig.json", want: []string{"tsconfig.json", "baseUrl", `"paths"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := Request{Code: "export {};\n", Options: opts7(t, tc.opts)}
			if tc.files != nil {
				req = Request{Files: tc.files, TsconfigPath: tc.tsconfig}
			}
			_, err := p.Check(context.Background(), req)
			if wasmexec.ErrorCode(err) != wasmexec.EInvalid {
				t.Fatalf("err %v; want invalid_argument", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err.Error(), w)
				}
			}
		})
	}
	// The worker is fine after all that.
	if res := MustNativeCheck(t, p, Request{Code: "const n: number = 'x';\n"}); len(res.Diagnostics) != 1 {
		t.Fatalf("next check: %+v", res)
	}
}
