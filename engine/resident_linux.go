package engine

import (
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// pagemapChunk is how many pages' entries residentPages reads at once.
const pagemapChunk = 4096

var pagemapBufs = sync.Pool{New: func() any { b := make([]byte, 8*pagemapChunk); return &b }}

// residentPages counts mem's pages that are present (total) and, of
// those, the private ones: written (anonymous, or copied on write) or in
// the ranges mapped from a state file (file pages, but the guest's alone).
func residentPages(mem []byte, mapped []memRange) (total, private int64, err error) {
	if len(mem) == 0 {
		return 0, 0, nil
	}
	base := uintptr(unsafe.Pointer(&mem[0]))
	if base%pageSize != 0 {
		return 0, 0, fmt.Errorf("memory is not page-aligned")
	}
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	bp := pagemapBufs.Get().(*[]byte)
	defer pagemapBufs.Put(bp)
	buf := *bp
	const present, fileOrShared = 1 << 63, 1 << 61
	npages := len(mem) / pageSize
	for first := 0; first < npages; first += pagemapChunk {
		k := min(pagemapChunk, npages-first)
		if _, err := f.ReadAt(buf[:8*k], int64(base/pageSize+uintptr(first))*8); err != nil {
			return 0, 0, fmt.Errorf("read pagemap: %w", err)
		}
		for i := range k {
			e := binary.LittleEndian.Uint64(buf[8*i:])
			if e&present == 0 {
				continue
			}
			total++
			if e&fileOrShared == 0 || inMapped(mapped, int64(first+i)*pageSize) {
				private++
			}
		}
	}
	return total, private, nil
}

func inMapped(mapped []memRange, off int64) bool {
	for _, r := range mapped {
		if off >= r.mem && off < r.mem+r.n {
			return true
		}
	}
	return false
}

// untouchedPages marks the pages of mem known to hold what a fresh guest
// of the image holds there, without reading them: those of its first
// baseLen bytes (the image's memory, mapped copy-on-write) that are not
// mapped in or mapped and never written, and those past it never mapped
// in (zero). Pages of ranges mapped from a state's file are never
// untouched: they hold the state. Nil when the page map can't be read
// (every page is then compared).
func untouchedPages(mem []byte, baseLen int, mapped []memRange) []bool {
	if len(mem) == 0 {
		return nil
	}
	base := uintptr(unsafe.Pointer(&mem[0]))
	if base%pageSize != 0 {
		return nil
	}
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return nil
	}
	defer f.Close()
	bp := pagemapBufs.Get().(*[]byte)
	defer pagemapBufs.Put(bp)
	buf := *bp
	const present, swapped, fileOrShared = 1 << 63, 1 << 62, 1 << 61
	npages := len(mem) / pageSize
	out := make([]bool, npages)
	for first := 0; first < npages; first += pagemapChunk {
		k := min(pagemapChunk, npages-first)
		if _, err := f.ReadAt(buf[:8*k], int64(base/pageSize+uintptr(first))*8); err != nil {
			return nil
		}
		for i := range k {
			p := first + i
			off := int64(p) * pageSize
			if inMapped(mapped, off) {
				continue
			}
			e := binary.LittleEndian.Uint64(buf[8*i:])
			switch {
			case e&swapped != 0:
			case e&present == 0:
				out[p] = true
			case e&fileOrShared != 0 && off+pageSize <= int64(baseLen):
				out[p] = true
			}
		}
	}
	return out
}

// madvDontneed is MADV_DONTNEED.
const madvDontneed = 4

// trimShared unmaps the pages of mem's first baseLen bytes that are
// mapped in from the image and were never written (page map: present, a
// file page), outside the ranges mapped from a state's file, with
// madvise(MADV_DONTNEED) over runs of them. On a private file mapping
// that discards a written page's copy, so runs hold nothing else: the
// guest is not running (its caller holds it), so no page changes between
// the page map's read and the advice. Returns the pages unmapped.
func trimShared(mem []byte, baseLen int, mapped []memRange) int64 {
	if len(mem) == 0 {
		return 0
	}
	base := uintptr(unsafe.Pointer(&mem[0]))
	if base%pageSize != 0 {
		return 0
	}
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return 0
	}
	defer f.Close()
	bp := pagemapBufs.Get().(*[]byte)
	defer pagemapBufs.Put(bp)
	buf := *bp
	const present, fileOrShared = 1 << 63, 1 << 61
	npages := min(len(mem), baseLen) / pageSize
	var trimmed int64
	runStart := -1
	flush := func(end int) {
		if runStart >= 0 {
			if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, base+uintptr(runStart)*pageSize, uintptr(end-runStart)*pageSize, madvDontneed); errno == 0 {
				trimmed += int64(end - runStart)
			}
			runStart = -1
		}
	}
	for first := 0; first < npages; first += pagemapChunk {
		k := min(pagemapChunk, npages-first)
		if _, err := f.ReadAt(buf[:8*k], int64(base/pageSize+uintptr(first))*8); err != nil {
			flush(first)
			return trimmed
		}
		for i := range k {
			p := first + i
			e := binary.LittleEndian.Uint64(buf[8*i:])
			if e&present != 0 && e&fileOrShared != 0 && !inMapped(mapped, int64(p)*pageSize) {
				if runStart < 0 {
					runStart = p
				}
				continue
			}
			flush(p)
		}
	}
	flush(npages)
	return trimmed
}
