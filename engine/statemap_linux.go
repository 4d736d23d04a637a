package engine

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// canMapFile says whether states' pages can be mapped from their files.
const canMapFile = true

// mapFileFixed maps r's bytes of f over mem, private, readable and
// writable, as wasmtime maps the memory it makes accessible.
func mapFileFixed(mem []byte, r memRange, f *os.File) error {
	return mmapFixed(mem, r, int(f.Fd()), r.file, syscall.MAP_PRIVATE)
}

// mapAnonFixed puts fresh anonymous memory over r (undoing a failed
// mapFileFixed: its range may have been unmapped).
func mapAnonFixed(mem []byte, r memRange) error {
	return mmapFixed(mem, r, -1, 0, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
}

func mmapFixed(mem []byte, r memRange, fd int, off int64, flags int) error {
	if r.mem < 0 || r.n <= 0 || r.mem+r.n > int64(len(mem)) || r.mem%statePage != 0 || r.n%statePage != 0 || off%statePage != 0 {
		return fmt.Errorf("map %d bytes at %d: not page-aligned inside the memory", r.n, r.mem)
	}
	addr := uintptr(unsafe.Pointer(&mem[0])) + uintptr(r.mem)
	if addr%statePage != 0 {
		return fmt.Errorf("map at %#x: memory not page-aligned", addr)
	}
	got, _, errno := syscall.Syscall6(syscall.SYS_MMAP, addr, uintptr(r.n), syscall.PROT_READ|syscall.PROT_WRITE,
		uintptr(flags|syscall.MAP_FIXED), uintptr(fd), uintptr(off))
	if errno != 0 {
		return fmt.Errorf("map %d bytes at %#x: %w", r.n, addr, errno)
	}
	if got != addr {
		return fmt.Errorf("map at %#x: placed at %#x", addr, got)
	}
	return nil
}

// mapView maps n bytes of f from off, read-only and shared with the page
// cache (nothing is copied), and returns them with the function that
// unmaps them. Pages are faulted in as they are read, most of them by the
// goroutine that checks the raw frames (frameCheck) while the guest is
// instantiated: populating them up front took ~1 ms of the restore's own
// thread for 20 MiB.
func mapView(f *os.File, off, n int64) ([]byte, func(), error) {
	start := off &^ (pageSize - 1)
	b, err := syscall.Mmap(int(f.Fd()), start, int(n+off-start), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b[off-start:], func() { syscall.Munmap(b) }, nil
}

// fileID is the device and inode of a file.
func fileID(fi os.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), st.Ino, true
}
