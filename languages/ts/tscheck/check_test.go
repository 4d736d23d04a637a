package tscheck

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

func ptr[T any](v T) *T { return &v }

// The pool's diagnostics must equal what tsc 5.9 (node running the image's
// tsc.js on the same files with the same options) prints.
func TestCheckMatchesTSC(t *testing.T) {
	p := SharedPool(t)
	tests := []struct {
		name      string
		code      string            // single file /main.ts
		files     map[string]string // or several
		filePath  string
		opts      CompilerOptions
		wantCodes []int // sanity: the codes tsc reports, in order
	}{
		{
			name:      "assignability",
			code:      "const x: number = \"hello\";\nlet y: string = 42;\nexport { x, y };\n",
			wantCodes: []int{2322, 2322},
		},
		{
			name:      "missing property",
			code:      "interface P { name: string; age: number }\nconst p: P = { name: \"a\" };\nexport { p };\n",
			wantCodes: []int{2741},
		},
		{
			name:      "implicit any under strict",
			code:      "export function f(a, b) {\n  return a + b;\n}\n",
			wantCodes: []int{7006, 7006},
		},
		{
			name:      "no implicit any when strict is off",
			code:      "export function f(a, b) {\n  return a + b;\n}\n",
			opts:      CompilerOptions{Strict: ptr(false)},
			wantCodes: nil,
		},
		{
			name:      "unused locals and parameters",
			code:      "export function g(unusedParam: number) {\n  const unused = 1;\n  return 2;\n}\n",
			opts:      CompilerOptions{NoUnusedLocals: ptr(true), NoUnusedParameters: ptr(true)},
			wantCodes: []int{6133, 6133},
		},
		{
			name: "multi-file import error",
			files: map[string]string{
				"main.ts":      "import { foo, bar } from \"./util\";\nimport { nope } from \"./missing\";\nexport const r: string = foo(1) + bar + nope;\n",
				"util.ts":      "export function foo(n: number): number {\n  return n;\n}\n",
				"lib/extra.ts": "import { foo } from \"../util\";\nexport const e: string = foo(2);\n",
			},
			wantCodes: []int{2322, 2305, 2307}, // sorted by file: lib/extra.ts first
		},
		{
			name:      "syntax error",
			code:      "const x = ;\nfunction (a {\n",
			wantCodes: []int{1109, 1003, 1005, 1005},
		},
		{
			name: "chained message",
			code: "type Fn = (x: { a: number }) => void;\ndeclare const g: (x: { a: string }) => void;\n" +
				"export const f: Fn = g;\n",
			wantCodes: []int{2322},
		},
		{
			name:      "exactOptionalPropertyTypes",
			code:      "interface O { x?: number }\nexport const o: O = { x: undefined };\n",
			opts:      CompilerOptions{ExactOptionalPropertyTypes: ptr(true)},
			wantCodes: []int{2375},
		},
		{
			name:      "strictNullChecks off under strict",
			code:      "export const s: string = null;\nexport const n: number = \"x\";\n",
			opts:      CompilerOptions{StrictNullChecks: ptr(false)},
			wantCodes: []int{2322},
		},
		{
			name:      "UTF-16 columns after astral characters",
			code:      "const s = \"😀😀\"; const n: number = s;\n// é\nconst t = \"ü\" + 1; const u: boolean = t;\nexport { n, u };\n",
			wantCodes: []int{2322, 2322},
		},
		{
			name:      "ambient console without dom",
			code:      "console.log(1);\nconsole.error(\"x\");\nconsole.table([]);\n",
			wantCodes: []int{2339},
		},
		{
			name:      "own console declaration replaces the ambient one",
			code:      "declare const console: { print(s: string): void };\nconsole.print(\"x\");\nconsole.log(1);\n",
			wantCodes: []int{2339},
		},
		{
			name: "sandbox globals are declared",
			code: "const n: number = inputs.n;\nconst t = setTimeout(() => console.debug(n), 10);\nclearTimeout(t);\n" +
				"queueMicrotask(() => {});\nconst line: string | null = stdin.readLine();\nconst rest: string = stdin.read();\n" +
				"fs.writeFileSync(\"a.txt\", rest + line);\nconst s: string = fs.readFileSync(\"a.txt\", \"utf8\");\n" +
				"const b: ArrayBuffer = fs.readFileSync(\"a.txt\");\nfs.rmSync(__dirname + \"/tmp\", { recursive: true, force: true });\n" +
				"process.stdout.write(s + b.byteLength + process.argv.join(\" \") + process.env.HOME);\nif (!fs.existsSync(\"x\")) process.exit(1);\n",
			wantCodes: nil,
		},
		{
			name:      "sandbox globals are typed",
			code:      "inputs = {};\nfs.readFileSync(1);\nconst n: number = stdin.readLine();\nprocess.exit(\"x\");\nexport {};\n",
			wantCodes: []int{2588, 2345, 2322, 2345},
		},
		{
			name:      "sandbox globals off",
			code:      "console.log(inputs, fs);\nexport {};\n",
			opts:      CompilerOptions{SandboxGlobals: ptr(false)},
			wantCodes: []int{2584, 2304, 2304},
		},
		{
			name:      "a script's own declaration of a sandbox global wins",
			code:      "const fs = { read(): string { return \"\"; } };\nconst process = 1;\nconsole.log(fs.read(), process, inputs);\n",
			wantCodes: nil,
		},
		{
			name:      "target es5 with es2015 lib",
			code:      "export const m = new Map<string, number>();\nexport const q: Promise<string> = Promise.resolve(1);\n",
			opts:      CompilerOptions{Target: "es5", Lib: []string{"es2015"}},
			wantCodes: []int{2322},
		},
		{
			name: "filePath checks one file",
			files: map[string]string{
				"a.ts": "export const a: number = \"a\";\n",
				"b.ts": "import { a } from \"./a\";\nexport const b: string = a;\n",
			},
			filePath:  "b.ts",
			wantCodes: []int{2322},
		},
		{
			name:      "global diagnostics without a file",
			code:      "export const x = 1;\n",
			opts:      CompilerOptions{Lib: []string{"decorators"}},
			wantCodes: []int{2318, 2318, 2318, 2318, 2318, 2318, 2318, 2318, 2318, 2318},
		},
		{
			name:      "dom",
			code:      "const el = document.getElementById(\"x\");\nel.innerHTML = 1;\nconsole.log(window.innerWidth);\n",
			opts:      CompilerOptions{Lib: []string{"es2022", "dom"}},
			wantCodes: []int{18047, 2322},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // tsc runs in node alongside the pool's worker
			// A generous deadline: the first dom check parses lib.dom.d.ts
			// (~10 s in goja alone, far more on a loaded CI machine).
			req := Request{Code: tc.code, Files: tc.files, FilePath: tc.filePath, CompilerOptions: tc.opts, Timeout: 5 * time.Minute}
			res := MustSucceed(t, p, req)

			files := tc.files
			if files == nil {
				files = map[string]string{"main.ts": tc.code}
			}
			want := RunTSC(t, files, tc.opts)
			if tc.filePath != "" {
				want = onlyFile(want, "/"+strings.TrimPrefix(tc.filePath, "/"))
			}
			// The request named files without a leading slash; tsc's paths
			// are rooted at "/" by RunTSC.
			got := make([]Diagnostic, len(res.Diagnostics))
			for i, d := range res.Diagnostics {
				if d.FilePath != "" && !strings.HasPrefix(d.FilePath, "/") {
					d.FilePath = "/" + d.FilePath
				}
				got[i] = d
			}
			AssertDiagnosticsEqual(t, got, want)
			if codes := diagCodes(want); !equalInts(codes, tc.wantCodes) {
				t.Errorf("tsc reported codes %v, test expects %v (test case out of date?)", codes, tc.wantCodes)
			}
			if res.HasErrors != (len(want) > 0) {
				t.Errorf("HasErrors = %v with %d diagnostics", res.HasErrors, len(want))
			}
			if res.TypeScriptVersion != "5.9.3" {
				t.Errorf("TypeScriptVersion = %q", res.TypeScriptVersion)
			}
		})
	}
}

