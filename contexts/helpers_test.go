package contexts_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/pipeline"

	"github.com/wasmexec/wasmexec/engine"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/vfs"
)

// Test-only languages. otherJS runs in a second load of the JS image: a
// different guest family, so language mismatch is testable without the
// Python image. tsPassthrough stands in for TypeScript (it hands the code
// to the JS guest as is): it tests the family rule, not transpilation.
const (
	otherJS      wasmexec.Language = "otherjs"
	pythonImage                    = python.ImageName
	otherJSImage                   = "js-other"
)

type passthrough struct {
	image, file string
}

func (d passthrough) Image() string { return d.image }
func (d passthrough) Prepare(ctx context.Context, req *wasmexec.Request) (*wasmexec.Prepared, error) {
	p := &wasmexec.Prepared{Control: wasmexec.ControlRequest{Op: string(req.Kind), Code: req.Code, Filename: d.file}}
	if strings.HasPrefix(req.Code, "@@fail") {
		// Like a TypeScript syntax error found while transpiling: the run
		// fails before any guest sees it.
		p.Failure = &wasmexec.ErrorData{Code: wasmexec.CodeSyntaxError, Name: "SyntaxError", Message: "found before the guest"}
	}
	return p, nil
}

// hasPython reports whether the Python guest image is built.
func hasPython() bool {
	_, err := os.Stat(filepath.Join(testenv.ImagesDir(), pythonImage, "guest.json"))
	return err == nil
}

// MustRunner builds a Runner with the JS guest (javascript, the TypeScript
// stand-in, otherjs) and the Python guest when it is built.
func MustRunner(tb testing.TB, cfg testenv.RunnerConfig) *pipeline.Pipeline {
	tb.Helper()
	cfg.Images = map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName), otherJSImage: testenv.SecondImage(tb, js.ImageName)}
	cfg.Languages = map[wasmexec.Language]wasmexec.LanguageDriver{
		wasmexec.JavaScript: js.Driver{},
		wasmexec.TypeScript: passthrough{js.ImageName, "main.ts"},
		otherJS:             passthrough{otherJSImage, "other.js"},
	}
	if hasPython() {
		cfg.Images[pythonImage] = testenv.Image(tb, pythonImage)
		cfg.Languages[wasmexec.Python] = python.Driver{}
	}
	return testenv.Runner(tb, cfg)
}

// MustManager builds a Manager over a fresh Runner; quota is the workspace
// quota (0: none).
func MustManager(tb testing.TB, cfg contexts.Config, quota int64) *contexts.Manager {
	tb.Helper()
	if cfg.Runner == nil {
		cfg.Runner = MustRunner(tb, testenv.RunnerConfig{})
	}
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(tb), "contexts"), quota)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.Workspaces = ws
	m, err := contexts.Open(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Close)
	return m
}

// MustCreate creates a context.
func MustCreate(tb testing.TB, m *contexts.Manager, spec wasmexec.ContextSpec) *wasmexec.Context {
	tb.Helper()
	if spec.Language == "" {
		spec.Language = wasmexec.JavaScript
	}
	d, err := m.Create(context.Background(), &spec)
	if err != nil {
		tb.Fatalf("create %+v: %v", spec, err)
	}
	return d
}

// MustRun runs an evaluate request (javascript unless req says) in context id.
func MustRun(tb testing.TB, m *contexts.Manager, id string, req wasmexec.Request) *wasmexec.Result {
	tb.Helper()
	res, err := tryRun(m, id, req)
	if err != nil {
		tb.Fatalf("run %q in %s: %v", req.Code, id, err)
	}
	return res
}

func tryRun(m *contexts.Manager, id string, req wasmexec.Request) (*wasmexec.Result, error) {
	if req.Kind == "" {
		req.Kind = wasmexec.KindEvaluate
	}
	if req.Language == "" {
		req.Language = wasmexec.JavaScript
	}
	req.ContextID = id
	return m.Run(context.Background(), &req)
}

// wantValue checks a succeeded result's JSON value.
func wantValue(tb testing.TB, res *wasmexec.Result, want string) {
	tb.Helper()
	if res.Outcome != wasmexec.Succeeded {
		tb.Fatalf("outcome %s, want succeeded (error %+v)", res.Outcome, res.Error)
	}
	if string(res.Value) != want {
		tb.Fatalf("value = %s, want %s", res.Value, want)
	}
}

func wantCode(tb testing.TB, err error, code string) {
	tb.Helper()
	if wasmexec.ErrorCode(err) != code || err == nil {
		tb.Fatalf("err = %v, want code %s", err, code)
	}
}

func mustGet(tb testing.TB, m *contexts.Manager, id string) *wasmexec.Context {
	tb.Helper()
	d, err := m.Get(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// waitFor polls cond every few ms for up to d.
func waitFor(tb testing.TB, d time.Duration, what string, cond func() bool) {
	tb.Helper()
	poll.Until(tb, d, what, cond)
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

func mustVFS(tb testing.TB, root string) *vfs.Manager {
	tb.Helper()
	m, err := vfs.NewManager(root, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}
