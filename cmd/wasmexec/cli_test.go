package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// Real-binary tests of the command line: help, eval anywhere, eval's
// limits against a server.

// run runs the binary with args in dir, without WASMEXEC_* variables
// unless given.
func run(tb testing.TB, bin, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WASMEXEC_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "WASMEXEC_CACHE_DIR="+testenv.CacheDir())
	cmd.Env = append(cmd.Env, env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		tb.Fatalf("%v: timed out", args)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		tb.Fatal(err)
	}
	return o.String(), e.String(), code
}

// Help exits 0 and shows the command's own flags.
func TestCLIHelp(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := run(t, binary, dir, nil, "serve", "-h")
	if code != 0 || !strings.Contains(out, "usage: wasmexec serve") || !strings.Contains(out, "-memory-bytes") || strings.Contains(errOut, "help requested") {
		t.Fatalf("serve -h: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	out, errOut, code = run(t, binary, dir, nil, "eval", "--help")
	if code != 0 || !strings.Contains(out, "usage: wasmexec eval") {
		t.Fatalf("eval --help: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"-lang", "-server", "-fuel", "-memory-bytes", "-timeout-ms", "-images-dir"} {
		if !strings.Contains(out, "  "+want+" ") {
			t.Errorf("eval --help lacks %s:\n%s", want, out)
		}
	}
	for _, server := range []string{"-max-processes", "-execution-completed-ttl-ms", "-addr", "-tscheck-workers"} {
		if strings.Contains(out, "  "+server+" ") {
			t.Errorf("eval --help shows the server flag %s", server)
		}
	}
	if _, errOut, code := run(t, binary, dir, nil, "serve", "--nope"); code == 0 || strings.Count(errOut, "\n") > 2 || !strings.Contains(errOut, "-nope") {
		t.Fatalf("an unknown flag: exit %d, want one line naming it:\n%s", code, errOut)
	}
}

// eval takes flags after the code, finds the images of the repository its
// binary was built in from any directory, and says where to point it when
// there is none.
func TestCLIEvalAnywhere(t *testing.T) {
	testenv.ImageDir(t, "python")
	// A binary in a repository layout: REPO/bin/wasmexec, REPO/build/images.
	repo := t.TempDir()
	for _, d := range []string{"bin", "build"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(testenv.ImagesDir(), filepath.Join(repo, "build", "images")); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(repo, "bin", "wasmexec")
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	out, errOut, code := run(t, bin, elsewhere, nil, "eval", "6 * 7", "--lang", "python")
	if code != 0 || out != "42\n" {
		t.Fatalf("eval with flags after the code, from another directory: exit %d\nstdout %q\nstderr:\n%s", code, out, errOut)
	}
	out, _, code = run(t, bin, elsewhere, nil, "eval", "--lang", "javascript", "--", "-1 - 1")
	if code != 0 || out != "-2\n" {
		t.Fatalf("eval -- CODE: exit %d %q", code, out)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("eval left files in the working directory: %v", entries)
	}
	// A binary outside any repository.
	_, errOut, code = run(t, binary, elsewhere, nil, "eval", "1")
	if code == 0 || !strings.Contains(errOut, "--images-dir") || !strings.Contains(errOut, "WASMEXEC_IMAGES_DIR") || !strings.Contains(errOut, "make guest-images") {
		t.Fatalf("no images: exit %d\n%s", code, errOut)
	}
	out, _, code = run(t, binary, elsewhere, []string{"WASMEXEC_IMAGES_DIR=" + testenv.ImagesDir()}, "eval", "1")
	if code != 0 || out != "1\n" {
		t.Fatalf("with WASMEXEC_IMAGES_DIR: exit %d %q", code, out)
	}
}

// eval --server sends --fuel, --memory-bytes, --output-bytes and
// --timeout-ms as the run's limits.
func TestCLIEvalServerLimits(t *testing.T) {
	p := MustServe(t, t.TempDir(), "--tscheck-workers", "0")
	dir := t.TempDir()
	_, errOut, code := run(t, binary, dir, nil, "eval", "--server", p.base, "--fuel", "1000000", "while (true) {}")
	if code == 0 || !strings.Contains(errOut, "cpu_limit") || !strings.Contains(errOut, "1000000") {
		t.Fatalf("--fuel: exit %d\n%s", code, errOut)
	}
	_, errOut, code = run(t, binary, dir, nil, "eval", "--server", p.base, "--memory-bytes", "1", "1")
	if code == 0 || !strings.Contains(errOut, "limits.memoryBytes 1") {
		t.Fatalf("--memory-bytes: exit %d\n%s", code, errOut)
	}
	_, errOut, code = run(t, binary, dir, nil, "eval", "--server", p.base, "--timeout-ms", "300", "while (true) {}")
	if code == 0 || !strings.Contains(errOut, "timed_out") {
		t.Fatalf("--timeout-ms: exit %d\n%s", code, errOut)
	}
	out, errOut, code := run(t, binary, dir, nil, "eval", "--server", p.base, "--json", "--output-bytes", "5", "console.log('0123456789')")
	if !strings.Contains(out, `"output_limit"`) {
		t.Fatalf("--output-bytes: exit %d\n%s%s", code, out, errOut)
	}
}