// AssertDiagnosticsEqual compares diagnostics field by field.
func AssertDiagnosticsEqual(tb testing.TB, got, want []Diagnostic) {
	tb.Helper()
	n := max(len(got), len(want))
	for i := 0; i < n; i++ {
		switch {
		case i >= len(got):
			tb.Errorf("diagnostic %d missing; tsc: %+v", i, want[i])
		case i >= len(want):
			tb.Errorf("diagnostic %d extra: %+v", i, got[i])
		default:
			g, w := got[i], want[i]
			if g.Code != w.Code || g.Category != w.Category || g.FilePath != w.FilePath ||
				g.Line != w.Line || g.Column != w.Column || g.Message != w.Message {
				tb.Errorf("diagnostic %d differs:\n got: %s %d %s(%d,%d) %q\ntsc: %s %d %s(%d,%d) %q", i,
					g.Category, g.Code, g.FilePath, g.Line, g.Column, g.Message,
					w.Category, w.Code, w.FilePath, w.Line, w.Column, w.Message)
			}
		}
	}
}

func onlyFile(ds []Diagnostic, file string) []Diagnostic {
	out := []Diagnostic{}
	for _, d := range ds {
		if d.FilePath == file {
			out = append(out, d)
		}
	}
	return out
}

func diagCodes(ds []Diagnostic) []int {
	var out []int
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Bad requests are *wasmexec.Error, never a result.
func TestCheckRejectsBadRequests(t *testing.T) {
	p := SharedPool(t)
	tests := []struct {
		name     string
		req      Request
		wantCode string
	}{
		{"bad target", Request{Code: "1", CompilerOptions: CompilerOptions{Target: "es1999"}}, wasmexec.EInvalid},
		{"removed target es3", Request{Code: "1", CompilerOptions: CompilerOptions{Target: "es3"}}, wasmexec.EInvalid},
		{"bad lib", Request{Code: "1", CompilerOptions: CompilerOptions{Lib: []string{"es2022", "nodejs"}}}, wasmexec.EInvalid},
		{"bad module", Request{Code: "1", CompilerOptions: CompilerOptions{Module: "amd2"}}, wasmexec.EInvalid},
		{"no code", Request{}, wasmexec.EInvalid},
		{"path escaping to a lib file", Request{Files: map[string]string{"lib/lib.es5.d.ts": "x"}}, wasmexec.EInvalid},
		{"duplicate paths", Request{Files: map[string]string{"a.ts": "1", "/a.ts": "2"}}, wasmexec.EInvalid},
		{"code and main.ts", Request{Code: "1", Files: map[string]string{"main.ts": "2"}}, wasmexec.EInvalid},
		{"filePath not in files", Request{Files: map[string]string{"a.ts": "1"}, FilePath: "b.ts"}, wasmexec.EInvalid},
		{"no TypeScript file", Request{Files: map[string]string{"a.json": "{}"}}, wasmexec.EInvalid},
		{"negative timeout", Request{Code: "1", Timeout: -1}, wasmexec.EInvalid},
		{"too large", Request{Code: strings.Repeat("x", maxSourceBytes+1)}, wasmexec.ETooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := p.Check(context.Background(), tc.req)
			var e *wasmexec.Error
			if !errors.As(err, &e) {
				t.Fatalf("Check = %+v, %v; want *wasmexec.Error", res, err)
			}
			if e.Code != tc.wantCode {
				t.Errorf("code %q (%s), want %q", e.Code, e.Message, tc.wantCode)
			}
		})
	}
}

