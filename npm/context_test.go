package npm_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/slottest"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/npm"
	"github.com/wasmexec/wasmexec/vfs"
)

func mustContexts(t *testing.T) *contexts.Manager {
	t.Helper()
	return mustContextsQuota(t, 0)
}

// hold is npm.Service.Hold over m, as cmd/wasmexec wires it.
func hold(m *contexts.Manager) func(context.Context, string) (npm.Workspace, func(), error) {
	return func(ctx context.Context, id string) (npm.Workspace, func(), error) {
		ws, release, err := m.Hold(ctx, id)
		if err != nil {
			return npm.Workspace{}, nil, err
		}
		return npm.Workspace{Dir: ws.Root, Measure: ws.WouldExceed, Room: func(ctx context.Context, stage string, names []string) (npm.Room, error) {
			r, err := ws.RoomReplacing(ctx, stage, names)
			return npm.Room(r), err
		}}, release, nil
	}
}

func mustContextsQuota(t *testing.T, quota int64) *contexts.Manager {
	t.Helper()
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), quota)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// POST /v1/contexts/:id/npm/install's service: packages installed into a
// context are importable by its next cell; a failure is a completed
// record that names the package and leaves node_modules as it was.
func TestInstallIntoAContext(t *testing.T) {
	reg := standard(t)
	reg.Add(t, Pkg{Name: "esm-only", Version: "1.0.0", Files: map[string]string{
		"package.json": `{"name": "esm-only", "version": "1.0.0", "type": "module", "exports": {".": {"import": "./index.js"}}}`,
		"index.js":     "import left from 'left';\nexport const both = () => 'esm+' + left;\nexport default 7;\n",
	}, Deps: map[string]string{"left": "^1"}})
	reg.Add(t, Pkg{Name: "tampered", Version: "1.0.0", BadIntegrity: true})
	m := mustContexts(t)
	ctx := context.Background()
	if _, err := m.Create(ctx, &wasmexec.ContextSpec{ContextID: "npm", Language: wasmexec.JavaScript}); err != nil {
		t.Fatal(err)
	}
	var saved []*wasmexec.Result
	svc := &npm.Service{
		Client:  &npm.Client{Registry: reg.URL, CacheDir: t.TempDir()},
		Hold:    hold(m),
		Persist: func(_ context.Context, r *wasmexec.Result) error { saved = append(saved, r); return nil },
	}
	res, err := svc.Install(ctx, "npm", &wasmexec.NPMInstallRequest{Packages: []string{"app-lib", "esm-only"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != wasmexec.Succeeded || len(res.Installed) != 3 || res.Kind != wasmexec.KindNPMInstall || !strings.Contains(*res.Stdout, "added esm-only@1.0.0") {
		t.Fatalf("install: %+v %+v", res.Result, res.Installed)
	}
	if len(saved) != 1 || saved[0].ExecutionID != res.ExecutionID || !strings.Contains(string(saved[0].Extra), `"installed"`) {
		t.Fatalf("persisted %+v", saved)
	}
	run := func(code string) *wasmexec.Result {
		t.Helper()
		r, err := m.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, ContextID: "npm", Code: code})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for code, want := range map[string]string{
		"import lib from 'app-lib';\nlib":                          `"left 1.2.0"`,
		"import seven, { both } from 'esm-only';\n[seven, both()]": `[7,"esm+left 1.2.0"]`,
		"(await import('esm-only')).default":                       "7",
	} {
		if r := run(code); r.Outcome != wasmexec.Succeeded || string(r.Value) != want {
			t.Fatalf("%s: %s %s %+v, want %s", code, r.Outcome, r.Value, r.Error, want)
		}
	}

	bad, err := svc.Install(ctx, "npm", &wasmexec.NPMInstallRequest{Packages: []string{"tampered"}})
	if err != nil {
		t.Fatal(err)
	}
	if bad.Outcome != wasmexec.Failed || bad.Error.Code != "npm_install_failed" || !strings.Contains(bad.Error.Message, "tampered@1.0.0: integrity mismatch") {
		t.Fatalf("bad install: %+v", bad.Result)
	}
	if r := run("require('app-lib')"); r.Outcome != wasmexec.Succeeded {
		t.Fatalf("after a failed install: %+v", r.Error)
	}

	if _, err := svc.Install(ctx, "nope", &wasmexec.NPMInstallRequest{}); err == nil {
		t.Fatal("install into an unknown context succeeded")
	}
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)
	slow := &npm.Service{Client: &npm.Client{Registry: hang.URL, CacheDir: t.TempDir()}, Hold: hold(m)}
	start := time.Now()
	to, err := slow.Install(ctx, "npm", &wasmexec.NPMInstallRequest{Packages: []string{"x"}, TimeoutMs: 200})
	if err != nil {
		t.Fatal(err)
	}
	if to.Outcome != wasmexec.TimedOut || time.Since(start) > 10*time.Second {
		t.Fatalf("timeout: %+v after %v", to.Result, time.Since(start))
	}
}

// packages on a one-shot run: staged once from the
// cache, copied into the run's throwaway workspace; a bad package is a
// failed result naming it.
func TestOneShotPackages(t *testing.T) {
	reg := standard(t)
	reg.Add(t, Pkg{Name: "tampered", Version: "1.0.0", BadIntegrity: true})
	client := &npm.Client{Registry: reg.URL, CacheDir: t.TempDir()}
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{Packages: client}},
	})
	ctx := context.Background()
	run := func(pkgs ...string) *wasmexec.Result {
		t.Helper()
		res, err := r.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: "import lib from 'app-lib';\nimport left from 'left';\n[lib, left]", Packages: pkgs}, wasmexec.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for range 2 {
		if res := run("app-lib@3", "left@2.0.0"); res.Outcome != wasmexec.Succeeded || string(res.Value) != `["left 1.2.0","left 2.0.0"]` {
			t.Fatalf("got %s %s %+v", res.Outcome, res.Value, res.Error)
		}
	}
	if n := reg.Fetches.Load(); n != 3 {
		t.Fatalf("%d tarball downloads for two runs of one set, want 3 (the first run's)", n)
	}
	res := run("tampered")
	if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != "npm_install_failed" || !strings.Contains(res.Error.Message, "tampered@1.0.0") {
		t.Fatalf("bad package: %s %+v", res.Outcome, res.Error)
	}
	_, err := r.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: "1", Packages: []string{"../evil"}}, wasmexec.RunOptions{})
	if err == nil {
		t.Fatal("a bad package name was accepted")
	}
}

