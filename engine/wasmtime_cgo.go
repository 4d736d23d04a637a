package engine

// wasmtime-go v25 does not expose two C API entry points the engine needs:
// the epoch-deadline callback (to check a run's deadline and cancellation on
// every tick without a trap per tick) and fuel access through a *Caller's
// context (to set a request's fuel from inside the host call that hands the
// request over, on the guest's own thread). libwasmtime.a is already linked
// by wasmtime-go, so declaring the functions is enough.

/*
#include <stdint.h>
#include <stdbool.h>

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

extern wasmtime_error_t *wasmexecEpochCallback(wasmtime_context_t *, void *, uint64_t *, wasmtime_update_deadline_kind_t *);

static void wasmexec_install_epoch_callback(wasmtime_store_t *store, uintptr_t handle) {
	wasmtime_store_epoch_deadline_callback(store, wasmexecEpochCallback, (void *)handle, 0);
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

static wasmtime_error_t *wasmexec_interrupt_error(void) {
	return wasmtime_error_new("wasmexec: run interrupted");
}
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/bytecodealliance/wasmtime-go/v25"
)

// storePtr reads the C store pointer out of a *wasmtime.Store. It relies on
// the pointer being the struct's first field, which holds for v25.0.0, the
// one version go.mod pins.
func storePtr(s *wasmtime.Store) *C.wasmtime_store_t {
	return *(**C.wasmtime_store_t)(unsafe.Pointer(s))
}

func contextPtr(s wasmtime.Storelike) *C.wasmtime_context_t {
	return (*C.wasmtime_context_t)(unsafe.Pointer(s.Context()))
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

// epochWatcher is asked at every epoch deadline whether its guest may go on.
type epochWatcher interface {
	// onEpoch returns the ticks until the next check, or ok=false to trap.
	onEpoch() (ticks uint64, ok bool)
}

var (
	watchersMu sync.RWMutex
	watchers   = map[uintptr]epochWatcher{}
	nextHandle uintptr
)

// installEpochCallback routes s's epoch deadlines to w until the returned
// function is called.
func installEpochCallback(s *wasmtime.Store, w epochWatcher) (remove func()) {
	watchersMu.Lock()
	nextHandle++
	h := nextHandle
	watchers[h] = w
	watchersMu.Unlock()
	C.wasmexec_install_epoch_callback(storePtr(s), C.uintptr_t(h))
	return func() {
		watchersMu.Lock()
		delete(watchers, h)
		watchersMu.Unlock()
	}
}

//export wasmexecEpochCallback
func wasmexecEpochCallback(_ *C.wasmtime_context_t, data unsafe.Pointer, delta *C.uint64_t, kind *C.wasmtime_update_deadline_kind_t) *C.wasmtime_error_t {
	watchersMu.RLock()
	w := watchers[uintptr(data)]
	watchersMu.RUnlock()
	*kind = 0 // continue
	if w == nil {
		return C.wasmexec_interrupt_error()
	}
	ticks, ok := w.onEpoch()
	if !ok {
		return C.wasmexec_interrupt_error()
	}
	*delta = C.uint64_t(ticks)
	return nil
}
