package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pySDKVersion is the official Python MCP SDK the Python test installs.
const pySDKVersion = "2.3.0"

// TestOfficialPythonClient drives /mcp through every tool with the
// official Python SDK (mcp from PyPI), as TestOfficialTypeScriptClient
// does with the TypeScript one. pip installs it into a virtual
// environment kept in the user's cache directory between runs (it takes
// a minute to make); without python3, or when PyPI can't be reached, the
// test skips saying so.
func TestOfficialPythonClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the pip install")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: skipping the official Python MCP client test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	venv := mustMCPVenv(t, ctx, py)
	const key = "python-key-0123456789ab"
	url := mustMCPServerWith(t, mcpServerOpts{NPM: slowNPM{}, Key: key})
	cmd := exec.CommandContext(ctx, filepath.Join(venv, "bin", "python"), filepath.Join("testdata", "client.py"), url+"/mcp", key)
	cmd.Stderr = &strings.Builder{}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, cmd.Stderr)
	}
	checkClientRun(t, out)
}

// mustMCPVenv returns a virtual environment with mcp==pySDKVersion,
// making it when the cached one is missing or broken.
func mustMCPVenv(t *testing.T, ctx context.Context, py string) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = t.TempDir()
	}
	venv := filepath.Join(cache, "wasmexec-test", "mcp-python-"+pySDKVersion)
	python := filepath.Join(venv, "bin", "python")
	if exec.CommandContext(ctx, python, "-c", "import mcp.client.streamable_http").Run() == nil {
		return venv
	}
	os.RemoveAll(venv)
	if out, err := exec.CommandContext(ctx, py, "-m", "venv", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv failed (is the venv module installed?): %v\n%s", err, out)
	}
	install := exec.CommandContext(ctx, python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "mcp=="+pySDKVersion)
	if out, err := install.CombinedOutput(); err != nil {
		os.RemoveAll(venv)
		t.Skipf("pip could not install mcp==%s (is PyPI reachable?): %v\n%s", pySDKVersion, err, out)
	}
	return venv
}
