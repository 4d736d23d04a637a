package copytree

import (
	"errors"
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

// CopyCharged charges each directory and file before it creates it and
// stops at the first one refused, having written none of it.
func TestCopyCharged(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "a/b"), 0o755)
	os.WriteFile(filepath.Join(src, "a/one"), make([]byte, 100), 0o644)
	os.WriteFile(filepath.Join(src, "a/b/two"), make([]byte, 200), 0o644)
	os.WriteFile(filepath.Join(src, Marker), nil, 0o644)
	for _, tc := range []struct {
		name  string
		room  int64 // bytes; a directory costs 10
		n     int64
		fails bool
	}{
		{"all fits", 10 + 10 + 10 + 200 + 100, 300, false},
		{"the last file does not fit", 10 + 10 + 10 + 200 + 99, 200, true},
		{"the first file does not fit", 10 + 10 + 10 + 199, 0, true},
		{"the root does not fit", 9, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "pkg")
			left := tc.room
			refused := errors.New("no room")
			n, err := CopyCharged(src, dst, func(dir bool, size int64) error {
				if dir {
					size = 10
				}
				if size > left {
					return refused
				}
				left -= size
				return nil
			})
			if n != tc.n || (err != nil) != tc.fails || err != nil && !errors.Is(err, refused) {
				t.Fatalf("CopyCharged = %d, %v; want %d, failure %v", n, err, tc.n, tc.fails)
			}
			var written int64
			filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					fi, _ := d.Info()
					written += fi.Size()
				}
				return nil
			})
			if written != tc.n {
				t.Fatalf("%d bytes on disk, %d reported", written, tc.n)
			}
		})
	}
}
