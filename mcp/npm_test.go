package mcp_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/internal/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/mcp"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/vfs"
)

// recordingNPM answers installs as the npm service would (it is tested
// against a local registry in npm/) and records what it was asked.
type recordingNPM struct{ got []string }

func (n *recordingNPM) Install(_ context.Context, id string, req *exec.NPMInstallRequest) (*exec.NPMInstallResult, error) {
	n.got = append(n.got, id+":"+strings.Join(req.Packages, ","))
	out := "added left-pad@1.3.0\n"
	return &exec.NPMInstallResult{
		Result:    &exec.Result{ExecutionID: "exe_npm", Kind: exec.KindNPMInstall, Outcome: exec.Succeeded, Stdout: &out},
		Installed: []exec.NPMPackage{{Name: "left-pad", Version: "1.3.0", Integrity: "sha512-x", Path: "node_modules/left-pad"}},
	}, nil
}

// The npm_install tool installs into a context the caller can see, and
// reports the completed record as text and structured content.
func TestNPMInstallTool(t *testing.T) {
	r := testenv.Runner(t, engine.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[exec.Language]exec.LanguageDriver{exec.JavaScript: js.Driver{}},
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.New(contexts.Config{Runner: r, Workspaces: ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	n := &recordingNPM{}
	srv := httptest.NewServer(server.New(server.Config{Runner: r, Contexts: m, MCP: mcp.Handler(mcp.Config{Runner: r, Contexts: m, NPM: n})}).Handler())
	t.Cleanup(srv.Close)
	s := MustSession(t, srv.URL, nil)

	res, _ := call(t, s, "npm_install", map[string]any{"contextId": "nope", "packages": []any{"left-pad"}})
	if !res.IsError || !strings.Contains(textOf(res), "context_not_found") || len(n.got) != 0 {
		t.Fatalf("unknown context: %v %q %v", res.IsError, textOf(res), n.got)
	}
	call(t, s, "create_context", map[string]any{"contextId": "app", "language": "javascript"})
	res, out := call(t, s, "npm_install", map[string]any{"contextId": "app", "packages": []any{"left-pad@1.3.0"}})
	if res.IsError || out["outcome"] != "succeeded" || len(out["installed"].([]any)) != 1 || n.got[0] != "app:left-pad@1.3.0" {
		t.Fatalf("install: %v %q %v %v", res.IsError, textOf(res), out, n.got)
	}
}
