package templates_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/templates"
	"github.com/wasmexec/wasmexec/vfs"
)

// env is a pipeline over the real engine with templates.
type env struct {
	runner *pipeline.Pipeline
	tpl    *templates.Manager
	dir    string
	store  *memStore
}

// memStore keeps the records of runs (the persist step).
type memStore struct{ recs chan *wasmexec.Result }

func (s *memStore) Save(_ context.Context, r *wasmexec.Result, _ []wasmexec.Event, _ bool) error {
	select {
	case s.recs <- r:
	default:
	}
	return nil
}
func (s *memStore) Ping(context.Context) error { return nil }

func hasPython() bool {
	_, err := os.Stat(filepath.Join(testenv.ImagesDir(), python.ImageName, "guest.json"))
	return err == nil
}

// setup holds what a test sets of an env.
type setup struct {
	dir        string // the templates' dir ("": a fresh one)
	images     map[string]*engine.Image
	languages  map[wasmexec.Language]wasmexec.LanguageDriver
	policy     wasmexec.Policy
	maxState   int64
	maxImplied int64
	quota      int64
	now        func() time.Time // the manager's clock (nil: time.Now)
	shared     templates.Shared // a cluster's (nil: a single server)
}

func newEnv(tb testing.TB, s setup) *env {
	tb.Helper()
	if s.images == nil {
		s.images = map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName)}
		s.languages = map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}}
		if hasPython() {
			s.images[python.ImageName] = testenv.Image(tb, python.ImageName)
			s.languages[wasmexec.Python] = python.Driver{}
		}
	}
	if s.dir == "" {
		s.dir = tb.TempDir()
	}
	st := &memStore{recs: make(chan *wasmexec.Result, 64)}
	ws, err := vfs.NewManager(testenv.ScratchDir(tb), s.quota)
	if err != nil {
		tb.Fatal(err)
	}
	r := testenv.Runner(tb, testenv.RunnerConfig{Images: s.images, Languages: s.languages, Policy: s.policy, Store: st, Workspaces: ws})
	l := vfs.DefaultLimits()
	if s.quota > 0 {
		l.Quota = s.quota
	}
	m, err := templates.Open(templates.Config{Runner: r, Dir: s.dir, MaxStateBytes: s.maxState, MaxImplicitBytes: s.maxImplied, WorkspaceLimits: l, Scratch: ws, Spares: 2, SpareGuests: 2, Now: s.now, Shared: s.shared})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Close)
	r.SetTemplates(m)
	return &env{runner: r, tpl: m, dir: s.dir, store: st}
}

// build creates a template and waits for the end of its build.
func (e *env) build(tb testing.TB, ctx context.Context, spec wasmexec.TemplateSpec) *wasmexec.Template {
	tb.Helper()
	d, err := e.tpl.Create(ctx, &spec)
	if err != nil {
		tb.Fatalf("create %+v: %v", spec, err)
	}
	return e.wait(tb, ctx, d.TemplateID)
}

// wait polls template id until its build ends.
func (e *env) wait(tb testing.TB, ctx context.Context, id string) *wasmexec.Template {
	tb.Helper()
	var d *wasmexec.Template
	poll.Until(tb, 120*time.Second, "the build of "+id, func() bool {
		var err error
		d, err = e.tpl.Get(ctx, id)
		if err != nil {
			tb.Fatalf("get %s: %v", id, err)
		}
		return d.State != wasmexec.TemplateBuilding
	})
	return d
}

func (e *env) run(tb testing.TB, ctx context.Context, req wasmexec.Request) *wasmexec.Result {
	tb.Helper()
	if req.Kind == "" {
		req.Kind = wasmexec.KindEvaluate
	}
	res, err := e.runner.Run(ctx, &req, wasmexec.RunOptions{})
	if err != nil {
		tb.Fatalf("run %q: %v", req.Code, err)
	}
	return res
}

func wantValue(tb testing.TB, res *wasmexec.Result, want string) {
	tb.Helper()
	if res.Outcome != wasmexec.Succeeded {
		tb.Fatalf("outcome %s, want succeeded (error %+v)", res.Outcome, res.Error)
	}
	if string(res.Value) != want {
		tb.Fatalf("value = %s, want %s", res.Value, want)
	}
}
