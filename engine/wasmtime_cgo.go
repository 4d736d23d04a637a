package engine

// wasmtime-go v25 does not expose two C API entry points the engine needs:
// the epoch-deadline callback (to check a run's deadline and cancellation on
// every tick without a trap per tick) and fuel access through a *Caller's
// context (to set a request's fuel from inside the host call that hands the
// request over, on the guest's own thread). libwasmtime.a is already linked
// by wasmtime-go, so declaring the functions is enough.
//
// The epoch callback is C and reads a small struct the Go side writes
// (watch): a callback into Go made the guest's thread take a Go P every
// few milliseconds, which kept the Go scheduler's sysmon polling and its
// Ps moving between threads, ~10% of a CPU-bound guest's CPU (see
// cmd/wasmexec-bench, guest vs bare wasmtime).

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct wasmtime_store wasmtime_store_t;
typedef struct wasmtime_context wasmtime_context_t;
typedef struct wasmtime_error wasmtime_error_t;
typedef uint8_t wasmtime_update_deadline_kind_t;

extern void wasmtime_store_epoch_deadline_callback(
    wasmtime_store_t *store,
    wasmtime_error_t *(*func)(wasmtime_context_t *, void *, uint64_t *, wasmtime_update_deadline_kind_t *),
    void *data, void (*finalizer)(void *));
extern wasmtime_error_t *wasmtime_error_new(const char *);
extern void wasmtime_error_delete(wasmtime_error_t *);
extern wasmtime_error_t *wasmtime_context_set_fuel(wasmtime_context_t *, uint64_t);
extern wasmtime_error_t *wasmtime_context_get_fuel(const wasmtime_context_t *, uint64_t *);

typedef struct { uint64_t store_id; size_t private_; } wasmexec_memory;
extern uint8_t *wasmtime_memory_data(const wasmtime_context_t *, const wasmexec_memory *);
extern size_t wasmtime_memory_data_size(const wasmtime_context_t *, const wasmexec_memory *);

// wasmexec_watch is what the epoch callback of one store reads. The store
// owns it (freed with the store); Go writes it with atomic stores.
typedef struct {
	int32_t quit;       // non-zero: stop the guest at the next check
	int64_t run;        // the request the guest is serving: its id, 0 between requests, -1 while starting
	int64_t cancel;     // a request (or -1, the start-up) whose time is up
	int64_t park_until; // non-zero: the guest answered and may run until then (monotonic ns) to get back to recv
	uint64_t ticks;     // epoch ticks between checks
	int32_t tick_set;   // non-zero: tick_mem and tick_off name the guest's output tick byte
	uint32_t tick_off;  // its offset in the guest's memory
	wasmexec_memory tick_mem;
	int32_t lost;       // non-zero: a page mapped from a state file could not be read (wasmexec_bus)
} wasmexec_watch;

// wasmexec_output_tick sets the guest's output tick byte (registered by
// write to fd 3, see Guest.hostWrite): the driver hands its coalesced
// output over at its next write after a tick instead of reading the clock
// at every write. The callback runs on the guest's thread between wasm
// instructions, so the write can't race the guest; the bounds are checked
// against the memory's size now (it may have grown or been anything).
static void wasmexec_output_tick(wasmtime_context_t *ctx, wasmexec_watch *w) {
	if (!__atomic_load_n(&w->tick_set, __ATOMIC_ACQUIRE)) return;
	if ((size_t)w->tick_off + 1 > wasmtime_memory_data_size(ctx, &w->tick_mem)) return;
	wasmtime_memory_data(ctx, &w->tick_mem)[w->tick_off] = 1;
}

static int64_t wasmexec_monotonic_now(void);

