package mcp_test

import (
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/pypi"
	"github.com/wasmexec/wasmexec/pypi/pypitest"
	"github.com/wasmexec/wasmexec/server"
)

// The pip_install tool installs (the real service, a local index) into a
// context the caller can see, refuses a JavaScript context, and reports
// the completed record as text and structured content.
func TestPipInstallTool(t *testing.T) {
	ix := pypitest.New(t)
	ix.Add(t, pypitest.Dist{Project: "purefn", Version: "1.0", Files: map[string]string{"purefn.py": "def double(x):\n    return 2 * x\n"}})
	s := MustSession(t, mustMCPServerWith(t, mcpServerOpts{Pip: func(m *contexts.Manager) server.Pip {
		return &pypi.Service{Client: &pypi.Client{CacheDir: t.TempDir(), Python: "-"}, Index: ix.URL, Workspace: m.WorkspaceDir}
	}}), nil)
	res, _ := call(t, s, "pip_install", map[string]any{"contextId": "nope", "packages": []any{"purefn"}})
	if !res.IsError || !strings.Contains(textOf(res), "context_not_found") {
		t.Fatalf("unknown context: %v %q", res.IsError, textOf(res))
	}
	call(t, s, "create_context", map[string]any{"contextId": "js", "language": "javascript"})
	res, _ = call(t, s, "pip_install", map[string]any{"contextId": "js", "packages": []any{"purefn"}})
	if !res.IsError || !strings.Contains(textOf(res), "context_language_mismatch") {
		t.Fatalf("javascript context: %v %q", res.IsError, textOf(res))
	}
	if r, _ := call(t, s, "create_context", map[string]any{"contextId": "py", "language": ""}); r.IsError {
		t.Fatalf("create: %q", textOf(r))
	}
	res, out := call(t, s, "pip_install", map[string]any{"contextId": "py", "packages": []any{"purefn==1.0"}})
	if res.IsError || out["outcome"] != "succeeded" || len(out["installed"].([]any)) != 1 || !strings.Contains(textOf(res), "1 packages") {
		t.Fatalf("install: %v %q %v", res.IsError, textOf(res), out)
	}
	res, out = call(t, s, "pip_install", map[string]any{"contextId": "py", "packages": []any{"nosuch"}})
	if !res.IsError || out["outcome"] != "failed" || !strings.Contains(textOf(res), "nosuch: no such project") {
		t.Fatalf("failed install: %v %q %v", res.IsError, textOf(res), out)
	}
}
