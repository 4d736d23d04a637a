package wasmexec_test

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
	root := filepath.Dir(file)
	pkgs := []string{".", "./pipeline", "./server", "./mcp", "./store", "./cluster", "./vfs", "./contexts", "./templates", "./processes", "./npm", "./pypi", "./egress", "./events", "./auth", "./metrics", "./client", "./images", "./languages/..."}
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
		"wasmexec":            {}, // the vocabulary, at the module's root
		"events":              {},
		"internal/copytree":   {},
		"internal/safepath":   {},
		"internal/workerpool": {},
		"pipeline":            {"wasmexec", "egress", "events", "internal/copytree"},
		"engine":              {"wasmexec", "egress", "pipeline"},
		"egress":              {"wasmexec"},
		"vfs":                 {"wasmexec", "internal/copytree"},
		"contexts":            {"wasmexec", "vfs"},
		"templates":           {"wasmexec", "vfs", "internal/copytree"},
		"processes":           {"wasmexec", "vfs"},
		"npm":                 {"wasmexec", "internal/copytree", "internal/safepath"},
		"pypi":                {"wasmexec", "internal/copytree", "internal/safepath"},
		"store":               {"wasmexec", "events"},
		"cluster":             {"wasmexec"},
		"auth":                {"wasmexec"},
		"metrics":             {"wasmexec"},
		// Guest images served as they are built: it reads the images
		// directory and is handed a load function, so it never needs the
		// engine (nor cgo) itself.
		"images":               {"wasmexec"},
		"server":               {"wasmexec", "events"},
		"mcp":                  {"wasmexec", "server"},
		"client":               {"wasmexec", "events"},
		"languages/js":         {"wasmexec"},
		"languages/python":     {"wasmexec"},
		"languages/ts":         {"wasmexec", "languages/js", "internal/workerpool"},
		"languages/ts/tscheck": {"wasmexec", "internal/workerpool"},
		// The type-check service over the checkers it builds.
		"languages/ts/typecheck": {"wasmexec", "languages/ts/tscheck"},
		// Test helpers that live beside what they test.
		"internal/workerpool/workertest":           {},
		"languages/ts/internal/testworker":         {"languages/ts"},
		"languages/ts/tscheck/internal/testworker": {"languages/ts/tscheck"},
		"processes/procbench":                      {},
		"pypi/pypitest":                            {},
		"pipeline/pipelinetest":                    {"wasmexec", "pipeline"},
		"client/clienttest":                        {},
		// The SDKs' harness (tests only) and the agent loops: users of the
		// API through the Go client, like any program outside.
		"clients":               {},
		"examples/go/agentloop": {"client", "wasmexec"},
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(file)
	const mod = "github.com/wasmexec/wasmexec/"
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := ours(fields[0])
		if strings.HasPrefix(pkg, "cmd/") || strings.HasPrefix(pkg, "internal/testkit/") || strings.HasPrefix(pkg, "guest-images") {
			continue // cmd wires everything; test kits and guest sources are not the product's layers
		}
		want, ok := allowed[pkg]
		if !ok {
			t.Errorf("package %s has no layering rule: add it to TestLayering", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if imp != strings.TrimSuffix(mod, "/") && !strings.HasPrefix(imp, mod) {
				continue
			}
			if dep := ours(imp); !slices.Contains(want, dep) {
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
	root := filepath.Dir(file)
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

// ours names one of the module's packages by its path in the module, and
// the root package by its name, wasmexec.
func ours(importPath string) string {
	const mod = "github.com/wasmexec/wasmexec"
	if importPath == mod {
		return "wasmexec"
	}
	return strings.TrimPrefix(importPath, mod+"/")
}
