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
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := npmtool.Install(t, ctx, "@stoplight/spectral-cli@"+spectralVersion)
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
