package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// recordingNPM answers installs as the npm service would (it is tested
// against a local registry in npm/) and records what it was asked.
type recordingNPM struct{ got []string }

func (n *recordingNPM) Install(_ context.Context, id string, req *wasmexec.NPMInstallRequest) (*wasmexec.NPMInstallResult, error) {
	n.got = append(n.got, id+":"+strings.Join(req.Packages, ","))
	out := "added left-pad@1.3.0\n"
	return &wasmexec.NPMInstallResult{
		Result:    &wasmexec.Result{ExecutionID: "exe_npm", Kind: wasmexec.KindNPMInstall, Outcome: wasmexec.Succeeded, Stdout: &out},
		Installed: []wasmexec.NPMPackage{{Name: "left-pad", Version: "1.3.0", Integrity: "sha512-x", Path: "node_modules/left-pad"}},
	}, nil
}

// The npm_install tool installs into a context the caller can see, and
// reports the completed record as text and structured content.
func TestNPMInstallTool(t *testing.T) {
	n := &recordingNPM{}
	s := MustSession(t, mustMCPServerWith(t, mcpServerOpts{NPM: n}), nil)

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
