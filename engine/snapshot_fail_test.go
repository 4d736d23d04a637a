package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// An image that asks for a snapshot and can't have one is refused when it is
// loaded (make prepare), with the failing step in the error: never a guest
// that starts half-initialized at run time.
func TestSnapshotFailureRefusesTheImage(t *testing.T) {
	// (module (memory (export "memory") 1) (global (mut i32) (i32.const 0))
	//   (func (export "init")))
	wasm := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
		0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type: () -> ()
		0x03, 0x02, 0x01, 0x00, // func 0
		0x05, 0x03, 0x01, 0x00, 0x01, // memory 1 page
		0x06, 0x06, 0x01, 0x7f, 0x01, 0x41, 0x00, 0x0b, // global mut i32 = 0
		0x07, 0x11, 0x02, 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00, 0x04, 'i', 'n', 'i', 't', 0x00, 0x00,
		0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b, // code: empty body
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tiny.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	spec := `{"name": "tiny-broken", "wasm": "tiny.wasm", "argv": ["tiny"], "init": ["init", "wasmexec_no_such_init"], "entry": "init", "snapshot": true}`
	if err := os.WriteFile(filepath.Join(dir, "guest.json"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := testenv.Engine(t).LoadImage(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "snapshot guest image tiny-broken") || !strings.Contains(err.Error(), "wasmexec_no_such_init") {
		t.Fatalf("LoadImage: %v", err)
	}
}
