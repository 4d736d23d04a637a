package copytree

import (
	"os"
	"path/filepath"
	"testing"
)

// Directories and regular files are copied (merged into dst); the cache's
// marker, links and what they point to are not.
func TestCopy(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret")
	for name, body := range map[string]string{"a.txt": "aa", "sub/b.txt": "bbb", Marker: "", secret: "no"} {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(src, name)
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink(secret, filepath.Join(src, "link"))
	os.Symlink(filepath.Dir(secret), filepath.Join(src, "dirlink"))
	os.WriteFile(filepath.Join(dst, "kept"), []byte("k"), 0o644)
	n, err := Copy(src, dst)
	if err != nil || n != 5 {
		t.Fatalf("Copy = %d, %v", n, err)
	}
	for name, want := range map[string]string{"a.txt": "aa", "sub/b.txt": "bbb", "kept": "k"} {
		if b, err := os.ReadFile(filepath.Join(dst, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v", name, b, err)
		}
	}
	for _, name := range []string{Marker, "link", "dirlink"} {
		if _, err := os.Lstat(filepath.Join(dst, name)); !os.IsNotExist(err) {
			t.Errorf("%s was copied", name)
		}
	}
	if fi, _ := os.Stat(filepath.Join(dst, "a.txt")); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
}
