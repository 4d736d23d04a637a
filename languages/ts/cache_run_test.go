package ts_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/ts"
)

// A TypeScript run answered from the transpile cache is the run the
// transpiler would have made: the same value, and an error's stack and a
// syntax error's position still point at the TypeScript source lines (the
// type-only lines esbuild drops shift the JavaScript's), first time and
// again. The cache is the driver's, in front of real worker processes.
func TestCachedTranspileRunsLikeAFreshOne(t *testing.T) {
	cache := ts.NewTranspileCache(0)
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images: map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{
			wasmexec.TypeScript: ts.Driver{Workers: ts.MustStartWorkers(t, ts.WorkersConfig{Size: 1}), Cache: cache},
		},
	})
	const throws = "interface Box {\n  n: number;\n}\ntype Id = string;\n\nfunction open(b: Box): number {\n  if (b.n > 1) throw new Error('too big: ' + b.n);\n  return b.n;\n}\nopen({ n: 1 }) + open({ n: 2 })\n"
	tests := []struct {
		name, code string
		check      func(t *testing.T, res *wasmexec.Result)
	}{
		{"value", "const xs: number[] = [1, 2, 3];\nxs.map((x: number): number => x * 2).reduce((a, b) => a + b, 0)", func(t *testing.T, res *wasmexec.Result) {
			if res.Outcome != wasmexec.Succeeded || string(res.Value) != "12" {
				t.Fatalf("%s %s %+v", res.Outcome, res.Value, res.Error)
			}
		}},
		{"stack at the TypeScript lines", throws, func(t *testing.T, res *wasmexec.Result) {
			if res.Outcome != wasmexec.Failed || res.Error == nil || !strings.Contains(res.Error.Stack, "main.ts:7:") || !strings.Contains(res.Error.Stack, "main.ts:10:") {
				t.Fatalf("want frames at main.ts:7 and main.ts:10: %s %+v", res.Outcome, res.Error)
			}
		}},
		{"syntax error position", "type T = number;\nconst a: T = 1;\nconst b = a +;\n", func(t *testing.T, res *wasmexec.Result) {
			if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeSyntaxError ||
				res.Error.Details["line"] != 3 || res.Error.Details["column"] != 14 {
				t.Fatalf("want a syntax_error at 3:14: %s %+v", res.Outcome, res.Error)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, hits0, misses0 := cache.Stats()
			for range 2 {
				res, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.TypeScript, Code: tt.code}, wasmexec.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				tt.check(t, res)
			}
			if _, _, hits, misses := cache.Stats(); hits-hits0 != 1 || misses-misses0 != 1 {
				t.Fatalf("%d hits and %d misses for two runs of the same code, want 1 and 1", hits-hits0, misses-misses0)
			}
		})
	}
}
