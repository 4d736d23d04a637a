package vfs_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

// tarOf builds a tar (gzipped when gz) of headers; a regular file's body is
// its Linkname field's text when Size is 0 (a convenience), else Size
// zero bytes.
type tarEntry struct {
	h    tar.Header
	body string
}

func tarOf(tb testing.TB, gz bool, entries ...tarEntry) []byte {
	tb.Helper()
	var buf bytes.Buffer
	var out io.Writer = &buf
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(&buf)
		out = zw
	}
	tw := tar.NewWriter(out)
	for _, e := range entries {
		h := e.h
		if h.Typeflag == tar.TypeReg && h.Size == 0 {
			h.Size = int64(len(e.body))
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := tw.WriteHeader(&h); err != nil {
			tb.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if e.body != "" {
				io.WriteString(tw, e.body)
			} else {
				io.CopyN(tw, zeros{}, h.Size)
			}
		}
	}
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	if zw != nil {
		zw.Close()
	}
	return buf.Bytes()
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func file(name, body string) tarEntry {
	return tarEntry{h: tar.Header{Name: name, Typeflag: tar.TypeReg}, body: body}
}

func dir(name string) tarEntry {
	return tarEntry{h: tar.Header{Name: name, Typeflag: tar.TypeDir, Mode: 0o755}}
}

// listTree returns "path=content" (files) and "path/" (dirs) under root.
func listTree(tb testing.TB, root string) []string {
	tb.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out = append(out, rel+"/")
			return nil
		}
		b, _ := os.ReadFile(p)
		out = append(out, rel+"="+string(b))
		return nil
	})
	sort.Strings(out)
	return out
}

// Hostile archives are refused whole: nothing of them reaches the
// workspace, not even their harmless entries, and no staging is left.
func TestExtractRefusesHostileArchives(t *testing.T) {
	zipOf := func(build func(*zip.Writer)) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		build(zw)
		zw.Close()
		return buf.Bytes()
	}
	bomb := zipOf(func(zw *zip.Writer) {
		w, _ := zw.Create("ok.txt")
		io.WriteString(w, "fine")
		w, _ = zw.Create("bomb.bin")
		io.CopyN(w, zeros{}, 64<<20) // 64 MiB of zeros: ~64 KB compressed
	})
	if len(bomb) > 1<<20 {
		t.Fatalf("the zip bomb is %d bytes", len(bomb))
	}
	many := func() []byte {
		entries := make([]tarEntry, 0, 100_000)
		for i := range 100_000 {
			entries = append(entries, tarEntry{h: tar.Header{Name: fmt.Sprintf("f%06d", i), Typeflag: tar.TypeReg}})
		}
		return tarOf(t, true, entries...)
	}()
	for _, tc := range []struct {
		name    string
		archive []byte
		code    string
	}{
		{"parent escape", tarOf(t, false, file("ok.txt", "fine"), file("../escape.txt", "x")), wasmexec.EInvalid},
		{"nested parent escape", tarOf(t, false, file("ok.txt", "fine"), file("a/../../escape.txt", "x")), wasmexec.EInvalid},
		{"absolute path", tarOf(t, false, file("ok.txt", "fine"), file("/etc/passwd", "x")), wasmexec.EInvalid},
		{"absolute workspace path", tarOf(t, false, file("/workspace/x.txt", "x")), wasmexec.EInvalid},
		{"symlink", tarOf(t, false, file("ok.txt", "fine"), tarEntry{h: tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}}), wasmexec.EInvalid},
		{"relative symlink", tarOf(t, false, tarEntry{h: tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "ok.txt"}}), wasmexec.EInvalid},
		{"hard link", tarOf(t, false, file("ok.txt", "fine"), tarEntry{h: tar.Header{Name: "hard", Typeflag: tar.TypeLink, Linkname: "ok.txt"}}), wasmexec.EInvalid},
		{"character device", tarOf(t, false, tarEntry{h: tar.Header{Name: "null", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 3}}), wasmexec.EInvalid},
		{"block device", tarOf(t, false, tarEntry{h: tar.Header{Name: "sda", Typeflag: tar.TypeBlock, Devmajor: 8}}), wasmexec.EInvalid},
		{"fifo", tarOf(t, false, tarEntry{h: tar.Header{Name: "pipe", Typeflag: tar.TypeFifo}}), wasmexec.EInvalid},
		{"NUL in a name", zipOf(func(zw *zip.Writer) { w, _ := zw.Create("a\x00b"); io.WriteString(w, "x") }), wasmexec.EInvalid},
		{"file and directory of the same name", tarOf(t, false, file("a", "x"), file("a/b", "y")), wasmexec.EConflict},
		{"the same file twice", tarOf(t, false, file("a", "x"), file("a", "y")), wasmexec.EInvalid},
		{"zip symlink", zipOf(func(zw *zip.Writer) {
			h := &zip.FileHeader{Name: "link"}
			h.SetMode(fs.ModeSymlink | 0o777)
			w, _ := zw.CreateHeader(h)
			io.WriteString(w, "/etc/passwd")
		}), wasmexec.EInvalid},
		{"zip parent escape", zipOf(func(zw *zip.Writer) { w, _ := zw.Create("../../x"); io.WriteString(w, "x") }), wasmexec.EInvalid},
		{"zip bomb", bomb, wasmexec.ETooLarge},
		{"gzip bomb", tarOf(t, true, file("ok.txt", "fine"), tarEntry{h: tar.Header{Name: "bomb", Typeflag: tar.TypeReg, Size: 64 << 20}}), wasmexec.ETooLarge},
		{"100k entries", many, wasmexec.ETooLarge},
		{"not an archive", []byte("just some text, long enough to look at"), wasmexec.EInvalid},
		{"truncated tar", tarOf(t, false, file("ok.txt", strings.Repeat("x", 4000)))[:1500], wasmexec.EInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := mustWorkspaceLimits(t, vfs.Limits{Quota: 8 << 20, MaxFiles: 10_000})
			os.WriteFile(filepath.Join(w.Root, "before.txt"), []byte("kept"), 0o644)
			_, err := w.Extract(context.Background(), "", bytes.NewReader(tc.archive), "")
			if wasmexec.ErrorCode(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
			if got := listTree(t, w.Root); len(got) != 1 || got[0] != "before.txt=kept" {
				t.Fatalf("the workspace changed: %v", got)
			}
		})
	}
}

