package engine

import (
	"encoding/binary"
	"fmt"

	"github.com/bytecodealliance/wasmtime-go/v25"
)

// Checking WASI calls on the host, then handing them to wasmtime's own
// implementation.
//
// A host function that shadows a WASI import can't simply call the
// original: wasmtime's implementation finds the guest memory through the
// instance that called it, and a call from Go has none (docs/RATIONALE.md).
// So each guest gets a tiny second instance in its store, the shim
// (wasishimWat): it imports the guest's exported memory and re-exports it
// as its own "memory", imports the original WASI functions, and exports
// functions that just call them. A shadow checks its arguments, calls the
// shim's export from Go, and the original WASI function runs with the shim
// as its caller, so with the guest's memory.
//
// The shadows:
//   - path_open and fd_close count the descriptors a guest has open and
//     refuse more than maxGuestFiles (EMFILE). wasmtime 25.0.0 puts no limit
//     on them (GHSA-852m-cvvp-9p4w): one guest holding a few ten thousand
//     host descriptors exhausts the server's own (RLIMIT_NOFILE is 20000
//     here), and in a context it keeps them across runs.
//   - fd_readdir zeroes the padding of the directory entries it returns:
//     wasmtime 25.0.0 leaves three bytes of each uninitialized, so guests
//     could read host heap bytes (GHSA-96f6-r43r-8c24).
const wasishimWat = `(module
  (import "wasmexec_shim" "memory" (memory 0))
  (import "wasmexec_shim" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasmexec_shim" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasmexec_shim" "fd_readdir" (func $fd_readdir (param i32 i32 i32 i64 i32) (result i32)))
  (export "memory" (memory 0))
  (func (export "path_open") (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)
    (call $path_open (local.get 0) (local.get 1) (local.get 2) (local.get 3) (local.get 4)
      (local.get 5) (local.get 6) (local.get 7) (local.get 8)))
  (func (export "fd_close") (param i32) (result i32)
    (call $fd_close (local.get 0)))
  (func (export "fd_readdir") (param i32 i32 i32 i64 i32) (result i32)
    (call $fd_readdir (local.get 0) (local.get 1) (local.get 2) (local.get 3) (local.get 4))))`

// maxGuestFiles is how many descriptors a guest may have open at once
// besides its preopens and stdio. CPython and Go programs rarely hold more
// than a few dozen; 128 guests at the limit (64 contexts, 32 processes, 16
// one-shot runs and the pools) stay under a 20000 RLIMIT_NOFILE.
const maxGuestFiles = 128

const (
	wasiErrnoBadf  = 8
	wasiErrnoMfile = 33
)

// shimFuncs are the WASI functions the shim forwards to.
var shimFuncs = []string{"path_open", "fd_close", "fd_readdir"}

// prepareShim compiles the shim and keeps a linker with wasmtime's own WASI
// functions, from which each guest's shim imports them.
func (e *Engine) prepareShim() error {
	wasm, err := wasmtime.Wat2Wasm(wasishimWat)
	if err != nil {
		return fmt.Errorf("WASI shim: %w", err)
	}
	if e.hard.shim, err = wasmtime.NewModule(e.wt, wasm); err != nil {
		return fmt.Errorf("WASI shim: %w", err)
	}
	e.hard.wasi = wasmtime.NewLinker(e.wt)
	if err := e.hard.wasi.DefineWasi(); err != nil {
		return fmt.Errorf("WASI shim: %w", err)
	}
	return nil
}

// wasiShim is one guest's shim instance and its descriptor count.
type wasiShim struct {
	pathOpen, fdClose, fdReaddir *wasmtime.Func
	open                         map[int32]struct{} // descriptors path_open returned
}

