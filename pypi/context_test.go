package pypi_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/slottest"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/pypi"
	"github.com/wasmexec/wasmexec/pypi/pypitest"
	"github.com/wasmexec/wasmexec/vfs"
)

func mustPython(t *testing.T, pkgs wasmexec.PackageStager, quota ...int64) (*pipeline.Pipeline, *contexts.Manager) {
	t.Helper()
	q := int64(0)
	if len(quota) > 0 {
		q = quota[0]
	}
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{python.ImageName: testenv.Image(t, python.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.Python: python.Driver{Packages: pkgs}},
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), q)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return r, m
}

// POST /v1/contexts/:id/pip/install's service with a real Python guest:
// installed packages are importable by the context's next run, from
// bytecode compiled once; a failed install is a completed record naming
// the package, and the installed set stays as it was.
func TestInstallIntoAPythonContext(t *testing.T) {
	ix := standard(t)
	svc := &pypi.Service{Client: &pypi.Client{CacheDir: t.TempDir()}, Index: ix.URL}
	_, m := mustPython(t, nil)
	svc.Workspace = m.WorkspaceDir
	ctx := context.Background()
	if _, err := m.Create(ctx, &wasmexec.ContextSpec{ContextID: "py", Language: wasmexec.Python}); err != nil {
		t.Fatal(err)
	}
	run := func(code string) *wasmexec.Result {
		t.Helper()
		r, err := m.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.Python, ContextID: "py", Code: code})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Before the install the module is missing; the failed import must not
	// hide the package once it is installed.
	if r := run("import with_dep"); r.Outcome != wasmexec.Failed || !strings.Contains(r.Error.Message, "No module named 'with_dep'") {
		t.Fatalf("before: %+v", r.Error)
	}
	var saved []*wasmexec.Result
	svc.Persist = func(_ context.Context, r *wasmexec.Result) error { saved = append(saved, r); return nil }
	res, err := svc.Install(ctx, "py", &wasmexec.PipInstallRequest{Packages: []string{"with-dep"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != wasmexec.Succeeded || res.Kind != wasmexec.KindPipInstall || names(res.Installed) != "purefn==1.1 with-dep==1.0" || !strings.Contains(*res.Stdout, "added with-dep 1.0") {
		t.Fatalf("install: %+v %+v", res.Result, res.Installed)
	}
	if len(saved) != 1 || !strings.Contains(string(saved[0].Extra), `"sha256"`) {
		t.Fatalf("persisted %+v", saved)
	}
	if r := run("import with_dep, purefn, sys\n[with_dep.quad(3), purefn.VERSION, purefn.__file__, type(purefn.__spec__.loader).__name__]"); r.Outcome != wasmexec.Succeeded ||
		string(r.Value) != `[12,"1.1","/workspace/.python-packages/purefn.py","SourceFileLoader"]` {
		t.Fatalf("after: %s %+v", r.Value, r.Error)
	}
	// The bytecode was compiled on the host (when it has python3.11).
	ws, _ := m.WorkspaceDir("py")
	if _, err := os.Stat("/usr/bin/python3.11"); err == nil {
		pycs, _ := filepath.Glob(filepath.Join(ws, pypi.SiteDir, "with_dep", "__pycache__", "__init__.cpython-311.pyc"))
		if len(pycs) != 1 {
			t.Fatal("no compiled bytecode beside the installed sources")
		}
	}
	// A failed install changes nothing: the next run still imports.
	res, err = svc.Install(ctx, "py", &wasmexec.PipInstallRequest{Packages: []string{"purefn==1.0", "platonly"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != wasmexec.Failed || res.Error.Code != "pip_install_failed" || res.Error.Details["package"] != "platonly" ||
		!strings.Contains(res.Error.Message, "no pure-Python wheel for wasm32-wasi") || len(res.Installed) != 0 {
		t.Fatalf("failed install: %+v", res.Error)
	}
	if r := run("import importlib, purefn\nimportlib.reload(purefn).VERSION"); string(r.Value) != `"1.1"` {
		t.Fatalf("after the failure: %s %+v", r.Value, r.Error)
	}
	// An install past its timeoutMs is timed_out, the set unchanged.
	ix.Stall.Store(true)
	res, err = svc.Install(ctx, "py", &wasmexec.PipInstallRequest{Packages: []string{"top"}, TimeoutMs: 300})
	ix.Stall.Store(false)
	if err != nil || res.Outcome != wasmexec.TimedOut || !strings.Contains(res.Error.Message, "unchanged") {
		t.Fatalf("stalled install: %v %+v", err, res)
	}
	if r := run("import purefn\npurefn.VERSION"); string(r.Value) != `"1.1"` {
		t.Fatalf("after the timeout: %s %+v", r.Value, r.Error)
	}
	// A requirements file from the workspace.
	if err := os.WriteFile(filepath.Join(ws, "requirements.txt"), []byte("# pinned\ntop==1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = svc.Install(ctx, "py", &wasmexec.PipInstallRequest{RequirementsFile: "requirements.txt", Upgrade: true})
	if err != nil || res.Outcome != wasmexec.Succeeded || names(res.Installed) != "picky==1.0 purefn==1.0 top==1.0" {
		t.Fatalf("requirements file: %v %+v %+v", err, res.Result.Error, res.Installed)
	}
	if r := run("import picky\npicky.V"); string(r.Value) != "1" {
		t.Fatalf("picky: %s %+v", r.Value, r.Error)
	}
	// The site directory is on sys.path, and read-only views stay so.
	if r := run("import sys\n[p for p in sys.path if 'packages' in p]"); !strings.Contains(string(r.Value), "/workspace/.python-packages") {
		t.Fatalf("sys.path: %s", r.Value)
	}
	// Issue 15 item 5: hibernated and restored, the context keeps its
	// installed set (in its workspace) and what it imported.
	if d, err := m.Hibernate(ctx, "py"); err != nil || !d.Hibernated {
		t.Fatalf("hibernate: %v %+v", err, d)
	}
	if r := run("import with_dep\n[picky.V, with_dep.quad(2)]"); r.Outcome != wasmexec.Succeeded || string(r.Value) != "[1,8]" {
		t.Fatalf("after restore: %s %+v", r.Value, r.Error)
	}
	// A reset (a fresh guest, workspace kept) imports them again.
	if _, err := m.Reset(ctx, "py"); err != nil {
		t.Fatal(err)
	}
	if r := run("import picky, with_dep\n[picky.V, with_dep.quad(2)]"); r.Outcome != wasmexec.Succeeded || string(r.Value) != "[1,8]" {
		t.Fatalf("after reset: %s %+v", r.Value, r.Error)
	}
}

// The request's own mistakes are 400s, before anything is fetched: an
// index the server does not allow (no SSRF), a malformed requirement, a
// requirements file outside the workspace.
func TestInstallRequestErrors(t *testing.T) {
	ix := standard(t)
	ws := t.TempDir()
	os.Symlink("/etc/passwd", filepath.Join(ws, "link.txt"))
	svc := &pypi.Service{Client: &pypi.Client{CacheDir: t.TempDir()}, Index: ix.URL, Allowed: []string{"https://mirror.example/simple/"},
		Workspace: func(string) (string, error) { return ws, nil }}
	ctx := context.Background()
	for _, tc := range []struct {
		req  wasmexec.PipInstallRequest
		want string
	}{
		{wasmexec.PipInstallRequest{Packages: []string{"purefn"}, IndexURL: "http://169.254.169.254/latest"}, "is not an allowed index"},
		{wasmexec.PipInstallRequest{Packages: []string{"purefn"}, ExtraIndexURLs: []string{"http://127.0.0.1:22/simple"}}, "is not an allowed index"},
		{wasmexec.PipInstallRequest{Packages: []string{"purefn @ https://evil.example/x.whl"}}, "direct references"},
		{wasmexec.PipInstallRequest{Packages: []string{"purefn==="}}, "packages"},
		{wasmexec.PipInstallRequest{}, "give packages or requirementsFile"},
		{wasmexec.PipInstallRequest{RequirementsFile: "../../etc/passwd"}, "requirementsFile must be a clean path"},
		{wasmexec.PipInstallRequest{Packages: []string{"x"}, TimeoutMs: -1}, "timeoutMs"},
		// Sizes a client controls are capped where they enter.
		{wasmexec.PipInstallRequest{Packages: make([]string, 1001)}, "at most 1000 requirements"},
		{wasmexec.PipInstallRequest{Packages: []string{"x" + strings.Repeat("=", 3000)}}, "longer than 2000"},
		{wasmexec.PipInstallRequest{Packages: []string{"x"}, ExtraIndexURLs: make([]string, 17)}, "at most 16"},
		{wasmexec.PipInstallRequest{Packages: []string{"x"}, IndexURL: "http://" + strings.Repeat("a", 3000)}, "longer than 2048"},
	} {
		_, err := svc.Install(ctx, "c", &tc.req)
		if wasmexec.ErrorCode(err) != wasmexec.EInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want invalid_argument ...%s...", tc.req, err, tc.want)
		}
	}
	if ix.Downloads.Load() != 0 {
		t.Fatal("a refused request fetched something")
	}
	// A requirements file over 1 MiB is a failed install naming it.
	os.WriteFile(filepath.Join(ws, "huge.txt"), []byte(strings.Repeat("# filler\n", 200000)), 0o644)
	res, err := svc.Install(ctx, "c", &wasmexec.PipInstallRequest{RequirementsFile: "huge.txt"})
	if err != nil || res.Outcome != wasmexec.Failed || !strings.Contains(res.Error.Message, "over 1048576 bytes") {
		t.Fatalf("huge requirements file: %v %+v", err, res)
	}
	// An allowed index (trailing slash or not) is fine; a symlink out of
	// the workspace is a failed install naming the file.
	res, err = svc.Install(ctx, "c", &wasmexec.PipInstallRequest{RequirementsFile: "link.txt", IndexURL: "https://mirror.example/simple"})
	if err != nil || res.Outcome != wasmexec.Failed || res.Error.Details["package"] != "link.txt" {
		t.Fatalf("symlinked requirements file: %v %+v", err, res)
	}
}

// One-shot runs name packages: staged once per set, from the cache, into
// the run's workspace; a bad package is a failed run naming it.
func TestOneShotPackages(t *testing.T) {
	ix := standard(t)
	svc := &pypi.Service{Client: &pypi.Client{CacheDir: t.TempDir()}, Index: ix.URL}
	r, _ := mustPython(t, svc)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		res, err := r.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.Python, Code: "import with_dep\nwith_dep.quad(5)", Packages: []string{"with-dep==1.0"}}, wasmexec.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != wasmexec.Succeeded || string(res.Value) != "20" {
			t.Fatalf("run %d: %s %+v", i, res.Value, res.Error)
		}
		fetched := `"fetched":true`
		if i > 0 {
			fetched = `"fetched":false`
		}
		if !strings.Contains(string(res.Extra), fetched) || !strings.Contains(string(res.Extra), `"name":"with-dep","version":"1.0"`) {
			t.Fatalf("run %d: extra %s", i, res.Extra)
		}
	}
	if n := ix.Downloads.Load(); n != 2 {
		t.Fatalf("%d downloads, want 2 (each wheel once)", n)
	}
	res, err := r.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.Python, Code: "1", Packages: []string{"sdistonly"}}, wasmexec.RunOptions{})
	if err != nil || res.Outcome != wasmexec.Failed || res.Error.Code != "pip_install_failed" || !strings.Contains(res.Error.Message, "sdistonly") {
		t.Fatalf("sdist-only: %v %+v", err, res)
	}
	// A download that doesn't finish ends with the run's deadline.
	ix.Stall.Store(true)
	res, err = r.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.Python, Code: "1", Packages: []string{"purefn==1.0"}, TimeoutMs: 300}, wasmexec.RunOptions{})
	if err != nil || res.Outcome != wasmexec.TimedOut || !strings.Contains(res.Error.Message, "while its packages were resolved and downloaded (purefn==1.0)") {
		t.Fatalf("stalled index: %v %+v", err, res)
	}
	ix.Stall.Store(false)
	// A run without packages doesn't see another run's.
	res, _ = r.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.Python, Code: "import with_dep"}, wasmexec.RunOptions{})
	if res.Outcome != wasmexec.Failed {
		t.Fatal("a run without packages imported another run's")
	}
}