static wasmtime_error_t *wasmexec_epoch_check(wasmtime_context_t *ctx, void *data, uint64_t *delta, wasmtime_update_deadline_kind_t *kind) {
	wasmexec_watch *w = data;
	*kind = 0; // continue
	wasmexec_output_tick(ctx, w);
	int64_t park = __atomic_load_n(&w->park_until, __ATOMIC_SEQ_CST);
	if (park != 0) {
		// On its way back to recv after answering: neither the run's end
		// nor a stop interrupts it until park_until; then it is stopped.
		if (wasmexec_monotonic_now() >= park) {
			return wasmtime_error_new("wasmexec: the driver did not come back for the next request after answering");
		}
		*delta = w->ticks;
		return NULL;
	}
	int64_t run = __atomic_load_n(&w->run, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&w->quit, __ATOMIC_SEQ_CST) || (run != 0 && __atomic_load_n(&w->cancel, __ATOMIC_SEQ_CST) == run)) {
		return wasmtime_error_new("wasmexec: run interrupted");
	}
	*delta = w->ticks;
	return NULL;
}

// Pages of a guest's memory mapped from a state file (engine/statemap.go)
// raise SIGBUS when the file was cut short under the mapping, or the disk
// can't read a page back. wasmtime turns SIGBUS into a trap on macOS and
// FreeBSD only, and Go's handler crashes the process on one in wasm or C
// code, so this handler, installed before Go's (which it chains to for
// every other address), puts a zero page over the lost one, marks the
// guest lost and tells it to stop at its next epoch check; the host
// fails its run or capture. Ranges are registered from Go: end and watch
// first, then start (0: a free slot), so that a handler reading a slot
// that is being reused sees start change and skips it.
#include <signal.h>
#include <sys/mman.h>

#define WASMEXEC_BUS_RANGES 8192 // engine/statemap.go: maxMappedRanges

typedef struct { uintptr_t start, end; wasmexec_watch *w; } wasmexec_bus_range;
static wasmexec_bus_range wasmexec_bus_ranges[WASMEXEC_BUS_RANGES];
static struct sigaction wasmexec_bus_prev;

static void wasmexec_bus(int sig, siginfo_t *info, void *uctx) {
	uintptr_t a = (uintptr_t)info->si_addr;
	for (int i = 0; i < WASMEXEC_BUS_RANGES; i++) {
		wasmexec_bus_range *r = &wasmexec_bus_ranges[i];
		uintptr_t start = __atomic_load_n(&r->start, __ATOMIC_ACQUIRE);
		if (start == 0 || a < start) continue;
		uintptr_t end = __atomic_load_n(&r->end, __ATOMIC_ACQUIRE);
		wasmexec_watch *w = __atomic_load_n(&r->w, __ATOMIC_ACQUIRE);
		if (a >= end || __atomic_load_n(&r->start, __ATOMIC_ACQUIRE) != start) continue;
		void *page = (void *)(a & ~(uintptr_t)4095);
		if (mmap(page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) break;
		__atomic_store_n(&w->lost, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&w->quit, 1, __ATOMIC_SEQ_CST);
		return; // the access is made again, and reads zeros
	}
	if (wasmexec_bus_prev.sa_flags & SA_SIGINFO) {
		wasmexec_bus_prev.sa_sigaction(sig, info, uctx);
	} else if (wasmexec_bus_prev.sa_handler != SIG_DFL && wasmexec_bus_prev.sa_handler != SIG_IGN) {
		wasmexec_bus_prev.sa_handler(sig);
	} else {
		signal(sig, SIG_DFL); // the fault recurs when the handler returns, and ends the process
	}
}

static int wasmexec_bus_install(void) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = wasmexec_bus;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK; // Go's threads run handlers on their signal stacks
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGBUS, &sa, &wasmexec_bus_prev);
}

static void wasmexec_bus_set(int i, uintptr_t start, uintptr_t end, wasmexec_watch *w) {
	wasmexec_bus_range *r = &wasmexec_bus_ranges[i];
	__atomic_store_n(&r->start, 0, __ATOMIC_RELEASE);
	if (start == 0) return;
	__atomic_store_n(&r->end, end, __ATOMIC_RELEASE);
	__atomic_store_n(&r->w, w, __ATOMIC_RELEASE);
	__atomic_store_n(&r->start, start, __ATOMIC_RELEASE);
}

