package engine

// wasmtime-go v25 has no setter for the tail-call proposal; the C API does.

/*
#include <stdbool.h>

typedef struct wasm_config_t wasm_config_t;

extern void wasmtime_config_wasm_tail_call_set(wasm_config_t *, bool);
*/
import "C"

import (
	"runtime"
	"unsafe"

	"github.com/bytecodealliance/wasmtime-go/v25"
)

// disableTailCalls turns the tail-call proposal off in c. wasmtime 22–25.0.1
// aborts the process when wasm tail-calls an imported host function that
// traps (GHSA-q8hx-mm92-4wvg, CVE-2024-47763), and our host functions trap
// by design (deadlines, output limits, bad pointers). Neither guest image
// uses tail calls; with the proposal off, a module that does is refused
// when it is compiled. It relies on the C pointer being the first field of
// wasmtime.Config, which holds for v25.0.0, the one version go.mod pins.
func disableTailCalls(c *wasmtime.Config) {
	ptr := *(**C.wasm_config_t)(unsafe.Pointer(c))
	C.wasmtime_config_wasm_tail_call_set(ptr, false)
	runtime.KeepAlive(c)
}