// startShim instantiates the guest's shim (after the guest, whose memory it
// imports). Until it exists, the shadows refuse with EBADF.
func (g *Guest) startShim() error {
	h := &g.img.engine.hard
	l := wasmtime.NewLinker(g.img.engine.wt)
	defer l.Close()
	if err := l.Define(g.store, "wasmexec_shim", "memory", g.mem); err != nil {
		return fmt.Errorf("WASI shim: %w", err)
	}
	for _, name := range shimFuncs {
		fn := h.wasi.Get(g.store, "wasi_snapshot_preview1", name)
		if fn == nil {
			return fmt.Errorf("WASI shim: wasi_snapshot_preview1.%s is not defined", name)
		}
		if err := l.Define(g.store, "wasmexec_shim", name, fn); err != nil {
			return fmt.Errorf("WASI shim: %w", err)
		}
	}
	inst, err := l.Instantiate(g.store, h.shim)
	if err != nil {
		return fmt.Errorf("WASI shim: %w", err)
	}
	g.shim = &wasiShim{
		pathOpen:  inst.GetFunc(g.store, "path_open"),
		fdClose:   inst.GetFunc(g.store, "fd_close"),
		fdReaddir: inst.GetFunc(g.store, "fd_readdir"),
		open:      map[int32]struct{}{},
	}
	return nil
}

// shimResult turns what a shim call returned into the WASI result: an
// errno, or a trap when wasmtime's function trapped (it does for an exit or
// a host error, never for a bad argument).
func shimResult(name string, r any, err error) (int32, *wasmtime.Trap) {
	if err != nil {
		return 0, wasmtime.NewTrap(fmt.Sprintf("wasmexec: WASI %s: %v", name, trapCause(err)))
	}
	errno, ok := r.(int32)
	if !ok {
		return 0, wasmtime.NewTrap(fmt.Sprintf("wasmexec: WASI %s returned %T", name, r))
	}
	return errno, nil
}

func (g *Guest) pathOpen(caller *wasmtime.Caller, dirfd, lookup, path, pathLen, oflags int32, rightsBase, rightsInheriting int64, fdflags, out int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("path_open", &trap)
	s := g.shim
	if s == nil {
		return wasiErrnoBadf, nil
	}
	if len(s.open) >= maxGuestFiles {
		return wasiErrnoMfile, nil
	}
	r, err := s.pathOpen.Call(caller, dirfd, lookup, path, pathLen, oflags, rightsBase, rightsInheriting, fdflags, out)
	errno, trap = shimResult("path_open", r, err)
	if errno == 0 && trap == nil {
		if b := span(guestMemory(caller), out, 4); b != nil {
			s.open[int32(binary.LittleEndian.Uint32(b))] = struct{}{}
		}
	}
	return errno, trap
}

func (g *Guest) fdClose(caller *wasmtime.Caller, fd int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("fd_close", &trap)
	s := g.shim
	if s == nil {
		return wasiErrnoBadf, nil
	}
	r, err := s.fdClose.Call(caller, fd)
	errno, trap = shimResult("fd_close", r, err)
	if errno == 0 && trap == nil {
		delete(s.open, fd)
	}
	return errno, trap
}

// direntSize is the fixed part of a WASI dirent: d_next u64, d_ino u64,
// d_namlen u32, d_type u8 and three bytes of padding, then the name.
const direntSize = 24

func (g *Guest) fdReaddir(caller *wasmtime.Caller, fd, buf, bufLen int32, cookie int64, used int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("fd_readdir", &trap)
	s := g.shim
	if s == nil {
		return wasiErrnoBadf, nil
	}
	r, err := s.fdReaddir.Call(caller, fd, buf, bufLen, cookie, used)
	errno, trap = shimResult("fd_readdir", r, err)
	if errno != 0 || trap != nil {
		return errno, trap
	}
	mem := guestMemory(caller)
	n := span(mem, used, 4)
	if n == nil {
		return errno, nil
	}
	entries := span(mem, buf, int32(min(binary.LittleEndian.Uint32(n), uint32(bufLen))))
	zeroDirentPadding(entries)
	return errno, nil
}

// zeroDirentPadding clears the padding bytes of the entries in b, the last
// of which may be cut short.
func zeroDirentPadding(b []byte) {
	for off := 0; off+direntSize-3 < len(b); {
		end := min(off+direntSize, len(b))
		clear(b[off+direntSize-3 : end])
		if off+direntSize > len(b) {
			return
		}
		off += direntSize + int(binary.LittleEndian.Uint32(b[off+16:]))
	}
}