static wasmexec_watch *wasmexec_install_watch(wasmtime_store_t *store, uint64_t ticks) {
	wasmexec_watch *w = calloc(1, sizeof *w);
	if (!w) return NULL;
	w->run = -1;
	w->ticks = ticks;
	wasmtime_store_epoch_deadline_callback(store, wasmexec_epoch_check, w, free);
	return w;
}

// wasi_snapshot_preview1.clock_time_get, in C for the same reason as the
// epoch callback: the Go runtime in the JS guest reads the clock a hundred
// times a second, and each call into Go cost a Go P. Clocks: 0 realtime;
// 1 monotonic, 2 process and 3 thread CPU time are all the host's
// monotonic clock since the engine package started (wasmtime's own
// refuses the CPU-time clocks, which CPython asks for). Errnos: 28 inval,
// 21 fault.
typedef struct wasmtime_caller wasmtime_caller_t;
typedef struct wasm_trap_t wasm_trap_t;
typedef struct wasm_functype_t wasm_functype_t;
typedef struct wasmtime_linker wasmtime_linker_t;
typedef union {
	int32_t i32;
	int64_t i64;
	float f32;
	double f64;
	uint8_t v128[16];
	uint32_t anyref;
	uint32_t externref;
	void *funcref;
} wasmexec_val_raw;
typedef struct { uint8_t kind; union { wasmexec_memory memory; void *sharedmemory; } of; } wasmexec_extern;

extern bool wasmtime_caller_export_get(wasmtime_caller_t *, const char *, size_t, wasmexec_extern *);
extern wasmtime_context_t *wasmtime_caller_context(wasmtime_caller_t *);
extern wasmtime_error_t *wasmtime_linker_define_func_unchecked(wasmtime_linker_t *, const char *, size_t, const char *, size_t,
    const wasm_functype_t *, wasm_trap_t *(*)(void *, wasmtime_caller_t *, wasmexec_val_raw *, size_t), void *, void (*)(void *));

static int64_t wasmexec_mono_base;

static int64_t wasmexec_clock_ns(clockid_t id) {
	struct timespec ts;
	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void wasmexec_clock_init(void) { wasmexec_mono_base = wasmexec_clock_ns(CLOCK_MONOTONIC); }

static int64_t wasmexec_monotonic_now(void) { return wasmexec_clock_ns(CLOCK_MONOTONIC) - wasmexec_mono_base; }

static wasm_trap_t *wasmexec_clock_time_get(void *env, wasmtime_caller_t *caller, wasmexec_val_raw *args, size_t nargs) {
	int32_t id = args[0].i32;
	uint32_t out = (uint32_t)args[2].i32;
	uint64_t t;
	switch (id) {
	case 0: t = (uint64_t)wasmexec_clock_ns(CLOCK_REALTIME); break;
	case 1: case 2: case 3: t = (uint64_t)wasmexec_monotonic_now(); break;
	default: args[0].i32 = 28; return NULL;
	}
	wasmexec_extern mem;
	if (!wasmtime_caller_export_get(caller, "memory", 6, &mem) || mem.kind != 3) { args[0].i32 = 21; return NULL; }
	wasmtime_context_t *cx = wasmtime_caller_context(caller);
	if ((uint64_t)out + 8 > wasmtime_memory_data_size(cx, &mem.of.memory)) { args[0].i32 = 21; return NULL; }
	memcpy(wasmtime_memory_data(cx, &mem.of.memory) + out, &t, 8); // little-endian hosts
	args[0].i32 = 0;
	return NULL;
}

static wasmtime_error_t *wasmexec_define_clock(wasmtime_linker_t *linker, const wasm_functype_t *ty) {
	static const char module[] = "wasi_snapshot_preview1", name[] = "clock_time_get";
	return wasmtime_linker_define_func_unchecked(linker, module, sizeof module - 1, name, sizeof name - 1, ty, wasmexec_clock_time_get, NULL, NULL);
}

static int wasmexec_set_fuel(wasmtime_context_t *ctx, uint64_t fuel) {
	wasmtime_error_t *err = wasmtime_context_set_fuel(ctx, fuel);
	if (err) { wasmtime_error_delete(err); return 0; }
	return 1;
}

static int wasmexec_get_fuel(wasmtime_context_t *ctx, uint64_t *fuel) {
	wasmtime_error_t *err = wasmtime_context_get_fuel(ctx, fuel);
	if (err) { wasmtime_error_delete(err); return 0; }
	return 1;
}
*/
import "C"

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/bytecodealliance/wasmtime-go/v25"
)

