// Package npmtool installs a tool or library from the npm registry into a
// test's temporary directory (never into the clone), for tests that run a
// real third-party client or linter. Without node and npm, in -short mode,
// or when the registry can't be reached, the test skips saying so.
package npmtool

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// Install installs pkg ("name@version") into a new temporary directory
// and returns it; the packages' binaries run there with npx.
func Install(tb testing.TB, ctx context.Context, pkg string) string {
	tb.Helper()
	if testing.Short() {
		tb.Skipf("-short: skipping the npm install of %s", pkg)
	}
	for _, tool := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			tb.Skipf("%s is not installed: skipping a test that needs %s", tool, pkg)
		}
	}
	dir := tb.TempDir()
	install := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--no-save", "--loglevel=error",
		"--cache", filepath.Join(dir, ".npm"), pkg)
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		tb.Skipf("npm could not install %s (is the registry reachable?): %v\n%s", pkg, err, out)
	}
	return dir
}
