package python_test

import (
	"archive/zip"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/python"
)

// debianOnly are files of Debian's python3.11 packages that are not
// CPython's stdlib: Debian's own additions and the Linux build's config.
func debianOnly(rel string) bool {
	return rel == "sitecustomize.py" || rel == "_distutils_system_mod.py" ||
		strings.HasPrefix(rel, "_sysconfigdata_") || strings.HasPrefix(rel, "test/")
}

// Every pure-Python module of Debian's python3.11 (libpython3.11-stdlib
// and -minimal, as installed on the build machine) is in the guest's
// stdlib zip, but for the test package, which stays out.
func TestStdlibMatchesDebian(t *testing.T) {
	out, err := exec.Command("dpkg-query", "-L", "libpython3.11-stdlib", "libpython3.11-minimal").Output()
	if err != nil {
		t.Skipf("Debian's python3.11 stdlib packages are not installed here (dpkg-query: %v)", err)
	}
	z, err := zip.OpenReader(filepath.Join(testenv.ImageDir(t, python.ImageName), "lib", "python311.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	have := map[string]bool{}
	for _, f := range z.File {
		have[f.Name] = true
	}
	const prefix = "/usr/lib/python3.11/"
	var missing []string
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		rel, ok := strings.CutPrefix(line, prefix)
		if !ok || !strings.HasSuffix(rel, ".py") || strings.HasPrefix(rel, "dist-packages/") || debianOnly(rel) {
			continue
		}
		n++
		if !have[rel+"c"] {
			missing = append(missing, rel)
		}
	}
	if n < 400 {
		t.Fatalf("only %d modules in Debian's list: is dpkg-query's output what this test expects?", n)
	}
	if len(missing) > 0 {
		t.Errorf("%d of Debian's %d pure-Python stdlib modules are not in the guest: %s", len(missing), n, strings.Join(missing, " "))
	}
	for name := range have {
		if strings.HasPrefix(name, "test/") {
			t.Errorf("the test package is in the zip: %s", name)
			break
		}
	}
}
