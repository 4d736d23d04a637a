package templates_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/templates"
)

// Implicit templates are off with a bound of 0: runs install their
// packages every time.
func TestImplicitOff(t *testing.T) {
	e, st := stubEnv(t, 0)
	for range 3 {
		wantValue(t, e.run(t, context.Background(), wasmexec.Request{Language: wasmexec.JavaScript, Packages: []string{"alpha"}, Code: "typeof loads"}), `"undefined"`)
	}
	if n := len(implicitOf(t, e)); n != 0 || st.staged.Load() != 3 {
		t.Fatalf("%d implicit templates, %d stagings", n, st.staged.Load())
	}
}

// stager stages npm packages without a registry: each package is a module
// that counts its loads in a global.
type stager struct{ staged atomic.Int64 }

func (s *stager) StagePackages(_ context.Context, packages []string) (func(context.Context, string) error, *wasmexec.ErrorData, error) {
	s.staged.Add(1)
	return func(_ context.Context, dir string) error {
		for _, p := range packages {
			d := filepath.Join(dir, "node_modules", p)
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			os.WriteFile(filepath.Join(d, "package.json"), []byte(fmt.Sprintf(`{"name": %q, "version": "1.2.3", "main": "index.js"}`, p)), 0o644)
			os.WriteFile(filepath.Join(d, "index.js"), []byte(`globalThis.loads = (globalThis.loads || 0) + 1; module.exports = { big: "x".repeat(4096) };`), 0o644)
		}
		return nil
	}, nil, nil
}

func stubEnv(t *testing.T, maxImplicit int64) (*env, *stager) {
	st := &stager{}
	e := newEnv(t, setup{
		images:     map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		languages:  map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{Packages: st}},
		maxImplied: maxImplicit,
	})
	return e, st
}

// implicitOf returns the implicit templates.
func implicitOf(t *testing.T, e *env) []*wasmexec.Template {
	t.Helper()
	all, err := e.tpl.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []*wasmexec.Template
	for _, d := range all {
		if d.Implicit {
			out = append(out, d)
		}
	}
	return out
}

// Concurrent one-shot runs with one package set build its implicit
// template once; the runs after it start from it, its imports done.
func TestImplicitBuildsOnce(t *testing.T) {
	e, _ := stubEnv(t, templates.DefaultMaxImplicitBytes)
	ctx := context.Background()
	req := func() wasmexec.Request {
		return wasmexec.Request{Language: wasmexec.JavaScript, Packages: []string{"alpha", "beta"}, Code: "[loads, require('alpha').big.length, require('beta').big.length, loads]"}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			res, err := e.runner.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Packages: []string{"beta", "alpha"}, Code: "1"}, wasmexec.RunOptions{})
			if err != nil || res.Outcome != wasmexec.Succeeded {
				t.Errorf("run: %v %+v", err, res)
			}
		})
	}
	wg.Wait()
	var imp []*wasmexec.Template
	poll.Until(t, 60*time.Second, "the implicit template", func() bool {
		imp = implicitOf(t, e)
		return len(imp) == 1 && imp[0].State != wasmexec.TemplateBuilding
	})
	if d := imp[0]; d.State != wasmexec.TemplateReady || d.Builds != 1 || len(d.Packages) != 2 || d.Packages[0].Version != "1.2.3" {
		t.Fatalf("the implicit template: %+v (%+v)", d, d.Error)
	}
	// Its setup required both packages: a run from it finds them loaded,
	// and requiring them again loads nothing (its workspace's copy keeps
	// the files' times, which the guest's module cache checks).
	wantValue(t, e.run(t, ctx, req()), `[2,4096,4096,2]`)
	if got := implicitOf(t, e); len(got) != 1 || got[0].Runs != 1 {
		t.Fatalf("implicit templates after a run from one: %+v", got)
	}
	// Another set is another template.
	e.run(t, ctx, wasmexec.Request{Language: wasmexec.JavaScript, Packages: []string{"alpha"}, Code: "1"})
	poll.Until(t, 60*time.Second, "the second implicit template", func() bool { return len(implicitOf(t, e)) == 2 })
}

// Implicit templates past --templates-max-bytes are evicted least recently
// used first, in the order they were used whatever the clock says: a run
// and a build often end in the same millisecond, and a wall clock can
// step back.
func TestImplicitEvictedLRU(t *testing.T) {
	ctx := context.Background()
	// The size of one, measured.
	e0, _ := stubEnv(t, templates.DefaultMaxImplicitBytes)
	e0.run(t, ctx, wasmexec.Request{Language: wasmexec.JavaScript, Packages: []string{"m0"}, Code: "1"})
	var size int64
	poll.Until(t, 60*time.Second, "a first implicit template", func() bool {
		imp := implicitOf(t, e0)
		if len(imp) == 1 && imp[0].State == wasmexec.TemplateReady {
			size = imp[0].StateBytes + imp[0].WorkspaceBytes
		}
		return size > 0
	})
	start := time.Now()
	for _, tc := range []struct {
		name string
		now  func() time.Time // nil: the wall clock
	}{
		{name: "wall clock"},
		{name: "one millisecond", now: func() time.Time { return start }},
		{name: "clock stepping back", now: func() func() time.Time {
			var calls atomic.Int64
			return func() time.Time { return start.Add(-time.Duration(calls.Add(1)) * time.Second) }
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &stager{}
			e := newEnv(t, setup{
				images:     map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
				languages:  map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{Packages: st}},
				maxImplied: size * 5 / 2, // room for two
				now:        tc.now,
			})
			ready := func(pkg string) {
				e.run(t, ctx, wasmexec.Request{Language: wasmexec.JavaScript, Packages: []string{pkg}, Code: "1"})
				poll.Until(t, 60*time.Second, "the template of "+pkg, func() bool {
					_, ok := implicitNames(t, e)[pkg]
					return ok
				})
			}
			ready("a")
			ready("b")
			// a is used again: b is now the least recently used.
			wantValue(t, e.run(t, ctx, wasmexec.Request{Language: wasmexec.JavaScript, Packages: []string{"a"}, Code: "typeof loads"}), `"number"`)
			// c's build evicts in the step that makes it ready.
			ready("c")
			if got := implicitNames(t, e); len(got) != 2 || got["b"] != "" || got["a"] == "" {
				t.Fatalf("after c: the implicit templates of %v, want a and c (b evicted)", got)
			}
		})
	}
}

// implicitNames maps the package of each ready one-package implicit
// template to its id.
func implicitNames(t *testing.T, e *env) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, d := range implicitOf(t, e) {
		if d.State == wasmexec.TemplateReady && len(d.Packages) == 1 {
			out[d.Packages[0].Name] = d.TemplateID
		}
	}
	return out
}
