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
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v25"
	"github.com/klauspost/compress/zstd"

	"github.com/wasmexec/wasmexec/exec"
)

// recvSuspend is what recv returns to tell a driver to return from its
// entry with its state intact (docs/PROTOCOL.md).
const recvSuspend = -2

// stateFormat is the version of the encoded guest state (Capture); a
// state of another version is refused.
const stateFormat = 1

// stateMagic starts every encoded guest state.
var stateMagic = [8]byte{'W', 'X', 'G', 'S', 'T', 'A', 'T', 'E'}

// chunkSize is the granularity of the memory diff.
const chunkSize = 4096

// maxStateBytes bounds an encoded state and what it decompresses to: a
// guest's memory can't exceed 4 GiB (wasm32), and a state file claiming
// more is refused before anything is allocated for it.
const maxStateBytes = 4 << 30

// stateWindow is the compression window of states; a state asking for a
// larger one is refused (what a decoder allocates is bounded by it).
const stateWindow = 1 << 20

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
// open, an image that can't suspend) and stays as it was; a guest that died
// while suspending is an internal error.
func (g *Guest) Capture(ctx context.Context, keep bool) ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.img.Suspendable() {
		return nil, exec.Errorf(exec.EConflict, "the %s guest image can't be captured (it does not suspend, or has no snapshot)", g.img.Spec.Name)
	}
	if !g.Alive() {
		return nil, exec.Errorf(exec.EConflict, "the guest is not running")
	}
	if n := len(g.shim.open); n > 0 {
		return nil, exec.Errorf(exec.EConflict, "the guest holds %d open file(s) besides its preopens; it is captured once it closes them", n)
	}
	g.hib.requested.Store(true)
	t := time.NewTimer(suspendWait)
	defer t.Stop()
	select {
	case g.hib.req <- struct{}{}:
	case <-g.done:
		g.hib.requested.Store(false)
		return nil, exec.Errorf(exec.EConflict, "the guest is not running")
	case <-ctx.Done():
		g.hib.requested.Store(false)
		return nil, ctx.Err()
	case <-t.C:
		g.hib.requested.Store(false)
		return nil, exec.Errorf(exec.EConflict, "the guest is not parked between runs")
	}
	select {
	case <-g.hib.parked:
	case <-g.done:
		return nil, fmt.Errorf("the guest died while suspending: %v", g.exitErr)
	case <-t.C:
		g.stop()
		return nil, fmt.Errorf("the guest did not return from its entry within %s of a suspend", suspendWait)
	}
	state, err := g.encodeState()
	if keep && err == nil {
		g.hib.resume <- true
		return state, nil
	}
	if keep { // could not encode: the guest goes on
		g.hib.resume <- true
		return nil, err
	}
	g.hib.resume <- false
	<-g.done
	g.freeStore()
	return state, err
}

// stateHeader describes an encoded state.
type stateHeader struct {
	Image        string `json:"image"`
	ImageHash    string `json:"imageHash"`
	Wasmtime     string `json:"wasmtime"`
	EngineConfig string `json:"engineConfig"`
	Snapshot     string `json:"snapshot"`
	// MemoryBytes is the size of the linear memory; Chunks how many
	// chunkSize pieces of it differ from the image's (they follow, with
	// their indexes, compressed).
	MemoryBytes uint64   `json:"memoryBytes"`
	Chunks      int      `json:"chunks"`
	Globals     []uint64 `json:"globals"` // the image's mutable globals, in export order
	// MonotonicNs is the guest's monotonic clock when it was captured.
	MonotonicNs uint64            `json:"monotonicNs"`
	Env         map[string]string `json:"env,omitempty"`
	MemoryLimit int64             `json:"memoryLimit"`
}

// imageBase is what states of an image are diffed against: the memory of a
// fresh instance of its snapshot, and the names of its mutable globals.
type imageBase struct {
	once    sync.Once
	err     error
	store   *wasmtime.Store
	mem     []byte
	globals []string // __wasmexec_global_N, sorted by N
}

var bases sync.Map // *Image → *imageBase

// globalExportPrefix names the exports buildSnapshot adds for every
// mutable global.
const globalExportPrefix = "__wasmexec_global_"

func (img *Image) base() (*imageBase, error) {
	v, _ := bases.LoadOrStore(img, &imageBase{})
	b := v.(*imageBase)
	b.once.Do(func() { b.err = b.load(img) })
	return b, b.err
}

