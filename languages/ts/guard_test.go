package ts

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// hostileShapes are inputs that, repeated n times, crash esbuild (fatal Go
// stack overflow: nothing can recover it) or make it run super-linearly.
// Measured on esbuild v0.28.2 without the guard (2-core box):
//   - stack: "!"×300k, "a=>"×160k, "(" ×440k, "{a:"×190k … → process abort
//   - "a ? (b): c => "×22 → > 30 s (exponential)
//   - "(a) => "×1000 → 5.6 s, nested blocks with let ×1000 → 2.8 s (cubic)
//   - "a<b,"×4000 → 4 s, "a < b < "×4000 → 21 s, "f<"×8000 → 28 s
//   - "1,"×8000 (comma operators) → 1.4 s, ×65000 → 2 min
var hostileShapes = []struct {
	name string
	gen  func(n int) string
	n    int // large enough to be dangerous
}{
	{"parens", func(n int) string { return strings.Repeat("(", n) + "1" + strings.Repeat(")", n) }, 500_000},
	{"unclosed parens", func(n int) string { return strings.Repeat("(", n) }, 500_000},
	{"arrays", func(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }, 500_000},
	{"blocks", func(n int) string { return strings.Repeat("{", n) + "1" + strings.Repeat("}", n) }, 500_000},
	{"objects", func(n int) string { return "x = " + strings.Repeat("{a:", n) + "1" + strings.Repeat("}", n) }, 500_000},
	{"templates", func(n int) string { return strings.Repeat("`${", n) + "1" + strings.Repeat("}`", n) }, 300_000},
	{"not", func(n int) string { return strings.Repeat("!", n) + "1" }, 1_000_000},
	{"minus", func(n int) string { return strings.Repeat("- ", n) + "1" }, 1_000_000},
	{"typeof", func(n int) string { return strings.Repeat("typeof ", n) + "a" }, 500_000},
	{"await", func(n int) string { return strings.Repeat("await ", n) + "a" }, 500_000},
	{"new", func(n int) string { return strings.Repeat("new ", n) + "a" }, 500_000},
	{"spread", func(n int) string { return strings.Repeat("[...", n) + "a" }, 500_000},
	{"assign", func(n int) string { return strings.Repeat("a=", n) + "1" }, 500_000},
	{"pow", func(n int) string { return strings.Repeat("2**", n) + "1" }, 500_000},
	{"ternary", func(n int) string { return strings.Repeat("a?b:", n) + "1" }, 500_000},
	{"member chain", func(n int) string { return "a" + strings.Repeat(".a", n) }, 1_000_000},
	{"call chain", func(n int) string { return "a" + strings.Repeat("()", n) }, 1_000_000},
	{"comma", func(n int) string { return strings.Repeat("1,", n) + "1" }, 4_000_000},
	{"comma in parens", func(n int) string { return "x = (" + strings.Repeat("a,", n) + "1)" }, 100_000},
	{"comma in block", func(n int) string { return "{ " + strings.Repeat("a ? b : c, ", n) + "1 }" }, 100_000},
	{"comma in template", func(n int) string { return "`${" + strings.Repeat("a,", n) + "1}`" }, 100_000},
	{"or chain", func(n int) string { return strings.Repeat("a||", n) + "1" }, 4_000_000},
	{"ifs", func(n int) string { return strings.Repeat("if (1) ", n) + "1" }, 300_000},
	{"ifs on lines", func(n int) string { return strings.Repeat("if (1)\n", n) + "1" }, 300_000},
	{"else if", func(n int) string { return strings.Repeat("if(1)x;else ", n) + "1" }, 300_000},
	{"else if on lines", func(n int) string { return strings.Repeat("if (1) x\nelse ", n) + "1" }, 300_000},
	{"do else", func(n int) string { return strings.Repeat("do if(1)x;else ", n) + "x" }, 300_000},
	{"labels", func(n int) string { return strings.Repeat("a:", n) + "1" }, 500_000},
	{"while", func(n int) string { return strings.Repeat("while(1)", n) + "1" }, 300_000},
	{"arrows", func(n int) string { return strings.Repeat("a=>", n) + "1" }, 300_000},
	{"arrows on lines", func(n int) string { return strings.Repeat("a =>\n", n) + "1" }, 300_000},
	{"namespaces", func(n int) string { return strings.Repeat("namespace a{", n) }, 300_000},
	{"type args", func(n int) string { return "let x: " + strings.Repeat("Array<", n) + "number" + strings.Repeat(">", n) }, 1_000_000},
	{"type args with commas", func(n int) string { return "let x: " + strings.Repeat("A<1,", n) + "1" + strings.Repeat(">", n) }, 1_000_000},
	{"keyof", func(n int) string { return "let x: " + strings.Repeat("keyof ", n) + "T" }, 1_000_000},
	{"keyof on lines", func(n int) string { return "let x: " + strings.Repeat("keyof\n", n) + "T" }, 1_000_000},
	{"conditional types on lines", func(n int) string { return "type x = a\n" + strings.Repeat("extends b ? c : a\n", n) + "1" }, 1_000_000},
	{"comparisons on lines", func(n int) string { return "x = a\n" + strings.Repeat("> b >\n a\n", n) }, 1_000_000},
	{"else if on lines with calls", func(n int) string { return strings.Repeat("if (1) f()\nelse ", n) + "g()" }, 300_000},
	{"conditional types", func(n int) string { return "type x=" + strings.Repeat("a extends b?c:", n) + "1" }, 1_000_000},
	{"tuple types", func(n int) string { return "let x:" + strings.Repeat("[", n) }, 1_000_000},
	{"as const ternary", func(n int) string { return strings.Repeat("a ? b as\nconst : ", n) + "1" }, 300_000},
	{"arrow ternary (exponential)", func(n int) string { return strings.Repeat("a ? (b): c => ", n) + "1" }, 30},
	{"arrow ternary nested", func(n int) string { return strings.Repeat("(a ? (b): c => ", n) + "1" + strings.Repeat(")", n) }, 30},
	{"paren arrows (cubic)", func(n int) string { return strings.Repeat("(a) => ", n) + "1" }, 1000},
	{"object param arrows", func(n int) string { return strings.Repeat("({a}) => ", n) + "1" }, 1000},
	{"typed arrows", func(n int) string { return strings.Repeat("(a: T) => ", n) + "1" }, 1000},
	{"async arrows", func(n int) string { return strings.Repeat("async (a) => ", n) + "1" }, 1000},
	{"nested blocks with let", func(n int) string { return strings.Repeat("{ let a = 1; ", n) + strings.Repeat("}", n) }, 1000},
	{"nested functions", func(n int) string { return strings.Repeat("function f() { ", n) + strings.Repeat("}", n) }, 1000},
	{"nested for let", func(n int) string { return strings.Repeat("for (let i = 0; i < 1; i++) ", n) + "1" }, 1000},
	{"lt in array (quadratic)", func(n int) string { return "x = [" + strings.Repeat("a<b,", n) + "1]" }, 4000},
	{"lt in args", func(n int) string { return "f(" + strings.Repeat("a < b, ", n) + "1)" }, 4000},
	{"lt chain", func(n int) string { return "x = " + strings.Repeat("a < b < ", n) + "c" }, 4000},
	{"lt paren", func(n int) string { return strings.Repeat("a<(", n) }, 4000},
	{"generic calls", func(n int) string { return strings.Repeat("f<", n) }, 8000},
	{"arrow ternary double paren", func(n int) string { return strings.Repeat("a ? ((b)): c => ", n) + "1" }, 30},
	{"arrow ternary object", func(n int) string { return strings.Repeat("a ? ({b}): c => ", n) + "1" }, 30},
	{"function params", func(n int) string { return strings.Repeat("function f(a = function (b = ", n) }, 1000},
	{"class heritage", func(n int) string { return strings.Repeat("class A extends (class B extends (", n) }, 1000},
	{"else if with exotic space", func(n int) string { return strings.Repeat("if(1)x;else\u3000", n) + "1" }, 300_000},
}