// Accepted spellings: case-insensitive option values, paths with or without
// a leading slash, nested directories.
func TestCheckRequestShapes(t *testing.T) {
	p := SharedPool(t)
	res := MustSucceed(t, p, Request{
		Files: map[string]string{
			"./src/app.ts":       "import { helper } from \"./util/helper.js\";\nexport const n: number = helper();\n",
			"src/util/helper.ts": "export function helper(): string { return \"\"; }\n",
		},
		CompilerOptions: CompilerOptions{Target: "ES2022", Lib: []string{"ES2022"}},
	})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].FilePath != "./src/app.ts" || res.Diagnostics[0].Code != 2322 {
		t.Fatalf("diagnostics %+v; want one 2322 in ./src/app.ts", res.Diagnostics)
	}
	if !res.HasErrors {
		t.Error("HasErrors false")
	}

	res = MustSucceed(t, p, Request{Code: "export const ok: number = 1;\n"})
	if res.HasErrors || len(res.Diagnostics) != 0 {
		t.Fatalf("clean code: %+v", res.Diagnostics)
	}
}

// A tsconfig.json among the files applies its compilerOptions (paths and
// baseUrl relative to its own directory, strict, jsx), and inline code may
// be named by filePath so its relative imports resolve.
func TestCheckTsconfigAndNamedCode(t *testing.T) {
	p := SharedPool(t)
	tsconfig := `{"compilerOptions": {"strict": false, "jsx": "react-jsx", "paths": {"@lib/*": ["src/lib/*"]}}}`
	opts, err := OptionsFromTsconfig(tsconfig, "proj/tsconfig.json")
	if err != nil {
		t.Fatal(err)
	}
	if opts.BaseURL != "/proj" || opts.Strict == nil || *opts.Strict {
		t.Fatalf("options %+v", opts)
	}
	files := map[string]string{
		"proj/src/lib/greet.ts": "export const greet = (n: string): string => `hi ${n}`;\n",
		"proj/src/util.ts":      "export const twice = (n: number): number => 2 * n;\n",
	}
	// Code named proj/src/app.ts: ./util is its neighbour, @lib/* the
	// tsconfig's path; one type error, reported in the code's own name.
	res := MustSucceed(t, p, Request{
		Code:            "import { greet } from '@lib/greet';\nimport { twice } from './util';\nexport const n: number = greet(String(twice(2)));\n",
		Files:           files,
		FilePath:        "proj/src/app.ts",
		CompilerOptions: opts,
	})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != 2322 || res.Diagnostics[0].FilePath != "proj/src/app.ts" || res.Diagnostics[0].Line != 3 {
		t.Fatalf("diagnostics %+v; want one 2322 at proj/src/app.ts:3", res.Diagnostics)
	}
	// Without the tsconfig's paths, @lib/greet does not resolve.
	res = MustSucceed(t, p, Request{Code: "import { greet } from '@lib/greet';\ngreet('x');\n", Files: files, FilePath: "proj/src/app.ts"})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != 2307 {
		t.Fatalf("diagnostics %+v; want 2307 (cannot find module)", res.Diagnostics)
	}
	if _, err := OptionsFromTsconfig("{", "tsconfig.json"); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
		t.Fatalf("bad tsconfig: %v", err)
	}
}
