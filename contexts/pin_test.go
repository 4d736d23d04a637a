package contexts_test

import (
	"context"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
)

// A context created without a language has no guest until its first run,
// which pins it to that language's family; later runs of another family
// are refused, and a reset keeps the pin.
func TestPinnedByFirstRun(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	d, err := m.Create(context.Background(), &wasmexec.ContextSpec{ContextID: "free"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Language != "" || d.State != wasmexec.ContextIdle {
		t.Fatalf("unpinned descriptor: %+v", d)
	}
	// A reset before the first run is harmless.
	if _, err := m.Reset(context.Background(), "free"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.WriteFile(context.Background(), "free", "a.txt", []byte("hi")); err != nil {
		t.Fatal(err)
	}
	wantValue(t, MustRun(t, m, "free", wasmexec.Request{Language: otherJS, Code: "globalThis.x = 41; fs.readFileSync('a.txt', 'utf8')"}), `"hi"`)
	if d := mustGet(t, m, "free"); d.Language != otherJS {
		t.Fatalf("pinned to %q, want %q", d.Language, otherJS)
	}
	_, err = tryRun(m, "free", wasmexec.Request{Language: wasmexec.JavaScript, Code: "1"})
	wantCode(t, err, wasmexec.ELanguageMismatch)
	wantValue(t, MustRun(t, m, "free", wasmexec.Request{Language: otherJS, Code: "x + 1"}), "42")
	if _, err := m.Reset(context.Background(), "free"); err != nil {
		t.Fatal(err)
	}
	wantValue(t, MustRun(t, m, "free", wasmexec.Request{Language: otherJS, Code: "typeof x"}), `"undefined"`)
	_, err = tryRun(m, "free", wasmexec.Request{Language: wasmexec.JavaScript, Code: "1"})
	wantCode(t, err, wasmexec.ELanguageMismatch)
}