func TestGuardRejectsHostileShapes(t *testing.T) {
	for _, sh := range hostileShapes {
		t.Run(sh.name, func(t *testing.T) {
			code := sh.gen(sh.n)
			start := time.Now()
			err := checkSource(code, "main.ts")
			elapsed := time.Since(start)
			var se *SyntaxError
			if !errors.As(err, &se) {
				// Do not hand it to esbuild: it might take the test binary down.
				t.Fatalf("guard accepted %d bytes of %q", len(code), sh.name)
			}
			if se.Line < 1 || se.Column < 1 || se.Message == "" {
				t.Errorf("bad rejection: %+v", se)
			}
			if elapsed > time.Second {
				t.Errorf("guard took %v", elapsed)
			}
			// Transpile itself refuses it too (guard runs before esbuild).
			if _, err := Transpile(code, "main.ts"); !errors.As(err, &se) {
				t.Errorf("Transpile: %v", err)
			}
		})
	}
}

// For each hostile shape, the largest size the guard still accepts must be
// cheap for esbuild: this is what the limits are calibrated against.
func TestGuardAcceptedSizesAreCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs esbuild on the largest accepted input of every shape")
	}
	budget := 1500 * time.Millisecond
	if raceEnabled {
		budget = 15 * time.Second
	}
	for _, sh := range hostileShapes {
		t.Run(sh.name, func(t *testing.T) {
			// Largest accepted n, by bisection on the guard alone.
			lo, hi := 0, sh.n
			for hi-lo > 1 {
				mid := (lo + hi) / 2
				if checkSource(sh.gen(mid), "main.ts") == nil {
					lo = mid
				} else {
					hi = mid
				}
			}
			if lo == 0 {
				return
			}
			code := sh.gen(lo)
			start := time.Now()
			_, err := Transpile(code, "main.ts")
			elapsed := time.Since(start)
			t.Logf("largest accepted n=%d (%d bytes): esbuild %v (err: %v)", lo, len(code), elapsed.Round(time.Millisecond), err)
			if elapsed > budget {
				t.Errorf("n=%d took %v, budget %v", lo, elapsed, budget)
			}
		})
	}
}

