package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tsSDKVersion is the official TypeScript MCP SDK the node test installs.
const tsSDKVersion = "1.32.2"

// TestOfficialTypeScriptClient drives /mcp with the official TypeScript
// client from npm, run by node. npm installs it into a temporary directory
// (never into the clone); without node, or when the registry can't be
// reached, the test skips saying so.
func TestOfficialTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the npm install")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: skipping the official TypeScript MCP client test", tool)
		}
	}
	url := MustMCPServer(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--no-save", "--loglevel=error",
		"--cache", filepath.Join(dir, ".npm"), "@modelcontextprotocol/sdk@"+tsSDKVersion)
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Skipf("npm could not install @modelcontextprotocol/sdk@%s (is the registry reachable?): %v\n%s", tsSDKVersion, err, out)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	node := exec.CommandContext(ctx, "node", "client.mjs", url+"/mcp")
	node.Dir = dir
	node.Stderr = &strings.Builder{}
	out, err := node.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, node.Stderr)
	}
	var got struct {
		Tools      []string
		Run        map[string]any
		RunText    string
		Context    map[string]any
		BadIsError bool
		BadText    string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	if len(got.Tools) != 12 || got.Tools[0] != "create_context" {
		t.Errorf("tools: %v", got.Tools)
	}
	if got.Run["value"] != float64(42) || got.Run["stdout"] != "from node\n" || !strings.Contains(got.RunText, "value: 42") {
		t.Errorf("run_code: %v %q", got.Run, got.RunText)
	}
	if got.Context["language"] != "typescript" || got.Context["state"] != "idle" {
		t.Errorf("create_context: %v", got.Context)
	}
	if !got.BadIsError || !strings.Contains(got.BadText, "invalid_argument") {
		t.Errorf("a bad language: %v %q", got.BadIsError, got.BadText)
	}
}
