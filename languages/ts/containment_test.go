package ts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

// hostileShapes are the esbuild crash reproducers once used to tune a
// hand-written guard (a TypeScript lexer predicting esbuild), now tests of
// containment: repeated n times, each crashes esbuild (a fatal Go stack
// overflow: nothing in the process can recover it), makes it run
// super-linearly, or did so in earlier measurements. Measured on esbuild
// v0.28.2 in one process (2-core box):
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

// ambiguousSlashes are deep nesting hidden behind a '/' that is a regex to
// esbuild but looks like a division to a simple lexer (or the reverse): the
// inputs a lexer-based guard had to refuse rather than guess.
var ambiguousSlashes = func() []string {
	deep := strings.Repeat("(", 500_000)
	return []string{
		"let x: T\n/`/; " + deep,
		"let x: T\n/ b + / ; " + deep,
		"let x: T\n/(/; " + deep,
		"class A {} /'/; " + deep,
		"let x: T\n/ a // " + deep,
		"let x = a as const\n/ x /* " + deep + " */",
		"async function f() { for /* c */ await (const x of y) /`/; " + deep,
		"async function f() { for\nawait (const x of y) /'/; " + deep,
	}
}()

// exponentialShape keeps esbuild busy for minutes (exponential
// backtracking over arrow-function ternaries), in ~400 bytes.
var exponentialShape = strings.Repeat("a ? (b): c => ", 30) + "1"

// Every reproducer ends in a clean result — it transpiles, or it is a
// syntax error, or it is transpile_failed (the worker ran out of stack or
// memory, crashed, or overran its timeout) — within the timeout, and the
// next request is served correctly: by the same worker after a clean
// answer, by a fresh one after a failure. The workers here have a 32 MiB
// stack limit and a 1 s timeout so the ~70 cases take well under a minute;
// TestDefaultLimitsContainDeepNesting covers the production limits. A
// reproducer over MaxSourceBytes is refused (payload_too_large) before any
// worker sees it, and then tried again at the largest size that fits.
func TestHostileInputsAreContained(t *testing.T) {
	w := MustStartWorkers(t, WorkersConfig{Size: 1, Timeout: time.Second, MaxStackBytes: 32 << 20})
	type reproducer struct {
		name string
		code string
	}
	var cases []reproducer
	for _, sh := range hostileShapes {
		code := sh.gen(sh.n)
		if len(code) > MaxSourceBytes {
			if _, err := w.Transpile(context.Background(), code, "main.ts"); wasmexec.ErrorCode(err) != wasmexec.ETooLarge {
				t.Errorf("%s: %d bytes: %v; want payload_too_large", sh.name, len(code), err)
			}
			n := sh.n * MaxSourceBytes / len(code)
			for len(sh.gen(n)) > MaxSourceBytes {
				n -= n / 100
			}
			code = sh.gen(n)
		}
		cases = append(cases, reproducer{sh.name, code})
	}
	for i, code := range ambiguousSlashes {
		cases = append(cases, reproducer{fmt.Sprintf("ambiguous slash %d", i+1), code})
	}
	if len(cases) < 59 {
		t.Fatalf("%d reproducers; the guard was tuned on 59", len(cases))
	}
	counts := map[string]int{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := waitPIDs(t, w, 1)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			start := time.Now()
			_, err := w.Transpile(ctx, c.code, "main.ts")
			elapsed := time.Since(start)
			var se *SyntaxError
			var te *TranspileError
			result := "transpiled"
			switch {
			case err == nil:
			case errors.As(err, &se):
				result = "syntax_error"
				if se.Line < 1 || se.Column < 1 || se.Message == "" {
					t.Errorf("syntax error without a position: %+v", se)
				}
			case errors.As(err, &te):
				result = "transpile_failed/" + te.Reason
				if te.Reason == ReasonCrashed {
					t.Errorf("an unexplained crash: %v", te)
				}
			default:
				t.Fatalf("not a clean result: %v", err)
			}
			counts[result]++
			t.Logf("%d bytes: %s after %v", len(c.code), result, elapsed.Round(time.Millisecond))
			// The 1 s timeout bounds the transpile; moving up to 16 MiB to a
			// worker and replacing it are not, and a loaded 2-core machine
			// stretches them: this only catches a transpile that was never
			// stopped (it ran on to the minute-long ctx).
			if elapsed > 45*time.Second {
				t.Errorf("took %v with a 1 s timeout", elapsed)
			}
			AssertServes(t, w)
			after := waitPIDs(t, w, 1)
			if failed := te != nil; failed == (after[0] == before[0]) {
				t.Errorf("%s: worker %d before, %d after", result, before[0], after[0])
			}
		})
	}
	t.Logf("results: %v", counts)
}

