package engine

import (
	"encoding/binary"
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// A guest's linear memory starts as a copy-on-write mapping of its image
// (wasmtime's memory_init_cow), so every page a guest writes costs a page
// fault, and most of them two: the kernel maps a read neighbourhood first
// (fault-around) and the write then copies the page and flushes the other
// CPUs' TLBs. Every guest of a snapshotted image writes nearly the same
// pages to start and serve a small request, so the engine learns them once
// per image (writtenPages after a warm-up run) and populates them writable
// in each new guest with madvise(MADV_POPULATE_WRITE): a few system calls
// instead of ~80 faults, and no TLB flushes, since nothing is mapped yet.

const pageSize = 4096

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

// pageRun is a run of pages, in pages from the start of linear memory.
type pageRun struct{ first, n int }

// writtenPages returns the runs of mem's pages that are privately mapped
// (written since the mapping was made), read from /proc/self/pagemap.
// Runs separated by at most mergeGap pages are merged: populating a few
// unneeded pages costs less than a system call.
func writtenPages(mem []byte) ([]pageRun, error) {
	if len(mem) == 0 {
		return nil, nil
	}
	base := uintptr(unsafe.Pointer(&mem[0]))
	if base%pageSize != 0 {
		return nil, fmt.Errorf("memory is not page-aligned")
	}
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	npages := len(mem) / pageSize
	buf := make([]byte, 8*npages)
	if _, err := f.ReadAt(buf, int64(base/pageSize)*8); err != nil {
		return nil, fmt.Errorf("read pagemap: %w", err)
	}
	const present, fileOrShared = 1 << 63, 1 << 61
	const mergeGap = 4
	var runs []pageRun
	for i := 0; i < npages; i++ {
		e := binary.LittleEndian.Uint64(buf[8*i:])
		if e&present == 0 || e&fileOrShared != 0 {
			continue
		}
		if k := len(runs) - 1; k >= 0 && i-(runs[k].first+runs[k].n) <= mergeGap {
			runs[k].n = i - runs[k].first + 1
			continue
		}
		runs = append(runs, pageRun{first: i, n: 1})
	}
	return runs, nil
}

// prefault populates runs of mem writable. It is an optimization only: it
// stops at the first error (an older kernel refuses the advice).
func prefault(mem []byte, runs []pageRun) {
	if len(mem) == 0 {
		return
	}
	base := uintptr(unsafe.Pointer(&mem[0]))
	limit := len(mem) / pageSize
	for _, r := range runs {
		n := min(r.n, limit-r.first)
		if n <= 0 {
			return
		}
		_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, base+uintptr(r.first)*pageSize, uintptr(n)*pageSize, madvPopulateWrite)
		if errno != 0 {
			return
		}
	}
}

// madvisePopulate populates n bytes at addr writable; an optimization only
// (errors are ignored).
func madvisePopulate(addr, n uintptr) {
	syscall.Syscall(syscall.SYS_MADVISE, addr, n, madvPopulateWrite)
}

// madvHugepage is MADV_HUGEPAGE.
const madvHugepage = 14

// hugePages asks for transparent huge pages over mem[from:] (the 2 MiB
// pages inside it): a large state written into grown memory then costs a
// fault per 2 MiB instead of one per 4 KiB, each zeroing its page (three
// times faster for 20 MiB on the build machine). An optimization only:
// a kernel without THP, or with it off, refuses or ignores the advice.
func hugePages(mem []byte, from int) {
	const huge = 2 << 20
	if from >= len(mem) {
		return
	}
	base := uintptr(unsafe.Pointer(&mem[0]))
	start := (base + uintptr(from) + huge - 1) &^ (huge - 1)
	end := (base + uintptr(len(mem))) &^ (huge - 1)
	if end > start {
		syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvHugepage)
	}
}
