package engine

// The C heap of wasmtime (a store's instance, tables, its Rust-side
// structures) is malloc's: glibc keeps what a closed guest freed in its
// arenas, one per thread that allocated, and returns little of it to the
// system by itself. With hundreds of guests started and closed a second
// (contexts hibernated and woken under a memory budget), that held ~30 MiB
// of RSS nothing used, on the build machine. ReleaseFreedMemory gives it
// back (malloc_trim: free pages at the top of each arena, and, since glibc
// 2.8, free whole pages inside them).

/*
#include <malloc.h>
#ifdef __GLIBC__
static int wasmexec_malloc_trim(void) { return malloc_trim(0); }
#else
static int wasmexec_malloc_trim(void) { return 0; }
#endif
*/
import "C"

// ReleaseFreedMemory returns to the system the C heap's free pages (those
// of guests closed since); an owner that keeps the process's RSS within a
// budget calls it after closing guests. It costs ~1 ms and never blocks
// a guest for long.
func ReleaseFreedMemory() { C.wasmexec_malloc_trim() }
