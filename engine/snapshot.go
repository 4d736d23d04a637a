package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v25"
)

// snapshotVersion is part of the cache key of snapshotted modules; bump it
// when the snapshot format or procedure changes.
const snapshotVersion = "snapshot-v4" // v4: tables exported (__wasmexec_table_N)

// buildSnapshot runs the image's Init functions once in a throwaway
// instance, then its entry for one warm-up request, and returns the module
// rewritten so that its initial memory and globals are the state after
// them (what wizer does for Rust guests). A guest of the rewritten module
// starts already initialized and warm: its entry function is called
// directly, and instantiation maps the initialized memory copy-on-write
// instead of running the language runtime's start-up.
//
// The throwaway instance sees the same WASI layout as real guests (argv,
// image preopens, then /workspace) because runtimes record it during init;
// what differs per guest (environment, random seeds) the driver refreshes in
// its entry function.
func buildSnapshot(ctx context.Context, spec ImageSpec, dir string, wasm []byte) ([]byte, error) {
	secs, err := parseSections(wasm)
	if err != nil {
		return nil, err
	}
	var globals []wasmGlobal
	globalIdx, exportIdx, memIdx := -1, -1, -1
	importedG, importedT, definedT := 0, 0, 0
	for i, s := range secs {
		switch s.id {
		case secImport:
			var importsMemory bool
			if importedG, importedT, importsMemory, err = importedGlobals(s.payload); err != nil {
				return nil, fmt.Errorf("imports: %w", err)
			}
			if importsMemory {
				return nil, fmt.Errorf("modules that import their memory can't be snapshotted")
			}
		case secGlobal:
			globalIdx = i
			if globals, err = parseGlobals(s.payload); err != nil {
				return nil, fmt.Errorf("globals: %w", err)
			}
		case secExport:
			exportIdx = i
		case secMemory:
			memIdx = i
		case secTable:
			if n, _, err := uleb(s.payload); err == nil {
				definedT = int(n)
			}
		}
	}
	if globalIdx < 0 || exportIdx < 0 || memIdx < 0 {
		return nil, fmt.Errorf("module lacks a global, export or memory section")
	}

	// 1. Export every mutable global so its value can be read after init.
	var extra [][]byte
	for i, g := range globals {
		if g.mutable {
			extra = append(extra, exportEntry(fmt.Sprintf("__wasmexec_global_%d", i), 3, uint32(importedG+i)))
		}
	}
	// ... and every table, so a capture can record its size (hibernate.go).
	for i := range importedT + definedT {
		extra = append(extra, exportEntry(fmt.Sprintf("%s%d", tableExportPrefix, i), 1, uint32(i)))
	}
	instrumented := append([]wasmSection(nil), secs...)
	if instrumented[exportIdx].payload, err = addExports(secs[exportIdx].payload, extra); err != nil {
		return nil, err
	}

	// 2. Run the init functions. Speed of this one-off compile matters more
	// than the code's: no optimization, no fuel, no epochs.
	cfg := wasmtime.NewConfig()
	cfg.SetCraneliftOptLevel(wasmtime.OptLevelNone)
	eng := wasmtime.NewEngineWithConfig(cfg)
	mod, err := wasmtime.NewModule(eng, encodeSections(instrumented))
	if err != nil {
		return nil, fmt.Errorf("compile the instrumented module: %w", err)
	}
	store := wasmtime.NewStore(eng)
	defer store.Close()
	ws, err := os.MkdirTemp("", "wasmexec-snapshot-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(ws)
	wasi := wasmtime.NewWasiConfig()
	wasi.SetArgv(spec.Argv)
	keys, vals := guestEnv(spec.Env, GuestOptions{Workspace: ws})
	wasi.SetEnv(keys, vals)
	for _, rel := range sortedKeys(spec.Preopens) {
		if err := wasi.PreopenDir(filepath.Join(dir, rel), spec.Preopens[rel]); err != nil {
			return nil, err
		}
	}
	if err := makeWorkspaceDirs(spec, ws); err != nil {
		return nil, err
	}
	if err := wasi.PreopenDir(ws, "/workspace"); err != nil {
		return nil, err
	}
	// The init's stderr goes into the error when it fails.
	stderrPath := filepath.Join(ws, ".init-stderr")
	if err := wasi.SetStderrFile(stderrPath); err != nil {
		return nil, err
	}
	initStderr := func() string {
		b, _ := os.ReadFile(stderrPath)
		if len(b) > 2000 {
			b = b[len(b)-2000:]
		}
		if len(b) == 0 {
			return ""
		}
		return "; guest stderr:\n" + string(b)
	}
	store.SetWasi(wasi)
	linker := wasmtime.NewLinker(eng)
	if err := linker.DefineWasi(); err != nil {
		return nil, err
	}
	ctl := &snapshotChannel{}
	for name, fn := range map[string]any{
		"recv":  ctl.recv,
		"send":  ctl.send,
		"write": func(_ int32, _ int32, n int32) (int32, *wasmtime.Trap) { return n, nil },   // dropped
		"read":  func(int32, int32) (int32, *wasmtime.Trap) { return 0, nil },                // EOF
		"fetch": func(int32, int32, int32, int32) (int32, *wasmtime.Trap) { return -1, nil }, // no network
	} {
		if err := linker.FuncWrap("wasmexec", name, fn); err != nil {
			return nil, err
		}
	}
	inst, err := linker.Instantiate(store, mod)
	if err != nil {
		return nil, fmt.Errorf("instantiate for snapshot: %w", err)
	}
	for _, name := range spec.Init {
		fn := inst.GetFunc(store, name)
		if fn == nil {
			return nil, fmt.Errorf("init function %q is not exported", name)
		}
		if _, err := fn.Call(store); err != nil {
			return nil, fmt.Errorf("run %s for the snapshot: %w%s", name, err, initStderr())
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// 3. Serve the warm-up request once, so its first-request costs (Go's
	// JSON codecs built by reflection, the interpreter's first compile) are
	// paid here and are part of the snapshot instead of being paid by
	// every pre-started guest (see warmUp). Then recv says there are no
	// more requests (or, to a driver that suspends, -2: suspend, so that
	// its entry may be called again, as after a restore) and the entry
	// returns.
	if spec.Entry != "" && spec.SnapshotWarmUp {
		if spec.Suspend {
			ctl.done = recvSuspend
		}
		entry := inst.GetFunc(store, spec.Entry)
		if entry == nil {
			return nil, fmt.Errorf("entry function %q is not exported", spec.Entry)
		}
		ctl.warming = true
		if _, err := entry.Call(store); err != nil {
			return nil, fmt.Errorf("serve the warm-up request for the snapshot: %w", err)
		}
		if err := ctl.check(); err != nil {
			return nil, err
		}
	}

	// 4. Write the state back as the module's initial state.
	memExt := inst.GetExport(store, "memory")
	if memExt == nil || memExt.Memory() == nil {
		return nil, fmt.Errorf("module exports no memory")
	}
	mem := memExt.Memory().UnsafeData(store)
	for i := range globals {
		if !globals[i].mutable {
			continue
		}
		ext := inst.GetExport(store, fmt.Sprintf("__wasmexec_global_%d", i))
		if ext == nil || ext.Global() == nil {
			return nil, fmt.Errorf("global %d was not exported", i)
		}
		v := ext.Global().Get(store)
		var bits uint64
		switch globals[i].valType {
		case 0x7f:
			bits = uint64(uint32(v.I32()))
		case 0x7e:
			bits = uint64(v.I64())
		case 0x7d:
			bits = uint64(mathFloat32bits(v.F32()))
		case 0x7c:
			bits = mathFloat64bits(v.F64())
		}
		if globals[i].init, err = constInit(globals[i].valType, bits); err != nil {
			return nil, err
		}
	}
	data, nseg := dataSegments(mem)
	var out []wasmSection
	for i, s := range secs {
		switch {
		case s.id == secStart || s.id == secData || s.id == secDataCount:
			continue // dropped: replaced below (data) or must not run again (start)
		case i == globalIdx:
			s.payload = encodeGlobals(globals)
		case i == exportIdx:
			// The mutable globals stay exported: a guest is captured and
			// restored through them (hibernate.go).
			s.payload = instrumented[exportIdx].payload
		case i == memIdx:
			if s.payload, err = memorySection(s.payload, uint64(len(mem))/65536); err != nil {
				return nil, err
			}
		}
		out = append(out, s)
	}
	out = insertDataSections(out, data, nseg)
	return encodeSections(out), nil
}

// snapshotChannel is the control channel of the throwaway instance: closed
// while the Init functions run, then it hands the entry warmUpRequest once
// and reports no further requests.
type snapshotChannel struct {
	warming bool
	served  bool
	reply   []byte
	done    int32 // what recv says after the warm-up: -1, or recvSuspend
}

func (c *snapshotChannel) recv(caller *wasmtime.Caller, ptr, capacity int32) (int32, *wasmtime.Trap) {
	if !c.warming {
		return 0, wasmtime.NewTrap("wasmexec: the control channel is not available during snapshot init")
	}
	if c.served {
		return min(c.done, -1), nil
	}
	n := int32(len(warmUpRequest))
	if n > capacity {
		return n, nil // the driver asks again with a larger buffer
	}
	dst := span(guestMemory(caller), ptr, n)
	if dst == nil {
		return 0, wasmtime.NewTrap("wasmexec: recv buffer out of bounds")
	}
	copy(dst, warmUpRequest)
	c.served = true
	return n, nil
}

func (c *snapshotChannel) send(caller *wasmtime.Caller, ptr, n int32) *wasmtime.Trap {
	src := span(guestMemory(caller), ptr, n)
	if !c.served || src == nil {
		return wasmtime.NewTrap("wasmexec: unexpected send during snapshot warm-up")
	}
	c.reply = append([]byte(nil), src...)
	return nil
}

// check says whether the warm-up request was served and succeeded.
func (c *snapshotChannel) check() error {
	var r struct {
		Status string `json:"status"`
	}
	if c.reply == nil || json.Unmarshal(c.reply, &r) != nil || r.Status != "ok" {
		return fmt.Errorf("the warm-up request failed during the snapshot: %.200s", c.reply)
	}
	return nil
}

// insertDataSections puts a data count section before the code section and
// the data section right after it, as the binary format orders them.
func insertDataSections(secs []wasmSection, data []byte, nseg int) []wasmSection {
	const secCode = 10
	var out []wasmSection
	for _, s := range secs {
		if s.id == secCode {
			out = append(out, wasmSection{id: secDataCount, payload: appendULEB(nil, uint64(nseg))})
			out = append(out, s)
			out = append(out, wasmSection{id: secData, payload: data})
			continue
		}
		out = append(out, s)
	}
	return out
}

// loadSnapshot returns the snapshotted module of an image from the cache,
// building and caching it when absent.
func (e *Engine) loadSnapshot(ctx context.Context, spec ImageSpec, dir, wasmPath, cachePath string) (*wasmtime.Module, error) {
	if mod, err := wasmtime.NewModuleDeserializeFile(e.wt, cachePath); err == nil {
		e.log.Info("guest image loaded from cache (snapshot)", "image", spec.Name, "cache", cachePath)
		return mod, nil
	}
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	e.log.Info("snapshotting guest image: running its initialization once", "image", spec.Name)
	snap, err := buildSnapshot(ctx, spec, dir, wasm)
	if err != nil {
		return nil, err
	}
	e.log.Info("guest image snapshotted", "image", spec.Name, "took", time.Since(start).Round(time.Millisecond).String(), "sizeMB", len(snap)>>20)
	snapPath := cachePath + ".wasm"
	if err := writeFileAtomic(snapPath, snap); err != nil {
		return nil, err
	}
	defer os.Remove(snapPath)
	return e.compile(ctx, spec.Name+" (snapshot)", snapPath, cachePath)
}
