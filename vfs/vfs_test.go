package vfs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		code           string
	}{
		{"relative", "a/b.txt", "a/b.txt", ""},
		{"dot segments", "./a/./b//c.txt", "a/b/c.txt", ""},
		{"trailing slash", "dir/", "dir", ""},
		{"under /workspace", "/workspace/a.txt", "a.txt", ""},
		{"the workspace", "/workspace", "", ""},
		{"empty", "", "", ""},
		{"dot", ".", "", ""},
		{"dotdot", "..", "", wasmexec.EInvalid},
		{"dotdot prefix", "../etc/passwd", "", wasmexec.EInvalid},
		{"dotdot inside", "a/../../b", "", wasmexec.EInvalid},
		{"dotdot that stays inside", "a/../b", "", wasmexec.EInvalid}, // rejected anyway: never ambiguous
		{"workspace dotdot", "/workspace/../etc", "", wasmexec.EInvalid},
		{"absolute outside", "/etc/passwd", "", wasmexec.EInvalid},
		{"prefix lookalike", "/workspacex/a", "", wasmexec.EInvalid},
		{"NUL", "a\x00b", "", wasmexec.EInvalid},
		{"long name", strings.Repeat("n", vfs.MaxNameBytes+1), "", wasmexec.EInvalid},
		{"long path", strings.Repeat("d/", vfs.MaxPathBytes/2+1), "", wasmexec.EInvalid},
		{"dotdot-like names are names", "..a/b..", "..a/b..", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := vfs.Clean(tc.in)
			if tc.code != "" {
				if wasmexec.ErrorCode(err) != tc.code || err == nil {
					t.Fatalf("Clean(%q) = %q, %v; want %s", tc.in, got, err, tc.code)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Clean(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"a", "../a", "/workspace/a", "a/./b", "/etc", "a\x00", "a//b/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		c, err := vfs.Clean(p)
		if err != nil {
			return
		}
		if strings.HasPrefix(c, "/") || strings.Contains(c, "\x00") || c == ".." || strings.HasPrefix(c, "../") || strings.Contains(c, "/../") || strings.HasSuffix(c, "/..") {
			t.Fatalf("Clean(%q) = %q escapes", p, c)
		}
		if filepath.Clean("/"+c) != "/"+c && c != "" {
			t.Fatalf("Clean(%q) = %q is not clean", p, c)
		}
	})
}

func mustWorkspace(tb testing.TB, quota int64) *vfs.Workspace {
	tb.Helper()
	m, err := vfs.NewManager(tb.TempDir(), quota)
	if err != nil {
		tb.Fatal(err)
	}
	w, err := m.New("t")
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

func wantCode(tb testing.TB, err error, code string) {
	tb.Helper()
	if err == nil || wasmexec.ErrorCode(err) != code {
		tb.Fatalf("err = %v, want %s", err, code)
	}
}

func TestFileOperations(t *testing.T) {
	w := mustWorkspace(t, 0)
	if err := w.WriteFile("d/e/f.txt", []byte("deep")); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile("/workspace/top.txt", []byte("top")); err != nil {
		t.Fatal(err)
	}
	if b, err := w.ReadFile("d/e/f.txt"); err != nil || string(b) != "deep" {
		t.Fatalf("read: %q %v", b, err)
	}
	es, err := w.List("")
	if err != nil || len(es) != 2 || es[0].Path != "d" || es[0].Type != "dir" || es[1].Path != "top.txt" || es[1].Size != 3 {
		t.Fatalf("list: %+v %v", es, err)
	}
	if e, err := w.Stat("d/e/f.txt"); err != nil || e.Type != "file" || e.Size != 4 {
		t.Fatalf("stat: %+v %v", e, err)
	}
	// No temporary upload files are left behind.
	es, _ = w.List("d/e")
	if len(es) != 1 {
		t.Fatalf("d/e: %+v", es)
	}
	wantCode(t, w.WriteFile("d", []byte("x")), wasmexec.EConflict)
	wantCode(t, w.WriteFile("top.txt/x", []byte("x")), wasmexec.EConflict)
	_, err = w.ReadFile("d")
	wantCode(t, err, wasmexec.EInvalid)
	_, err = w.ReadFile("missing")
	wantCode(t, err, wasmexec.ENotFound)
	_, err = w.ReadFile("top.txt/x")
	wantCode(t, err, wasmexec.EConflict)
	_, err = w.List("top.txt")
	wantCode(t, err, wasmexec.EInvalid)
	if err := w.Delete("d"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, w.Delete("d"), wasmexec.ENotFound)
	wantCode(t, w.Delete(""), wasmexec.EInvalid)
	wantCode(t, w.Delete("/workspace"), wasmexec.EInvalid)
	if u, _ := w.Usage(); u != 3 {
		t.Fatalf("usage %d", u)
	}
}

// Symlinks planted in a workspace (by a guest, or here by the host) are
// never followed: not on the way, not at the end; a final one may be
// deleted (the link, not its target).
func TestSymlinksRefused(t *testing.T) {
	w := mustWorkspace(t, 100)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644)
	os.Symlink(outside, filepath.Join(w.Root, "out"))
	os.Symlink("inside.txt", filepath.Join(w.Root, "rel-link")) // even one pointing inside
	os.WriteFile(filepath.Join(w.Root, "inside.txt"), []byte("i"), 0o644)
	for _, p := range []string{"out", "out/secret", "out/new", "rel-link"} {
		_, err := w.ReadFile(p)
		wantCode(t, err, wasmexec.EInvalid)
		wantCode(t, w.WriteFile(p, []byte("x")), wasmexec.EInvalid)
	}
	_, err := w.List("out")
	wantCode(t, err, wasmexec.EInvalid)
	wantCode(t, w.Delete("out/secret"), wasmexec.EInvalid)
	// Usage doesn't follow the link into the 1-byte secret... or anything
	// else: a link counts as one entry.
	if u, _ := w.Usage(); u != 1+2*vfs.DefaultEntryBytes {
		t.Fatalf("usage %d", u)
	}
	if err := w.Delete("out"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(outside, "secret")); err != nil {
		t.Fatal("the target went away")
	}
	if des, _ := os.ReadDir(outside); len(des) != 1 {
		t.Fatalf("outside: %v", des)
	}
}

func TestQuotaOnWrite(t *testing.T) {
	w := mustWorkspace(t, 100)
	if err := w.WriteFile("a", make([]byte, 60)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, w.WriteFile("b", make([]byte, 41)), wasmexec.ETooLarge)
	if err := w.WriteFile("b", make([]byte, 40)); err != nil {
		t.Fatal(err)
	}
	// Replacing a file counts only the difference.
	if err := w.WriteFile("a", make([]byte, 60)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, w.WriteFile("a", make([]byte, 61)), wasmexec.ETooLarge)
	if b, _ := w.ReadFile("a"); len(b) != 60 {
		t.Fatalf("a refused write changed the file: %d bytes", len(b))
	}
}

// Rollback removes what was created since the snapshot and cuts grown
// files back; kept paths stay.
func TestSnapshotRollback(t *testing.T) {
	w := mustWorkspace(t, 0)
	w.WriteFile("same.txt", []byte("same"))
	w.WriteFile("grow.txt", []byte("12345"))
	w.WriteFile("shrink.txt", []byte("123456789"))
	w.WriteFile("replace.txt", []byte("old"))
	w.WriteFile("dir/old.txt", []byte("o"))
	s, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if s.Usage() != 4+5+9+3+1+vfs.DefaultEntryBytes || s.Files() != 6 {
		t.Fatalf("usage %d", s.Usage())
	}
	f, _ := os.OpenFile(filepath.Join(w.Root, "grow.txt"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("678")
	f.Close()
	os.WriteFile(filepath.Join(w.Root, "shrink.txt"), []byte("12"), 0o644)
	os.Remove(filepath.Join(w.Root, "replace.txt"))
	os.WriteFile(filepath.Join(w.Root, "replace.txt"), []byte("new and longer"), 0o644)
	os.MkdirAll(filepath.Join(w.Root, "new/sub"), 0o755)
	os.WriteFile(filepath.Join(w.Root, "new/sub/n.txt"), []byte("n"), 0o644)
	os.WriteFile(filepath.Join(w.Root, "dir/added.txt"), []byte("a"), 0o644)
	os.Symlink("/etc", filepath.Join(w.Root, "link"))
	os.WriteFile(filepath.Join(w.Root, "kept.txt"), []byte("k"), 0o644)

	rep, err := w.Rollback(s, func(p string) bool { return p == "kept.txt" })
	if err != nil {
		t.Fatal(err)
	}
	// replace.txt was deleted and re-created: a new inode makes it new
	// (removed), a reused one makes it a grown file (cut back).
	removed, truncated := strings.Join(rep.Removed, ","), strings.Join(rep.Truncated, ",")
	switch {
	case removed == "dir/added.txt,link,new/,new/sub/,new/sub/n.txt,replace.txt" && truncated == "grow.txt":
		if _, err := os.Stat(filepath.Join(w.Root, "replace.txt")); !os.IsNotExist(err) {
			t.Errorf("replace.txt still there")
		}
		w.WriteFile("replace.txt", []byte("new"))
	case removed == "dir/added.txt,link,new/,new/sub/,new/sub/n.txt" && truncated == "grow.txt,replace.txt":
		if b, _ := w.ReadFile("replace.txt"); string(b) != "new" {
			t.Errorf("replace.txt = %q", b)
		}
	default:
		t.Fatalf("removed: %s; truncated: %s", removed, truncated)
	}
	for p, want := range map[string]string{"same.txt": "same", "grow.txt": "12345", "shrink.txt": "12", "dir/old.txt": "o", "kept.txt": "k"} {
		if b, err := w.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s = %q %v, want %q", p, b, err, want)
		}
	}
	for _, p := range []string{"new", "dir/added.txt", "link"} {
		if _, err := os.Lstat(filepath.Join(w.Root, p)); !os.IsNotExist(err) {
			t.Errorf("%s still there", p)
		}
	}
	if u, _ := w.Usage(); u != 4+5+2+3+1+1+vfs.DefaultEntryBytes || rep.UsedBytes > u {
		t.Fatalf("used after %d (report %d)", u, rep.UsedBytes)
	}
}

func TestRemoveStale(t *testing.T) {
	root := t.TempDir()
	m, _ := vfs.NewManager(root, 0)
	a, _ := m.New("ctx-a")
	m.New("run")
	os.WriteFile(filepath.Join(a.Root, "f"), []byte("x"), 0o644)
	n, err := m.RemoveStale("ctx")
	if err != nil || n != 1 {
		t.Fatalf("removed %d %v", n, err)
	}
	des, _ := os.ReadDir(root)
	if len(des) != 1 || !strings.HasPrefix(des[0].Name(), "run-") {
		t.Fatalf("left: %v", des)
	}
}