func (b *imageBase) load(img *Image) error {
	for _, ex := range img.module.Exports() {
		if strings.HasPrefix(ex.Name(), globalExportPrefix) {
			b.globals = append(b.globals, ex.Name())
		}
	}
	num := func(name string) int {
		n, _ := strconv.Atoi(strings.TrimPrefix(name, globalExportPrefix))
		return n
	}
	slices.SortFunc(b.globals, func(x, y string) int { return num(x) - num(y) })
	if len(b.globals) == 0 {
		return fmt.Errorf("the %s image's snapshot exports no globals (built by an older wasmexec?)", img.Spec.Name)
	}
	store := wasmtime.NewStore(img.engine.wt)
	store.SetWasi(wasmtime.NewWasiConfig())
	l := wasmtime.NewLinker(img.engine.wt)
	defer l.Close()
	if err := l.DefineWasi(); err != nil {
		store.Close()
		return err
	}
	trap := func() *wasmtime.Trap { return wasmtime.NewTrap("wasmexec: the base instance runs no code") }
	for name, fn := range map[string]any{
		"recv":  func(int32, int32) (int32, *wasmtime.Trap) { return 0, trap() },
		"send":  func(int32, int32) *wasmtime.Trap { return trap() },
		"write": func(int32, int32, int32) (int32, *wasmtime.Trap) { return 0, trap() },
		"read":  func(int32, int32) (int32, *wasmtime.Trap) { return 0, trap() },
	} {
		if err := l.FuncWrap("wasmexec", name, fn); err != nil {
			store.Close()
			return err
		}
	}
	inst, err := l.Instantiate(store, img.module)
	if err != nil {
		store.Close()
		return fmt.Errorf("instantiate the %s image's base: %w", img.Spec.Name, err)
	}
	ext := inst.GetExport(store, "memory")
	if ext == nil || ext.Memory() == nil {
		store.Close()
		return fmt.Errorf("the %s image exports no memory", img.Spec.Name)
	}
	// The slice stays valid while the store lives (it is never closed):
	// the snapshot's pages, mapped copy-on-write and never written.
	b.store, b.mem = store, ext.Memory().UnsafeData(store)
	return nil
}

// globalExports returns the guest's mutable globals, in the base's order.
func (g *Guest) globalExports(b *imageBase) ([]*wasmtime.Global, error) {
	out := make([]*wasmtime.Global, len(b.globals))
	for i, name := range b.globals {
		ext := g.inst.GetExport(g.store, name)
		if ext == nil || ext.Global() == nil {
			return nil, fmt.Errorf("the guest lacks export %s", name)
		}
		out[i] = ext.Global()
	}
	return out, nil
}

// encodeState captures memory and globals of a suspended guest.
func (g *Guest) encodeState() ([]byte, error) {
	b, err := g.img.base()
	if err != nil {
		return nil, err
	}
	globals, err := g.globalExports(b)
	if err != nil {
		return nil, err
	}
	h := stateHeader{
		Image: g.img.Spec.Name, ImageHash: g.img.Hash, Wasmtime: wasmtimeVersion, EngineConfig: engineConfigKey, Snapshot: g.img.snapshotKey,
		MonotonicNs: monotonicNow(), Env: g.opts.Env, MemoryLimit: g.opts.MemoryBytes,
	}
	for _, gl := range globals {
		h.Globals = append(h.Globals, globalBits(gl.Get(g.store)))
	}
	mem := g.mem.UnsafeData(g.store)
	h.MemoryBytes = uint64(len(mem))
	var idx []uint32
	var data [][]byte
	var zero [chunkSize]byte
	for off := 0; off < len(mem); off += chunkSize {
		end := min(off+chunkSize, len(mem))
		cur := mem[off:end]
		var was []byte
		if off < len(b.mem) {
			was = b.mem[off:min(end, len(b.mem))]
		}
		if len(was) == len(cur) && bytes.Equal(cur, was) {
			continue
		}
		if len(was) == 0 && bytes.Equal(cur, zero[:len(cur)]) {
			continue // grown memory starts zeroed
		}
		idx = append(idx, uint32(off/chunkSize))
		data = append(data, cur)
	}
	h.Chunks = len(idx)
	hdr, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Grow(len(stateMagic) + 8 + len(hdr) + 4*len(idx) + len(idx)*chunkSize/2 + 4096)
	out.Write(stateMagic[:])
	binary.Write(&out, binary.LittleEndian, uint32(stateFormat))
	binary.Write(&out, binary.LittleEndian, uint32(len(hdr)))
	out.Write(hdr)
	zw, err := getEncoder(&out)
	if err != nil {
		return nil, err
	}
	defer encoders.Put(zw)
	ib := make([]byte, 4*len(idx))
	for i, x := range idx {
		binary.LittleEndian.PutUint32(ib[4*i:], x)
	}
	zw.Write(ib)
	for _, d := range data {
		zw.Write(d)
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	out.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(out.Bytes(), castagnoli)))
	return out.Bytes(), nil
}

