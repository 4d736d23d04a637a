package safepath

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJoinUnder(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, "node_modules/real"), 0o755)
	os.Symlink(outside, filepath.Join(root, "node_modules/link"))
	os.Symlink(filepath.Join(outside, "f"), filepath.Join(root, "filelink"))
	os.Symlink("../..", filepath.Join(root, "node_modules/real/up"))
	for _, tc := range []struct {
		name, rel string
		want      string // "" when refused
	}{
		{"plain", "a/b.js", "a/b.js"},
		{"the root itself", ".", ""},
		{"dot components cleaned", "./a//b/./c", "a/b/c"},
		{"below a real directory", "node_modules/real/index.js", "node_modules/real/index.js"},
		{"trailing slash", "a/", "a"},
		{"empty", "", "!"},
		{"absolute", "/etc/passwd", "!"},
		{"parent", "..", "!"},
		{"climbs out", "../x", "!"},
		{"climbs far out", "../../../../tmp/x/npm-escape", "!"},
		{"climbs out and back", "a/../b", "!"},
		{"climbs out inside", "package/../../x", "!"},
		{"scoped climb", "node_modules/@scope/../x", "!"},
		{"NUL", "a\x00b", "!"},
		{"backslash", `..\..\x`, "!"},
		{"through a symlinked directory", "node_modules/link/x", "!"},
		{"onto a symlinked file", "filelink", "!"},
		{"onto a symlink that climbs", "node_modules/real/up", "!"},
		{"through a symlink that climbs", "node_modules/real/up/etc", "!"},
		{"percent-encoded dots are a name", "%2e%2e/x", "%2e%2e/x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := JoinUnder(root, tc.rel)
			if tc.want == "!" {
				if err == nil || !errors.Is(err, ErrUnsafe) {
					t.Fatalf("JoinUnder(%q) = %q, %v; want ErrUnsafe", tc.rel, got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(root, tc.want); got != want {
				t.Fatalf("JoinUnder(%q) = %q, want %q", tc.rel, got, want)
			}
		})
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		name, dir, p string
		want         bool
	}{
		{"same", "/a/b", "/a/b", true},
		{"below", "/a/b", "/a/b/c", true},
		{"sibling with the prefix", "/a/b", "/a/bc", false},
		{"parent", "/a/b", "/a", false},
		{"root", "/", "/x", true},
		{"uncleaned", "/a/b/", "/a/b/../c", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Within(tc.dir, tc.p); got != tc.want {
				t.Fatalf("Within(%q, %q) = %v", tc.dir, tc.p, got)
			}
		})
	}
}

// Whatever rel is, JoinUnder either refuses it or returns a path within
// root, and never accepts a ".." component.
func FuzzJoinUnder(f *testing.F) {
	for _, s := range []string{"a", ".", "a/b", "../x", "/abs", "a/../../b", "a\x00", `a\b`, "./../x", "a//b/", "...", "..a/b..", "%2e%2e"} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, rel string) {
		got, err := JoinUnder(root, rel)
		if err != nil {
			// Refused: unsafe, or a name the file system refuses (too long).
			return
		}
		if !Within(root, got) {
			t.Fatalf("JoinUnder(%q) = %q, outside %q", rel, got, root)
		}
		r, err := filepath.Rel(root, got)
		if err != nil || r == ".." || strings.HasPrefix(r, "../") {
			t.Fatalf("JoinUnder(%q) = %q: Rel %q, %v", rel, got, r, err)
		}
		if strings.Contains(rel, "..") && strings.Contains("/"+rel+"/", "/../") {
			t.Fatalf("JoinUnder(%q) accepted a .. component", rel)
		}
	})
}
