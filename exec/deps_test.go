package exec_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The vocabulary and the adapters never link wasmtime (or cgo through the
// engine): only package engine and cmd/ do.
func TestNoWasmtimeOutsideEngine(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	pkgs := []string{"./exec", "./pipeline", "./server", "./mcp", "./store", "./cluster", "./vfs", "./contexts", "./templates", "./processes", "./npm", "./pypi", "./egress", "./events", "./auth", "./metrics", "./client", "./languages/..."}
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

// The house's layering: the vocabulary imports none of ours; the pipeline
// only what a run needs besides the engine; each adapter the vocabulary and
// the libraries under internal/, never another adapter; and nothing but
// tests and the benchmark tool imports a test kit (internal/testkit). An
// import that isn't listed here fails: add it only with a reason.
func TestLayering(t *testing.T) {
	allowed := map[string][]string{
		"exec":                 {},
		"events":               {},
		"internal/copytree":    {},
		"internal/safepath":    {},
		"internal/workerpool":  {},
		"pipeline":             {"exec", "egress", "events", "internal/copytree"},
		"engine":               {"exec", "egress", "pipeline"},
		"egress":               {"exec"},
		"vfs":                  {"exec", "internal/copytree"},
		"contexts":             {"exec", "vfs"},
		"templates":            {"exec", "vfs", "internal/copytree"},
		"processes":            {"exec", "vfs"},
		"npm":                  {"exec", "internal/copytree", "internal/safepath"},
		"pypi":                 {"exec", "internal/copytree", "internal/safepath"},
		"store":                {"exec", "events"},
		"cluster":              {"exec"},
		"auth":                 {"exec"},
		"metrics":              {"exec"},
		"server":               {"exec", "events"},
		"mcp":                  {"exec", "server"},
		"client":               {"exec", "events"},
		"languages/js":         {"exec"},
		"languages/python":     {"exec"},
		"languages/ts":         {"exec", "languages/js", "internal/workerpool"},
		"languages/ts/tscheck": {"exec", "internal/workerpool"},
		// Test helpers that live beside what they test.
		"internal/workerpool/workertest":           {},
		"languages/ts/internal/testworker":         {"languages/ts"},
		"languages/ts/tscheck/internal/testworker": {"languages/ts/tscheck"},
		"processes/procbench":                      {},
		"pypi/pypitest":                            {},
		"pipeline/pipelinetest":                    {"exec", "pipeline"},
		"client/clienttest":                        {},
		// The SDKs' harness (tests only) and the agent loops: users of the
		// API through the Go client, like any program outside.
		"clients":               {},
		"examples/go/agentloop": {"client", "exec"},
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	const mod = "github.com/wasmexec/wasmexec/"
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		if strings.HasPrefix(pkg, "cmd/") || strings.HasPrefix(pkg, "internal/testkit/") || strings.HasPrefix(pkg, "guest-images") {
			continue // cmd wires everything; test kits and guest sources are not the product's layers
		}
		want, ok := allowed[pkg]
		if !ok {
			t.Errorf("package %s has no layering rule: add it to TestLayering", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			if dep := strings.TrimPrefix(imp, mod); !slices.Contains(want, dep) {
				t.Errorf("%s imports %s, which the layering does not allow (allowed: %v)", pkg, dep, want)
			}
		}
	}
}

// A package of more than sizeLimit lines of non-test Go says why in its
// package comment ("Size: ..."): the house stays readable package by
// package, and a package that grows past it either splits or explains.
func TestLargePackagesSayWhy(t *testing.T) {
	const sizeLimit = 1100
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	cmd := exec.Command("go", "list", "-f", "{{.Dir}} {{join .GoFiles \" \"}} {{join .CgoFiles \" \"}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		dir, lines, why := fields[0], 0, false
		for _, name := range fields[1:] {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			lines += strings.Count(string(b), "\n")
			if head, _, ok := strings.Cut(string(b), "\npackage "); ok && strings.Contains(head, "// Size: ") {
				why = true
			}
		}
		if rel, _ := filepath.Rel(root, dir); lines > sizeLimit && !why {
			t.Errorf("%s has %d lines of non-test Go and no \"// Size: \" paragraph in its package comment saying why", rel, lines)
		}
	}
}
