package ts

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/wasmexec/wasmexec"
)

// MustTranspile transpiles or fails the test.
func MustTranspile(tb testing.TB, code string) *Program {
	tb.Helper()
	p, err := Transpile(code, "main.ts")
	if err != nil {
		tb.Fatalf("Transpile(%q): %v", code, err)
	}
	return p
}

// runGoja runs p the way the JS guest does: RunScript under p.Filename, then
// the completion value, exported to Go. Promise jobs run before RunScript
// returns, so async results stored in globals are visible afterwards.
func runGoja(tb testing.TB, p *Program) (any, error) {
	tb.Helper()
	vm := goja.New()
	vm.SetMaxCallStackSize(1000)
	v, err := vm.RunScript(p.Filename, p.JS)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	return v.Export(), nil
}

// lastStatement returns the last non-empty line of js, trimmed.
func lastStatement(js string) string {
	lines := strings.Split(strings.TrimSpace(js), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func TestTranspileRuns(t *testing.T) {
	tests := []struct {
		name string
		code string
		want any
	}{
		{"expression", "1+1", int64(2)},
		{"annotated const then name", "const x: number = 1; x", int64(1)},
		{"interface vanishes", "interface P { x: number; y?: string }\nconst p: P = { x: 3 };\np.x * 2", int64(6)},
		{"type alias and union", "type ID = string | number;\nconst id: ID = 'a';\nid", "a"},
		{"enum", "enum Color { Red, Green = 5, Blue }\nColor.Blue + Color[5].length", int64(11)},
		{"string enum", "enum S { A = 'a', B = 'b' }\nS.B", "b"},
		{"const enum inlined", "const enum K { X = 7 }\nK.X", int64(7)},
		{"generic function", "function id<T>(x: T): T { return x }\nid<string>('g')", "g"},
		{"generic class", "class Box<T> { constructor(public v: T) {} get(): T { return this.v } }\nnew Box<number>(4).get()", int64(4)},
		{"parameter properties", "class A { constructor(private a: number, readonly b = 2) {} sum() { return this.a + this.b } }\nnew A(1).sum()", int64(3)},
		{"abstract class", "abstract class B { abstract f(): number; g() { return this.f() + 1 } }\nclass C extends B { f() { return 1 } }\nnew C().g()", int64(2)},
		{"as, non-null, satisfies", "const o = { a: 1 } satisfies Record<string, number>;\nconst v = (o as any).a as number;\nv! + 1", int64(2)},
		{"angle-bracket assertion", "const u: unknown = 5;\n(<number>u) + 1", int64(6)},
		{"overloads", "function f(x: string): string;\nfunction f(x: number): number;\nfunction f(x: any) { return x }\nf(9)", int64(9)},
		{"declare and type-only trailing", "declare const q: number;\nlet z = 2\nz as number\ndeclare function f(): void;\ntype T = 1;\n", int64(2)},
		{"namespace", "namespace N { export const a = 40; export function b() { return a + 2 } }\nN.b()", int64(42)},
		{"optional chaining and nullish", "const m: { a?: { b?: number } } = {};\nm.a?.b ?? 'none'", "none"},
		{"object literal result", "({ a: 1 } as { a: number })", map[string]any{"a": int64(1)}},
		{"private fields and static block", "class P { #x = 1; static y: number; static { P.y = 2 } get x() { return this.#x } }\nnew P().x + P.y", int64(3)},
		{"unicode", "const s: string = \"héllo😀\";\ns.length", int64(7)},
		{"tabs and CRLF", "let a: number = 1;\r\n\tlet b = a +\r\n\t\t2;\r\nb", int64(3)},
		{"decorators lowered", "function dec(v: any, c: any) { return v }\n@dec class B { @dec m() { return 5 } }\nnew B().m()", int64(5)},
		{"async generator and for await lowered", "async function* g() { yield 1; yield 2 }\nlet sum = 0;\n(async () => { for await (const v of g()) sum += v })();\nsum", int64(0)},
		{"no completion value", "let a: number = 1;", nil},
		{"hashbang", "#!/usr/bin/env ts-node\nconst n: number = 3;\nn", int64(3)},
		{"non-ascii regex", "const re: RegExp = /é+/u;\nre.test('éé')", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := MustTranspile(t, tt.code)
			got, err := runGoja(t, p)
			if err != nil {
				t.Fatalf("goja: %v\nJS:\n%s", err, p.JS)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("value = %#v, want %#v\nJS:\n%s", got, tt.want, p.JS)
			}
		})
	}
}

// Async work settles before RunScript returns; check the lowered async
// generator really produced its values.
func TestAsyncGeneratorLoweredRunsToCompletion(t *testing.T) {
	p := MustTranspile(t, "async function* g() { yield 1; yield 2 }\nvar out: number[] = [];\n(async () => { for await (const v of g()) out.push(v) })();")
	vm := goja.New()
	if _, err := vm.RunScript(p.Filename, p.JS); err != nil {
		t.Fatalf("goja: %v\n%s", err, p.JS)
	}
	if got := vm.Get("out").Export(); !reflect.DeepEqual(got, []any{int64(1), int64(2)}) {
		t.Fatalf("out = %#v", got)
	}
}

// The JS guest returns the completion value of the last expression
// statement: esbuild must neither drop it, nor wrap the program, nor move
// anything after it.
func TestLastExpressionKept(t *testing.T) {
	tests := []struct{ code, last string }{
		{"1+1", "1 + 1;"},
		{"const x: number = 1; x", "x;"},
		{"interface A { a: 1 }\nconst a = { a: 1 } as A;\na.a", "a.a;"},
		{"let y = 2\ny!", "y;"},
		{"function f<T>(x: T) { return x }\nf<number>(3)", "f(3);"},
		{"enum E { A }\nE.A", "0 /* A */;"},
		{"let v = 1;\nv\ntype T = 1;\ninterface I {}\ndeclare let w: number;", "v;"},
		{"'str'", "\"str\";"},
		{"[1, 2].map((n: number) => n * 2)", "[1, 2].map((n) => n * 2);"},
	}
	for _, tt := range tests {
		p := MustTranspile(t, tt.code)
		if got := lastStatement(p.JS); got != tt.last {
			t.Errorf("%q: last statement %q, want %q\nJS:\n%s", tt.code, got, tt.last, p.JS)
		}
	}
}

func TestTopLevelAwaitKept(t *testing.T) {
	p := MustTranspile(t, "interface R { v: number }\nconst r: R = await Promise.resolve({ v: 1 });\nr.v")
	want := "\nconst r = await Promise.resolve({ v: 1 });\nr.v;\n"
	if p.JS != want {
		t.Fatalf("JS = %q, want %q", p.JS, want)
	}
	// for await at top level is lowered to plain awaits, still top level.
	p = MustTranspile(t, "for await (const x of [1]) { x }\n2")
	if !strings.Contains(p.JS, "await") || lastStatement(p.JS) != "2;" {
		t.Fatalf("JS:\n%s", p.JS)
	}
}

func TestModuleSyntaxKept(t *testing.T) {
	p := MustTranspile(t, "import { readFile } from 'fs';\nimport type { T } from './t';\nexport const z: number = readFile.length;\nz")
	want := "\nimport { readFile } from \"fs\";\nexport const z = readFile.length;\nz;\n"
	if p.JS != want {
		t.Fatalf("JS = %q, want %q", p.JS, want)
	}
}

func TestNoSourceMappingURLReachesGoja(t *testing.T) {
	for _, code := range []string{
		"1\n//# sourceMappingURL=/etc/passwd\n",
		"1\n//# sourceMappingURL=/etc/passwd @license\n",
		"1\n/*! @preserve */\n//# sourceMappingURL=data:application/json;base64,e30=\n",
	} {
		p := MustTranspile(t, code)
		if strings.Contains(p.JS, "sourceMappingURL") {
			t.Errorf("%q: JS keeps a sourceMappingURL comment:\n%s", code, p.JS)
		}
	}
}

func TestDefaultFilename(t *testing.T) {
	p, err := Transpile("1", "")
	if err != nil || p.Filename != DefaultFilename {
		t.Fatalf("p=%+v err=%v", p, err)
	}
	_, err = Transpile("let = ;", "")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Filename != DefaultFilename {
		t.Fatalf("err = %v", err)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name      string
		code      string
		line, col int
		msg       string
	}{
		// "é" is 2 bytes/1 UTF-16 unit, "😀" 4 bytes/2 units: esbuild's byte
		// column 30 is UTF-16 column 27, i.e. 28 1-based.
		{"non-ascii before error", `const s = "héllo😀"; let = ;`, 1, 28, `Unexpected ";"`},
		{"ascii", "let = ;", 1, 7, `Unexpected ";"`},
		{"first line col 1", ")", 1, 1, `Unexpected ")"`},
		{"tab counts one column", "let a = 1\n\ta++ ++ \n", 2, 2, "Invalid assignment target"},
		{"tabs and non-ascii", "const ü = 1;\n\t\t/* 😀😀 */ const = 2", 3 - 1, 20, `Expected identifier but found "="`},
		{"CRLF lines", "let a = 1;\r\nlet b: number = ;\r\n", 2, 17, `Unexpected ";"`},
		{"CR only lines", "let a = 1;\rlet b = ;", 2, 9, `Unexpected ";"`},
		{"U+2028 is a line break", "let a = 1;\u2028let b = ;", 2, 9, `Unexpected ";"`},
		{"error after astral on later line", "// ok\nconst e = '𝒳𝒴'; e.(", 2, 21, `Expected identifier but found "("`},
		{"unterminated string", "const s = 'abc", 1, 15, "Unterminated string literal"},
		{"missing brace at EOF", "function f() {\n  return 1\n", 3, 1, "Unexpected end of file"},
		{"type annotation missing", "let x: = 1", 1, 8, `Unexpected "="`},
		{"interface syntax", "interface I { a: number\n  b: }", 2, 6, `Unexpected "}"`},
		{"unexpected character", "let a = 1 @ 2", 1, 11, `Expected ";" but found "@"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Transpile(tt.code, "main.ts")
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v (%T), want *SyntaxError", err, err)
			}
			if se.Line != tt.line || se.Column != tt.col || se.Message != tt.msg || se.Filename != "main.ts" {
				t.Errorf("got %d:%d %q, want %d:%d %q", se.Line, se.Column, se.Message, tt.line, tt.col, tt.msg)
			}
		})
	}
}

// esbuild reports a panic it recovered as an error without a location:
// that is transpile_failed, not a syntax error of the code.
func TestEsbuildPanicIsNotASyntaxError(t *testing.T) {
	err := errorFromMessage(api.Message{Text: "panic: runtime error: index out of range (while parsing \"main.ts\")\nstack"}, "main.ts", "x")
	var te *TranspileError
	if !errors.As(err, &te) || te.Reason != ReasonCrashed || strings.Contains(te.Message, "\n") {
		t.Fatalf("err = %#v; want a one-line TranspileError, reason crashed", err)
	}
	if d := te.ErrorData(); d.Code != wasmexec.CodeTranspileFailed {
		t.Errorf("ErrorData = %+v", d)
	}
	err = errorFromMessage(api.Message{Text: `Unexpected ";"`, Location: &api.Location{Line: 1, Column: 6, LineText: "let = ;"}}, "main.ts", "let = ;")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Column != 7 {
		t.Fatalf("err = %#v; want a SyntaxError at 1:7", err)
	}
}

func TestSyntaxErrorData(t *testing.T) {
	_, err := Transpile(`const s = "héllo😀"; let = ;`, "main.ts")
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	want := &wasmexec.ErrorData{
		Code:    wasmexec.CodeSyntaxError,
		Name:    "SyntaxError",
		Message: `Unexpected ";"`,
		Details: map[string]any{"line": 1, "column": 28},
	}
	if got := se.ErrorData(); !reflect.DeepEqual(got, want) {
		t.Errorf("ErrorData = %+v, want %+v", got, want)
	}
	if got, want := se.Error(), `main.ts:1:28: Unexpected ";"`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if d := (&SyntaxError{Message: "m"}).ErrorData(); d.Details != nil {
		t.Errorf("unknown position should have no details: %+v", d)
	}
}

// Many goroutines transpiling different programs and mapping stacks of a
// shared Program (whose index is built lazily) at once: run with -race.
func TestConcurrentUse(t *testing.T) {
	shared := MustTranspile(t, "interface A {}\nfunction f(): never {\n  throw new Error('x')\n}\nf()")
	const stack = "Error: x\n\tat f (main.ts:2:9(3))\n\tat main.ts:4:1(5)\n"
	wantStack := shared.MapStack(stack)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 40; i++ {
				code := fmt.Sprintf("interface I%d { v: number }\nconst o%d: I%d = { v: %d };\no%d.v", g, g, g, i, g)
				p, err := Transpile(code, fmt.Sprintf("f%d.ts", g))
				if err != nil {
					errs <- err
					return
				}
				if want := fmt.Sprintf("o%d.v;", g); lastStatement(p.JS) != want {
					errs <- fmt.Errorf("goroutine %d: JS %q", g, p.JS)
					return
				}
				if l, c, ok := p.MapPosition(2, 7); !ok || l != 2 || c != 7 {
					errs <- fmt.Errorf("MapPosition = %d:%d %v", l, c, ok)
					return
				}
				if _, err := Transpile("let = "+code, "bad.ts"); err == nil {
					errs <- errors.New("want syntax error")
					return
				}
				if got := shared.MapStack(stack); got != wantStack {
					errs <- fmt.Errorf("MapStack = %q", got)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
