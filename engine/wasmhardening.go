package engine

import (
	"fmt"
	"sync"

	"github.com/bytecodealliance/wasmtime-go/v25"
)

// Mitigations for published wasmtime advisories that affect the pinned
// wasmtime 25.0.0 (see docs/SECURITY.md for the list, and which ones we are
// exposed to).

// engineHardening is the per-engine state of the mitigations.
type engineHardening struct {
	// typePin keeps one registration of every host function type the
	// guests' linkers define, for the engine's whole life (see pinTypes).
	typePin *wasmtime.Linker

	// shim, scratch and wasi serve each guest's WASI shims (wasishim.go).
	shim, scratch *wasmtime.Module
	wasi          *wasmtime.Linker

	viewsMu sync.Mutex
	views   *imageViews // read-only image directories (readonly.go)
}

// hardenConfig turns off the WebAssembly proposals that advisories against
// wasmtime 25.0.0 need and the guest images don't use, so that a module
// using them is refused when it is compiled:
//   - tail calls (GHSA-q8hx-mm92-4wvg, see disableTailCalls);
//   - SIMD and relaxed SIMD: Cranelift miscompiles f64x2.splat on x86-64
//     into a load outside the sandbox or a crash (GHSA-qqfj-4vcm-26hv);
//   - threads, so no memory can be shared (GHSA-hc7m-r6v8-hg9q is about
//     host access to shared memories).
//
// Changing these changes engineConfigKey: modules are compiled again.
func hardenConfig(wc *wasmtime.Config) {
	disableTailCalls(wc)
	wc.SetWasmSIMD(false)
	wc.SetWasmRelaxedSIMD(false)
	wc.SetWasmThreads(false)
}

// harden sets up the engine-wide part of the mitigations.
func (e *Engine) harden() error {
	if err := e.prepareShim(); err != nil {
		return err
	}
	return e.pinTypes()
}

// pinTypes works around GHSA-7qmx-3fpx-r45m (CVE-2024-47813): in wasmtime
// 19–25.0.1 an engine's type registry can unregister a type twice when
// types are created and dropped concurrently on several threads, which
// panics inside wasmtime (the process aborts) and can corrupt the registry.
// Every guest start creates and drops a linker full of host function types
// on its own goroutine, so a busy server hits it: 8 goroutines building and
// closing WASI linkers abort in well under a second.
//
// The race is in the step where a type's registration count drops to zero.
// A linker that defines every host function type the guests' linkers
// define, kept for the engine's life, holds one registration of each, so
// no count ever drops to zero and no type is ever unregistered. Module
// types are held by the images, which live as long as the engine.
func (e *Engine) pinTypes() error {
	l, err := newLinker(e.wt)
	if err != nil {
		return fmt.Errorf("pin host function types: %w", err)
	}
	e.hard.typePin = l
	return nil
}

// releaseHardening undoes what the engine's mitigations set up.
func (e *Engine) releaseHardening() error {
	if e.hard.typePin != nil {
		e.hard.typePin.Close()
		e.hard.typePin = nil
	}
	if e.hard.wasi != nil {
		e.hard.wasi.Close()
		e.hard.wasi = nil
	}
	return e.releaseViews()
}

// WASI error numbers the shadows below return.
const (
	wasiErrnoNotsup = 58
	wasiErrnoPerm   = 63
)

// fdRenumber replaces WASI fd_renumber, refusing it (ENOTSUP). wasmtime
// 25.0.0's own implementation corrupts its descriptor table when asked to
// renumber a descriptor onto itself or onto a closed number: the next
// path_open panics in the host and aborts the server (GHSA-fm79-3f68-h2fc,
// CVE-2025-53901); and renumbering onto an open descriptor leaks the host
// file it replaced (GHSA-3p27-qvp9-27qf). Neither guest image imports
// fd_renumber today (wasi-libc has no dup2), so refusing it costs nothing
// and keeps a future image from reaching the bug.
func (g *Guest) fdRenumber(_ *wasmtime.Caller, from, to int32) int32 {
	return wasiErrnoNotsup
}
