package ts_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/ts"
)

// ES modules a one-shot run brings are converted on the host ahead of the
// guest (the filePath benchmark): the guest takes the shipped
// conversions by key instead of running esbuild in wasm, which shows in
// the fuel a run burns (deterministic, unlike time). Positions still point
// at the original files, and a module the host leaves to the guest (top-
// level await: the host's esbuild lacks the guest's patch) still runs.
func TestModulesConvertedOnTheHost(t *testing.T) {
	files := map[string]string{
		"main.mjs":  "import { f } from './lib.mjs';\nimport { g } from './util.ts';\nexport const v = f(20) + g(0);\nv",
		"lib.mjs":   "export const f = x => x + 22;\n",
		"util.ts":   "export const g = (x: number): number => x;\n",
		"boom.mjs":  "\n\nexport function boom() {\n  throw new Error('kaboom');\n}\n",
		"entry.mjs": "import { boom } from './boom.mjs';\nboom();\n",
		"tla.mjs":   "import { f } from './lib.mjs';\nconst x = await Promise.resolve(f(1));\nx",
	}
	image := testenv.Image(t, js.ImageName)
	runner := func(conv js.ModuleConverter) wasmexec.Runner {
		return testenv.Runner(t, testenv.RunnerConfig{
			Images:    map[string]*engine.Image{js.ImageName: image},
			Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{Modules: conv}, wasmexec.TypeScript: ts.Driver{Modules: conv}},
		})
	}
	conv := &ts.ModuleConverter{}
	with, without := runner(conv), runner(nil)
	run := func(r wasmexec.Runner, lang wasmexec.Language, filePath, code string) *wasmexec.Result {
		t.Helper()
		res, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: lang, FilePath: filePath, Code: code, Files: files}, wasmexec.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(with, wasmexec.JavaScript, "main.mjs", ""), run(without, wasmexec.JavaScript, "main.mjs", "")
	for _, r := range []*wasmexec.Result{a, b} {
		if r.Outcome != wasmexec.Succeeded || string(r.Value) != "42" {
			t.Fatalf("main.mjs: %s %s %+v", r.Outcome, r.Value, r.Error)
		}
	}
	if a.FuelConsumed*2 > b.FuelConsumed {
		t.Fatalf("with host conversions the run burned %d fuel, without %d: the guest still converted", a.FuelConsumed, b.FuelConsumed)
	}
	if r := run(with, wasmexec.JavaScript, "entry.mjs", ""); r.Outcome != wasmexec.Failed || !strings.Contains(r.Error.Stack, "boom.mjs:4:") {
		t.Fatalf("stack of a host-converted module: %s %+v", r.Outcome, r.Error)
	}
	if r := run(with, wasmexec.JavaScript, "tla.mjs", ""); r.Outcome != wasmexec.Succeeded || string(r.Value) != "23" {
		t.Fatalf("top-level await, converted by the guest: %s %s %+v", r.Outcome, r.Value, r.Error)
	}
	cell := "import { f } from './lib.mjs';\nf(1)"
	a, b = run(with, wasmexec.JavaScript, "", cell), run(without, wasmexec.JavaScript, "", cell)
	if string(a.Value) != "23" || string(b.Value) != "23" || a.FuelConsumed*2 > b.FuelConsumed {
		t.Fatalf("a cell that imports: %s (%d fuel) vs %s (%d fuel) without host conversions", a.Value, a.FuelConsumed, b.Value, b.FuelConsumed)
	}
	if r := run(with, wasmexec.TypeScript, "", "import { g } from './util.ts';\nconst n: number = g(5);\nn"); r.Outcome != wasmexec.Succeeded || string(r.Value) != "5" {
		t.Fatalf("TypeScript cell: %s %s %+v", r.Outcome, r.Value, r.Error)
	}
}

// What one run gets converted on the host is bounded whatever the request
// brings: at most 64 files, none over 1 MiB, 8 MiB shipped in all; a cell
// that loads nothing ships nothing; code esbuild refuses is left out.
func TestConvertRunBounds(t *testing.T) {
	conv := &ts.ModuleConverter{}
	ctx := context.Background()
	many := map[string]string{}
	for i := range 100 {
		many[fmt.Sprintf("m%03d.mjs", i)] = fmt.Sprintf("export const v%d = %d;\n", i, i)
	}
	if got := conv.ConvertRun(ctx, many, "", "", ""); len(got) != 64 {
		t.Fatalf("100 files: %d conversions, want 64", len(got))
	}
	big := map[string]string{"big.mjs": "export const s = '" + strings.Repeat("x", 1<<20) + "';\n", "ok.mjs": "export const a = 1;\n", "bad.mjs": "export const = 1;\n", "plain.js": "module.exports = 1;\n", "data.json": "{}"}
	got := conv.ConvertRun(ctx, big, "", "", "")
	if len(got) != 1 || got[0].Key != wasmexec.ConversionKey("/workspace/ok.mjs", "", "export const a = 1;\n") {
		t.Fatalf("got %d conversions, want only ok.mjs's", len(got))
	}
	var wide = map[string]string{}
	for i := range 20 {
		wide[fmt.Sprintf("w%02d.mjs", i)] = fmt.Sprintf("export const s%d = '%s';\n", i, strings.Repeat("y", 900<<10))
	}
	total := 0
	for _, c := range conv.ConvertRun(ctx, wide, "", "", "") {
		total += len(c.Code)
	}
	if total > 8<<20 {
		t.Fatalf("shipped %d bytes, over 8 MiB", total)
	}
	if got := conv.ConvertRun(ctx, map[string]string{"a.mjs": "export const a = 1;\n"}, "1 + 1", "main.js", ""); len(got) != 0 {
		t.Fatalf("a cell that loads nothing shipped %d conversions", len(got))
	}
}

// A file named by its guest path (/workspace/...) is converted under the
// same name as its relative form, the one the guest loads it by.
func TestConvertRunGuestPaths(t *testing.T) {
	src := "export const x = 1;\n"
	for _, name := range []string{"a.mjs", "/workspace/a.mjs", "./a.mjs"} {
		got := (&ts.ModuleConverter{}).ConvertRun(context.Background(), map[string]string{name: src}, "", "", "")
		if len(got) != 1 || got[0].Key != wasmexec.ConversionKey("/workspace/a.mjs", "", src) {
			t.Fatalf("%s: %+v", name, got)
		}
	}
	if got := (&ts.ModuleConverter{}).ConvertRun(context.Background(), map[string]string{"../a.mjs": src, "/etc/a.mjs": src}, "", "", ""); len(got) != 0 {
		t.Fatalf("names outside the workspace were converted: %+v", got)
	}
}