// A 10,000-file archive is unpacked by one call, counted against the
// limits once (one walk of the workspace), and what it unpacked is
// charged: the next upload needs no walk.
func TestExtractTenThousandFiles(t *testing.T) {
	w := mustWorkspaceLimits(t, vfs.Limits{Quota: 64 << 20, MaxFiles: 20_000})
	w.TrackUsage()
	entries := []tarEntry{}
	for d := range 10 {
		entries = append(entries, dir(fmt.Sprintf("d%d/", d)))
		for f := range 1000 {
			entries = append(entries, file(fmt.Sprintf("d%d/f%04d.txt", d, f), fmt.Sprintf("%d-%d", d, f)))
		}
	}
	archive := tarOf(t, true, entries...)
	before := vfs.Walks()
	res, err := w.Extract(context.Background(), "proj", bytes.NewReader(archive), vfs.ArchiveTgz)
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 10_000 || res.Dirs != 10 || res.Dir != "proj" {
		t.Fatalf("result %+v", res)
	}
	if n := vfs.Walks() - before; n != 1 {
		t.Fatalf("%d walks of the workspace, want 1", n)
	}
	if b, err := w.ReadFile("proj/d7/f0123.txt"); err != nil || string(b) != "7-123" {
		t.Fatalf("%q %v", b, err)
	}
	// Later uploads are charged incrementally: no more walks.
	before = vfs.Walks()
	for i := range 20 {
		if err := w.WriteFile(fmt.Sprintf("more/%d.txt", i), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Delete("proj/d3"); err != nil {
		t.Fatal(err)
	}
	if n := vfs.Walks() - before; n != 1 { // the deleted tree's own walk
		t.Fatalf("%d walks for 20 uploads and a delete, want 1", n)
	}
	// And the kept count is the real one.
	kept, err := w.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w.Forget()
	if err := w.WriteFile("last.txt", []byte("y")); err != nil {
		t.Fatal(err)
	}
	real, _ := w.Check(context.Background())
	if real.Files != kept.Files+1 || real.UsedBytes != kept.UsedBytes+1 {
		t.Fatalf("kept count %+v, real %+v", kept, real)
	}
}

// A guest writing between file calls makes the kept count untrusted.
func TestUsageNotKeptWhileGuestsWrite(t *testing.T) {
	w := mustWorkspaceLimits(t, vfs.Limits{Quota: 1 << 20, MaxFiles: 100})
	w.TrackUsage()
	if err := w.WriteFile("a.txt", []byte("a")); err != nil {
		t.Fatal(err)
	}
	w.GuestStarted()
	// The guest fills the workspace behind the file calls' back.
	os.WriteFile(filepath.Join(w.Root, "big.bin"), bytes.Repeat([]byte("x"), 1<<20), 0o644)
	w.GuestStopped()
	if err := w.WriteFile("b.txt", []byte("b")); wasmexec.ErrorCode(err) != wasmexec.ETooLarge {
		t.Fatalf("err = %v, want payload_too_large (the guest's bytes counted)", err)
	}
}

// What comes out goes back in: a tree written as a tar and unpacked into
// another workspace is the same tree.
func TestArchiveRoundTrip(t *testing.T) {
	src := mustWorkspaceLimits(t, vfs.Limits{Quota: 8 << 20, MaxFiles: 1000})
	for p, body := range map[string]string{"a.txt": "alpha", "dir/b.txt": "beta", "dir/sub/c.txt": "", "top/empty/.keep": "k"} {
		if err := src.WriteFile(p, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(src.Root, "emptydir"), 0o755)
	for _, format := range []string{vfs.ArchiveTar, vfs.ArchiveTgz} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := src.WriteArchive(context.Background(), "", format, &buf); err != nil {
				t.Fatal(err)
			}
			dst := mustWorkspaceLimits(t, vfs.Limits{Quota: 8 << 20, MaxFiles: 1000})
			if _, err := dst.Extract(context.Background(), "", &buf, ""); err != nil {
				t.Fatal(err)
			}
			if a, b := listTree(t, src.Root), listTree(t, dst.Root); strings.Join(a, "\n") != strings.Join(b, "\n") {
				t.Fatalf("src %v\ndst %v", a, b)
			}
		})
	}
	// A subdirectory alone, as paths relative to it.
	var buf bytes.Buffer
	if err := src.WriteArchive(context.Background(), "dir", vfs.ArchiveTar, &buf); err != nil {
		t.Fatal(err)
	}
	var names []string
	tr := tar.NewReader(&buf)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		names = append(names, h.Name)
	}
	sort.Strings(names)
	if strings.Join(names, " ") != "b.txt sub/ sub/c.txt" {
		t.Fatalf("names %v", names)
	}
}

