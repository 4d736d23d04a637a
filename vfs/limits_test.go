package vfs_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

// scratchDir is a temporary directory on tmpfs when there is one: the
// tests below make thousands of entries (a millisecond each on the disks
// here).
func scratchDir(tb testing.TB) string {
	tb.Helper()
	if d, err := os.MkdirTemp("/dev/shm", "wasmexec-vfs-test-"); err == nil {
		tb.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	return tb.TempDir()
}

func mustWorkspaceLimits(tb testing.TB, l vfs.Limits) *vfs.Workspace {
	tb.Helper()
	m, err := vfs.NewManagerLimits(scratchDir(tb), l)
	if err != nil {
		tb.Fatal(err)
	}
	w, err := m.New("t")
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

// A guest-made 1 TiB sparse file is refused by its size before any byte is
// read (it used to be read into a buffer sized from that size: the server
// died of OOM); a file just over the cap is refused by the bytes read.
func TestReadFileSparseTiB(t *testing.T) {
	w := mustWorkspace(t, 0) // no quota: only the read cap bounds the read
	huge := filepath.Join(w.Root, "huge.bin")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err != nil {
		t.Skipf("this file system can't hold a 1 TiB sparse file: %v", err)
	}
	b, err := w.ReadFile("huge.bin")
	wantCode(t, err, wasmexec.ETooLarge)
	if b != nil || !strings.Contains(err.Error(), fmt.Sprint(vfs.DefaultMaxReadBytes)) {
		t.Fatalf("got %d bytes, %v", len(b), err)
	}
	// A Workspace literal (how a process reads its "file") has the cap too.
	_, err = (&vfs.Workspace{Root: w.Root}).ReadFile("huge.bin")
	wantCode(t, err, wasmexec.ETooLarge)
}

func TestReadFileCap(t *testing.T) {
	w := mustWorkspaceLimits(t, vfs.Limits{MaxReadBytes: 10})
	os.WriteFile(filepath.Join(w.Root, "ten"), []byte("0123456789"), 0o644)
	os.WriteFile(filepath.Join(w.Root, "eleven"), []byte("0123456789a"), 0o644)
	if b, err := w.ReadFile("ten"); err != nil || string(b) != "0123456789" {
		t.Fatalf("ten: %q %v", b, err)
	}
	_, err := w.ReadFile("eleven")
	wantCode(t, err, wasmexec.ETooLarge)
	// The quota bounds a read too.
	w = mustWorkspaceLimits(t, vfs.Limits{Quota: 5})
	os.WriteFile(filepath.Join(w.Root, "six"), []byte("012345"), 0o644)
	_, err = w.ReadFile("six")
	wantCode(t, err, wasmexec.ETooLarge)
}

// Directories, empty files and symlinks count DefaultEntryBytes each and
// every entry counts against MaxFiles: 20,000 directories used to be 0
// bytes.
func TestUsageCountsEntries(t *testing.T) {
	w := mustWorkspace(t, 0)
	for i := range 20 {
		os.MkdirAll(filepath.Join(w.Root, "d", fmt.Sprint(i)), 0o755)
		os.WriteFile(filepath.Join(w.Root, "d", fmt.Sprint(i), "empty"), nil, 0o644)
	}
	os.WriteFile(filepath.Join(w.Root, "data"), []byte("12345"), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(w.Root, "pw"))
	u, err := w.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	entries := 1 + 20 + 20 + 1 // d, its 20 directories, 20 empty files, pw
	if u.Files != entries+1 || u.UsedBytes != int64(entries)*vfs.DefaultEntryBytes+5 || u.Partial || u.Over() {
		t.Fatalf("usage %+v", u)
	}
	if used, _ := w.Usage(); used != u.UsedBytes {
		t.Fatalf("Usage %d, Check %d", used, u.UsedBytes)
	}
}

// Check stops at the first limit passed, so polling a workspace a guest
// filled with entries costs at most MaxFiles+1 of them.
func TestCheckStopsAtTheLimit(t *testing.T) {
	w := mustWorkspaceLimits(t, vfs.Limits{MaxFiles: 100})
	for i := range 1000 {
		os.Mkdir(filepath.Join(w.Root, fmt.Sprint(i)), 0o755)
	}
	u, err := w.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !u.Over() || !u.Partial || u.Files != 101 || u.MaxFiles != 100 {
		t.Fatalf("usage %+v", u)
	}
	wantCode(t, u.Err(), wasmexec.ETooLarge)
	if f := u.Failure("the run"); f.Code != wasmexec.CodeQuotaExceeded || f.Details["files"] != 101 || f.Details["maxFiles"] != 100 || !strings.HasPrefix(f.Message, "the run took the workspace over its limits (at least ") {
		t.Fatalf("failure %+v", f)
	}
	// Over the quota: stops there as well.
	w = mustWorkspaceLimits(t, vfs.Limits{Quota: 10 * vfs.DefaultEntryBytes})
	for i := range 1000 {
		os.WriteFile(filepath.Join(w.Root, fmt.Sprint(i)), nil, 0o644)
	}
	u, err = w.Check(context.Background())
	if err != nil || !u.Over() || u.Files != 11 || u.UsedBytes != 11*vfs.DefaultEntryBytes {
		t.Fatalf("usage %+v %v", u, err)
	}
	// The API refuses to add to a workspace over its limits.
	wantCode(t, w.WriteFile("more", []byte("x")), wasmexec.ETooLarge)
	// A cancelled check ends.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Check(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled check: %v", err)
	}
}

// Uploads count the directories they create and the file limit.
func TestWriteFileCountsEntries(t *testing.T) {
	w := mustWorkspaceLimits(t, vfs.Limits{MaxFiles: 3})
	if err := w.WriteFile("a/b/c.txt", []byte("c")); err != nil {
		t.Fatal(err)
	}
	err := w.WriteFile("d", []byte("d"))
	wantCode(t, err, wasmexec.ETooLarge)
	if !strings.Contains(err.Error(), "limit of 3 files") {
		t.Fatal(err)
	}
	if err := w.WriteFile("a/b/c.txt", []byte("replaced")); err != nil {
		t.Fatal(err)
	}
	w = mustWorkspaceLimits(t, vfs.Limits{Quota: 2*vfs.DefaultEntryBytes + 10})
	wantCode(t, w.WriteFile("x/y/z/f", []byte("f")), wasmexec.ETooLarge) // three directories
	if err := w.WriteFile("x/y/f", make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
}

// Seeding walks the workspace once, however many files (it used to walk
// it once per file: 8,000 files took 180 s).
func TestSeedIsLinear(t *testing.T) {
	w := mustWorkspaceLimits(t, vfs.DefaultLimits())
	for i := range 500 {
		os.WriteFile(filepath.Join(w.Root, fmt.Sprint("old", i)), []byte("o"), 0o644)
	}
	files := map[string]string{}
	for i := range vfs.DefaultMaxSeedFiles {
		files[fmt.Sprintf("src/d%d/f%d.txt", i%10, i)] = "x"
	}
	before := vfs.Walks()
	if err := w.Seed(context.Background(), files); err != nil {
		t.Fatal(err)
	}
	if n := vfs.Walks() - before; n != 1 {
		t.Fatalf("seeding %d files walked the workspace %d times", len(files), n)
	}
	u, err := w.Check(context.Background())
	if err != nil || u.Files != 500+1+10+len(files) {
		t.Fatalf("usage %+v %v", u, err)
	}
	if b, err := w.ReadFile("src/d3/f13.txt"); err != nil || string(b) != "x" {
		t.Fatalf("seeded: %q %v", b, err)
	}
}

func TestSeedLimits(t *testing.T) {
	ctx := context.Background()
	w := mustWorkspaceLimits(t, vfs.Limits{Quota: 100, MaxSeedFiles: 5})
	files := map[string]string{}
	for i := range 6 {
		files[fmt.Sprint("f", i)] = "x"
	}
	err := w.Seed(ctx, files)
	wantCode(t, err, wasmexec.ETooLarge)
	if !strings.Contains(err.Error(), "at most 5") {
		t.Fatal(err)
	}
	// All or nothing against the quota.
	err = w.Seed(ctx, map[string]string{"a": strings.Repeat("a", 60), "b": strings.Repeat("b", 41)})
	wantCode(t, err, wasmexec.ETooLarge)
	if es, _ := w.List(""); len(es) != 0 {
		t.Fatalf("a refused seed wrote %v", es)
	}
	if err := w.Seed(ctx, map[string]string{"a": strings.Repeat("a", 60), "b": strings.Repeat("b", 40)}); err != nil {
		t.Fatal(err)
	}
	// Replacing counts the difference.
	if err := w.Seed(ctx, map[string]string{"a": strings.Repeat("A", 60)}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		code  string
	}{
		{"two names for one path", map[string]string{"x": "1", "/workspace/x": "2"}, wasmexec.EInvalid},
		{"the root", map[string]string{"/workspace": "1"}, wasmexec.EInvalid},
		{"escape", map[string]string{"../x": "1"}, wasmexec.EInvalid},
		{"file and directory", map[string]string{"x": "1", "x/y": "2"}, wasmexec.EConflict},
		{"over an existing directory", map[string]string{".": "1"}, wasmexec.EInvalid},
		{"under an existing file", map[string]string{"a/y": "1"}, wasmexec.EConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, w.Seed(ctx, tc.files), tc.code)
		})
	}
	// A run's deadline stops seeding.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := w.Seed(cctx, map[string]string{"late": "x"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled seed: %v", err)
	}
	if _, err := w.ReadFile("late"); wasmexec.ErrorCode(err) != wasmexec.ENotFound {
		t.Fatalf("late: %v", err)
	}
}

