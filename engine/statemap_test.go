package engine_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/pipeline"
)

// bigJS fills a guest with 4 MiB of random bytes (stored raw, mapped at a
// restore from a file) and returns their SHA-256.
const bigJS = `globalThis.data = new Uint8Array(4 << 20);
	globalThis.crypto_ = require("crypto");
	for (let i = 0; i < 64; i++) crypto_.getRandomValues(data.subarray(i << 16, (i + 1) << 16));
	globalThis.digest = () => crypto_.createHash("sha256").update(data).digest("hex");
	digest()`

// captureFile captures g into a new file at offset off (the bytes before
// it are a stand-in for a record's head) and returns the file.
func captureFile(t *testing.T, g *engine.Guest, off int64) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.Write(bytes.Repeat([]byte{'h'}, int(off))); err != nil {
		t.Fatal(err)
	}
	if _, err := g.CaptureTo(context.Background(), true, io.NewOffsetWriter(f, off)); err != nil {
		t.Fatal(err)
	}
	return f
}

func restoreFile(t *testing.T, r *pipeline.Pipeline, f *os.File, off int64) (*engine.Guest, error) {
	t.Helper()
	g, err := r.RestoreGuestFile(context.Background(), wasmexec.GuestSpec{Language: wasmexec.JavaScript, Workspace: t.TempDir()}, f, off)
	if err != nil {
		return nil, err
	}
	return g.(*engine.Guest), nil
}

// mapsFile reports whether this process maps the file at path.
func mapsFile(t *testing.T, path string) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps: %v", err)
	}
	return strings.Contains(string(b), path)
}

// A large state restored from a file at a page-aligned offset has its raw
// pages mapped from the file, not copied: the guest sees the same bytes,
// what it writes stays its own (the file and another guest restored from
// it see the captured bytes), and closing the guests unmaps the file and
// gives their mappings back to the budget.
func TestRestoreFileMapsPages(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript)
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	want := evalIn(t, r, g, wasmexec.JavaScript, bigJS)
	f := captureFile(t, g, 4096)
	before, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	budget := engine.MappedRanges()

	a, err := restoreFile(t, r, f, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if !mapsFile(t, f.Name()) || engine.MappedRanges() <= budget {
		t.Fatalf("the restored guest does not map its state's file (mapped ranges %d, before %d)", engine.MappedRanges(), budget)
	}
	if got := evalIn(t, r, a, wasmexec.JavaScript, "digest()"); got != want {
		t.Fatalf("restored from the file: digest %s, want %s", got, want)
	}
	if got := evalIn(t, r, a, wasmexec.JavaScript, "data.fill(7); digest()"); got == want {
		t.Fatal("the guest's write changed nothing")
	}
	after, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("a guest's write reached the state's file")
	}
	b, err := restoreFile(t, r, f, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if got := evalIn(t, r, b, wasmexec.JavaScript, "digest()"); got != want {
		t.Fatalf("a second guest from the file: digest %s, want %s (the first guest's writes leaked)", got, want)
	}
	if got := evalIn(t, r, a, wasmexec.JavaScript, "digest()"); got == want {
		t.Fatal("the first guest lost its own writes")
	}
	a.Close()
	b.Close()
	if mapsFile(t, f.Name()) || engine.MappedRanges() != budget {
		t.Fatalf("closed guests still map the file (mapped ranges %d, before %d)", engine.MappedRanges(), budget)
	}
}

// A state at an offset that is not page-aligned can't be mapped: it is
// copied, and comes back the same.
func TestRestoreFileUnaligned(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript)
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	want := evalIn(t, r, g, wasmexec.JavaScript, bigJS)
	f := captureFile(t, g, 100)
	a, err := restoreFile(t, r, f, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if mapsFile(t, f.Name()) {
		t.Fatal("an unaligned state was mapped")
	}
	if got := evalIn(t, r, a, wasmexec.JavaScript, "digest()"); got != want {
		t.Fatalf("digest %s, want %s", got, want)
	}
}

// A flipped byte in a mapped page, or a file cut short, is refused like
// any corrupt state, and leaves no mapping behind.
func TestRestoreFileCorrupt(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript)
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	evalIn(t, r, g, wasmexec.JavaScript, bigJS)
	budget := engine.MappedRanges()
	for _, tc := range []struct {
		name string
		harm func(t *testing.T, f *os.File, size int64)
	}{
		{"a byte flipped in the raw pages", func(t *testing.T, f *os.File, size int64) {
			b := make([]byte, 1)
			at := size - 3<<20 // inside the 4 MiB of random bytes
			if _, err := f.ReadAt(b, at); err != nil {
				t.Fatal(err)
			}
			b[0] ^= 0x10
			if _, err := f.WriteAt(b, at); err != nil {
				t.Fatal(err)
			}
		}},
		{"cut short by a page", func(t *testing.T, f *os.File, size int64) {
			if err := f.Truncate(size - 4096); err != nil {
				t.Fatal(err)
			}
		}},
		{"nothing after the offset", func(t *testing.T, f *os.File, size int64) {
			if err := f.Truncate(4096); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := captureFile(t, g, 4096)
			fi, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			tc.harm(t, f, fi.Size())
			a, err := restoreFile(t, r, f, 4096)
			if err == nil {
				a.Close()
				t.Fatal("a harmed state was restored")
			}
			if !engine.IsStateRefused(err) {
				t.Fatalf("not refused: %v", err)
			}
			if mapsFile(t, f.Name()) || engine.MappedRanges() != budget {
				t.Fatalf("a refused state left mappings (%d, before %d)", engine.MappedRanges(), budget)
			}
		})
	}
}

// A record cut short under a guest that maps it (someone else truncating
// files in the data dir, or a disk that can't read a page back) does not
// crash the server: the guest's run that reads a lost page fails
// (GuestStateLost, the guest stopped), and so does a capture of it; other
// guests go on.
func TestMappedFileCutShort(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript)
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	evalIn(t, r, g, wasmexec.JavaScript, bigJS)
	for _, tc := range []struct {
		name  string
		touch func(t *testing.T, a *engine.Guest)
	}{
		{"a run reads it", func(t *testing.T, a *engine.Guest) {
			res, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: "digest()"}, wasmexec.RunOptions{Guest: a})
			if err != nil || res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Name != "GuestStateLost" {
				t.Fatalf("a run over lost pages: %v %+v", err, res)
			}
			if a.Alive() {
				t.Fatal("the guest that read lost pages was not stopped")
			}
		}},
		{"a capture reads it", func(t *testing.T, a *engine.Guest) {
			if _, err := a.Capture(context.Background(), true); err == nil || !strings.Contains(err.Error(), "could not be read") {
				t.Fatalf("capture of a guest whose mapped pages are gone: %v", err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := captureFile(t, g, 4096)
			a, err := restoreFile(t, r, f, 4096)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if err := f.Truncate(4096); err != nil {
				t.Fatal(err)
			}
			tc.touch(t, a)
			if got := evalIn(t, r, g, wasmexec.JavaScript, "1 + 1"); got != "2" {
				t.Fatalf("another guest after the fault: %s", got)
			}
		})
	}
}