// An archive that doesn't fit beside what the workspace holds, or that
// puts a file where the workspace has a directory, changes nothing.
func TestExtractAgainstTheWorkspace(t *testing.T) {
	w := mustWorkspaceLimits(t, vfs.Limits{Quota: 64 << 10, MaxFiles: 50})
	if err := w.WriteFile("taken/inner.txt", []byte("x")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		archive []byte
		code    string
	}{
		{"file over a directory", tarOf(t, false, file("new.txt", "n"), file("taken", "f")), wasmexec.EConflict},
		{"directory over a file", tarOf(t, false, file("taken/inner.txt/x", "f")), wasmexec.EConflict},
		{"over the quota", tarOf(t, false, file("big", strings.Repeat("x", 70<<10))), wasmexec.ETooLarge},
		{"over the file limit", tarOf(t, false, func() []tarEntry {
			var es []tarEntry
			for i := range 60 {
				es = append(es, file(fmt.Sprintf("n%d", i), "x"))
			}
			return es
		}()...), wasmexec.ETooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := listTree(t, w.Root)
			if _, err := w.Extract(context.Background(), "", bytes.NewReader(tc.archive), vfs.ArchiveTar); wasmexec.ErrorCode(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
			if after := listTree(t, w.Root); strings.Join(before, "|") != strings.Join(after, "|") {
				t.Fatalf("changed: %v -> %v", before, after)
			}
		})
	}
	// Replacing a file charges only the difference.
	if _, err := w.Extract(context.Background(), "", bytes.NewReader(tarOf(t, false, file("taken/inner.txt", "replaced"))), ""); err != nil {
		t.Fatal(err)
	}
	if b, _ := w.ReadFile("taken/inner.txt"); string(b) != "replaced" {
		t.Fatalf("%q", b)
	}
}
