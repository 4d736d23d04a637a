package engine

// Capturing a guest between runs, and restoring it (docs/RATIONALE.md,
// "Hibernation: where a guest is captured").
//
// A guest between runs is parked inside the host's recv, with live wasm
// frames (the serve loop's) on the native stack. wasmtime can't capture
// those, so the host doesn't try: it answers the parked recv with
// recvSuspend (-2), the driver returns from its entry function (the Go
// driver's wasmexec_serve returns like any wasmexport; the Python C loop
// returns without its end-of-guest work), and with no guest frame live the
// instance's whole state is its linear memory, its mutable globals and what
// the host holds for it (the WASI descriptor table, which is the image's
// preopens plus /workspace unless the guest has files open: such a guest
// is not captured). The host then either calls the entry again (Capture
// with keep: the guest goes on serving in the same instance) or drops the
// instance (hibernation). Restore instantiates the image, writes the
// captured memory and globals over the fresh instance and calls the entry:
// the driver refreshes what is per guest (environment, entropy, streams)
// exactly as a guest started from the image's snapshot does, and parks in
// recv again.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"sync/atomic"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v25"

	"github.com/wasmexec/wasmexec"
)

// recvSuspend is what recv returns to tell a driver to return from its
// entry with its state intact (docs/PROTOCOL.md).
const recvSuspend = -2

// suspendWait bounds how long a parked guest may take to return from its
// entry after recvSuspend, or to come back to recv after a resume.
const suspendWait = 10 * time.Second

// hibernation is a guest's side of the suspend handshake.
type hibernation struct {
	req       chan struct{} // taken by a parked recv, which returns recvSuspend
	parked    chan struct{} // the entry returned after a suspend
	resume    chan bool     // true: call the entry again; false: stop
	requested atomic.Bool
}

func newHibernation() *hibernation {
	return &hibernation{req: make(chan struct{}), parked: make(chan struct{}, 1), resume: make(chan bool, 1)}
}

// suspendRecv is how a parked recv takes a suspend (guest thread).
func (g *Guest) suspendRecv(caller *wasmtime.Caller) int32 {
	// The driver returns from its entry outside any call: give it the
	// start-up's fuel, not what the last run left.
	setFuel(caller, initFuel)
	return recvSuspend
}

// afterEntry runs on the guest's goroutine when its entry returned without
// a trap: true means call the entry again (the guest was suspended and
// resumed), false means the guest is done.
func (g *Guest) afterEntry() bool {
	if !g.hib.requested.Swap(false) {
		return false
	}
	g.hib.parked <- struct{}{}
	select {
	case ok := <-g.hib.resume:
		if ok {
			setFuel(g.store, initFuel)
		}
		return ok
	case <-g.quit:
		return false
	}
}

// Suspendable reports whether the guest's image can be captured at all:
// its driver honours recvSuspend (guest.json "suspend") and it starts from
// a snapshot (a restore writes over the snapshot's instance).
func (img *Image) Suspendable() bool { return img.Spec.Suspend && img.Snapshotted }

// Capture captures the guest between runs and returns its encoded state
// (self-describing: it names the image, wasmtime and engine configuration
// it depends on, and is checksummed). With keep the guest goes on serving
// afterwards; without, it is closed (hibernation). A guest that can't be
// captured now is an error with code conflict (a run in progress, files
// open, a table holding what a state can't name, an image that can't
// suspend) and stays as it was, kept or not; a guest that died while
// suspending is an internal error.
func (g *Guest) Capture(ctx context.Context, keep bool) ([]byte, error) {
	var state []byte
	err := g.capture(ctx, keep, func(p *statePlan) (err error) {
		state, err = p.bytes()
		return err
	})
	return state, err
}

// CaptureTo is Capture writing the state into w, at offsets 0 to the
// size it returns, while the guest is suspended: raw pages go from the
// guest's memory to w without a copy in the heap (a record file: a 20 MiB
// state is not allocated, zeroed and copied on its way). A write error is
// an internal error, and the guest goes on as after a failed capture.
// (wasmexec.FileCapturer)
func (g *Guest) CaptureTo(ctx context.Context, keep bool, w io.WriterAt) (int64, error) {
	var n int64
	err := g.capture(ctx, keep, func(p *statePlan) error {
		n = int64(p.size())
		return p.writeTo(w)
	})
	return n, err
}

