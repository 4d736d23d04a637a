package engine

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// treeState is what a test compares before and after a guest's attempts to
// change an image directory: every entry with its mode, size, mtime and
// content.
func treeState(tb testing.TB, dir string) string {
	tb.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := p[len(dir):] + " " + fi.Mode().String() + " " + fi.ModTime().Format(time.RFC3339Nano)
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += " " + string(b)
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func fillStdlib(dir string) {
	os.MkdirAll(filepath.Join(dir, "lib", "pkg"), 0o755)
	os.MkdirAll(filepath.Join(dir, "lib", "empty"), 0o755)
	os.WriteFile(filepath.Join(dir, "lib", "stdlib.py"), []byte("original"), 0o644)
	os.WriteFile(filepath.Join(dir, "lib", "pkg", "__init__.py"), []byte("pkg"), 0o644)
}

// A guest that calls WASI directly on the image preopen (as one would after
// a memory-safety bug in its interpreter, bypassing the in-guest guard)
// can't change a byte of the image: every path-opening and mutating call
// fails, and the files are unchanged.
func TestImagePreopenIsReadOnly(t *testing.T) {
	e, _ := MustTestEngine(t)
	img := MustWatImage(t, e, "hostile", map[string]string{"lib": "/usr/local/lib"}, fillStdlib)
	how := img.viewKind("lib")
	if how == viewCopy && os.Geteuid() == 0 {
		t.Skipf("the image is a %q: this root server may not mount, and root ignores file modes", how)
	}
	before := treeState(t, filepath.Join(img.Dir, "lib"))
	ws := t.TempDir()
	h := MustStartHostile(t, img, GuestOptions{Workspace: ws}) // fd 3: /usr/local/lib, fd 4: /workspace

	const (
		rRead     = 1 << 1
		rWrite    = 1 << 6
		rSetSize  = 1 << 22
		rSetTimes = 1 << 23
		oCreat    = 1
		oTrunc    = 8
		fAppend   = 1
	)
	path := func(s string) ([]uint32, []byte) { return []uint32{dataAddr, uint32(len(s))}, []byte(s) }
	for _, tc := range []struct {
		name string
		op   uint32
		args func() ([]uint32, []byte)
	}{
		{"path_open for writing", opPathOpen, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 9, 0, rRead | rWrite, 0, 0}, []byte("stdlib.py")
		}},
		{"path_open O_TRUNC", opPathOpen, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 9, oTrunc, rRead | rWrite, 0, 0}, []byte("stdlib.py")
		}},
		{"path_open O_APPEND", opPathOpen, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 9, 0, rWrite, 0, fAppend}, []byte("stdlib.py")
		}},
		{"path_open O_CREAT", opPathOpen, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 6, oCreat, rRead | rWrite, 0, 0}, []byte("new.py")
		}},
		{"path_open O_CREAT read-only", opPathOpen, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 6, oCreat, rRead, 0, 0}, []byte("new.py")
		}},
		{"path_open O_TRUNC below", opPathOpen, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 15, oTrunc, rRead | rWrite, 0, 0}, []byte("pkg/__init__.py")
		}},
		{"path_unlink_file", opUnlink, func() ([]uint32, []byte) { a, d := path("stdlib.py"); return append([]uint32{3}, a...), d }},
		{"path_create_directory", opMkdir, func() ([]uint32, []byte) { a, d := path("newdir"); return append([]uint32{3}, a...), d }},
		{"path_remove_directory", opRmdir, func() ([]uint32, []byte) { a, d := path("empty"); return append([]uint32{3}, a...), d }},
		{"path_rename", opRename, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 9, dataAddr + 9, 8}, []byte("stdlib.pymoved.py")
		}},
		{"path_rename a directory", opRename, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 3, dataAddr + 3, 4}, []byte("pkgpkg2")
		}},
		{"path_link", opLink, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 9, dataAddr + 9, 7}, []byte("stdlib.pyhard.py")
		}},
		{"path_symlink", opSymlink, func() ([]uint32, []byte) {
			return []uint32{3, dataAddr, 9, dataAddr + 9, 7}, []byte("stdlib.pylink.py")
		}},
		{"path_filestat_set_times", opUtimes, func() ([]uint32, []byte) { a, d := path("stdlib.py"); return append([]uint32{3}, a...), d }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, data := tc.args()
			if errno, _ := h.resultData(tc.op, args, data); errno == 0 {
				t.Fatalf("succeeded on the image preopen")
			}
		})
	}
	t.Run("fd_write and ftruncate on a file opened for reading", func(t *testing.T) {
		errno, fd := h.resultData(opPathOpen, []uint32{3, dataAddr, 9, 0, rRead | rSetSize | rSetTimes, 0, 0}, []byte("stdlib.py"))
		if errno != 0 {
			t.Fatalf("opening the file for reading failed: errno %d", errno)
		}
		iov := make([]byte, 8, 12)
		binary.LittleEndian.PutUint32(iov, dataAddr+8)
		binary.LittleEndian.PutUint32(iov[4:], 4)
		if errno, _ := h.resultData(opFdWrite, []uint32{fd, dataAddr}, append(iov, "EVIL"...)); errno == 0 {
			t.Fatal("fd_write succeeded")
		}
		if errno, _ := h.result(opFtruncate, fd); errno == 0 {
			t.Fatal("fd_filestat_set_size succeeded")
		}
		h.result(opFdClose, fd)
	})
	if after := treeState(t, filepath.Join(img.Dir, "lib")); after != before {
		t.Fatalf("the image changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	// The workspace stays writable.
	if errno, _ := h.resultData(opPathOpen, []uint32{4, dataAddr, 6, oCreat, rRead | rWrite, 0, 0}, []byte("ok.txt")); errno != 0 {
		t.Fatalf("creating a workspace file: errno %d", errno)
	}
}

// A closed engine leaves no mount and no directory behind, and a new engine
// removes the views of a server that died without closing (SIGKILL) without
// touching the image they showed.
func TestReadOnlyViewsAreCleanedUp(t *testing.T) {
	e, err := NewEngine(EngineConfig{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	img := MustWatImage(t, e, "hostile", map[string]string{"lib": "/usr/local/lib"}, fillStdlib)
	view := img.preopenDir("lib")
	if view == filepath.Join(img.Dir, "lib") {
		t.Fatal("the image has no read-only view")
	}
	mounted := img.viewKind("lib") == viewMount
	if mounted != isMounted(view) {
		t.Fatalf("view %s: kind %q, mounted %v", view, img.viewKind("lib"), isMounted(view))
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if isMounted(view) {
		t.Fatalf("%s is still mounted after Close", view)
	}
	if _, err := os.Stat(filepath.Dir(view)); !os.IsNotExist(err) {
		t.Fatalf("the views directory is still there after Close: %v", err)
	}

	if !mounted {
		return
	}
	// A dead server's view: a read-only mount of an image directory.
	cache := t.TempDir()
	image := filepath.Join(t.TempDir(), "lib")
	fillStdlib(filepath.Dir(image))
	before := treeState(t, image)
	stale := filepath.Join(cache, "ro", "999999999-dead", "view-0")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := mountReadOnly(image, stale); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unmount(stale) })
	e2, err := NewEngine(EngineConfig{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e2.Close() })
	MustWatImage(t, e2, "hostile", map[string]string{"lib": "/usr/local/lib"}, fillStdlib)
	if isMounted(stale) {
		t.Fatal("the dead server's view is still mounted")
	}
	if _, err := os.Stat(filepath.Dir(stale)); !os.IsNotExist(err) {
		t.Fatalf("the dead server's views directory is still there: %v", err)
	}
	if after := treeState(t, image); after != before {
		t.Fatalf("sweeping changed the image:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// The fallback when mounts are refused: a copy with read-only modes (which
// the kernel enforces for a non-root server), removable again.
func TestCopyReadOnly(t *testing.T) {
	src := filepath.Join(t.TempDir(), "lib")
	fillStdlib(filepath.Dir(src))
	dst := filepath.Join(t.TempDir(), "view")
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := copyReadOnly(src, dst); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		want := fs.FileMode(0o444)
		if d.IsDir() {
			want = fs.ModeDir | 0o555
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dst, "pkg", "__init__.py"))
	if err != nil || string(b) != "pkg" {
		t.Fatalf("copied file: %q %v", b, err)
	}
	if err := removeView(dst); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Fatalf("the copy is still there: %v", err)
	}

	// Images hold no symlinks; a copy refuses one rather than follow it.
	os.Symlink("/etc/passwd", filepath.Join(src, "passwd"))
	dst2 := filepath.Join(t.TempDir(), "view")
	os.Mkdir(dst2, 0o755)
	if err := copyReadOnly(src, dst2); err == nil {
		t.Fatal("a symlink in the image was copied")
	}
}
