package ts

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/wasmexec/wasmexec"
)

// gojaException runs p in a fresh goja runtime (after any extra scripts,
// given as name→source pairs) and returns the exception it must throw.
func gojaException(t *testing.T, p *Program, extra ...string) *goja.Exception {
	t.Helper()
	vm := goja.New()
	vm.SetMaxCallStackSize(1000)
	for i := 0; i+1 < len(extra); i += 2 {
		if _, err := vm.RunScript(extra[i], extra[i+1]); err != nil {
			t.Fatalf("%s: %v", extra[i], err)
		}
	}
	_, err := vm.RunScript(p.Filename, p.JS)
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		t.Fatalf("want *goja.Exception, got %v (%T)\nJS:\n%s", err, err, p.JS)
	}
	return ex
}

// The throw is on TS line 7, but the four interface/type lines above it
// vanish in the JS, so goja reports JS line 2 (plus a call frame).
const sevenLines = `interface Point { x: number; y: number }
interface Named {
  name: string
}
type Pair = [Point, Named];
function fail(p: Point): never {
  throw new Error("boom at " + p.x);
}
fail({ x: 1, y: 2 });
`

func TestStackMappedToTypeScript(t *testing.T) {
	p := MustTranspile(t, sevenLines)
	ex := gojaException(t, p)
	stack := ex.String()
	// Pin goja's format so a goja upgrade that changes it fails loudly here.
	if want := "Error: boom at 1\n\tat fail (main.ts:3:9(6))\n\tat main.ts:5:5(8)\n"; stack != want {
		t.Fatalf("goja stack format changed:\n%q\nwant\n%q\nJS:\n%s", stack, want, p.JS)
	}
	got := p.MapStack(stack)
	want := "Error: boom at 1\n\tat fail (main.ts:7:9)\n\tat main.ts:9:1\n"
	if got != want {
		t.Errorf("MapStack =\n%q\nwant\n%q", got, want)
	}
	// Exception.Error() puts the top frame inline: "... at fail (main.ts:3:9(6))".
	if got, want := p.MapStack(ex.Error()), "Error: boom at 1 at fail (main.ts:7:9)"; got != want {
		t.Errorf("MapStack(Error()) = %q, want %q", got, want)
	}
	// The JS-side "stack" property holds the same text.
	vm := goja.New()
	v, err := vm.RunScript(p.Filename, "try { (function(){ "+strings.ReplaceAll(p.JS, "\n", " ")+" })() } catch (e) { e.stack }")
	if err != nil || !strings.Contains(v.String(), "main.ts:") {
		t.Fatalf("stack property: %v %v", v, err)
	}
}

func TestStackColumnsUTF16(t *testing.T) {
	// The failing access sits after non-ASCII text on the same TS line. goja
	// points at the property name `a`: UTF-16 column 42 of TS line 3 (it
	// would be 45 counting bytes).
	code := "type T = { a: number };\nlet n: T | null = null;\nconst s = \"😀é\"; const v = (null as any).a;\n"
	p := MustTranspile(t, code)
	ex := gojaException(t, p)
	got := p.MapStack(ex.String())
	if !strings.Contains(got, "at main.ts:3:42\n") {
		t.Fatalf("MapStack = %q (raw %q)\nJS:\n%s", got, ex.String(), p.JS)
	}
}

// goja reports byte columns; a raw non-ASCII regex literal (esbuild does not
// escape those) makes bytes and UTF-16 units differ on the generated line.
func TestStackColumnsAfterRawNonASCIIInJS(t *testing.T) {
	code := "declare const x: any;\nconst v = [/ééé/, (null as any).a];\n"
	p := MustTranspile(t, code)
	if !strings.Contains(p.JS, "/ééé/") {
		t.Skipf("esbuild escaped the regex; JS:\n%s", p.JS)
	}
	ex := gojaException(t, p)
	got := p.MapStack(ex.String())
	// goja says byte column 26 of JS line 2 (`a`, after 3 two-byte chars);
	// in UTF-16 that is column 23, which maps to `a` at column 33 of TS line 2.
	if !strings.Contains(got, "at main.ts:2:33\n") {
		t.Fatalf("MapStack = %q (raw %q)\nJS:\n%s", got, ex.String(), p.JS)
	}
}

func TestStackOtherFramesUntouched(t *testing.T) {
	code := "interface Cb { (): void }\nconst cb: Cb = () => {\n  throw new TypeError('inner');\n};\n[1].forEach(() => callIt(cb));\n"
	p := MustTranspile(t, code)
	ex := gojaException(t, p, "lib.js", "function callIt(f) {\n  return f();\n}")
	raw := ex.String()
	got := p.MapStack(raw)
	for _, want := range []string{
		"TypeError: inner\n",
		"\tat cb (main.ts:3:9)\n",
		"\tat callIt (lib.js:2:", // other file: unchanged, pc kept
		"\tat forEach (native)\n",
		"main.ts:5:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("mapped stack lacks %q:\n%s\nraw:\n%s", want, got, raw)
		}
	}
	if strings.Count(got, "lib.js:2:") != strings.Count(raw, "lib.js:2:") {
		t.Errorf("lib.js frames changed:\n%s\nraw:\n%s", got, raw)
	}
}

