package engine_test

import (
	"context"
	"os"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/pipeline"
)

// spareFile restores a guest made ahead of its run (a template's spare)
// from f.
func spareFile(t *testing.T, r *pipeline.Pipeline, f *os.File, off int64) *engine.Guest {
	t.Helper()
	g, err := r.RestoreGuestFile(context.Background(), wasmexec.GuestSpec{Language: wasmexec.JavaScript, Workspace: t.TempDir(), Spare: true}, f, off)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g.(*engine.Guest)
}

// A guest made ahead from a template's state finds the pages the last
// measured run from it wrote already copied in, with the state's bytes in
// them; one in engine.RelearnEvery measures again instead.
func TestSpareGuestPopulatesLearnedPages(t *testing.T) {
	r := hibRunner(t, wasmexec.JavaScript)
	g, _ := keptGuest(t, r, wasmexec.JavaScript)
	want := evalIn(t, r, g, wasmexec.JavaScript, bigJS)
	f := captureFile(t, g, 4096)
	const write = "data.subarray(1 << 20, 2 << 20).reverse(); data.subarray(1 << 20, 2 << 20).reverse(); digest()" // 256 pages, same bytes

	// Nothing learned yet: the first measures what its run writes.
	a := spareFile(t, r, f, 4096)
	fresh := engine.WrittenMappedPages(a)
	if got := evalIn(t, r, a, wasmexec.JavaScript, write); got != want {
		t.Fatalf("digest %s, want %s", got, want)
	}
	a.Close()

	b := spareFile(t, r, f, 4096)
	populated := engine.WrittenMappedPages(b)
	if populated < fresh+256 {
		t.Fatalf("a guest made ahead owns %d mapped pages before its run, want at least %d (the %d a guest owns at its start and the 256 the last run wrote)", populated, fresh+256, fresh)
	}
	if got := evalIn(t, r, b, wasmexec.JavaScript, "digest()"); got != want {
		t.Fatalf("populated pages: digest %s, want the state's %s", got, want)
	}
	b.Close()

	// Every RelearnEvery'th is left as it is, to measure again.
	unpopulated := 0
	for range engine.RelearnEvery {
		c := spareFile(t, r, f, 4096)
		if engine.WrittenMappedPages(c) < fresh+256 {
			unpopulated++
		}
		evalIn(t, r, c, wasmexec.JavaScript, write)
		c.Close()
	}
	if unpopulated != 1 {
		t.Fatalf("%d of %d guests made ahead were left to measure, want 1", unpopulated, engine.RelearnEvery)
	}
}