func init() { C.wasmexec_clock_init() }

// monotonicNow is the guests' monotonic clock (clock_time_get), in ns.
func monotonicNow() uint64 { return uint64(C.wasmexec_monotonic_now()) }

// defineClock defines wasi_snapshot_preview1.clock_time_get in l as
// wasmexec_clock_time_get (l must allow shadowing).
func defineClock(l *wasmtime.Linker) error {
	i32, i64 := wasmtime.NewValType(wasmtime.KindI32), wasmtime.NewValType(wasmtime.KindI64)
	ty := wasmtime.NewFuncType([]*wasmtime.ValType{i32, i64, i32}, []*wasmtime.ValType{i32})
	// The C pointers are the first fields of Linker and FuncType (v25.0.0).
	lp := *(**C.wasmtime_linker_t)(unsafe.Pointer(l))
	tp := *(**C.wasm_functype_t)(unsafe.Pointer(ty))
	err := C.wasmexec_define_clock(lp, tp)
	runtime.KeepAlive(l)
	runtime.KeepAlive(ty)
	if err != nil {
		C.wasmtime_error_delete(err)
		return errors.New("define wasi_snapshot_preview1.clock_time_get: refused by the linker")
	}
	return nil
}

// storePtr reads the C store pointer out of a *wasmtime.Store. It relies on
// the pointer being the struct's first field, which holds for v25.0.0, the
// one version go.mod pins.
func storePtr(s *wasmtime.Store) *C.wasmtime_store_t {
	return *(**C.wasmtime_store_t)(unsafe.Pointer(s))
}

func contextPtr(s wasmtime.Storelike) *C.wasmtime_context_t {
	return (*C.wasmtime_context_t)(unsafe.Pointer(s.Context()))
}

// storeKey identifies the store behind s (a *Store or a *Caller).
func storeKey(s wasmtime.Storelike) uintptr {
	return uintptr(unsafe.Pointer(contextPtr(s)))
}

// setFuel sets the fuel left in the store behind s (a *Store or a *Caller).
func setFuel(s wasmtime.Storelike, fuel uint64) bool {
	return C.wasmexec_set_fuel(contextPtr(s), C.uint64_t(fuel)) == 1
}

// getFuel returns the fuel left in the store behind s.
func getFuel(s wasmtime.Storelike) (uint64, bool) {
	var f C.uint64_t
	ok := C.wasmexec_get_fuel(contextPtr(s), &f) == 1
	return uint64(f), ok
}

// watch is the Go side of a store's epoch callback (wasmexec_epoch_check,
// run at every check on the guest's thread, in C). The guest's thread
// says which request runs (setRun, from its host calls); ctx callbacks
// and Close say when to stop (cancel, stop), until free.
type watch struct {
	c     *C.wasmexec_watch
	mu    sync.Mutex // orders cancel and stop against free
	freed bool
}

// installWatch gives s an epoch callback that continues every
// epochCheckTicks ticks until told to stop.
func installWatch(s *wasmtime.Store) *watch {
	c := C.wasmexec_install_watch(storePtr(s), C.uint64_t(epochCheckTicks))
	if c == nil {
		return nil
	}
	return &watch{c: c}
}

