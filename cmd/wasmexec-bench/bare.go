package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v25"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
)

func init() {
	register("bare", benchBare)
}

// The programs of the guest-vs-bare comparison: CPU-bound, a second or so
// of guest CPU, allocating (the interpreters' GCs run) as well as calling.
const (
	bareJS = `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
const xs = []
for (let i = 0; i < 30000; i++) xs.push({ i, s: "k" + (i % 1000) })
const m = new Map()
for (const x of xs) m.set(x.s, (m.get(x.s) || 0) + x.i)
fib(26) + m.size`
	barePython = "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n" +
		"d = {}\nfor i in range(300000):\n    d['k' + str(i % 1000)] = d.get('k' + str(i % 1000), 0) + i\n" +
		"fib(22) + len(d)"
)

// benchBare compares the CPU a program takes in the server with the CPU
// it takes in bare wasmtime: the same compiled module, the same engine
// configuration and the same driver protocol, minus everything wasmexec
// adds (see bareRun). Server CPU is the server process's user+sys time
// from the request until it is idle again, minus the same for an empty
// program (HTTP, store, guest start and the pool's refill); bare CPU is
// the harness thread's from the request's hand-over to the reply. Runs
// alternate; the ratio is the median of 7 paired runs (the machine's load
// drifts less within a pair). The fuel the server reports over that CPU
// is the fuel rate observed here.
func benchBare(t *table, srv *server, _ string) error {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e, err := engine.NewEngine(engine.EngineConfig{CacheDir: cacheDir(), Logger: log})
	if err != nil {
		return err
	}
	defer e.Close()
	var fuelRates []string
	var rates []float64
	for _, p := range []struct {
		lang  wasmexec.Language
		image string
		label string
		code  string
		drv   wasmexec.LanguageDriver
	}{
		{wasmexec.JavaScript, js.ImageName, "JS", bareJS, js.Driver{}},
		{wasmexec.Python, python.ImageName, "Python", barePython, python.Driver{}},
	} {
		img, err := e.LoadImage(context.Background(), filepath.Join(*imagesDir, p.image))
		if err != nil {
			t.add(p.label+" guest vs bare wasmtime", "skipped: "+firstLine(err.Error()), "")
			continue
		}
		req := &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: p.lang, Code: p.code}
		prep, err := p.drv.Prepare(context.Background(), req)
		if err != nil {
			return err
		}
		// What the engine adds to every request (the run's memory limit:
		// the JS guest sets its GC's soft limit from it).
		prep.Control.MemoryBytes = wasmexec.DefaultLimits().MemoryBytes
		payload, err := json.Marshal(prep.Control)
		if err != nil {
			return err
		}
		body, _ := json.Marshal(map[string]any{"language": p.lang, "code": p.code})
		empty, _ := json.Marshal(map[string]any{"language": p.lang, "code": "0"})
		var srvMs, emptyMs, bareMs, ratios []float64
		var fuel uint64
		for i := 0; i < 7; i++ {
			ms, res, err := srv.requestCPU(string(body))
			if err != nil {
				return fmt.Errorf("%s in the server: %w", p.label, err)
			}
			srvMs, fuel = append(srvMs, ms), res.FuelConsumed
			if ms, _, err = srv.requestCPU(string(empty)); err != nil {
				return fmt.Errorf("%s in the server: %w", p.label, err)
			}
			emptyMs = append(emptyMs, ms)
			b, err := bareRun(img, payload)
			if err != nil {
				return fmt.Errorf("%s in bare wasmtime: %w", p.label, err)
			}
			bareMs = append(bareMs, b)
		}
		base := pct(emptyMs, 50)
		for i := range srvMs {
			ratios = append(ratios, (srvMs[i]-base)/bareMs[i])
		}
		s, b := pct(srvMs, 50)-base, pct(bareMs, 50)
		rates = append(rates, float64(fuel)/(s/1000))
		t.add(fmt.Sprintf("%s program CPU: server / bare wasmtime, same module and config (ms, ratio)", p.label), fmt.Sprintf("%.0f / %.0f (%.3fx)", s, b, pct(ratios, 50)), "≤ 1.03x")
		fuelRates = append(fuelRates, fmt.Sprintf("%s %.2g", p.label, rates[len(rates)-1]))
	}
	if len(fuelRates) > 0 {
		t.add("fuel burnt per CPU-second in the server (median)", fmt.Sprint(fuelRates), "report")
	}
	return nil
}

// requestCPU posts body and returns the server's CPU (user+sys, ms) from
// before the request until the server is idle again, so the pool's refill
// the request caused is counted (and cancelled by subtracting an empty
// request's).
func (s *server) requestCPU(body string) (float64, *result, error) {
	u0, s0 := s.cpuTicks()
	res, err := s.post("/v1/evaluate", body)
	if err != nil {
		return 0, nil, err
	}
	u1, s1 := s.cpuTicks()
	for still := 0; still < 3; { // idle: no tick in three 50 ms looks
		time.Sleep(50 * time.Millisecond)
		u2, s2 := s.cpuTicks()
		if u2+s2 == u1+s1 {
			still++
		} else {
			still = 0
		}
		u1, s1 = u2, s2
	}
	return float64(u1-u0+s1-s0) * tickMs, res, nil
}