// An install that would take the workspace over its quota fails naming
// the quota, and the installed set and the context's runs are as before.
func TestInstallOverTheWorkspaceQuota(t *testing.T) {
	ix := standard(t)
	ix.Add(t, pypitest.Dist{Project: "big", Version: "1.0", Files: map[string]string{"big.py": "# " + strings.Repeat("x", 2<<20) + "\n"}})
	_, m := mustPython(t, nil, 1<<20)
	svc := &pypi.Service{Client: &pypi.Client{CacheDir: t.TempDir(), Python: "-"}, Index: ix.URL, Workspace: m.WorkspaceDir, ReplaceDir: m.ReplaceDir}
	ctx := context.Background()
	if _, err := m.Create(ctx, &wasmexec.ContextSpec{ContextID: "q", Language: wasmexec.Python}); err != nil {
		t.Fatal(err)
	}
	res, err := svc.Install(ctx, "q", &wasmexec.PipInstallRequest{Packages: []string{"purefn==1.0"}})
	if err != nil || res.Outcome != wasmexec.Succeeded {
		t.Fatalf("small install: %v %+v", err, res)
	}
	res, err = svc.Install(ctx, "q", &wasmexec.PipInstallRequest{Packages: []string{"big"}})
	if err != nil || res.Outcome != wasmexec.Failed || !strings.Contains(res.Error.Message, "don't fit the context's workspace") {
		t.Fatalf("big install: %v %+v", err, res.Error)
	}
	r, err := m.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.Python, ContextID: "q", Code: "import purefn, os\n[purefn.double(2), sorted(os.listdir('/workspace'))]"})
	if err != nil || r.Outcome != wasmexec.Succeeded || string(r.Value) != `[4,[".python-packages"]]` {
		t.Fatalf("after: %v %s %+v", err, r.Value, r.Error)
	}
}