// Symlinks a guest makes (to "..", to /etc/passwd) stay entries of the
// workspace; the file API never follows them.
func TestGuestSymlinksNotFollowed(t *testing.T) {
	w := mustWorkspace(t, 0)
	os.Symlink("..", filepath.Join(w.Root, "up"))
	os.Symlink("/etc/passwd", filepath.Join(w.Root, "pw"))
	for _, p := range []string{"up", "up/" + filepath.Base(w.Root), "pw"} {
		_, err := w.ReadFile(p)
		wantCode(t, err, wasmexec.EInvalid)
		wantCode(t, w.WriteFile(p, []byte("x")), wasmexec.EInvalid)
	}
	_, err := w.List("up")
	wantCode(t, err, wasmexec.EInvalid)
	for _, p := range []string{"up", "pw"} {
		if e, err := w.Stat(p); err != nil || e.Type != "symlink" {
			t.Fatalf("stat %s: %+v %v", p, e, err)
		}
	}
	es, err := w.List("")
	if err != nil || len(es) != 2 || es[0].Type != "symlink" || es[1].Type != "symlink" {
		t.Fatalf("list: %+v %v", es, err)
	}
	if err := w.Delete("pw"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/etc/passwd"); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// RoomReplacing is the room the rest of the workspace leaves the entries
// an install replaces: what they and the stage hold now is not counted,
// everything else is, the way the quota counts it.
func TestRoomReplacing(t *testing.T) {
	const e = vfs.DefaultEntryBytes
	names := []string{"node_modules", "package.json"}
	for _, tc := range []struct {
		name      string
		limits    vfs.Limits
		files     map[string]int // path → size ("/" suffix: a directory)
		bytes     int64
		filesLeft int
	}{
		{"no limits", vfs.Limits{}, map[string]int{"a.txt": 10}, math.MaxInt64, math.MaxInt},
		{"empty", vfs.Limits{Quota: 1 << 20, MaxFiles: 10}, nil, 1 << 20, 10},
		{"the rest counts", vfs.Limits{Quota: 1 << 20, MaxFiles: 10}, map[string]int{"a.txt": 1000, "d/": 0, "d/b": 0}, 1<<20 - 1000 - 2*e, 7},
		{"the replaced and the stage don't", vfs.Limits{Quota: 1 << 20, MaxFiles: 10},
			map[string]int{"node_modules/x/big": 500_000, "package.json": 100, ".stage/node_modules/y": 9000, "a.txt": 1000}, 1<<20 - 1000, 9},
		{"no room left", vfs.Limits{Quota: 10_000, MaxFiles: 10}, map[string]int{"a.txt": 20_000}, 0, 9},
		{"no files left", vfs.Limits{MaxFiles: 2}, map[string]int{"a": 1, "b": 1, "c": 1}, math.MaxInt64, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := mustWorkspaceLimits(t, tc.limits)
			for p, size := range tc.files {
				full := filepath.Join(w.Root, p)
				if strings.HasSuffix(p, "/") {
					os.MkdirAll(full, 0o755)
					continue
				}
				os.MkdirAll(filepath.Dir(full), 0o755)
				if err := os.WriteFile(full, make([]byte, size), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r, err := w.RoomReplacing(context.Background(), ".stage", names)
			if err != nil {
				t.Fatal(err)
			}
			if r.Bytes != tc.bytes || r.Files != tc.filesLeft || r.EntryBytes != e {
				t.Fatalf("room %+v, want %d bytes, %d files", r, tc.bytes, tc.filesLeft)
			}
		})
	}
}