// setOutputTick registers the guest's output tick byte at off in mem (the
// guest's memory): the epoch callback sets it to 1 at every check. Only
// the guest's thread calls it, from a host call.
func (w *watch) setOutputTick(mem *wasmtime.Memory, off uint32) {
	// A Memory is its C wasmtime_memory_t (v25.0.0, the pinned version).
	w.c.tick_mem = *(*C.wasmexec_memory)(unsafe.Pointer(mem))
	w.c.tick_off = C.uint32_t(off)
	atomic.StoreInt32((*int32)(unsafe.Pointer(&w.c.tick_set)), 1)
}

// setRun says which request the guest serves (an id; 0 between
// requests), and whether it answered it and is parking: then it runs
// uninterrupted for grace, and is stopped after. Only the guest's thread
// calls it, from a host call, so the store lives.
func (w *watch) setRun(id int64, parking bool, grace time.Duration) {
	var until int64
	if parking {
		until = int64(monotonicNow()) + int64(grace)
	}
	atomic.StoreInt64((*int64)(unsafe.Pointer(&w.c.park_until)), until)
	atomic.StoreInt64((*int64)(unsafe.Pointer(&w.c.run)), id)
}

// cancel stops the guest if it is still serving request id (-1: still
// starting).
func (w *watch) cancel(id int64) {
	w.mu.Lock()
	if !w.freed {
		atomic.StoreInt64((*int64)(unsafe.Pointer(&w.c.cancel)), id)
	}
	w.mu.Unlock()
}

// stop stops the guest at its next check, whatever it runs.
func (w *watch) stop() {
	w.mu.Lock()
	if !w.freed {
		atomic.StoreInt32((*int32)(unsafe.Pointer(&w.c.quit)), 1)
	}
	w.mu.Unlock()
}

// lost reports whether a page of the guest's memory mapped from a state
// file could not be read (wasmexec_bus put a zero page in its place).
func (w *watch) lost() bool {
	return atomic.LoadInt32((*int32)(unsafe.Pointer(&w.c.lost))) != 0
}

// busSlots hands out the slots of wasmexec_bus_ranges.
var busSlots = struct {
	sync.Mutex
	once sync.Once
	err  error
	free []int
}{}

// guardRange registers mem[r.mem:r.mem+r.n], about to be mapped from a
// state file, with the SIGBUS handler (installed at the first call), and
// returns its slot for unguard. Errors: the handler could not be
// installed, or every slot is taken (the range is then copied, not
// mapped).
func (w *watch) guardRange(mem []byte, r memRange) (int, error) {
	busSlots.once.Do(func() {
		if C.wasmexec_bus_install() != 0 {
			busSlots.err = errors.New("install the SIGBUS handler for mapped state files: sigaction failed")
		}
		for i := C.WASMEXEC_BUS_RANGES - 1; i >= 0; i-- {
			busSlots.free = append(busSlots.free, i)
		}
	})
	busSlots.Lock()
	defer busSlots.Unlock()
	if busSlots.err != nil {
		return 0, busSlots.err
	}
	if len(busSlots.free) == 0 {
		return 0, errors.New("every SIGBUS guard slot is taken")
	}
	i := busSlots.free[len(busSlots.free)-1]
	busSlots.free = busSlots.free[:len(busSlots.free)-1]
	start := uintptr(unsafe.Pointer(&mem[0])) + uintptr(r.mem)
	C.wasmexec_bus_set(C.int(i), C.uintptr_t(start), C.uintptr_t(start+uintptr(r.n)), w.c)
	return i, nil
}

// unguard frees slots of guardRange (before the memory is unmapped).
func unguard(slots []int) {
	if len(slots) == 0 {
		return
	}
	busSlots.Lock()
	defer busSlots.Unlock()
	for _, i := range slots {
		C.wasmexec_bus_set(C.int(i), 0, 0, nil)
		busSlots.free = append(busSlots.free, i)
	}
}

// free is called before the store (which frees the C side) is deleted.
func (w *watch) free() {
	w.mu.Lock()
	w.freed = true
	w.mu.Unlock()
}