// The guard's own soundness hinges on telling regexes from divisions the
// way esbuild does. Where it cannot, it must refuse rather than guess.
func TestGuardAmbiguousSlash(t *testing.T) {
	deep := strings.Repeat("(", 500_000)
	for _, code := range []string{
		// After a type annotation a line break allows ASI, so esbuild reads
		// a regex; a lexer guessing "division" would skip the backtick as a
		// template start and miss the nesting behind it.
		"let x: T\n/`/; " + deep,
		"let x: T\n/ b + / ; " + deep,
		"let x: T\n/(/; " + deep,
		"class A {} /'/; " + deep,
		"let x: T\n/ a // " + deep,
		"let x = a as const\n/ x /* " + deep + " */",
		// for await (…) is a loop head: a regex follows it.
		"async function f() { for /* c */ await (const x of y) /`/; " + deep,
		"async function f() { for\nawait (const x of y) /'/; " + deep,
	} {
		if err := checkSource(code, "main.ts"); err == nil {
			t.Errorf("guard accepted %.40q…", code)
		}
	}
}

// Ordinary programs, including large and unusual-but-legitimate ones, must
// pass the guard.
func TestGuardAcceptsRealisticCode(t *testing.T) {
	var semicolonFree strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&semicolonFree, "const v%d = compute(%d, \"x\") + offset\nlog(v%d)\nif (v%d < limit) total += v%d\n", i, i, i, i, i)
	}
	var bigArray strings.Builder
	bigArray.WriteString("const data: number[] = [")
	for i := 0; i < 200_000; i++ {
		fmt.Fprintf(&bigArray, "%d,", i)
	}
	bigArray.WriteString("];\ndata.length")
	var bigObject strings.Builder
	bigObject.WriteString("const table: Record<string, Map<string, number>> = {\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&bigObject, "  k%d: new Map<string, number>([[\"a\", %d]]),\n", i, i)
	}
	bigObject.WriteString("};\n")
	var concat strings.Builder
	concat.WriteString("const s = \"\"")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&concat, " + \"part%d\"", i)
	}
	var nestedJSON strings.Builder
	nestedJSON.WriteString("const j = ")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&nestedJSON, "{\"k%d\": [1, 2, ", i)
	}
	nestedJSON.WriteString("0")
	for i := 0; i < 60; i++ {
		nestedJSON.WriteString("]}")
	}
	var ternaryChain strings.Builder
	ternaryChain.WriteString("const label = ")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&ternaryChain, "x === %d ? (\"v%d\") : ", i, i)
	}
	ternaryChain.WriteString("\"other\";\n")
	var comparisons strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&comparisons, "if (a%d < b && c > d%d) { r.push(a%d <= b ? 1 : 2) }\n", i, i, i)
	}
	var asyncFns strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&asyncFns, "async function f%d(x: number): Promise<number> {\n  return await g(x) + %d\n}\nconsole.log(f%d)\n", i, i, i)
	}
	var bigClass strings.Builder
	bigClass.WriteString("class Store {\n")
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&bigClass, "  h%d = (e: Event) => this.emit(%d, e)\n  @log m%d(): void {}\n  get g%d() { return %d }\n", i, i, i, i, i)
	}
	bigClass.WriteString("}\n")
	var ifElse strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&ifElse, "if (x === %d) y = 1\nelse if (x > %d) y = 2\nelse y = 3\n", i, i)
	}
	var callbacks strings.Builder
	for i := 0; i < 30; i++ {
		callbacks.WriteString("run(async (x: number) => {\n")
	}
	for i := 0; i < 30; i++ {
		callbacks.WriteString("})\n")
	}

	tests := map[string]string{
		"bench50":             bench50,
		"semicolon-free":      semicolonFree.String(),
		"big array":           bigArray.String(),
		"big object":          bigObject.String(),
		"long concatenation":  concat.String(),
		"nested JSON":         nestedJSON.String(),
		"ternary chain":       ternaryChain.String(),
		"comparisons":         comparisons.String(),
		"callback pyramid":    callbacks.String(),
		"400 async functions": asyncFns.String(),
		"big class":           bigClass.String(),
		"5000 if/else":        ifElse.String(),
		"regexes": `const a = /[(]/g, b = /\((\d+)\)/, c = /'"` + "`" + `/, d = /[/]/;
const e = s.replace(/{(\w+)}/g, (_, k) => vars[k]);
if (ok) /x/.test(s);
const half = n / 2 // rounded later
const rate = total / count / 60;
const f = (a + b) / 2, g = arr[0] / 3, h = x! / 4, i = y++ / 5;
const t = ` + "`${a}/${b}`" + `;
return /re/;`,
		"divisions on new lines": "const avg = sum\n  / count\nconst x = (a + b)\n  / 2;\n",
		"generics": `function pick<T, K extends keyof T>(o: T, ...k: K[]): Pick<T, K> { return o }
const m = new Map<string, Array<Promise<Record<string, number>>>>();
const f = <T,>(x: T): T => x;
type Deep = Array<Array<Array<Array<number>>>>;
let u: Partial<Record<"a" | "b", () => Promise<void>>> = {};`,
		"html comment":             "<!-- ( [ {\nconst x = 1\n--> ( [ {\nx",
		"html close comment first": "--> ) ] }\nconst x = 1",
		"strings with brackets": `const s = "(((((" + '[[[[' + ` + "`{{{{`" + `;
// ((((( in a comment
/* [[[[ { in a block comment */`,
		"unicode":    "const ü = \"😀(\";\u00A0const β = ü;\u2028β",
		"hashbang":   "#!/usr/bin/env node\nconst x = (1)",
		"else chain": strings.Repeat("if (x) a()\nelse ", 200) + "b()",
	}
	for name, code := range tests {
		if err := checkSource(code, "main.ts"); err != nil {
			t.Errorf("%s: rejected: %v", name, err)
		}
	}
}