// CaptureTemplateTo is CaptureTo for a template (wasmexec.TemplateCapturer):
// a state every run from it maps rather than decodes. Its pages are
// stored raw, uncompressed, and as one span, from the first page that
// differs from the image's snapshot to the last (the unchanged pages in
// between too): a restore from its file then maps them with one mapping,
// copy-on-write, and copies or decompresses nothing. It costs disk (the
// span's whole size) and, once, the page cache the runs share.
func (g *Guest) CaptureTemplateTo(ctx context.Context, keep bool, w io.WriterAt) (int64, error) {
	var n int64
	err := g.captureWith(ctx, keep, planTemplate, func(p *statePlan) error {
		n = int64(p.size())
		return p.writeTo(w)
	})
	return n, err
}

// capture suspends the guest, plans its state and hands the plan to out.
func (g *Guest) capture(ctx context.Context, keep bool, out func(*statePlan) error) error {
	return g.captureWith(ctx, keep, planCompact, out)
}

// captureWith is capture with a plan of the given kind.
func (g *Guest) captureWith(ctx context.Context, keep bool, kind planKind, out func(*statePlan) error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.img.Suspendable() {
		return wasmexec.Errorf(wasmexec.EConflict, "the %s guest image can't be captured (it does not suspend, or has no snapshot)", g.img.Spec.Name)
	}
	if !g.Alive() {
		return wasmexec.Errorf(wasmexec.EConflict, "the guest is not running")
	}
	if n := len(g.shim.open); n > 0 {
		return wasmexec.Errorf(wasmexec.EConflict, "the guest holds %d open file(s) besides its preopens; it is captured once it closes them", n)
	}
	g.hib.requested.Store(true)
	t := time.NewTimer(suspendWait)
	defer t.Stop()
	select {
	case g.hib.req <- struct{}{}:
	case <-g.done:
		g.hib.requested.Store(false)
		return wasmexec.Errorf(wasmexec.EConflict, "the guest is not running")
	case <-ctx.Done():
		g.hib.requested.Store(false)
		return ctx.Err()
	case <-t.C:
		g.hib.requested.Store(false)
		return wasmexec.Errorf(wasmexec.EConflict, "the guest is not parked between runs")
	}
	select {
	case <-g.hib.parked:
	case <-g.done:
		return fmt.Errorf("the guest died while suspending: %v", g.exitErr)
	case <-t.C:
		g.stop()
		return fmt.Errorf("the guest did not return from its entry within %s of a suspend", suspendWait)
	}
	// A guest restored from a file maps pages of it: should that file be
	// cut short under it, a read of a lost page finds a zero page
	// (wasmexec_bus) and marks the guest lost, which fails the capture;
	// contain covers any other fault on these goroutines.
	var p *statePlan
	err := error(nil)
	contain(&err, func() {
		if p, err = g.planState(kind); err == nil {
			err = out(p)
		}
	})
	if err == nil && g.watch.lost() {
		err = fmt.Errorf("capture: %s", lostMemory)
	}
	if err != nil { // could not capture: the guest goes on, kept or not
		g.hib.resume <- true
		return err
	}
	if keep {
		g.hib.resume <- true
		return nil
	}
	g.hib.resume <- false
	<-g.done
	g.freeStore()
	return nil
}

// globalBits is a global's value as raw bits.
func globalBits(v wasmtime.Val) uint64 {
	switch v.Kind() {
	case wasmtime.KindI32:
		return uint64(uint32(v.I32()))
	case wasmtime.KindI64:
		return uint64(v.I64())
	case wasmtime.KindF32:
		return uint64(mathFloat32bits(v.F32()))
	case wasmtime.KindF64:
		return mathFloat64bits(v.F64())
	}
	return 0
}

func bitsVal(kind wasmtime.ValKind, bits uint64) (wasmtime.Val, error) {
	switch kind {
	case wasmtime.KindI32:
		return wasmtime.ValI32(int32(uint32(bits))), nil
	case wasmtime.KindI64:
		return wasmtime.ValI64(int64(bits)), nil
	case wasmtime.KindF32:
		return wasmtime.ValF32(math.Float32frombits(uint32(bits))), nil
	case wasmtime.KindF64:
		return wasmtime.ValF64(math.Float64frombits(bits)), nil
	}
	return wasmtime.Val{}, fmt.Errorf("global of kind %v can't be restored", kind)
}

