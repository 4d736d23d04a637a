package server_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/npmtool"
	"github.com/wasmexec/wasmexec/server"
)

// redoclyVersion is the Redocly CLI the lint test installs.
const redoclyVersion = "2.77.0"

// The document passes Redocly's recommended rules with no error and no
// warning: what client generators and doc sites read it with. npm
// installs the CLI into a temporary directory and npx runs it; without
// npm, or when the registry can't be reached, the test skips saying so.
func TestOpenAPIRedoclyLint(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := npmtool.Install(t, ctx, "@redocly/cli@"+redoclyVersion)
	if err := os.WriteFile(filepath.Join(dir, "openapi.json"), server.OpenAPI(), 0o644); err != nil {
		t.Fatal(err)
	}
	lint := exec.CommandContext(ctx, "npx", "--no-install", "redocly", "lint", "--format=stylish", "--max-problems=200", "openapi.json")
	lint.Dir = dir
	lint.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")
	out, err := lint.CombinedOutput()
	if err != nil {
		t.Fatalf("redocly lint: %v\n%s", err, out)
	}
	// A clean run ends "Your API description is valid"; problems add
	// "You have N warnings" (or errors, which also fail the command).
	if !strings.Contains(string(out), "Your API description is valid") || strings.Contains(string(out), "You have") {
		t.Fatalf("redocly lint found problems:\n%s", out)
	}
}
