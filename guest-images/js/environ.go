package main

import (
	"bytes"
	"os"
	"unsafe"
)

// Go copies the WASI environment once, during runtime start-up. A guest
// started from a snapshot would keep the snapshot's, so the driver reads
// environ again itself.

//go:wasmimport wasi_snapshot_preview1 environ_sizes_get
func environSizesGet(count, size unsafe.Pointer) int32

//go:wasmimport wasi_snapshot_preview1 environ_get
func environGet(ptrs, buf unsafe.Pointer) int32

func refreshEnviron() {
	var count, size uint32
	if environSizesGet(unsafe.Pointer(&count), unsafe.Pointer(&size)) != 0 {
		return
	}
	os.Clearenv()
	if count == 0 || size == 0 {
		return
	}
	ptrs := make([]uint32, count)
	buf := make([]byte, size)
	if environGet(unsafe.Pointer(&ptrs[0]), unsafe.Pointer(&buf[0])) != 0 {
		return
	}
	for _, kv := range bytes.Split(bytes.TrimRight(buf, "\x00"), []byte{0}) {
		if k, v, ok := bytes.Cut(kv, []byte("=")); ok && string(kv) != runtimeGODEBUG {
			os.Setenv(string(k), string(v))
		}
	}
}

// runtimeGODEBUG is the image's setting for the guest's own Go runtime
// (build.sh, guest.json): Go read it at start-up, and it is not the
// program's environment.
const runtimeGODEBUG = "GODEBUG=gcstoptheworld=1"
