package templates_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
)

// A template survives a restart: a new manager on the same directory lists
// it ready, and runs start from its state and workspace. The first manager
// is not closed, as after kill -9 (its record is on disk once ready).
func TestSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	e := newEnv(t, setup{dir: dir})
	d := e.build(t, ctx, wasmexec.TemplateSpec{TemplateID: "kept", Language: wasmexec.JavaScript, SetupCode: "globalThis.answer = 42", Files: map[string]string{"a.txt": "A"}})
	if d.State != wasmexec.TemplateReady {
		t.Fatalf("build: %+v", d)
	}
	failed := e.build(t, ctx, wasmexec.TemplateSpec{TemplateID: "broken", Language: wasmexec.JavaScript, SetupCode: "throw 1"})

	e2 := newEnv(t, setup{dir: dir})
	got, err := e2.tpl.Get(ctx, "kept")
	if err != nil || got.State != wasmexec.TemplateReady || got.StateBytes != d.StateBytes || got.Packages == nil {
		t.Fatalf("after the restart: %+v (%v), before %+v", got, err, d)
	}
	wantValue(t, e2.run(t, ctx, wasmexec.Request{Language: wasmexec.JavaScript, Template: "kept", Code: "[answer, require('fs').readFileSync('a.txt', 'utf8')]"}), `[42,"A"]`)
	if got, err := e2.tpl.Get(ctx, "broken"); err != nil || got.State != wasmexec.TemplateFailed || got.Error == nil || got.Error.Code != failed.Error.Code {
		t.Fatalf("the failed one after the restart: %+v (%v)", got, err)
	}
}

// A template whose image changed is invalidated at its first run (the
// engine refuses its state, saying why), rebuilt from its recipe, and the
// run goes on from the new build.
func TestImageChangeRebuilds(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	e := newEnv(t, setup{dir: dir})
	d := e.build(t, ctx, wasmexec.TemplateSpec{TemplateID: "moved", Language: wasmexec.JavaScript, SetupCode: "globalThis.answer = 42"})
	if d.State != wasmexec.TemplateReady {
		t.Fatalf("build: %+v", d)
	}
	// Another build of the JS image: the same module, with an env of
	// its own, so its snapshot (what a state is made over) differs.
	eng, err := engine.NewEngine(engine.EngineConfig{CacheDir: testenv.CacheDir(), Extensions: map[string]engine.ImageExtension{
		js.ImageName: {Env: map[string]string{"WASMEXEC_TEST_BUILD": "another"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	img, err := eng.LoadImage(ctx, testenv.ImageDir(t, js.ImageName))
	if err != nil {
		t.Fatal(err)
	}
	e2 := newEnv(t, setup{dir: dir,
		images:    map[string]*engine.Image{js.ImageName: img},
		languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
	})
	wantValue(t, e2.run(t, ctx, wasmexec.Request{Language: wasmexec.JavaScript, Template: "moved", Code: "answer"}), "42")
	got, err := e2.tpl.Get(ctx, "moved")
	if err != nil || got.State != wasmexec.TemplateReady || got.Builds != 2 || !strings.Contains(got.Notice, "made from another snapshot of the js image") {
		t.Fatalf("after the image changed: %+v (%v)", got, err)
	}
	t.Log(got.Notice)
}
