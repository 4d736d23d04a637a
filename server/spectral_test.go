package server_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/server"
)

// spectralVersion is the Spectral CLI the lint test installs.
const spectralVersion = "6.16.3"

// spectralRules are Spectral's OpenAPI rules with the one waiver the
// document takes: info-contact, because the project publishes no contact
// address; docs/SECURITY.md says how to report a problem.
const spectralRules = `extends: ["spectral:oas"]
rules:
  info-contact: off
`

// The document passes Spectral's OpenAPI rules with no error and no
// warning (but the waiver above). npm installs the CLI into a temporary
// directory; without npm, or when the registry can't be reached, the test
// skips saying so.
func TestOpenAPISpectralLint(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the npm install of @stoplight/spectral-cli")
	}
	for _, tool := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: skipping the Spectral lint of the OpenAPI document", tool)
		}
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--no-save", "--loglevel=error",
		"--cache", filepath.Join(dir, ".npm"), "@stoplight/spectral-cli@"+spectralVersion)
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Skipf("npm could not install @stoplight/spectral-cli@%s (is the registry reachable?): %v\n%s", spectralVersion, err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "openapi.json"), server.OpenAPI(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".spectral.yaml"), []byte(spectralRules), 0o644); err != nil {
		t.Fatal(err)
	}
	lint := exec.CommandContext(ctx, "npx", "--no-install", "spectral", "lint", "--fail-severity=warn", "openapi.json")
	lint.Dir = dir
	lint.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := lint.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "No results with a severity of 'warn' or higher found") {
		t.Fatalf("spectral lint: %v\n%s", err, out)
	}
}
