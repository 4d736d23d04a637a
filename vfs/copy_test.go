package vfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wasmexec/wasmexec/vfs"
)

// CopyTo copies files, directories and symlinks (as links, never
// followed: a link pointing out of the workspace is copied, not its target).
func TestCopyTo(t *testing.T) {
	m, err := vfs.NewManager(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := m.New("ctx-a")
	dst, _ := m.New("ctx-b")
	outside := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(outside, []byte("host file"), 0o600)
	os.MkdirAll(filepath.Join(src.Root, "d", "e"), 0o755)
	os.WriteFile(filepath.Join(src.Root, "d", "e", "f.txt"), []byte("deep"), 0o640)
	os.Symlink(outside, filepath.Join(src.Root, "link"))
	if err := src.CopyTo(dst); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dst.Root, "d", "e", "f.txt")); err != nil || string(b) != "deep" {
		t.Fatalf("copied file: %q, %v", b, err)
	}
	if fi, _ := os.Stat(filepath.Join(dst.Root, "d", "e", "f.txt")); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if target, err := os.Readlink(filepath.Join(dst.Root, "link")); err != nil || target != outside {
		t.Fatalf("copied link: %q, %v", target, err)
	}
	// The two are independent.
	os.WriteFile(filepath.Join(dst.Root, "d", "e", "f.txt"), []byte("changed"), 0o640)
	if b, _ := os.ReadFile(filepath.Join(src.Root, "d", "e", "f.txt")); string(b) != "deep" {
		t.Fatalf("the source changed: %q", b)
	}
}

func TestAdoptAndRemoveStaleExcept(t *testing.T) {
	root := t.TempDir()
	m, _ := vfs.NewManager(root, 0)
	keep, _ := m.New("ctx-keep")
	gone, _ := m.New("ctx-gone")
	for _, bad := range []string{"", ".", "..", "../x", "a/b", "missing"} {
		if _, err := m.Adopt(bad); err == nil {
			t.Fatalf("Adopt(%q) succeeded", bad)
		}
	}
	n, err := m.RemoveStaleExcept("ctx", map[string]bool{filepath.Base(keep.Root): true})
	if err != nil || n != 1 {
		t.Fatalf("removed %d, %v", n, err)
	}
	if _, err := os.Stat(gone.Root); !os.IsNotExist(err) {
		t.Fatalf("stale workspace kept: %v", err)
	}
	w, err := m.Adopt(filepath.Base(keep.Root))
	if err != nil || w.Root != keep.Root {
		t.Fatalf("Adopt: %v, %v", w, err)
	}
}
