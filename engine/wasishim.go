package engine

import (
	"encoding/binary"
	"fmt"
	"strings"

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
//   - every call that takes a path loses the path's trailing slashes on the
//     way in (wasipaths.go: GHSA-vqjp-4c8c-hfgg).

// shimFuncs are the WASI functions the shim forwards to, with their
// parameter types (all return an errno), in the order of shimFunc.
var shimFuncs = []struct{ name, params string }{
	shimPathOpen:             {"path_open", "i32 i32 i32 i32 i32 i64 i64 i32 i32"},
	shimFdClose:              {"fd_close", "i32"},
	shimFdReaddir:            {"fd_readdir", "i32 i32 i32 i64 i32"},
	shimPathCreateDirectory:  {"path_create_directory", "i32 i32 i32"},
	shimPathFilestatGet:      {"path_filestat_get", "i32 i32 i32 i32 i32"},
	shimPathFilestatSetTimes: {"path_filestat_set_times", "i32 i32 i32 i32 i64 i64 i32"},
	shimPathLink:             {"path_link", "i32 i32 i32 i32 i32 i32 i32"},
	shimPathReadlink:         {"path_readlink", "i32 i32 i32 i32 i32 i32"},
	shimPathRemoveDirectory:  {"path_remove_directory", "i32 i32 i32"},
	shimPathRename:           {"path_rename", "i32 i32 i32 i32 i32 i32"},
	shimPathUnlinkFile:       {"path_unlink_file", "i32 i32 i32"},
}

type shimFunc int

const (
	shimPathOpen shimFunc = iota
	shimFdClose
	shimFdReaddir
	shimPathCreateDirectory
	shimPathFilestatGet
	shimPathFilestatSetTimes
	shimPathLink
	shimPathReadlink
	shimPathRemoveDirectory
	shimPathRename
	shimPathUnlinkFile
)

// scratchFuncs are what the scratch shim forwards: calls the host makes
// with paths of its own (wasipaths.go), from the scratch shim's own page
// of memory instead of the guest's.
var scratchFuncs = []shimFunc{shimPathOpen, shimPathFilestatGet}

// wasishimWat is a shim's text: for each of funcs, an import from
// "wasmexec_shim" and an export of the same name that calls it. Its memory
// is the guest's (imported) or, for the scratch shim, a page of its own.
func wasishimWat(funcs []shimFunc, ownMemory bool) string {
	var b strings.Builder
	b.WriteString("(module\n")
	if !ownMemory {
		b.WriteString("  (import \"wasmexec_shim\" \"memory\" (memory 0))\n")
	}
	for _, i := range funcs {
		f := shimFuncs[i]
		fmt.Fprintf(&b, "  (import \"wasmexec_shim\" %q (func $%s (param %s) (result i32)))\n", f.name, f.name, f.params)
	}
	if ownMemory {
		b.WriteString("  (memory (export \"memory\") 1)\n")
	} else {
		b.WriteString("  (export \"memory\" (memory 0))\n")
	}
	for _, i := range funcs {
		f := shimFuncs[i]
		fmt.Fprintf(&b, "  (func (export %q) (param %s) (result i32)", f.name, f.params)
		for i := range strings.Fields(f.params) {
			fmt.Fprintf(&b, " (local.get %d)", i)
		}
		fmt.Fprintf(&b, " (call $%s))\n", f.name)
	}
	b.WriteString(")")
	return b.String()
}

// maxGuestFiles is how many descriptors a guest may have open at once
// besides its preopens and stdio. CPython and Go programs rarely hold more
// than a few dozen; 128 guests at the limit (64 contexts, 32 processes, 16
// one-shot runs and the pools) stay under a 20000 RLIMIT_NOFILE.
const maxGuestFiles = 128

const (
	wasiErrnoBadf  = 8
	wasiErrnoMfile = 33
)

// prepareShim compiles the shim and keeps a linker with wasmtime's own WASI
// functions, from which each guest's shim imports them.
func (e *Engine) prepareShim() error {
	all := make([]shimFunc, len(shimFuncs))
	for i := range all {
		all[i] = shimFunc(i)
	}
	for _, m := range []struct {
		mod       **wasmtime.Module
		funcs     []shimFunc
		ownMemory bool
	}{{&e.hard.shim, all, false}, {&e.hard.scratch, scratchFuncs, true}} {
		wasm, err := wasmtime.Wat2Wasm(wasishimWat(m.funcs, m.ownMemory))
		if err != nil {
			return fmt.Errorf("WASI shim: %w", err)
		}
		if *m.mod, err = wasmtime.NewModule(e.wt, wasm); err != nil {
			return fmt.Errorf("WASI shim: %w", err)
		}
	}
	e.hard.wasi = wasmtime.NewLinker(e.wt)
	if err := e.hard.wasi.DefineWasi(); err != nil {
		return fmt.Errorf("WASI shim: %w", err)
	}
	return nil
}

// wasiShim is one guest's shim instance and its descriptor count.
type wasiShim struct {
	funcs []*wasmtime.Func // by shimFunc
	// open: the descriptors path_open returned, with the path each was
	// opened at (wasipaths.go).
	open map[int32]fdPath
	// scratch: the scratch shim's functions (by shimFunc) and memory.
	scratch    map[shimFunc]*wasmtime.Func
	scratchMem *wasmtime.Memory
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
	for _, f := range shimFuncs {
		fn := h.wasi.Get(g.store, "wasi_snapshot_preview1", f.name)
		if fn == nil {
			return fmt.Errorf("WASI shim: wasi_snapshot_preview1.%s is not defined", f.name)
		}
		if err := l.Define(g.store, "wasmexec_shim", f.name, fn); err != nil {
			return fmt.Errorf("WASI shim: %w", err)
		}
	}
	inst, err := l.Instantiate(g.store, h.shim)
	if err != nil {
		return fmt.Errorf("WASI shim: %w", err)
	}
	scratch, err := l.Instantiate(g.store, h.scratch)
	if err != nil {
		return fmt.Errorf("WASI scratch shim: %w", err)
	}
	s := &wasiShim{funcs: make([]*wasmtime.Func, len(shimFuncs)), open: map[int32]fdPath{}, scratch: map[shimFunc]*wasmtime.Func{}}
	for i, f := range shimFuncs {
		if s.funcs[i] = inst.GetFunc(g.store, f.name); s.funcs[i] == nil {
			return fmt.Errorf("WASI shim: no export %s", f.name)
		}
	}
	for _, i := range scratchFuncs {
		if s.scratch[i] = scratch.GetFunc(g.store, shimFuncs[i].name); s.scratch[i] == nil {
			return fmt.Errorf("WASI scratch shim: no export %s", shimFuncs[i].name)
		}
	}
	if ext := scratch.GetExport(g.store, "memory"); ext != nil {
		s.scratchMem = ext.Memory()
	}
	if s.scratchMem == nil {
		return fmt.Errorf("WASI scratch shim: no memory")
	}
	g.shim = s
	return nil
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
	// "x/" follows x and must be a directory (wasipaths.go).
	if n, trimmed := trimTrailingSlashes(g.memory(caller), path, pathLen); trimmed {
		if oflags&wasiOflagsCreat != 0 {
			return wasiErrnoIsdir, nil
		}
		pathLen, oflags, lookup = n, oflags|wasiOflagsDirectory, lookup|wasiLookupSymlinkFollow
	}
	errno, trap = callShim(caller, s.funcs[shimPathOpen], shimPathOpen, dirfd, lookup, path, pathLen, oflags, rightsBase, rightsInheriting, fdflags, out)
	name := g.pathString(caller, path, pathLen)
	var at fdPath
	if errno == wasiErrnoPerm && trap == nil {
		// A path that climbs above a directory descriptor: from the
		// workspace instead (wasipaths.go).
		if full, ok := g.workspacePath(dirfd, name); ok {
			errno, trap = g.scratchPathOpen(caller, lookup, full, oflags, rightsBase, rightsInheriting, fdflags, out)
			at = fdPath{rel: full, known: true}
		}
	} else if errno == 0 && trap == nil {
		at = g.fdPathOf(dirfd, name)
	}
	if errno == 0 && trap == nil {
		if b := span(g.memory(caller), out, 4); b != nil {
			s.open[int32(binary.LittleEndian.Uint32(b))] = at
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
	errno, trap = callShim(caller, s.funcs[shimFdClose], shimFdClose, fd)
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
	errno, trap = callShim(caller, s.funcs[shimFdReaddir], shimFdReaddir, fd, buf, bufLen, cookie, used)
	if errno != 0 || trap != nil {
		return errno, trap
	}
	mem := g.memory(caller)
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
