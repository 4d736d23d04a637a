package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v25"

	"github.com/wasmexec/wasmexec"
)

// Tests for the mitigations of wasmtime 25.0.0's advisories (docs/SECURITY.md).

// GHSA-7qmx-3fpx-r45m: building and dropping linkers on several goroutines
// at once (what concurrent guest starts do) raced in the engine's type
// registry; wasmtime panicked ("attempt to deallocate an entry that is
// already vacant") and the process aborted, typically within 0.1 s here.
// With the engine pinning every host function type, it survives.
func TestTypeRegistryRace(t *testing.T) {
	if !isolated(t) {
		return
	}
	e, _ := MustTestEngine(t)
	deadline := time.Now().Add(1500 * time.Millisecond)
	var wg sync.WaitGroup
	var mu sync.Mutex
	built := 0
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			for time.Now().Before(deadline) {
				l, err := newLinker(e.wt)
				if err != nil {
					t.Error(err)
					return
				}
				l.Close()
				if n++; n%64 == 0 {
					runtime.GC() // finalizers drop the FuncTypes FuncWrap made
				}
			}
			mu.Lock()
			built += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	t.Logf("%d linkers built and dropped concurrently", built)
}

// GHSA-fm79-3f68-h2fc (CVE-2025-53901): fd_renumber of a descriptor onto
// itself corrupted wasmtime's descriptor table and the next path_open
// panicked in the host, aborting the process. GHSA-3p27-qvp9-27qf:
// renumbering onto an open descriptor leaked the host file. fd_renumber is
// refused (ENOTSUP) and the guest's next path_open works.
func TestFdRenumberRefused(t *testing.T) {
	if !isolated(t) {
		return
	}
	e, _ := MustTestEngine(t)
	img := MustWatImage(t, e, "hostile", nil, nil)
	ws := t.TempDir()
	h := MustStartHostile(t, img, GuestOptions{Workspace: ws}) // fd 3 is /workspace
	const rightsRW = 1<<1 | 1<<6
	for _, tc := range []struct{ from, to uint32 }{{3, 3}, {3, 9}, {0, 3}, {3, 0}} {
		if errno, _ := h.result(opRenumber, tc.from, tc.to); errno != wasiErrnoNotsup {
			t.Fatalf("fd_renumber(%d, %d) = %d, want ENOTSUP (%d)", tc.from, tc.to, errno, wasiErrnoNotsup)
		}
	}
	errno, fd := h.resultData(opPathOpen, []uint32{3, dataAddr, 5, 1 /* creat */, rightsRW, 0, 0}, []byte("x.txt"))
	if errno != 0 || fd < 4 {
		t.Fatalf("path_open after fd_renumber = errno %d, fd %d", errno, fd)
	}
	if _, err := os.Stat(filepath.Join(ws, "x.txt")); err != nil {
		t.Fatal(err)
	}
}

// GHSA-q8hx-mm92-4wvg (CVE-2024-47763): a wasm function tail-calling a host
// function that traps aborted the process. The engine has tail calls off,
// so such a module doesn't load; and if one did, the isolated test process
// would die at its first call.
func TestTailCallsRefused(t *testing.T) {
	if !isolated(t) {
		return
	}
	e, _ := MustTestEngine(t)
	src, err := os.ReadFile(filepath.Join("testdata", "tailcall.wat"))
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := wasmtime.Wat2Wasm(string(src))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec, _ := json.Marshal(ImageSpec{Name: "tailcall", Wasm: "tailcall.wasm"})
	os.WriteFile(filepath.Join(dir, "tailcall.wasm"), wasm, 0o644)
	os.WriteFile(filepath.Join(dir, "guest.json"), spec, 0o644)
	img, err := e.LoadImage(context.Background(), dir)
	if err != nil {
		if !strings.Contains(err.Error(), "tail call") {
			t.Fatalf("load failed, but not for its tail call: %v", err)
		}
		return
	}
	g, err := img.Start(context.Background(), GuestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	g.Call(context.Background(), wasmexec.CallInput{Payload: []byte("x"), Fuel: 1 << 30, Output: wasmexec.NewOutput(wasmexec.CaptureAll, 1024, nil)})
	t.Fatal("a module with tail calls was accepted")
}

// GHSA-qqfj-4vcm-26hv (f64x2.splat miscompiled on x86-64) and
// GHSA-hc7m-r6v8-hg9q (shared memories): SIMD and threads are off, so a
// module using either is refused when it is compiled.
func TestSIMDAndSharedMemoryRefused(t *testing.T) {
	e, _ := MustTestEngine(t)
	for _, tc := range []struct{ name, wat, want string }{
		{"f64x2.splat", `(module (func (export "f") (param f64) (result v128) (f64x2.splat (local.get 0))))`, "SIMD"},
		{"shared memory", `(module (memory (export "memory") 1 1 shared))`, "threads"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wasm, err := wasmtime.Wat2Wasm(tc.wat)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := wasmtime.NewModule(e.wt, wasm); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("compiled (%v), want an error mentioning %s", err, tc.want)
			}
		})
	}
}
