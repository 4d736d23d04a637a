// Package guestimages holds the tests of the guest image build scripts
// (build-cached.sh and the parts of each build.sh that run before any
// compiler). They run the scripts on fake images in temporary directories,
// so they take seconds and need no toolchain.
package guestimages

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

func here() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// fakeRepo is a repository with build-cached.sh and one image "fake" whose
// build.sh prints steps, appends to $FAKE_COUNT and can be told to fail or
// to wait for a file.
type fakeRepo struct {
	root, cache, count string
}

const fakeBuild = `#!/usr/bin/env bash
set -euo pipefail
step() { echo "==> [fake] $*"; }
echo run >>"$FAKE_COUNT"
step "fetching sources"
while [ -n "${FAKE_HOLD:-}" ] && [ ! -e "$FAKE_HOLD" ]; do sleep 0.05; done
echo "compiler noise"
step "building the thing into $1"
[ -z "${FAKE_FAIL:-}" ] || { echo "error: failing as asked" >&2; exit 3; }
step "assembling $1"
echo data >"$1/out.txt"
`

func newFakeRepo(t *testing.T) *fakeRepo {
	t.Helper()
	dir := t.TempDir()
	r := &fakeRepo{root: filepath.Join(dir, "repo"), cache: filepath.Join(dir, "cache"), count: filepath.Join(dir, "count")}
	src, err := os.ReadFile(filepath.Join(here(), "build-cached.sh"))
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Join(r.root, "guest-images", "fake"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.root, "guest-images", "build-cached.sh"), src, 0o755))
	must(t, os.WriteFile(filepath.Join(r.root, "guest-images", "fake", "build.sh"), []byte(fakeBuild), 0o755))
	return r
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (r *fakeRepo) cmd(env ...string) *exec.Cmd {
	c := exec.Command("bash", filepath.Join(r.root, "guest-images", "build-cached.sh"), "fake")
	c.Env = append(os.Environ(), append([]string{"WASMEXEC_CACHE_DIR=" + r.cache, "FAKE_COUNT=" + r.count}, env...)...)
	return c
}

func (r *fakeRepo) run(t *testing.T, env ...string) (string, error) {
	t.Helper()
	out, err := r.cmd(env...).CombinedOutput()
	return string(out), err
}

func (r *fakeRepo) builds(t *testing.T) int {
	b, err := os.ReadFile(r.count)
	if os.IsNotExist(err) {
		return 0
	}
	must(t, err)
	return strings.Count(string(b), "run")
}

// scratch lists the scratch directories (.fake-HASH-XXXXXX) in the cache.
func (r *fakeRepo) scratch(t *testing.T) []string {
	m, err := filepath.Glob(filepath.Join(r.cache, "images", ".fake-*-*"))
	must(t, err)
	return m
}

// syncBuffer is a bytes.Buffer a child process writes while a test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	poll.Until(t, 20*time.Second, what, cond)
}

// A build that waited for another build of the same inputs uses its result
// instead of building again.
func TestBuildCachedWaiterReusesTheBuild(t *testing.T) {
	r := newFakeRepo(t)
	hold := filepath.Join(t.TempDir(), "go")
	first := r.cmd("FAKE_HOLD=" + hold)
	var out1 bytes.Buffer
	first.Stdout, first.Stderr = &out1, &out1
	must(t, first.Start())
	t.Cleanup(func() { os.WriteFile(hold, nil, 0o644); first.Process.Kill(); first.Wait() })
	waitFor(t, "the first build to start", func() bool { return r.builds(t) == 1 })

	second := r.cmd()
	var out2 syncBuffer
	second.Stdout, second.Stderr = &out2, &out2
	must(t, second.Start())
	t.Cleanup(func() { second.Process.Kill(); second.Wait() })
	waitFor(t, "the second build to wait for the first", func() bool { return strings.Contains(out2.String(), "waiting for another build") })
	must(t, os.WriteFile(hold, nil, 0o644))
	if err := first.Wait(); err != nil {
		t.Fatalf("first build: %v\n%s", err, out1.String())
	}
	if err := second.Wait(); err != nil {
		t.Fatalf("second build: %v\n%s", err, out2.String())
	}
	if n := r.builds(t); n != 1 {
		t.Fatalf("build.sh ran %d times, want 1\nfirst:\n%s\nsecond:\n%s", n, out1.String(), out2.String())
	}
	if !strings.Contains(out2.String(), "up to date") {
		t.Fatalf("the second build does not say it reused the image:\n%s", out2.String())
	}
	if s := r.scratch(t); len(s) != 0 {
		t.Fatalf("scratch left: %v", s)
	}
}