func TestGuardErrorPosition(t *testing.T) {
	code := "const é = 1;\nconst x = " + strings.Repeat("(a) => ", 300) + "1;\n"
	err := checkSource(code, "main.ts")
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	if se.Line != 2 || se.Column < 11 || se.Filename != "main.ts" {
		t.Errorf("position %d:%d", se.Line, se.Column)
	}
	if d := se.ErrorData(); d.Code != "syntax_error" || d.Details["line"] != 2 {
		t.Errorf("ErrorData = %+v", d)
	}
}

func TestPositionOf(t *testing.T) {
	s := "ab\ncé😀x\r\ny"
	for off, want := range map[int][2]int{0: {1, 1}, 2: {1, 3}, 3: {2, 1}, 6: {2, 3}, 10: {2, 5}, 13: {3, 1}} {
		if l, c := positionOf(s, off); l != want[0] || c != want[1] {
			t.Errorf("positionOf(%d) = %d:%d, want %v", off, l, c, want)
		}
	}
}

// FuzzTranspile: nothing the guard accepts may crash or hang esbuild, and
// neither may panic. (The fuzzer does not find stack overflows by itself;
// the shapes above cover those.)
func FuzzTranspile(f *testing.F) {
	for _, s := range []string{bench50, "1+1", "let = ;", "a ? (b): c => d", "x = a\n/ b / c", "`${`${1}`}`", "/(/", "<!--\n-->"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		start := time.Now()
		p, err := Transpile(code, "main.ts")
		if d := time.Since(start); d > 2*time.Second && !raceEnabled {
			t.Fatalf("Transpile took %v on %d bytes", d, len(code))
		}
		if err == nil {
			p.MapStack("at main.ts:1:1(0)\nmain.ts: Line 2:3 x")
		}
	})
}