// bareRun runs one request in img's compiled module under plain
// wasmtime-go: wasmexec's engine configuration (fuel and epoch checks
// compiled in, Cranelift speed, the wasm stack size), the image's WASI
// layout (argv, env, preopens and a /workspace, as the snapshot expects),
// and the four host functions of the driver protocol, recv handing over
// the one request and send taking the reply. Nothing else of the server:
// no epoch ticker or callback (the deadline is never reached), no memory
// limiter, no pool or workspace quota, wasmtime's own WASI clocks and
// poll_oneoff, and no HTTP. It returns the thread CPU time from the
// hand-over to the reply, in ms.
func bareRun(img *engine.Image, payload []byte) (float64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	eng := wasmtime.NewEngineWithConfig(engine.WasmtimeConfig())
	mod, err := wasmtime.NewModuleDeserializeFile(eng, img.ModuleFile)
	if err != nil {
		return 0, err
	}
	ws, err := os.MkdirTemp("", "wasmexec-bare-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(ws)
	store := wasmtime.NewStore(eng)
	defer store.Close()
	wasi := wasmtime.NewWasiConfig()
	wasi.SetArgv(img.Spec.Argv)
	env := map[string]string{"LANG": "C.UTF-8", "TZ": "UTC", "HOME": "/workspace", "PWD": "/workspace"}
	for k, v := range img.Spec.Env {
		env[k] = v
	}
	var keys, vals []string
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		vals = append(vals, env[k])
	}
	wasi.SetEnv(keys, vals)
	var rels []string
	for rel := range img.Spec.Preopens {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		if err := wasi.PreopenDir(filepath.Join(img.Dir, rel), img.Spec.Preopens[rel]); err != nil {
			return 0, err
		}
	}
	if err := wasi.PreopenDir(ws, "/workspace"); err != nil {
		return 0, err
	}
	store.SetWasi(wasi)
	if err := store.SetFuel(1 << 62); err != nil {
		return 0, err
	}
	store.SetEpochDeadline(1 << 62)

	var served bool
	var reply []byte
	var t0, t1 time.Duration
	mem := func(c *wasmtime.Caller) []byte { return c.GetExport("memory").Memory().UnsafeData(c) }
	linker := wasmtime.NewLinker(eng)
	if err := linker.DefineWasi(); err != nil {
		return 0, err
	}
	defs := map[string]any{
		"recv": func(c *wasmtime.Caller, ptr, capacity int32) int32 {
			if served {
				return -1
			}
			if int32(len(payload)) > capacity {
				return int32(len(payload))
			}
			copy(mem(c)[ptr:], payload)
			served, t0 = true, threadCPU()
			return int32(len(payload))
		},
		"send": func(c *wasmtime.Caller, ptr, n int32) {
			t1 = threadCPU()
			reply = append([]byte(nil), mem(c)[ptr:ptr+n]...)
		},
		"write": func(_ *wasmtime.Caller, _, _, n int32) int32 { return n },
		"read":  func(*wasmtime.Caller, int32, int32) int32 { return 0 },
		"fetch": func(*wasmtime.Caller, int32, int32, int32, int32) int32 { return -1 }, // no network
	}
	for name, fn := range defs {
		if err := linker.FuncWrap("wasmexec", name, fn); err != nil {
			return 0, err
		}
	}
	inst, err := linker.Instantiate(store, mod)
	if err != nil {
		return 0, err
	}
	if !img.Snapshotted {
		for _, name := range img.Spec.Init {
			if _, err := inst.GetFunc(store, name).Call(store); err != nil {
				return 0, err
			}
		}
	}
	entry := img.Spec.Entry
	if entry == "" {
		entry = "_start"
	}
	_, err = inst.GetFunc(store, entry).Call(store)
	var werr *wasmtime.Error
	if status, ok := asExit(err, &werr); err != nil && !(ok && status == 0) {
		return 0, err
	}
	var r struct{ Status string }
	if json.Unmarshal(reply, &r) != nil || r.Status != "ok" {
		return 0, fmt.Errorf("the driver replied %.200s", reply)
	}
	return float64(t1-t0) / float64(time.Millisecond), nil
}

func asExit(err error, werr **wasmtime.Error) (int32, bool) {
	if e, ok := err.(*wasmtime.Error); ok {
		*werr = e
		return e.ExitStatus()
	}
	return 0, false
}

// threadCPU is the calling thread's user+system CPU time.
func threadCPU() time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cacheDir is the compiled-module cache the server uses.
func cacheDir() string {
	if d := os.Getenv("WASMEXEC_CACHE_DIR"); d != "" {
		return d
	}
	d, _ := os.UserCacheDir()
	return filepath.Join(d, "wasmexec")
}