func TestMapStackLeavesUnrelatedText(t *testing.T) {
	p := MustTranspile(t, sevenLines)
	for _, s := range []string{
		"",
		"no positions here",
		"at lib/main.ts:3:9(5)",   // longer filename
		"at xmain.ts:3:9",         // longer filename
		"at main.ts:2",            // no column
		"at main.ts:x:1",          // not a number
		"at main.ts:99:1(3)",      // no such JS line
		"at main.ts:2:9999999999", // absurd number
		"main.tsx:2:9 is another file",
	} {
		if got := p.MapStack(s); got != s {
			t.Errorf("MapStack(%q) = %q", s, got)
		}
	}
	// A frame at the start of the text and one without the pc suffix.
	if got, want := p.MapStack("main.ts:3:9 and (main.ts:5:5)"), "main.ts:7:9 and (main.ts:9:1)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// goja's *compiler* syntax errors ("... at main.ts:L:C") and parser errors
// ("main.ts: Line L:C ...") for code esbuild accepts but goja does not.
func TestGojaSyntaxErrorsMapped(t *testing.T) {
	// goja runs scripts, not modules: `export` is a goja parse error.
	code := "interface A { a: number }\ninterface B { b: number }\n\nconst a: A = { a: 1 };\nexport const b: B = { b: 2 };\n"
	p := MustTranspile(t, code)
	ex := gojaException(t, p)
	raw := ex.Error()
	if !strings.Contains(raw, "main.ts: Line 3:1 ") {
		t.Fatalf("goja parser error format changed: %q\nJS:\n%s", raw, p.JS)
	}
	if got := p.MapErrorPosition(raw); !strings.Contains(got, "main.ts: Line 5:8 ") {
		t.Errorf("MapErrorPosition = %q", got)
	}

	// A regexp flag goja does not know: a compile-time SyntaxError with an
	// "at file:line:col" position.
	p = MustTranspile(t, "type X = 1;\ntype Y = 2;\nconst r = /a/v;\n")
	ex = gojaException(t, p)
	raw = ex.Error()
	if !strings.Contains(raw, "at main.ts:2:11") {
		t.Fatalf("goja compiler error format changed: %q\nJS:\n%s", raw, p.JS)
	}
	if got := p.MapStack(raw); !strings.Contains(got, "at main.ts:3:11") {
		t.Errorf("MapStack = %q", got)
	}
}

func TestGojaUnsupportedSyntaxIsLowered(t *testing.T) {
	// Each of these fails to parse in goja when passed through at esnext.
	for _, js := range []string{
		"function d(v, c) { return v }\n@d class B {}",
		"{ using x = null; }",
		"async function* g() {}",
		"(async () => { for await (const x of []) {} })()",
	} {
		if _, err := goja.New().RunScript("x.js", js); err == nil {
			t.Errorf("goja now accepts %q: the Supported override may be unnecessary", js)
		}
	}
}

func TestMapErrorData(t *testing.T) {
	p := MustTranspile(t, sevenLines)
	in := &wasmexec.ErrorData{
		Code:    wasmexec.CodeException,
		Name:    "Error",
		Message: "boom at fail (main.ts:3:9(5))",
		Stack:   "Error: boom\n\tat fail (main.ts:3:9(5))\n\tat main.ts:5:5(7)\n",
		Details: map[string]any{"line": float64(3), "column": 9, "other": "x"},
	}
	keep := *in
	got := p.MapErrorData(in)
	want := &wasmexec.ErrorData{
		Code:    wasmexec.CodeException,
		Name:    "Error",
		Message: "boom at fail (main.ts:7:9)",
		Stack:   "Error: boom\n\tat fail (main.ts:7:9)\n\tat main.ts:9:1\n",
		Details: map[string]any{"line": 7, "column": 9, "other": "x"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MapErrorData =\n%+v\nwant\n%+v", got, want)
	}
	if in.Message != keep.Message || in.Details["line"] != float64(3) {
		t.Errorf("input modified: %+v", in)
	}
	if p.MapErrorData(nil) != nil {
		t.Error("MapErrorData(nil) != nil")
	}
}

func TestMapPositionEdges(t *testing.T) {
	p := MustTranspile(t, sevenLines)
	for _, c := range [][2]int{{0, 1}, {1, 0}, {-1, 5}, {100, 1}} {
		if _, _, ok := p.MapPosition(c[0], c[1]); ok {
			t.Errorf("MapPosition(%d, %d) ok", c[0], c[1])
		}
	}
	// Column before the first segment (indentation) → first segment;
	// column past the end → last segment of the line.
	if l, c, ok := p.MapPosition(3, 1); !ok || l != 7 || c != 3 {
		t.Errorf("indentation: %d:%d %v", l, c, ok)
	}
	if l, _, ok := p.MapPosition(3, 500); !ok || l != 7 {
		t.Errorf("past end: %d %v", l, ok)
	}
	var nilProgram *Program
	if _, _, ok := nilProgram.MapPosition(1, 1); ok {
		t.Error("nil program mapped")
	}
	if got := nilProgram.MapStack("main.ts:1:1"); got != "main.ts:1:1" {
		t.Error("nil program changed a stack")
	}
	// Helper code esbuild injects (decorator lowering) has no mapping.
	p = MustTranspile(t, "function d(v: any, c: any) { return v }\n@d class B {}\n")
	if !strings.HasPrefix(p.JS, "\nvar ") {
		t.Fatalf("expected injected helpers first:\n%s", p.JS)
	}
	for _, line := range []int{1, 2} { // the empty line 1, a helper on line 2
		if _, _, ok := p.MapPosition(line, 1); ok {
			t.Errorf("line %d mapped:\n%s", line, p.JS)
		}
	}
}

func TestDecodeVLQ(t *testing.T) {
	for s, want := range map[string]int32{"A": 0, "C": 1, "D": -1, "gB": 16, "hB": -16, "2H": 123, "3H": -123} {
		v, next, ok := decodeVLQ(s, 0)
		if !ok || v != want || next != len(s) {
			t.Errorf("decodeVLQ(%q) = %d, %d, %v; want %d", s, v, next, ok, want)
		}
	}
	for _, s := range []string{"", "g", "!", "gggggggggA"} {
		if _, _, ok := decodeVLQ(s, 0); ok {
			t.Errorf("decodeVLQ(%q) ok", s)
		}
	}
	for _, s := range []string{"AA", "AAA", "AAAAAA", "A!AA", "AAAD"} {
		if _, err := decodeMappings(s); err == nil {
			t.Errorf("decodeMappings(%q) accepted", s)
		}
	}
	m, err := decodeMappings("AAAA,IAAI;;AACA,CAAC;E")
	if err != nil {
		t.Fatal(err)
	}
	if want := []segment{{0, 0, 0}, {4, 0, 4}, {0, 1, 4}, {1, 1, 5}}; !reflect.DeepEqual(m.segs, want) {
		t.Errorf("segs = %v", m.segs)
	}
	if want := []int32{0, 2, 2, 4, 4}; !reflect.DeepEqual(m.lineStart, want) {
		t.Errorf("lineStart = %v", m.lineStart)
	}
}

func TestUTF16Columns(t *testing.T) {
	line := "a\té😀b"
	for byteCol, want := range map[int]int{0: 0, 1: 1, 2: 2, 4: 3, 8: 5, 9: 6, 12: 9} {
		if got := byteToUTF16Col(line, byteCol); got != want {
			t.Errorf("byteToUTF16Col(%d) = %d, want %d", byteCol, got, want)
		}
	}
	if got := utf16Len("\xff\xfe"); got != 2 {
		t.Errorf("invalid UTF-8 = %d", got)
	}
	if got := lineStarts("a\nb\r\nc\rd\u2028e\u2029f"); !reflect.DeepEqual(got, []int32{0, 2, 5, 7, 11, 15}) {
		t.Errorf("lineStarts = %v", got)
	}
}

// The JS guest runs code with top-level await as
// "(async () => {" + code + "\n})()", on the program's first line (see
// guest-images/js/await.go). Line 1 of Program.JS is empty, so that prefix
// shifts no position of the program.
func TestPositionsSurviveGuestAsyncWrapper(t *testing.T) {
	code := "const r = (await Promise.resolve(null as any)).x.y;\nr"
	p := MustTranspile(t, code)
	if !strings.HasPrefix(p.JS, "\n") {
		t.Fatalf("line 1 not empty: %q", p.JS)
	}
	vm := goja.New()
	v, err := vm.RunScript(p.Filename, "(async () => {"+p.JS+"\n})()")
	if err != nil {
		t.Fatal(err)
	}
	prom, ok := v.Export().(*goja.Promise)
	if !ok || prom.State() != goja.PromiseStateRejected {
		t.Fatalf("want a rejected promise, got %v", v)
	}
	stack := prom.Result().ToObject(vm).Get("stack").String()
	want := fmt.Sprintf("main.ts:1:%d", strings.Index(code, ").x")+3) // the `x`
	if got := p.MapStack(stack); !strings.Contains(got, want) {
		t.Fatalf("MapStack = %q, want %s (raw %q)\nJS:\n%s", got, want, stack, p.JS)
	}
}

func TestHashbangLineEmptied(t *testing.T) {
	p := MustTranspile(t, "#!/usr/bin/env -S deno run\ninterface I {}\nthrow new Error('x')")
	if !strings.HasPrefix(p.JS, "\n") || strings.Contains(p.JS, "#!") {
		t.Fatalf("JS = %q", p.JS)
	}
	ex := gojaException(t, p)
	if got := p.MapStack(ex.String()); !strings.Contains(got, "at main.ts:3:") {
		t.Fatalf("MapStack = %q\nJS:\n%s", got, p.JS)
	}
}
