package cluster

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// A workspace goes into a snapshot and comes back file for file, its
// symlinks as links with their targets (guests make them: a context moved
// to another node keeps them).
func TestPackUnpack(t *testing.T) {
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(ws, "top.txt"), []byte("top"), 0o644)
	os.WriteFile(filepath.Join(ws, "a", "b", "deep.js"), []byte("module.exports = 1"), 0o600)
	links := map[string]string{"link": "/etc/passwd", "a/rel": "b/deep.js", "a/b/up": "../../top.txt", "out": "../../.."}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	blob, err := pack(recordOf("RECORD"), ws, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	rec, unpack, err := unpackSnapshot(blob, 1<<20)
	if err != nil || string(rec) != "RECORD" {
		t.Fatalf("record %q, %v", rec, err)
	}
	out := t.TempDir()
	if err := unpack(out); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"top.txt": "top", "a/b/deep.js": "module.exports = 1"} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != want {
			t.Fatalf("%s: %q, %v", name, b, err)
		}
	}
	for name, want := range links {
		if got, err := os.Readlink(filepath.Join(out, name)); err != nil || got != want {
			t.Fatalf("link %s = %q, %v; want %q", name, got, err, want)
		}
	}
	// Over the cap: not stored.
	if _, err := pack(recordOf("RECORD"), ws, 10); err == nil {
		t.Fatal("a workspace over the cap was packed")
	}
}

// hostile builds a snapshot by hand, as a row someone else wrote could be.
func hostile(t *testing.T, entries ...*tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, h := range entries {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write(bytes.Repeat([]byte("x"), int(h.Size)))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// Rows are checked: no record first, paths out of the workspace and
// content over the cap are refused, and nothing is written outside.
func TestUnpackHostile(t *testing.T) {
	rec := &tar.Header{Name: recordEntry, Size: 3, Typeflag: tar.TypeReg, Mode: 0o600}
	tests := []struct {
		name    string
		blob    []byte
		openErr string
		err     string
	}{
		{name: "not zstd", blob: []byte("garbage"), openErr: "snapshot"},
		{name: "no record first", blob: hostile(t, &tar.Header{Name: "workspace/a", Size: 1, Typeflag: tar.TypeReg}), openErr: "no record"},
		{name: "dot-dot", blob: hostile(t, rec, &tar.Header{Name: "workspace/../escape", Size: 1, Typeflag: tar.TypeReg, Mode: 0o644}), err: "plain relative path"},
		{name: "nested dot-dot", blob: hostile(t, rec, &tar.Header{Name: "workspace/a/../../escape", Size: 1, Typeflag: tar.TypeReg, Mode: 0o644}), err: "plain relative path"},
		{name: "absolute", blob: hostile(t, rec, &tar.Header{Name: "workspace//etc/x", Size: 1, Typeflag: tar.TypeReg, Mode: 0o644}), err: "plain relative path"},
		{name: "over the cap", blob: hostile(t, rec, &tar.Header{Name: "workspace/big", Size: 4096, Typeflag: tar.TypeReg, Mode: 0o644}), err: "more than"},
		{name: "record over the cap", blob: hostile(t, &tar.Header{Name: recordEntry, Size: 4096, Typeflag: tar.TypeReg}), openErr: "no record"},
		// A link out of the workspace, then entries through it: the link
		// is made (links are data), nothing is written through it.
		{name: "file through a link", blob: hostile(t, rec,
			&tar.Header{Name: "workspace/out", Linkname: "..", Typeflag: tar.TypeSymlink},
			&tar.Header{Name: "workspace/out/escape", Size: 1, Typeflag: tar.TypeReg, Mode: 0o644}), err: "escape"},
		{name: "directory through a link", blob: hostile(t, rec,
			&tar.Header{Name: "workspace/out", Linkname: "..", Typeflag: tar.TypeSymlink},
			&tar.Header{Name: "workspace/out/escape/", Typeflag: tar.TypeDir, Mode: 0o755}), err: "escape"},
		{name: "absolute link, then a file through it", blob: hostile(t, rec,
			&tar.Header{Name: "workspace/abs", Linkname: "/tmp", Typeflag: tar.TypeSymlink},
			&tar.Header{Name: "workspace/abs/escape", Size: 1, Typeflag: tar.TypeReg, Mode: 0o644}), err: "escape"},
		{name: "file over a link", blob: hostile(t, rec,
			&tar.Header{Name: "workspace/f", Linkname: "../escape", Typeflag: tar.TypeSymlink},
			&tar.Header{Name: "workspace/f", Size: 1, Typeflag: tar.TypeReg, Mode: 0o644}), err: "escape"},
		{name: "empty link target", blob: hostile(t, rec, &tar.Header{Name: "workspace/l", Typeflag: tar.TypeSymlink}), err: "bad link target"},
	}
	// A target ending in a slash loses it, as the engine's links do.
	dir := t.TempDir()
	_, unpack, err := unpackSnapshot(hostile(t, rec, &tar.Header{Name: "workspace/l", Linkname: "../x//", Typeflag: tar.TypeSymlink}), 1024)
	if err != nil {
		t.Fatal(err)
	}
	if err := unpack(dir); err != nil {
		t.Fatal(err)
	}
	if got, err := os.Readlink(filepath.Join(dir, "l")); err != nil || got != "../x" {
		t.Fatalf("link l = %q, %v; want ../x", got, err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "ws")
			os.Mkdir(dir, 0o755)
			_, unpack, err := unpackSnapshot(tt.blob, 1024)
			if tt.openErr != "" {
				if err == nil {
					t.Fatalf("opened; want an error with %q", tt.openErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := unpack(dir); err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("unpack: %v, want %q", err, tt.err)
			}
			if _, err := os.Stat(filepath.Join(parent, "escape")); err == nil {
				t.Fatal("a file was written outside the workspace")
			}
		})
	}
}