// With the production limits (256 MiB of stack, 1 GiB of memory), a worker
// overflowing its stack is a clean transpile_failed too.
func TestDefaultLimitsContainDeepNesting(t *testing.T) {
	// Only the timeout is raised: on a loaded machine the crash itself may
	// take longer than the default 5 s, which would also be a clean result.
	w := MustStartWorkers(t, WorkersConfig{Size: 1, Timeout: 2 * time.Minute})
	for _, code := range []string{
		strings.Repeat("(", 500_000) + "1" + strings.Repeat(")", 500_000),
		strings.Repeat("!", 1_000_000) + "1",
	} {
		before := waitPIDs(t, w, 1)
		_, err := w.Transpile(context.Background(), code, "main.ts")
		var te *TranspileError
		if !errors.As(err, &te) || (te.Reason != ReasonStackOverflow && te.Reason != ReasonMemoryLimit) {
			t.Fatalf("err = %v; want transpile_failed with reason stack_overflow or memory_limit", err)
		}
		t.Logf("%.20q…: %v", code, te)
		AssertServes(t, w)
		if after := waitPIDs(t, w, 1); after[0] == before[0] {
			t.Errorf("worker %d still serves after dying", before[0])
		}
	}
}

// A worker past its memory cap is transpile_failed/memory_limit.
func TestWorkerMemoryCap(t *testing.T) {
	if !testWorkers.MemoryCapApplies {
		t.Skip("the workers are race-instrumented test binaries, which cannot take RLIMIT_DATA")
	}
	w := MustStartWorkers(t, WorkersConfig{Size: 1, MemoryLimitBytes: 128 << 20, Timeout: time.Minute})
	code := "const a = [" + strings.Repeat("1,", 4_000_000) + "];\na.length"
	_, err := w.Transpile(context.Background(), code, "main.ts")
	var te *TranspileError
	if !errors.As(err, &te) || te.Reason != ReasonMemoryLimit {
		t.Fatalf("err = %v; want transpile_failed with reason memory_limit", err)
	}
	AssertServes(t, w)
}

// validPrograms are valid TypeScript the guard refused (as syntax errors);
// they must transpile and run.
var validPrograms = []struct {
	name string
	code string
	want any
}{
	{"call with 2,100 arguments", func() string {
		args := make([]string, 2100)
		for i := range args {
			args[i] = fmt.Sprint(i)
		}
		return "function count(...xs: number[]): number { return xs.length }\ncount(" + strings.Join(args, ", ") + ")"
	}(), int64(2100)},
	{"let with 2,100 declarators", func() string {
		decls := make([]string, 2100)
		for i := range decls {
			decls[i] = fmt.Sprintf("v%d: number = %d", i, i)
		}
		return "let " + strings.Join(decls, ", ") + ";\nv0 + v2099"
	}(), int64(2099)},
	{"division by a string's length at a line start", "const total: number = 12;\ntotal\n/ \"abc\".length / 2", int64(2)},
	{"division by a parenthesized name at a line start", "const sum: number = 12, count: number = 3;\nsum\n/ (count) / 2", int64(2)},
}

func TestValidProgramsRun(t *testing.T) {
	w := MustStartWorkers(t, WorkersConfig{Size: 1})
	for _, tt := range validPrograms {
		t.Run(tt.name, func(t *testing.T) {
			for name, p := range map[string]*Program{"in process": MustTranspile(t, tt.code), "in a worker": MustTranspileIn(t, w, tt.code)} {
				got, err := runGoja(t, p)
				if err != nil {
					t.Fatalf("%s: goja: %v", name, err)
				}
				if got != tt.want {
					t.Errorf("%s: value %#v, want %#v", name, got, tt.want)
				}
			}
		})
	}
}

var fuzzWorkers struct {
	once sync.Once
	w    *Workers
	err  error
}

// FuzzTranspile: whatever the code, a worker gives a clean answer (a
// program, a syntax error or transpile_failed) and the next request is
// served; a program's stack mapping does not panic.
func FuzzTranspile(f *testing.F) {
	for _, s := range []string{bench50, "1+1", "let = ;", "a ? (b): c => d", "x = a\n/ b / c", "`${`${1}`}`", "/(/", "<!--\n-->"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		fuzzWorkers.once.Do(func() {
			fuzzWorkers.w, fuzzWorkers.err = NewWorkers(WorkersConfig{Size: 1, Timeout: 2 * time.Second,
				Command: testWorkers.Command, Env: testWorkers.Env})
			if fuzzWorkers.err == nil {
				fuzzWorkers.err = fuzzWorkers.w.Start(context.Background())
			}
		})
		if fuzzWorkers.err != nil {
			t.Fatal(fuzzWorkers.err)
		}
		p, err := fuzzWorkers.w.Transpile(context.Background(), code, "main.ts")
		var se *SyntaxError
		var te *TranspileError
		switch {
		case err == nil:
			p.MapStack("at main.ts:1:1(0)\nmain.ts: Line 2:3 x")
		case errors.As(err, &se), errors.As(err, &te):
		default:
			t.Fatalf("not a clean result: %v", err)
		}
	})
}
