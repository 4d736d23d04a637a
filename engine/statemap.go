package engine

// Mapping a state's raw pages from its file (RestoreFile).
//
// A state of 20 MiB of incompressible memory, restored by copying, costs
// on this machine's memory bandwidth: the kernel zeroing 20 MiB of new
// pages, the checksum reading the state, and the copy reading it again and
// writing the pages: ~9 ms. A state stored in a file with its raw frames
// page-aligned (format 3, a context's record) can instead be mapped into
// the guest's linear memory, private and copy-on-write: the checksum still
// reads every byte (a flipped bit is still refused), but nothing is zeroed
// or copied, pages the guest only reads stay shared with the page cache,
// and a page it writes is copied then, by the kernel, one at a time. This
// is how wasmtime itself starts every instance from its image (a private
// mapping of a memfd), and how VM snapshots restore.
//
// What it relies on:
//   - the file is never written in place while a guest maps it (a private
//     mapping shows later writes to pages the guest hasn't written):
//     records are replaced by rename and removed by unlink, which leave
//     the mapped inode as it was;
//   - wasmtime's on-demand allocator, which unmaps a memory's whole
//     reservation when the store is dropped (a pooling allocator would
//     reset a slot with madvise(MADV_DONTNEED), which on a private file
//     mapping brings the file's pages back rather than zeroes);
//   - a bounded number of mappings: each splits the memory's mapping, and
//     a process has at most vm.max_map_count (65530) of them, so a guest
//     maps at most maxGuestMaps ranges of at least mapMinBytes, and all
//     guests together at most maxMappedRanges; the rest is copied;
//   - a SIGBUS handler (wasmexec_bus, engine/wasmtime_cgo.go) for the
//     mapped ranges: a page lost under a mapping (the file cut short, a
//     disk that can't read it back) becomes a zero page, and the guest's
//     run or capture fails, instead of the process crashing.

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
)

const (
	// mapMinBytes is the smallest range worth a mapping: below it the
	// system call and the mapping's page-table work cost about as much
	// as the copy.
	mapMinBytes = 256 << 10
	// maxGuestMaps bounds one guest's mappings.
	maxGuestMaps = 16
	// maxMappedRanges bounds the mappings of all live guests.
	maxMappedRanges = 8192
	// mapStateMin is the smallest state RestoreFile maps the file of;
	// a smaller one is read (cheaper than mapping and unmapping a view).
	mapStateMin = alignRawBytes
)

// mappedRanges counts the mappings live guests hold.
var mappedRanges atomic.Int64

// memRange is a range of a guest's memory whose bytes lie in the state's
// file at file.
type memRange struct{ mem, file, n int64 }

// plannedMaps lists the ranges of memory d's raw frames hold contiguously
// in its file, largest first, as many as one guest may map and at least
// mapMinBytes each, and reserves them in mappedRanges (the guest releases
// them when its store is freed). None when d is not from a file, its raw
// frames are not page-aligned in it, or the budget is spent.
func (d *decodedState) plannedMaps(spans [][]pageRun) []memRange {
	if d.file == nil || !canMapFile {
		return nil
	}
	var all []memRange
	for i, f := range d.frames {
		if f.compressed {
			continue
		}
		fo := d.fileOff + int64(f.off)
		if fo%statePage != 0 {
			return nil // raw frames are aligned together or not at all
		}
		for _, r := range spans[i] {
			m, n := int64(r.first)*statePage, int64(r.n)*statePage
			if k := len(all) - 1; k >= 0 && all[k].mem+all[k].n == m && all[k].file+all[k].n == fo {
				all[k].n += n
			} else {
				all = append(all, memRange{mem: m, file: fo, n: n})
			}
			fo += n
		}
	}
	all = slices.DeleteFunc(all, func(r memRange) bool { return r.n < mapMinBytes })
	slices.SortFunc(all, func(a, b memRange) int { return int(b.n - a.n) })
	all = all[:min(len(all), maxGuestMaps)]
	if len(all) == 0 {
		return nil
	}
	if mappedRanges.Add(int64(len(all))) > maxMappedRanges {
		mappedRanges.Add(-int64(len(all)))
		return nil
	}
	slices.SortFunc(all, func(a, b memRange) int { return int(a.mem - b.mem) })
	return all
}

