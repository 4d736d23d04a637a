package clients_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/client/clienttest"
)

// server is the real binary the suites talk to; keyed is another that
// requires clienttest.TestKey (nil with WASMEXEC_TEST_SERVER).
var server, keyed *clienttest.Server

func TestMain(m *testing.M) {
	srv, err := clienttest.Start()
	if errors.Is(err, clienttest.ErrSkip) {
		fmt.Println("skipping the SDK tests:", err)
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	server = srv
	keyed, err = clienttest.StartWithKey()
	if err != nil && !errors.Is(err, clienttest.ErrSkip) {
		srv.Close()
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if keyed != nil {
		keyed.Close()
	}
	srv.Close()
	os.Exit(code)
}

// answer is the last line of each agent-loop example.
const answer = "answer: The mean temperature was 21.5 °C; day 5 was the hottest."

// offline are signs, in a package tool's output, that its registry could
// not be reached (no network here), which skips instead of failing.
var offline = []string{
	"Temporary failure in name resolution", "Name or service not known", "NewConnectionError", "Network is unreachable",
	"Connection refused", "ConnectTimeoutError", "ReadTimeoutError", "No matching distribution found",
	"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH",
}

// run runs name args in dir with env added, failing t with the output,
// or skipping it when a registry was out of reach and registry is set.
func run(t *testing.T, dir string, env []string, registry bool, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if registry {
			for _, s := range offline {
				if strings.Contains(out.String(), s) {
					t.Skipf("a package registry is out of reach (%s): %s %s:\n%s", s, name, strings.Join(args, " "), tail(out.String()))
				}
			}
		}
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

func need(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s is not installed: %v", tool, err)
	}
	return p
}

// copyTree copies src to dst, leaving out names in skip.
func copyTree(t *testing.T, src, dst string, skip ...string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		for _, s := range skip {
			if d.Name() == s {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// suiteEnv points a suite at the server, and at the keyed one when there
// is one (WASMEXEC_KEYED_URL, WASMEXEC_KEYED_KEY).
func suiteEnv() []string {
	env := []string{"WASMEXEC_URL=" + server.URL}
	if keyed != nil {
		env = append(env, "WASMEXEC_KEYED_URL="+keyed.URL, "WASMEXEC_KEYED_KEY="+clienttest.TestKey)
	}
	return env
}

func repo(parts ...string) string {
	return filepath.Join(append([]string{clienttest.RepoRoot()}, parts...)...)
}

// The Python SDK: built with python -m build, the wheel installed in a
// fresh venv, checked by mypy --strict, its suite run by pytest against
// the server, then the example's agent loop.
func TestPython(t *testing.T) {
	python := need(t, "python3")
	tmp := t.TempDir()
	venv := filepath.Join(tmp, "venv")
	run(t, tmp, nil, false, python, "-m", "venv", venv)
	py := filepath.Join(venv, "bin", "python")
	quiet := []string{"PIP_DISABLE_PIP_VERSION_CHECK=1", "PYTHONDONTWRITEBYTECODE=1"}
	run(t, tmp, quiet, true, py, "-m", "pip", "install", "--quiet", "build>=1", "pytest>=7", "anyio>=4", "mypy>=1.8", "httpx>=0.25,<1")

	// Build from a copy, so nothing is written into the source tree.
	src := filepath.Join(tmp, "src")
	copyTree(t, repo("clients", "python"), src, "__pycache__", ".pytest_cache", "dist")
	dist := filepath.Join(tmp, "dist")
	run(t, src, quiet, true, py, "-m", "build", "--outdir", dist, ".")
	wheels, _ := filepath.Glob(filepath.Join(dist, "wasmexec-*-py3-none-any.whl"))
	sdists, _ := filepath.Glob(filepath.Join(dist, "wasmexec-*.tar.gz"))
	if len(wheels) != 1 || len(sdists) != 1 {
		t.Fatalf("python -m build made %v and %v", wheels, sdists)
	}
	run(t, tmp, quiet, true, py, "-m", "pip", "install", "--quiet", wheels[0])
	// "Typed" is a promise: the package passes mypy --strict.
	run(t, src, quiet, false, py, "-m", "mypy", "--strict", "src/wasmexec")

	env := append(quiet, suiteEnv()...)
	// The tests import the installed wheel: run them from the copy's
	// tests/ with the source directory out of the path.
	out := run(t, src, env, false, py, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "tests")
	t.Logf("pytest:\n%s", tail(out))
	if !strings.Contains(out, " passed") {
		t.Fatalf("pytest passed nothing:\n%s", out)
	}

	out = run(t, repo("examples", "python"), env, false, py, "agent_loop.py")
	if !strings.Contains(out, answer) || !strings.Contains(out, "AttributeError") {
		t.Fatalf("the Python agent loop:\n%s", out)
	}
}

// The TypeScript SDK: installed and built with npm ci, its suite run by
// node --test against the server, packed with npm pack; the example is
// compiled against the packed tarball and its agent loop run.
func TestTypeScript(t *testing.T) {
	node, npm := need(t, "node"), need(t, "npm")
	tmp := t.TempDir()
	src := filepath.Join(tmp, "sdk")
	copyTree(t, repo("clients", "typescript"), src, "node_modules", "dist")
	quiet := []string{"npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false"}
	run(t, src, quiet, true, npm, "ci") // and builds: the prepare script
	if _, err := os.Stat(filepath.Join(src, "dist", "index.js")); err != nil {
		t.Fatalf("npm ci did not build the package: %v", err)
	}
	out := run(t, src, append(quiet, suiteEnv()...), false, node, "--test", "test/")
	t.Logf("node --test:\n%s", tail(out))
	if !strings.Contains(out, "# fail 0") || strings.Contains(out, "# pass 0") {
		t.Fatalf("node --test:\n%s", out)
	}

	packed := filepath.Join(tmp, "packed")
	os.MkdirAll(packed, 0o755)
	out = run(t, src, quiet, false, npm, "pack", "--pack-destination", packed)
	tgz, _ := filepath.Glob(filepath.Join(packed, "wasmexec-*.tgz"))
	if len(tgz) != 1 {
		t.Fatalf("npm pack made %v:\n%s", tgz, out)
	}
	for _, f := range []string{"dist/index.js", "dist/index.d.ts", "package.json"} {
		if !strings.Contains(out, f) {
			t.Fatalf("the package lacks %s:\n%s", f, out)
		}
	}

	ex := filepath.Join(tmp, "example")
	copyTree(t, repo("examples", "typescript"), ex, "node_modules", "dist")
	run(t, ex, quiet, true, npm, "install", "--no-save", "--omit=dev", tgz[0])
	run(t, ex, quiet, false, node, filepath.Join(src, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json")
	out = run(t, ex, append(quiet, "WASMEXEC_URL="+server.URL), false, node, "dist/agent_loop.js")
	if !strings.Contains(out, answer) || !strings.Contains(out, "TypeError") {
		t.Fatalf("the TypeScript agent loop:\n%s", out)
	}
}