// Scratch of failed, interrupted and killed builds does not stay behind.
func TestBuildCachedCleansScratch(t *testing.T) {
	r := newFakeRepo(t)
	if out, err := r.run(t, "FAKE_FAIL=1"); err == nil {
		t.Fatalf("a failing build succeeded:\n%s", out)
	}
	if s := r.scratch(t); len(s) != 0 {
		t.Fatalf("a failed build left scratch: %v", s)
	}

	// Interrupted (Ctrl-C reaches the whole process group).
	hold := filepath.Join(t.TempDir(), "never")
	c := r.cmd("FAKE_HOLD=" + hold)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	must(t, c.Start())
	t.Cleanup(func() { syscall.Kill(-c.Process.Pid, syscall.SIGKILL); c.Wait() })
	waitFor(t, "the build to start", func() bool { return r.builds(t) == 2 && len(r.scratch(t)) == 1 })
	must(t, syscall.Kill(-c.Process.Pid, syscall.SIGINT))
	if err := c.Wait(); err == nil {
		t.Fatalf("an interrupted build succeeded:\n%s", out.String())
	}
	if s := r.scratch(t); len(s) != 0 {
		t.Fatalf("an interrupted build left scratch: %v\n%s", s, out.String())
	}

	// Killed outright: the next build removes the scratch.
	stale := filepath.Join(r.cache, "images", ".fake-0123456789abcdef-Xy12Ab")
	must(t, os.MkdirAll(stale, 0o700))
	must(t, os.WriteFile(filepath.Join(stale, "half-built"), make([]byte, 1<<20), 0o644))
	if out, err := r.run(t); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if s := r.scratch(t); len(s) != 0 {
		t.Fatalf("stale scratch not removed: %v", s)
	}
}