// StateRefusedError says why an encoded state can't be restored: corrupt,
// truncated, foreign, or made for another image, wasmtime or engine
// configuration. Its owner starts a fresh guest instead.
type StateRefusedError struct{ Reason string }

func (e *StateRefusedError) Error() string { return "guest state refused: " + e.Reason }

func refused(format string, args ...any) error {
	return &StateRefusedError{Reason: fmt.Sprintf(format, args...)}
}

// IsStateRefused reports whether err is a StateRefusedError.
func IsStateRefused(err error) bool {
	var r *StateRefusedError
	return errors.As(err, &r)
}

// Restore starts a guest of img from an encoded state: the guest goes on
// from where Capture took it, with opts' workspace (a fork's is a copy).
// A state that doesn't fit img is a *StateRefusedError.
func (img *Image) Restore(ctx context.Context, state []byte, opts GuestOptions) (*Guest, error) {
	return img.restore(ctx, state, nil, 0, opts)
}

// RestoreFile is Restore of the state stored in f from offset off to its
// end. The raw pages of a large state stored page-aligned (format 3 at a
// page-aligned off: a context's record) are mapped into the guest's
// memory copy-on-write instead of copied (statemap.go), so f must never
// be written in place while the guest lives: only replaced by rename, or
// removed. A small state is read.
func (img *Image) RestoreFile(ctx context.Context, f *os.File, off int64, opts GuestOptions) (*Guest, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("restore from %s: %w", f.Name(), err)
	}
	n := fi.Size() - off
	switch {
	case off < 0 || n <= 0:
		return nil, refused("truncated (no state at offset %d of %d bytes)", off, fi.Size())
	case n > maxStateBytes:
		return nil, refused("%d bytes, more than any guest state", n)
	}
	if n >= mapStateMin && canMapFile {
		view, unmap, err := mapView(f, off, n)
		if err == nil {
			defer unmap()
			var g *Guest
			contain(&err, func() { g, err = img.restore(ctx, view, f, off, opts) })
			return g, faultRefuses(err)
		}
	}
	buf := smallStates.get(int(n))
	defer smallStates.put(buf)
	if _, err := f.ReadAt(buf, off); err != nil {
		return nil, refused("could not be read: %v", err)
	}
	return img.restore(ctx, buf, nil, 0, opts)
}

// smallStates holds a few buffers for states RestoreFile reads: reading
// into memory already mapped costs less than a new, zeroed buffer at
// each wake (a Python context's ~0.5 MB: ~0.1 ms). Not a sync.Pool: a wake
// allocates enough for a GC to empty that between two wakes.
var smallStates = bufs(make(chan []byte, 2))

type bufs chan []byte

// get returns a buffer of n bytes.
func (b bufs) get(n int) []byte {
	var buf []byte
	select {
	case buf = <-b:
	default:
	}
	if cap(buf) < n {
		buf = make([]byte, n, max(n, 256<<10))
	}
	return buf[:n]
}

func (b bufs) put(buf []byte) {
	if cap(buf) > mapStateMin { // a large state that could not be mapped
		return
	}
	select {
	case b <- buf:
	default:
	}
}

func (img *Image) restore(ctx context.Context, state []byte, file *os.File, off int64, opts GuestOptions) (*Guest, error) {
	if !img.Suspendable() {
		return nil, refused("the %s image can't be restored into", img.Spec.Name)
	}
	d, err := decodeState(img, state)
	if err != nil {
		return nil, err
	}
	d.file, d.fileOff = file, off
	d.checked = opts.StateChecked && file != nil
	if !d.checked {
		d.checkAhead()
	}
	if d.ahead != nil {
		// Done reading the state before it is unmapped; a state refused
		// before its frames were applied is not read on.
		defer d.ahead.stop()
	}
	if opts.MemoryBytes <= 0 {
		opts.MemoryBytes = d.h.MemoryLimit
	}
	if !maps.Equal(opts.Env, d.h.Env) && len(opts.Env)+len(d.h.Env) > 0 {
		return nil, refused("captured with another environment")
	}
	opts.restore = d
	return img.Start(ctx, opts)
}