// castagnoli is the CRC of states (hardware-accelerated); the compressed
// payload carries zstd's own checksum as well.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

const crcSize = 4

// encoders and decoders are reused: each holds a window's worth of buffers.
var encoders, decoders sync.Pool

func getEncoder(w io.Writer) (*zstd.Encoder, error) {
	if e, ok := encoders.Get().(*zstd.Encoder); ok {
		e.Reset(w)
		return e, nil
	}
	return zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(stateWindow))
}

func getDecoder(r io.Reader) (*zstd.Decoder, error) {
	if d, ok := decoders.Get().(*zstd.Decoder); ok {
		if err := d.Reset(r); err != nil {
			return nil, err
		}
		return d, nil
	}
	return zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(stateWindow))
}

// checkEnvelope checks magic and checksum and returns the body after the
// magic.
func checkEnvelope(state []byte) ([]byte, error) {
	if len(state) < len(stateMagic)+8+crcSize {
		return nil, refused("truncated (%d bytes)", len(state))
	}
	if !bytes.Equal(state[:len(stateMagic)], stateMagic[:]) {
		return nil, refused("not a guest state (bad magic)")
	}
	body := state[:len(state)-crcSize]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(state[len(body):]) {
		return nil, refused("checksum mismatch (corrupt or truncated)")
	}
	return body[len(stateMagic):], nil
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

// decodedState is a verified state, ready to be written into an
// instance: the chunks' data is still compressed, in zr, and decompressed
// straight into the guest's memory (applyState).
type decodedState struct {
	h      stateHeader
	chunks []uint32
	zr     *zstd.Decoder
}

// release returns the decoder for reuse.
func (d *decodedState) release() {
	if d.zr != nil {
		d.zr.Reset(nil)
		decoders.Put(d.zr)
		d.zr = nil
	}
}

// StateInfo is what an encoded state says about itself.
type StateInfo struct {
	Image       string
	MemoryBytes uint64
	Chunks      int
}

// decodeState verifies an encoded state against img (checksum, format,
// image, wasmtime and engine) and decompresses it.
func decodeState(img *Image, state []byte) (*decodedState, error) {
	if len(state) > maxStateBytes {
		return nil, refused("%d bytes, more than any guest state", len(state))
	}
	p, err := checkEnvelope(state)
	if err != nil {
		return nil, err
	}
	if v := binary.LittleEndian.Uint32(p); v != stateFormat {
		return nil, refused("format version %d, this wasmexec reads %d", v, stateFormat)
	}
	n := binary.LittleEndian.Uint32(p[4:])
	p = p[8:]
	if uint64(n) > uint64(len(p)) {
		return nil, refused("truncated header")
	}
	var d decodedState
	if err := json.Unmarshal(p[:n], &d.h); err != nil {
		return nil, refused("bad header: %v", err)
	}
	h := &d.h
	switch {
	case h.Image != img.Spec.Name:
		return nil, refused("made for image %q, not %q", h.Image, img.Spec.Name)
	case h.ImageHash != img.Hash:
		return nil, refused("made for another build of the %s image (hash %.12s, now %.12s)", img.Spec.Name, h.ImageHash, img.Hash)
	case h.Wasmtime != wasmtimeVersion:
		return nil, refused("made with %s, this is %s", h.Wasmtime, wasmtimeVersion)
	case h.EngineConfig != engineConfigKey:
		return nil, refused("made with engine configuration %q, this is %q", h.EngineConfig, engineConfigKey)
	case h.Snapshot != img.snapshotKey:
		return nil, refused("made from another snapshot of the %s image (its inputs or the snapshot procedure changed)", img.Spec.Name)
	case h.MemoryBytes%65536 != 0 || h.MemoryBytes > 1<<32:
		return nil, refused("memory size %d is not a wasm32 memory", h.MemoryBytes)
	case h.Chunks < 0 || uint64(h.Chunks) > h.MemoryBytes/chunkSize+1:
		return nil, refused("%d chunks for %d bytes of memory", h.Chunks, h.MemoryBytes)
	}
	zr, err := getDecoder(bytes.NewReader(p[n:]))
	if err != nil {
		return nil, refused("bad payload: %v", err)
	}
	d.zr = zr
	raw := make([]byte, 4*h.Chunks)
	if _, err := io.ReadFull(zr, raw); err != nil {
		d.release()
		return nil, refused("bad payload: %v", err)
	}
	d.chunks = make([]uint32, h.Chunks)
	prev := -1
	for i := range d.chunks {
		c := binary.LittleEndian.Uint32(raw[4*i:])
		if uint64(c)*chunkSize >= h.MemoryBytes || int(c) <= prev {
			d.release()
			return nil, refused("chunk %d is outside the memory or out of order", c)
		}
		d.chunks[i], prev = c, int(c)
	}
	return &d, nil
}

// ReadStateInfo checks an encoded state's envelope (magic, checksum,
// format) and returns what it says about itself.
func ReadStateInfo(state []byte) (StateInfo, error) {
	body, err := checkEnvelope(state)
	if err != nil {
		return StateInfo{}, err
	}
	p := body[8:]
	n := binary.LittleEndian.Uint32(body[4:])
	if uint64(n) > uint64(len(p)) {
		return StateInfo{}, refused("truncated header")
	}
	var h stateHeader
	if err := json.Unmarshal(p[:n], &h); err != nil {
		return StateInfo{}, refused("bad header: %v", err)
	}
	return StateInfo{Image: h.Image, MemoryBytes: h.MemoryBytes, Chunks: h.Chunks}, nil
}

// applyState writes a decoded state over the guest's fresh instance
// (before its entry runs).
func (g *Guest) applyState(d *decodedState) error {
	b, err := g.img.base()
	if err != nil {
		return err
	}
	if len(d.h.Globals) != len(b.globals) {
		return refused("%d globals, the image has %d", len(d.h.Globals), len(b.globals))
	}
	if int64(d.h.MemoryBytes) > g.opts.MemoryBytes {
		return refused("memory of %d bytes is over the guest's limit (%d)", d.h.MemoryBytes, g.opts.MemoryBytes)
	}
	cur := uint64(g.mem.DataSize(g.store))
	if d.h.MemoryBytes < cur {
		return refused("memory of %d bytes is smaller than the image's (%d)", d.h.MemoryBytes, cur)
	}
	if d.h.MemoryBytes > cur {
		if _, err := g.mem.Grow(g.store, (d.h.MemoryBytes-cur)/65536); err != nil {
			return fmt.Errorf("grow memory to %d bytes: %w", d.h.MemoryBytes, err)
		}
	}
	mem := g.mem.UnsafeData(g.store)
	for _, c := range d.chunks {
		off := int(c) * chunkSize
		if _, err := io.ReadFull(d.zr, mem[off:off+chunkSize]); err != nil {
			return refused("bad payload: %v", err)
		}
	}
	// The end of the frame, where zstd checks its own checksum.
	var one [1]byte
	if n, err := d.zr.Read(one[:]); n != 0 || err != io.EOF {
		return refused("bad payload: data after the last chunk")
	}
	globals, err := g.globalExports(b)
	if err != nil {
		return err
	}
	for i, gl := range globals {
		v, err := bitsVal(gl.Type(g.store).Content().Kind(), d.h.Globals[i])
		if err != nil {
			return err
		}
		if err := gl.Set(g.store, v); err != nil {
			return fmt.Errorf("restore global %s: %w", b.globals[i], err)
		}
	}
	return nil
}

// Restore starts a guest of img from an encoded state: the guest goes on
// from where Capture took it, with opts' workspace (a fork's is a copy).
// A state that doesn't fit img is a *StateRefusedError.
func (img *Image) Restore(ctx context.Context, state []byte, opts GuestOptions) (*Guest, error) {
	if !img.Suspendable() {
		return nil, refused("the %s image can't be restored into", img.Spec.Name)
	}
	d, err := decodeState(img, state)
	if err != nil {
		return nil, err
	}
	if opts.MemoryBytes <= 0 {
		opts.MemoryBytes = d.h.MemoryLimit
	}
	if !maps.Equal(opts.Env, d.h.Env) && len(opts.Env)+len(d.h.Env) > 0 {
		return nil, refused("captured with another environment")
	}
	opts.restore = d
	defer d.release()
	return img.Start(ctx, opts)
}

// RestoreGuest starts a kept guest from a state Capture returned (see
// Image.Restore). A refused state is a *StateRefusedError.
func (r *Runner) RestoreGuest(ctx context.Context, spec exec.GuestSpec, state []byte) (exec.Guest, error) {
	_, img, err := r.image(spec.Language)
	if err != nil {
		return nil, err
	}
	if spec.Workspace == "" {
		return nil, exec.Errorf(exec.EInternal, "a kept guest needs a workspace")
	}
	g, err := img.Restore(ctx, state, GuestOptions{Env: spec.Env, MemoryBytes: spec.MemoryBytes, Workspace: spec.Workspace})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// StateRefused reports whether err is a *StateRefusedError
// (exec.GuestRestorer).
func (r *Runner) StateRefused(err error) bool { return IsStateRefused(err) }