// lodash, zod and dayjs from the real registry, used from a context (skips
// when the registry can't be reached).
func TestRealPackagesInAContext(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodHead, npm.DefaultRegistry+"/lodash", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode >= 500 {
		t.Skipf("the npm registry %s is not reachable from here (%v); skipping", npm.DefaultRegistry, err)
	} else {
		resp.Body.Close()
	}
	m := mustContexts(t)
	if _, err := m.Create(ctx, &wasmexec.ContextSpec{ContextID: "real", Language: wasmexec.JavaScript}); err != nil {
		t.Fatal(err)
	}
	svc := &npm.Service{Client: &npm.Client{CacheDir: t.TempDir()}, Hold: hold(m)}
	res, err := svc.Install(ctx, "real", &wasmexec.NPMInstallRequest{Packages: []string{"lodash@4.17.21", "zod@3.23.8", "dayjs@1.11.13"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != wasmexec.Succeeded {
		t.Fatalf("install: %+v", res.Error)
	}
	for code, want := range map[string]string{
		"import _ from 'lodash';\n_.chunk([1, 2, 3, 4, 5], 2)":                                `[[1,2],[3,4],[5]]`,
		"import { z } from 'zod';\nz.object({ n: z.number() }).safeParse({ n: 'x' }).success": `false`,
		"import { z } from 'zod';\nz.string().email().parse('a@b.co')":                        `"a@b.co"`,
		"import dayjs from 'dayjs';\ndayjs('2024-02-28').add(1, 'day').format('YYYY-MM-DD')":  `"2024-02-29"`,
		"const _ = require('lodash'); _.sum([1, 2, 3])":                                       `6`,
	} {
		r, err := m.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, ContextID: "real", Code: code})
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != wasmexec.Succeeded || string(r.Value) != want {
			t.Fatalf("%s: %s %s %+v, want %s", code, r.Outcome, r.Value, r.Error, want)
		}
	}
}

// An install counts against the workspace quota: one that would pass it
// fails with quota_exceeded naming the largest package, and the workspace
// is unchanged; one that fits goes in.
func TestInstallCountsAgainstTheQuota(t *testing.T) {
	reg := standard(t)
	reg.Add(t, Pkg{Name: "big", Version: "1.0.0", Files: map[string]string{"blob.js": strings.Repeat("x", 300<<10)}})
	m := mustContextsQuota(t, 256<<10)
	ctx := context.Background()
	if _, err := m.Create(ctx, &wasmexec.ContextSpec{ContextID: "q", Language: wasmexec.JavaScript}); err != nil {
		t.Fatal(err)
	}
	svc := &npm.Service{Client: &npm.Client{Registry: reg.URL, CacheDir: t.TempDir()}, Hold: hold(m)}
	res, err := svc.Install(ctx, "q", &wasmexec.NPMInstallRequest{Packages: []string{"left", "big@1.0.0"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != wasmexec.Failed || res.Error.Code != wasmexec.CodeQuotaExceeded || res.Error.Details["package"] != "big@1.0.0" || !strings.Contains(res.Error.Message, "big@1.0.0") {
		t.Fatalf("over the quota: %s %+v", res.Outcome, res.Error)
	}
	dir, _ := m.WorkspaceDir("q")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the workspace changed: %v", entries)
	}
	res, err = svc.Install(ctx, "q", &wasmexec.NPMInstallRequest{Packages: []string{"left"}})
	if err != nil || res.Outcome != wasmexec.Succeeded {
		t.Fatalf("a small install: %v %+v", err, res)
	}
}

// An install holds the context's run slot: a run that arrives while it
// downloads waits its turn (queued behind it) and then sees the whole of
// node_modules, never half of it.
func TestInstallHoldsTheRunSlot(t *testing.T) {
	reg := standard(t)
	reg.Gate = make(chan struct{})
	m := mustContexts(t)
	ctx := context.Background()
	if _, err := m.Create(ctx, &wasmexec.ContextSpec{ContextID: "s", Language: wasmexec.JavaScript}); err != nil {
		t.Fatal(err)
	}
	svc := &npm.Service{Client: &npm.Client{Registry: reg.URL, CacheDir: t.TempDir()}, Hold: hold(m)}
	slottest.InstallHoldsTheRunSlot(t, m,
		&wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, ContextID: "s", Code: "require('app-lib')"},
		func() bool { return reg.Held.Load() > 0 }, func() { close(reg.Gate) },
		func() (wasmexec.Outcome, error) {
			res, err := svc.Install(ctx, "s", &wasmexec.NPMInstallRequest{Packages: []string{"app-lib"}})
			if err != nil {
				return "", err
			}
			return res.Outcome, nil
		}, `"left 1.2.0"`)
}
