package ts_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/ts"
	"github.com/wasmexec/wasmexec/vfs"
)

// tsconfigPath applies to the host's transpile of inline TypeScript (issue
// 14, item 3): jsx and its factory, target lowering, and paths/baseUrl in
// the guest's resolution of what the code imports; in a one-shot run (the
// tsconfig among files) and in a context (the tsconfig in the workspace).
func TestTsconfigAppliesToTheHostTranspile(t *testing.T) {
	tsconfig := `{"compilerOptions": {"target": "es2020", "jsx": "react", "jsxFactory": "h", "baseUrl": ".", "paths": {"@lib/*": ["src/lib/*"]}}}`
	files := map[string]string{"tsconfig.json": tsconfig, "src/lib/greet.ts": "export const greet = (n: string): string => `hi ${n}`;\n"}
	code := "import { greet } from '@lib/greet';\n" +
		"const h = (tag: string, _p: unknown, ...kids: string[]) => tag + ':' + kids.join('');\n" +
		"const f = (a?: number) => { a ??= 1; return a };\n" +
		"[greet('x'), <b>y</b>, String(f).includes('??='), f()]"
	const want = `["hi x","b:y",false,1]`

	p, err := ts.TranspileWith("let a: number | undefined; a ??= 1; const e = <i>x</i>;", "main.ts", tsconfig)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.JS, "??=") || !strings.Contains(p.JS, `h("i", null, "x")`) {
		t.Fatalf("target es2020 and jsxFactory h not applied:\n%s", p.JS)
	}
	if _, err := ts.TranspileWith("1", "main.ts", "{not json"); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
		t.Fatalf("a tsconfig that does not parse: %v", err)
	}

	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}, wasmexec.TypeScript: ts.Driver{}},
	})
	ctx := context.Background()
	res, err := r.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.TypeScript, Code: code, Files: files, TsconfigPath: "tsconfig.json"}, wasmexec.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != want {
		t.Fatalf("one-shot: %s %s %+v, want %s", res.Outcome, res.Value, res.Error, want)
	}
	bad, err := r.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.TypeScript, Code: "1", Files: map[string]string{"tsconfig.json": "{"}, TsconfigPath: "tsconfig.json"}, wasmexec.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if bad.Outcome != wasmexec.Failed || !strings.Contains(bad.Error.Message, "tsconfigPath") {
		t.Fatalf("bad tsconfig: %s %+v", bad.Outcome, bad.Error)
	}

	wsm, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: wsm})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	if _, err := m.Create(ctx, &wasmexec.ContextSpec{ContextID: "tsc", Language: wasmexec.TypeScript}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindExecute, Language: wasmexec.TypeScript, ContextID: "tsc", Code: "0", Files: files}); err != nil {
		t.Fatal(err)
	}
	res, err = m.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.TypeScript, ContextID: "tsc", Code: code, TsconfigPath: "tsconfig.json"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != want {
		t.Fatalf("in a context: %s %s %+v, want %s", res.Outcome, res.Value, res.Error, want)
	}
}
