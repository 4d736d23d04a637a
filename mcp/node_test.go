package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/npmtool"
)

// tsSDKVersion is the official TypeScript MCP SDK the node test installs.
const tsSDKVersion = "1.32.2"

// TestOfficialTypeScriptClient drives /mcp with the official TypeScript
// client from npm, run by node. npm installs it into a temporary directory
// (never into the clone); without node, or when the registry can't be
// reached, the test skips saying so.
func TestOfficialTypeScriptClient(t *testing.T) {
	const key = "node-key-0123456789ab"
	url := mustMCPServerWith(t, mcpServerOpts{NPM: slowNPM{}, Key: key})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := npmtool.Install(t, ctx, "@modelcontextprotocol/sdk@"+tsSDKVersion)
	script, err := os.ReadFile(filepath.Join("testdata", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	node := exec.CommandContext(ctx, "node", "client.mjs", url+"/mcp", key)
	node.Dir = dir
	node.Stderr = &strings.Builder{}
	out, err := node.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, node.Stderr)
	}
	checkClientRun(t, out)
}
