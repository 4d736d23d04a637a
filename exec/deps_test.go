package exec_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The vocabulary and the adapters never link wasmtime (or cgo through the
// engine): only package engine and cmd/ do.
func TestNoWasmtimeOutsideEngine(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	pkgs := []string{"./exec", "./server", "./store", "./vfs", "./contexts", "./processes", "./languages/..."}
	cmd := exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{if .CgoFiles}}cgo{{end}}"}, pkgs...)...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "wasmtime") || strings.HasPrefix(line, "github.com/wasmexec/wasmexec/engine") {
			t.Errorf("%s links %s", strings.Join(pkgs, " "), line)
		}
	}
}