// mapRanges maps ranges of f over mem and returns those it mapped (the
// others are left to the copy) with the guard slots they hold (unguard
// them before the memory goes). Each is guarded first (a page of it lost
// later is a zero page and a failed run, not a crash: wasmexec_bus); one
// that can't be is copied. A mapping that fails puts fresh anonymous
// memory back over its range; if even that fails, the guest's memory is
// not what it should be, which is an error.
func mapRanges(mem []byte, f *os.File, ranges []memRange, guard func(memRange) (int, error)) ([]memRange, []int, error) {
	var done []memRange
	var slots []int
	for _, r := range ranges {
		slot, err := guard(r)
		if err != nil {
			continue
		}
		if err := mapFileFixed(mem, r, f); err != nil {
			unguard([]int{slot})
			if err := mapAnonFixed(mem, r); err != nil {
				return done, slots, err
			}
			continue
		}
		done, slots = append(done, r), append(slots, slot)
	}
	return done, slots, nil
}

// covered reports whether the n bytes of memory at m lie in one of the
// (sorted) ranges.
func covered(ranges []memRange, m, n int64) bool {
	for _, r := range ranges {
		if m >= r.mem && m+n <= r.mem+r.n {
			return true
		}
	}
	return false
}

// faultError is a memory fault contain caught: a read of a page whose
// file was cut short under its mapping (SIGBUS), or that the disk could
// not read back.
type faultError struct{ fault any }

func (e *faultError) Error() string {
	return fmt.Sprintf("a page of a mapped state file could not be read (%v)", e.fault)
}

// contain runs fn and turns a memory fault in it into *err (a
// *faultError) instead of the process crashing. Only fn's own goroutine
// is covered: parallel contains its workers.
func contain(err *error, fn func()) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); ok {
				*err = &faultError{r}
				return
			}
			panic(r)
		}
	}()
	fn()
}

// faultRefuses turns a fault while a state was read into a refusal of
// that state; other errors pass.
func faultRefuses(err error) error {
	var fe *faultError
	if errors.As(err, &fe) {
		return refused("its file changed while it was read (%v)", fe.fault)
	}
	return err
}

// runsOutside is runs less the (sorted) ranges.
func runsOutside(runs []pageRun, ranges []memRange) []pageRun {
	if len(ranges) == 0 {
		return runs
	}
	var out []pageRun
	for _, r := range runs {
		first, end := r.first, r.first+r.n
		for _, m := range ranges {
			mf, me := int(m.mem/statePage), int((m.mem+m.n)/statePage)
			if me <= first || mf >= end {
				continue
			}
			if mf > first {
				out = append(out, pageRun{first: first, n: mf - first})
			}
			first = max(first, me)
		}
		if first < end {
			out = append(out, pageRun{first: first, n: end - first})
		}
	}
	return out
}

// frameCheck checks a state's raw frames on goroutines of their own
// (parallel's), started as soon as the state's head is read: a mapped
// frame is not otherwise read at a restore, and its checksum (reading it
// all from the page cache: the longest part of a large restore, ~3 ms for
// 20 MiB on one core here) then overlaps the instantiation and the other
// frames' work instead of following them.
type frameCheck struct {
	done    chan struct{}
	stopped atomic.Bool
	mu      sync.Mutex
	err     error
}

// checkAhead starts checking d's raw frames, when it maps them (a state
// from a file) and they are many.
func (d *decodedState) checkAhead() {
	if d.file == nil {
		return
	}
	var idx []int
	for i, f := range d.frames {
		if !f.compressed {
			idx = append(idx, i)
		}
	}
	if len(idx)*frameBytes < parallelBytes {
		return
	}
	c := &frameCheck{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		err := parallel(len(idx), frameBytes, func(k int) {
			if c.stopped.Load() {
				return
			}
			if i := idx[k]; !d.frames[i].intact() {
				c.fail(refused("checksum mismatch in frame %d (corrupt)", i))
			}
		})
		if err != nil {
			c.fail(faultRefuses(err))
		}
	}()
	d.ahead = c
}

// fail records the check's first error and stops it.
func (c *frameCheck) fail(err error) {
	c.mu.Lock()
	c.err = cmp.Or(c.err, err)
	c.mu.Unlock()
	c.stopped.Store(true)
}

// stop ends the check early (the frames under way finish) and waits for
// it.
func (c *frameCheck) stop() {
	c.stopped.Store(true)
	<-c.done
}

// wait waits for the check to end and returns its verdict. It may be
// called again.
func (c *frameCheck) wait() error {
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