// A pip install holds the context's run slot (as npm's does): a run that
// arrives during it queues behind it and sees the whole installed set.
func TestPipInstallHoldsTheRunSlot(t *testing.T) {
	ix := standard(t)
	ix.Gate = make(chan struct{})
	_, m := mustPython(t, nil)
	ctx := context.Background()
	if _, err := m.Create(ctx, &wasmexec.ContextSpec{ContextID: "s", Language: wasmexec.Python}); err != nil {
		t.Fatal(err)
	}
	svc := &pypi.Service{Client: &pypi.Client{CacheDir: t.TempDir(), Python: "-"}, Index: ix.URL, Workspace: m.WorkspaceDir, ReplaceDir: m.ReplaceDir,
		Hold: func(ctx context.Context, id string) (func(), error) {
			_, release, err := m.Hold(ctx, id)
			return release, err
		}}
	slottest.InstallHoldsTheRunSlot(t, m,
		&wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.Python, ContextID: "s", Code: "import with_dep\nwith_dep.quad(3)"},
		func() bool { return ix.Held.Load() > 0 }, func() { close(ix.Gate) },
		func() (wasmexec.Outcome, error) {
			res, err := svc.Install(ctx, "s", &wasmexec.PipInstallRequest{Packages: []string{"with-dep"}})
			if err != nil {
				return "", err
			}
			return res.Outcome, nil
		}, "12")
}
