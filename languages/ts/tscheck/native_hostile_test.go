package tscheck

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

// pathologicalUnion crosses three unions of 100 literals: a million members.
func pathologicalUnion() string {
	var d []string
	for i := range 100 {
		d = append(d, fmt.Sprintf("'%d'", i))
	}
	u := strings.Join(d, " | ")
	return "type D = " + u + ";\ntype X = `${D}-${D}-${D}`;\nexport const x: X = 'no';\n"
}

// tenMegabytes is a 10 MB file of declarations with one error at its end.
func tenMegabytes() string {
	var b strings.Builder
	for i := 0; b.Len() < 10<<20; i++ {
		fmt.Fprintf(&b, "export const v%d: { a: number; b: string } = { a: %d, b: \"%d\" };\n", i, i, i)
	}
	b.WriteString("export const last: number = 'x';\n")
	return b.String()
}

// tenThousandFiles imports each of 10,000 files from main.ts.
func tenThousandFiles() map[string]string {
	files := map[string]string{}
	var main strings.Builder
	for i := range 10000 {
		files[fmt.Sprintf("m/f%d.ts", i)] = fmt.Sprintf("export const v%d: number = %d;\n", i, i)
		fmt.Fprintf(&main, "import { v%d } from './m/f%d';\n", i, i)
	}
	main.WriteString("export const s: string = v0;\n")
	files["main.ts"] = main.String()
	return files
}

// nativeProbe checks that p still gives the right answer.
func nativeProbe(tb testing.TB, p *NativePool) {
	tb.Helper()
	res := MustNativeCheck(tb, p, probe)
	want := []Diagnostic{{Code: 2322, Category: "error", Message: "Type 'string' is not assignable to type 'number'.",
		FilePath: "/main.ts", Line: 1, Column: 14}}
	AssertDiagnosticsEqual(tb, res.Diagnostics, want)
}

// Hostile input ends within its limits — succeeded if the compiler copes,
// else timed_out or failed, the worker replaced — while another worker of
// the pool keeps answering other checks, and the next check is right.
func TestNativeHostileInputs(t *testing.T) {
	p := MustStartNativePool(t, NativeConfig{Size: 2, MemoryLimitBytes: 1 << 30})
	tests := []struct {
		name     string
		req      Request
		outcomes []wasmexec.Outcome
		codes    []string // acceptable Error.Code values when not succeeded
	}{
		{name: "deeply recursive type", req: Request{Code: explosiveType, Timeout: 2 * time.Second},
			outcomes: []wasmexec.Outcome{wasmexec.TimedOut, wasmexec.Failed, wasmexec.Succeeded}, codes: []string{CodeTimeout, wasmexec.CodeMemoryLimit}},
		{name: "template literal bomb", req: Request{Code: stringBomb, Timeout: 3 * time.Second},
			outcomes: []wasmexec.Outcome{wasmexec.TimedOut, wasmexec.Failed, wasmexec.Succeeded}, codes: []string{CodeTimeout, wasmexec.CodeMemoryLimit}},
		{name: "pathological union", req: Request{Code: pathologicalUnion(), Timeout: 3 * time.Second},
			outcomes: []wasmexec.Outcome{wasmexec.TimedOut, wasmexec.Failed, wasmexec.Succeeded}, codes: []string{CodeTimeout, wasmexec.CodeMemoryLimit}},
		{name: "100k nested parentheses", req: Request{Code: nestedParens(100000), Timeout: 5 * time.Second},
			outcomes: []wasmexec.Outcome{wasmexec.TimedOut, wasmexec.Failed, wasmexec.Succeeded}, codes: []string{CodeTimeout, wasmexec.CodeStackOverflow, wasmexec.CodeMemoryLimit}},
		{name: "10 MB file", req: Request{Code: tenMegabytes(), Timeout: 10 * time.Second},
			outcomes: []wasmexec.Outcome{wasmexec.TimedOut, wasmexec.Succeeded}, codes: []string{CodeTimeout}},
		{name: "10,000 files", req: Request{Files: tenThousandFiles(), Timeout: 10 * time.Second},
			outcomes: []wasmexec.Outcome{wasmexec.TimedOut, wasmexec.Succeeded}, codes: []string{CodeTimeout}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var wg sync.WaitGroup
			var res *Result
			var took time.Duration
			wg.Add(1)
			go func() {
				defer wg.Done()
				t0 := time.Now()
				var err error
				res, err = p.Check(context.Background(), tc.req)
				took = time.Since(t0)
				if err != nil {
					t.Errorf("Check: %v", err)
				}
			}()
			// Meanwhile the other worker answers.
			t0 := time.Now()
			nativeProbe(t, p)
			if d := time.Since(t0); d > 2*time.Second {
				t.Errorf("a probe next to the hostile check took %v", d)
			}
			wg.Wait()
			if res == nil {
				return
			}
			t.Logf("outcome %s in %v, error %+v, %d diagnostics", res.Outcome, took.Round(time.Millisecond), res.Error, len(res.Diagnostics))
			if !slices.Contains(tc.outcomes, res.Outcome) {
				t.Fatalf("outcome %s (%+v); want one of %v", res.Outcome, res.Error, tc.outcomes)
			}
			if res.Outcome != wasmexec.Succeeded && !slices.Contains(tc.codes, res.Error.Code) {
				t.Fatalf("error %+v; want a code among %v", res.Error, tc.codes)
			}
			if limit := tc.req.Timeout + 3*time.Second; took > limit {
				t.Errorf("took %v, more than its limit %v", took, limit)
			}
			// Whatever happened, the pool answers right (a replaced worker
			// is warm again within a second).
			for range 3 {
				nativeProbe(t, p)
			}
		})
	}
}

// A check past its memory cap is failed/memory_limit, the worker replaced.
func TestNativeMemoryLimit(t *testing.T) {
	p := MustStartNativePool(t, NativeConfig{Size: 1, MemoryLimitBytes: 256 << 20})
	res := MustNativeCheck(t, p, Request{Code: explosiveType, Timeout: time.Minute})
	if res.Outcome != wasmexec.Failed || res.Error.Code != wasmexec.CodeMemoryLimit {
		t.Fatalf("got %s %+v; want failed/memory_limit", res.Outcome, res.Error)
	}
	nativeProbe(t, p)
}

// A deadline kills the check at once; cancelling the context too.
func TestNativeDeadlineAndCancel(t *testing.T) {
	p := MustStartNativePool(t, NativeConfig{Size: 1})
	t0 := time.Now()
	res := MustNativeCheck(t, p, Request{Code: explosiveType, Timeout: 300 * time.Millisecond})
	if res.Outcome != wasmexec.TimedOut || res.Error.Code != CodeTimeout {
		t.Fatalf("got %s %+v; want timed_out", res.Outcome, res.Error)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("a 300 ms deadline took %v", d)
	}
	nativeProbe(t, p)

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	res, err := p.Check(ctx, Request{Code: explosiveType, Timeout: time.Minute})
	if err != nil || res.Outcome != wasmexec.Cancelled {
		t.Fatalf("got %v %+v; want cancelled", err, res)
	}
	nativeProbe(t, p)
}
