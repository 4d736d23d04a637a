package engine

// The shims' calls into wasmtime's WASI functions, made through the C
// API's unchecked call. wasmtime-go's Func.Call builds the function's type
// (with a finalizer per parameter type) and converts each argument with a
// cgo call: ~10 µs a call, as much as the WASI call itself, paid by every
// path call a guest makes now that all of them are shadowed (bench
// section python, "os.stat per call"). Here it is one cgo call. The shim
// functions are ours, so their types are known: i32 and i64 parameters
// (shimFuncs), one i32 result.

/*
#include <stdint.h>
#include <stddef.h>
#include <string.h>

typedef struct wasmtime_context wasmtime_context_t;
typedef struct wasmtime_error wasmtime_error_t;
typedef struct wasm_trap_t wasm_trap_t;
typedef struct { uint64_t store_id; size_t private_; } wasmexec_func;
typedef union { int32_t i32; int64_t i64; uint8_t v128[16]; } wasmexec_val_raw;
typedef struct { size_t size; char *data; } wasmexec_byte_vec;

extern wasmtime_error_t *wasmtime_func_call_unchecked(wasmtime_context_t *, const wasmexec_func *,
    wasmexec_val_raw *, size_t, wasm_trap_t **);
extern void wasm_trap_message(const wasm_trap_t *, wasmexec_byte_vec *);
extern void wasm_trap_delete(wasm_trap_t *);
extern void wasmtime_error_message(const wasmtime_error_t *, wasmexec_byte_vec *);
extern void wasmtime_error_delete(wasmtime_error_t *);
extern void wasm_byte_vec_delete(wasmexec_byte_vec *);

#define WASMEXEC_SHIM_MAX_ARGS 9

// wasmexec_call_errno calls f with n arguments (is64[i]: args[i] is an
// i64, else an i32) and returns 1 with its i32 result in *result, or 0
// with the trap's or error's message in msg.
static int wasmexec_call_errno(wasmtime_context_t *cx, const wasmexec_func *f,
                               const int64_t *args, const uint8_t *is64, size_t n,
                               int32_t *result, char *msg, size_t msgcap) {
	wasmexec_val_raw vals[WASMEXEC_SHIM_MAX_ARGS];
	memset(vals, 0, sizeof vals);
	for (size_t i = 0; i < n; i++) {
		if (is64[i]) vals[i].i64 = args[i]; else vals[i].i32 = (int32_t)args[i];
	}
	wasm_trap_t *trap = NULL;
	wasmtime_error_t *err = wasmtime_func_call_unchecked(cx, f, vals, n > 0 ? n : 1, &trap);
	if (err == NULL && trap == NULL) {
		*result = vals[0].i32;
		return 1;
	}
	wasmexec_byte_vec m = {0, NULL};
	if (err != NULL) {
		wasmtime_error_message(err, &m);
		wasmtime_error_delete(err);
	} else {
		wasm_trap_message(trap, &m);
		wasm_trap_delete(trap);
	}
	size_t k = m.size < msgcap ? m.size : msgcap;
	if (k > 0) memcpy(msg, m.data, k);
	msg[k < msgcap ? k : msgcap - 1] = 0;
	if (m.data != NULL) wasm_byte_vec_delete(&m);
	return 0;
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/bytecodealliance/wasmtime-go/v25"
)

const shimMaxArgs = C.WASMEXEC_SHIM_MAX_ARGS

// shimIs64 marks, per shimFunc, which parameters are i64.
var shimIs64 = func() [][shimMaxArgs]uint8 {
	out := make([][shimMaxArgs]uint8, len(shimFuncs))
	for i, f := range shimFuncs {
		params := strings.Fields(f.params)
		if len(params) > shimMaxArgs {
			panic("wasishim: " + f.name + " has too many parameters")
		}
		for j, p := range params {
			if p == "i64" {
				out[i][j] = 1
			}
		}
	}
	return out
}()

// callShim calls fn, a shim's export of f, with args (int32s and int64s,
// as shimFuncs[f] says): its errno, or a trap when wasmtime's function
// trapped. It relies on the C function value being the only field of
// wasmtime.Func, which holds for v25.0.0, the one version go.mod pins.
func callShim(caller *wasmtime.Caller, fn *wasmtime.Func, f shimFunc, args ...any) (int32, *wasmtime.Trap) {
	var vals [shimMaxArgs]C.int64_t
	for i, a := range args {
		switch v := a.(type) {
		case int32:
			vals[i] = C.int64_t(v)
		case int64:
			vals[i] = C.int64_t(v)
		default:
			panic(fmt.Sprintf("wasishim: %s argument %d is %T", shimFuncs[f].name, i, a))
		}
	}
	is64 := shimIs64[f]
	var result C.int32_t
	var msg [256]C.char
	ok := C.wasmexec_call_errno(contextPtr(caller), (*C.wasmexec_func)(unsafe.Pointer(fn)),
		&vals[0], (*C.uint8_t)(unsafe.Pointer(&is64[0])), C.size_t(len(args)), &result, &msg[0], C.size_t(len(msg)))
	runtime.KeepAlive(fn)
	if ok == 0 {
		return 0, wasmtime.NewTrap(fmt.Sprintf("wasmexec: WASI %s: %s", shimFuncs[f].name, C.GoString(&msg[0])))
	}
	return int32(result), nil
}