// The first build shows [step k/~n] and the time elapsed; a later build
// knows n and estimates the time left from the recorded step durations.
func TestBuildCachedProgress(t *testing.T) {
	r := newFakeRepo(t)
	out, err := r.run(t)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	// The elapsed time is the machine's (a loaded one may print 0:01).
	if !regexp.MustCompile(`(?m)^==> \[fake\] \[step 1/~3, \d+:\d\d elapsed\] fetching sources$`).MatchString(out) ||
		!strings.Contains(out, "[step 3/~3, ") || !strings.Contains(out, "compiler noise\n") {
		t.Fatalf("first build's progress:\n%s", out)
	}
	rec, err := os.ReadFile(filepath.Join(r.cache, "images", ".stats", "fake.steps"))
	if err != nil || strings.Count(string(rec), "\n") != 3 || !strings.Contains(string(rec), "\tbuilding the thing into PATH\n") {
		t.Fatalf("step record: %v\n%s", err, rec)
	}
	// A changed input: a new build, with an estimate.
	must(t, os.WriteFile(filepath.Join(r.root, "guest-images", "fake", "input.txt"), []byte("v2"), 0o644))
	out, err = r.run(t)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^==> \[fake\] \[step 2/3, \d+:\d\d elapsed, about \d+:\d\d left \(last build: \d+:\d\d\)\] building the thing`).MatchString(out) {
		t.Fatalf("second build's progress has no estimate:\n%s", out)
	}
}

// Vendored code the image names in its third_party.txt is one of its
// inputs: a change there rebuilds it, a change in a third_party directory
// it does not name does not, and a name that is missing fails the build.
func TestBuildCachedHashesThirdParty(t *testing.T) {
	r := newFakeRepo(t)
	lib := filepath.Join(r.root, "third_party", "lib", "lib.js")
	must(t, os.MkdirAll(filepath.Dir(lib), 0o755))
	must(t, os.MkdirAll(filepath.Join(r.root, "third_party", "other"), 0o755))
	must(t, os.WriteFile(lib, []byte("v1"), 0o644))
	must(t, os.WriteFile(filepath.Join(r.root, "guest-images", "fake", "third_party.txt"), []byte("# vendored\nlib/lib.js  deps/lib.js\n"), 0o644))
	build := func(want int) {
		t.Helper()
		if out, err := r.run(t); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		if n := r.builds(t); n != want {
			t.Fatalf("build.sh ran %d times, want %d", n, want)
		}
	}
	build(1)
	must(t, os.WriteFile(filepath.Join(r.root, "third_party", "other", "x.js"), []byte("x"), 0o644))
	build(1)
	must(t, os.WriteFile(lib, []byte("v2"), 0o644))
	build(2)
	must(t, os.WriteFile(filepath.Join(r.root, "guest-images", "fake", "third_party.txt"), []byte("gone/x.js deps/x.js\n"), 0o644))
	if out, err := r.run(t); err == nil || !strings.Contains(out, "third_party/gone, which is missing") {
		t.Fatalf("a missing third_party directory: %v\n%s", err, out)
	}
}

// The Python build says, before it runs apt-get, that it installs Debian
// packages as root and which; without root it says what to install.
func TestPythonBuildSaysWhatItInstalls(t *testing.T) {
	bin := t.TempDir()
	stub := func(name, body string) {
		must(t, os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	}
	// Every package is missing; apt-get records that it ran and fails.
	stub("dpkg-query", `echo "unknown ok not-installed"`)
	stub("apt-get", `echo "APT-GET RAN $*"; exit 1`)
	env := func(uid string) []string {
		stub("id", `echo `+uid)
		return append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "WASMEXEC_CACHE_DIR="+t.TempDir())
	}
	build := filepath.Join(here(), "python", "build.sh")

	c := exec.Command("bash", build, t.TempDir())
	c.Env = env("0")
	out, err := c.CombinedOutput()
	if err == nil {
		t.Fatalf("build with failing apt-get succeeded:\n%s", out)
	}
	s := string(out)
	line := regexp.MustCompile(`(?m)^==> \[python\] installing missing Debian packages as root \(apt-get install.*\): clang-16 lld-16 .*$`).FindStringIndex(s)
	apt := strings.Index(s, "APT-GET RAN")
	if line == nil || (apt >= 0 && apt < line[0]) {
		t.Fatalf("no line saying what apt-get installs before it runs:\n%s", s)
	}

	c = exec.Command("bash", build, t.TempDir())
	c.Env = env("1000")
	out, _ = c.CombinedOutput()
	if s := string(out); strings.Contains(s, "APT-GET RAN") || !strings.Contains(s, "needs root") || !strings.Contains(s, "sudo apt-get install clang-16") {
		t.Fatalf("without root:\n%s", s)
	}
}

// copyDir copies the regular files under src to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	must(t, filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, info.Mode().Perm())
	}))
}

// The Python build's first stage (the compiled CPython tree) is keyed by
// its own inputs only: a change to the driver, the stdlib patches, the zip
// writer, guest.json or build.sh reuses it; a change to base.sh, the CPython
// patches, Setup.local, the SQLite shim or the toolchain's versions does not.
func TestPythonBaseKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "python")
	copyDir(t, filepath.Join(here(), "python"), dir)
	bin := t.TempDir()
	// dpkg-query reports the version in $FAKE_CLANG_VERSION for clang-16.
	must(t, os.WriteFile(filepath.Join(bin, "dpkg-query"), []byte(`#!/bin/sh
for a; do case $a in -*) ;; clang-16) echo "clang-16=${FAKE_CLANG_VERSION:-1}";; *) echo "$a=1";; esac; done
`), 0o755))
	key := func(env ...string) string {
		t.Helper()
		c := exec.Command("bash", filepath.Join(dir, "build.sh"), "--base-key")
		c.Env = append(os.Environ(), append([]string{"PATH=" + bin + ":" + os.Getenv("PATH"), "WASMEXEC_CACHE_DIR=" + t.TempDir()}, env...)...)
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("build.sh --base-key: %v\n%s", err, out)
		}
		k := strings.TrimSpace(string(out))
		if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(k) {
			t.Fatalf("build.sh --base-key printed %q", out)
		}
		return k
	}
	appendTo := func(name string) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_APPEND|os.O_WRONLY, 0)
		must(t, err)
		_, err = f.WriteString("\n# changed\n")
		must(t, err)
		must(t, f.Close())
	}
	k0 := key()
	for _, f := range []string{"wasmexec_driver.py", "_wasmexecmodule.c", "_wasmexec_fsguard.c",
		"tools/patch_stdlib.py", "tools/wasm_assets.py", "guest.json", "build.sh", "README.md"} {
		appendTo(f)
		if k := key(); k != k0 {
			t.Errorf("changing %s changed the base key (%s -> %s)", f, k0, k)
		}
	}
	prev := k0
	for _, f := range []string{"base.sh", "Setup.local", "tools/patch_cpython.py", "sqlite/wasi_shim.h", "tools/debsrc_list.py"} {
		appendTo(f)
		k := key()
		if k == prev {
			t.Errorf("changing %s did not change the base key", f)
		}
		prev = k
	}
	if k := key("FAKE_CLANG_VERSION=2"); k == prev {
		t.Errorf("a new clang-16 version did not change the base key")
	}

	// Every file of the directory base.sh reads is one of its inputs.
	src, err := os.ReadFile(filepath.Join(here(), "python", "base.sh"))
	must(t, err)
	m := regexp.MustCompile(`(?s)\nBASE_INPUTS=\(([^)]*)\)`).FindSubmatch(src)
	if m == nil {
		t.Fatal("base.sh has no BASE_INPUTS=(...)")
	}
	inputs := map[string]bool{}
	for _, f := range strings.Fields(string(m[1])) {
		inputs[f] = true
	}
	// The driver's C files are compiled there only for the link to
	// succeed: build.sh removes their objects, compiles them again and
	// relinks.
	driver := map[string]bool{"_wasmexecmodule.c": true, "_wasmexec_fsguard.c": true, "_wasmexec_linux.c": true}
	for _, r := range regexp.MustCompile(`\$HERE/([A-Za-z0-9_./-]+)`).FindAllSubmatch(src, -1) {
		if f := string(r[1]); !inputs[f] && !driver[f] {
			t.Errorf("base.sh reads $HERE/%s, which is not in BASE_INPUTS", f)
		}
	}
}

// On a fresh machine the Go module cache is empty while the js image
// builds (make run builds it beside the server binary), and `go list -m`
// names no directory for a module that isn't downloaded yet.
func TestJSModuleDirDownloadsIntoAnEmptyCache(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	modcache := t.TempDir()
	t.Cleanup(func() { // the module cache's files are read-only
		_ = exec.Command("chmod", "-R", "u+w", modcache).Run()
	})
	cmd := exec.Command(filepath.Join(here(), "js", "module-dir.sh"), "github.com/dop251/goja")
	cmd.Env = append(os.Environ(), "GOMODCACHE="+modcache, "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("module-dir.sh: %v\n%s", err, stderr.String())
	}
	dir := strings.TrimSpace(string(out))
	if !strings.HasPrefix(dir, modcache+string(filepath.Separator)) {
		t.Fatalf("module-dir.sh printed %q, not a directory in the empty cache %s", dir, modcache)
	}
	if _, err := os.Stat(filepath.Join(dir, "runtime.go")); err != nil {
		t.Fatalf("goja's source is not in %s: %v", dir, err)
	}
}
