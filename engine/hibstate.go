package engine

// The encoded state of a captured guest (Capture, Restore), format 3; all
// integers little-endian:
//
//	"WXGSTATE"         magic (8 bytes)
//	uint32             format (stateFormat)
//	uint32 n           length of the header
//	n bytes            header (JSON, stateHeader)
//	runs × 2 uint32    the pages that differ from the image's snapshot:
//	                   first page, count (ascending, not touching)
//	frames × 2 uint32  per frame: stored length (bit 31: compressed, S2),
//	                   CRC-32C of the stored bytes
//	uint32 pad         bytes between the compressed and the raw frames
//	uint32             CRC-32C of everything above (the head)
//	…                  the compressed frames' stored bytes, in frame order
//	pad bytes          (ignored)
//	…                  the raw frames' bytes, in frame order
//
// A frame holds framePages consecutive pages of the runs' list (the last
// one fewer). It is stored compressed when that saves at least a tenth,
// raw otherwise; a frame whose sampled bytes look random (memory holding
// already compressed or random data) is stored raw without trying.
//
// When the raw frames hold at least alignRawBytes, pad puts the first of
// them at a multiple of statePage from the state's start: a state stored
// at a page-aligned offset of a file (a context's record) then has its raw
// pages page-aligned in the file, and RestoreFile maps them into the
// guest's memory copy-on-write instead of copying them (format 3).
//
// Why this shape (docs/RATIONALE.md, "Hibernation"): with format 1 (one
// zstd stream, one CRC), a state of 20 MiB of incompressible memory spent
// most of its time, on 2 shared cores with ~3 GB/s of memory bandwidth,
// compressing what doesn't compress, checksumming it twice (zstd's and
// ours) and copying it. Frames are independent, so a large state's are
// encoded, checked and written into the guest in parallel, each one
// checksummed once, while it is in the cache, and a raw frame is one copy
// each way (none on its way into a file: CaptureTo). Every byte is still
// covered by a checksum: a flipped bit anywhere is refused.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/bytecodealliance/wasmtime-go/v25"
	"github.com/klauspost/compress/s2"

	"github.com/wasmexec/wasmexec"
)

// stateFormat is the version of the encoded guest state; a state of
// another version is refused. 2: page runs, raw or compressed frames
// checksummed one by one, table sizes; 3: raw frames last, aligned.
const stateFormat = 3

// stateMagic starts every encoded guest state.
var stateMagic = [8]byte{'W', 'X', 'G', 'S', 'T', 'A', 'T', 'E'}

const (
	// statePage is the granularity of the memory diff.
	statePage = 4096
	// framePages is how many dirty pages a frame holds: the unit of
	// compression, checksum and parallel work.
	framePages = 16
	frameBytes = framePages * statePage
	// frameCompressed marks a compressed frame's stored length.
	frameCompressed = 1 << 31
)

// maxStateBytes bounds an encoded state: a guest's memory can't exceed 4
// GiB (wasm32), and a state claiming more is refused before anything is
// allocated for it.
const maxStateBytes = 4<<30 + 1<<24

// stateWorkers is how many goroutines encode or restore a state's frames,
// when there are at least parallelBytes of them.
var (
	stateWorkers  = min(runtime.GOMAXPROCS(0), 4)
	parallelBytes = 4 << 20
)

// castagnoli is the CRC of states (the SSE4.2 instruction on amd64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// stateHeader describes an encoded state.
type stateHeader struct {
	Image        string `json:"image"`
	ImageHash    string `json:"imageHash"`
	Wasmtime     string `json:"wasmtime"`
	EngineConfig string `json:"engineConfig"`
	Snapshot     string `json:"snapshot"`
	// MemoryBytes is the size of the linear memory; Pages how many of its
	// statePage pages differ from the image's, in Runs runs, stored in
	// Frames frames.
	MemoryBytes uint64   `json:"memoryBytes"`
	Pages       int      `json:"pages"`
	Runs        int      `json:"runs"`
	Frames      int      `json:"frames"`
	Globals     []uint64 `json:"globals"` // the image's mutable globals, in export order
	// Tables are the sizes of the guest's tables, in export order.
	Tables []uint32 `json:"tables"`
	// MonotonicNs is the guest's monotonic clock when it was captured.
	MonotonicNs uint64            `json:"monotonicNs"`
	Env         map[string]string `json:"env,omitempty"`
	MemoryLimit int64             `json:"memoryLimit"`
}

// imageBase is what states of an image are diffed against: the memory of a
// fresh instance of its snapshot, and the names of its mutable globals and
// tables.
type imageBase struct {
	once       sync.Once
	err        error
	store      *wasmtime.Store
	mem        []byte
	globals    []string // __wasmexec_global_N, sorted by N
	tables     []string // __wasmexec_table_N, sorted by N
	tableSizes []uint32 // the tables' sizes in a fresh instance
}

var bases sync.Map // *Image → *imageBase

// globalExportPrefix and tableExportPrefix name the exports buildSnapshot
// adds for every mutable global and every table.
const (
	globalExportPrefix = "__wasmexec_global_"
	tableExportPrefix  = "__wasmexec_table_"
)

func (img *Image) base() (*imageBase, error) {
	v, _ := bases.LoadOrStore(img, &imageBase{})
	b := v.(*imageBase)
	b.once.Do(func() { b.err = b.load(img) })
	return b, b.err
}

func exportsWith(mod *wasmtime.Module, prefix string) []string {
	var out []string
	for _, ex := range mod.Exports() {
		if strings.HasPrefix(ex.Name(), prefix) {
			out = append(out, ex.Name())
		}
	}
	num := func(name string) int {
		n, _ := strconv.Atoi(strings.TrimPrefix(name, prefix))
		return n
	}
	slices.SortFunc(out, func(x, y string) int { return num(x) - num(y) })
	return out
}

func (b *imageBase) load(img *Image) error {
	b.globals = exportsWith(img.module, globalExportPrefix)
	b.tables = exportsWith(img.module, tableExportPrefix)
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
		"fetch": func(int32, int32, int32, int32) (int32, *wasmtime.Trap) { return 0, trap() },
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
	for _, name := range b.tables {
		t := inst.GetExport(store, name)
		if t == nil || t.Table() == nil {
			store.Close()
			return fmt.Errorf("the %s image lacks export %s", img.Spec.Name, name)
		}
		b.tableSizes = append(b.tableSizes, t.Table().Size(store))
	}
	// The slice stays valid while the store lives (it is never closed):
	// the snapshot's pages, mapped copy-on-write and never written.
	b.store, b.mem = store, ext.Memory().UnsafeData(store)
	return nil
}

// globalExports returns the guest's mutable globals, in the base's order.
func (g *Guest) globalExports(b *imageBase) ([]*wasmtime.Global, error) {
	return exportsNamed(g, b.globals, (*wasmtime.Extern).Global)
}

// tableExports returns the guest's tables, in the base's order.
func (g *Guest) tableExports(b *imageBase) ([]*wasmtime.Table, error) {
	return exportsNamed(g, b.tables, (*wasmtime.Extern).Table)
}

// exportsNamed returns the guest's exports of names, each as of (nil: not
// of that kind).
func exportsNamed[T any](g *Guest, names []string, as func(*wasmtime.Extern) *T) ([]*T, error) {
	out := make([]*T, len(names))
	for i, name := range names {
		ext := g.inst.GetExport(g.store, name)
		if ext == nil || as(ext) == nil {
			return nil, fmt.Errorf("the guest lacks export %s", name)
		}
		out[i] = as(ext)
	}
	return out, nil
}

// captureTables returns the sizes of the guest's tables. A table grown
// past the image's size is captured by its size: its new entries must
// still be null (what a grow with a null initializer leaves), since a
// function reference can't be named in a state; a guest that stored
// functions there can't be captured.
func (g *Guest) captureTables(b *imageBase) ([]uint32, error) {
	tables, err := g.tableExports(b)
	if err != nil {
		return nil, err
	}
	sizes := make([]uint32, len(tables))
	for i, t := range tables {
		sizes[i] = t.Size(g.store)
		for k := b.tableSizes[i]; k < sizes[i]; k++ {
			v, err := t.Get(g.store, k)
			if err != nil {
				return nil, err
			}
			if !nullRef(v) {
				return nil, wasmexec.Errorf(wasmexec.EConflict, "the guest's table %d grew to %d entries and holds a reference at %d, which a state can't name", i, sizes[i], k)
			}
		}
	}
	return sizes, nil
}

// mergeRuns merges two sorted lists of runs into one, joining runs
// separated by at most 4 pages (populating a few pages more costs less
// than a system call).
func mergeRuns(a, b []pageRun) []pageRun {
	const gap = 4
	out := make([]pageRun, 0, len(a)+len(b))
	add := func(r pageRun) {
		if k := len(out) - 1; k >= 0 && r.first <= out[k].first+out[k].n+gap {
			out[k].n = max(out[k].first+out[k].n, r.first+r.n) - out[k].first
			return
		}
		out = append(out, r)
	}
	for len(a) > 0 || len(b) > 0 {
		if len(b) == 0 || (len(a) > 0 && a[0].first <= b[0].first) {
			add(a[0])
			a = a[1:]
		} else {
			add(b[0])
			b = b[1:]
		}
	}
	return out
}

// nullRef reports whether a table entry is a null reference.
func nullRef(v wasmtime.Val) bool {
	switch v.Kind() {
	case wasmtime.KindFuncref:
		return v.Funcref() == nil
	case wasmtime.KindExternref:
		return v.Externref() == nil
	}
	return false
}

// pageRuns lists the pages of mem that differ from base (pages past base
// differ when they are not zero), as runs. Segments of the memory are
// compared in parallel. Pages untouched says are as the guest started
// (untouchedPages) are not read: reading them would map them into the
// guest for nothing, and they are most of a large memory.
func pageRuns(mem, base []byte, untouched []bool) ([]pageRun, error) {
	const seg = 256 // pages per work item
	npages := (len(mem) + statePage - 1) / statePage
	parts := make([][]pageRun, (npages+seg-1)/seg)
	var zero [statePage]byte
	err := parallel(len(parts), seg*statePage, func(i int) {
		var runs []pageRun
		for p := i * seg; p < min((i+1)*seg, npages); p++ {
			if p < len(untouched) && untouched[p] {
				continue
			}
			off := p * statePage
			cur := mem[off:min(off+statePage, len(mem))]
			var same bool
			if off+len(cur) <= len(base) {
				same = bytes.Equal(cur, base[off:off+len(cur)])
			} else if off >= len(base) {
				same = bytes.Equal(cur, zero[:len(cur)])
			}
			if same {
				continue
			}
			if k := len(runs) - 1; k >= 0 && runs[k].first+runs[k].n == p {
				runs[k].n++
			} else {
				runs = append(runs, pageRun{first: p, n: 1})
			}
		}
		parts[i] = runs
	})
	if err != nil {
		return nil, err
	}
	var out []pageRun
	for _, part := range parts {
		for _, r := range part {
			if k := len(out) - 1; k >= 0 && out[k].first+out[k].n == r.first {
				out[k].n += r.n
			} else {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// frameSpans cuts runs into frames of framePages pages: for each frame,
// the byte ranges of memory it holds, in order.
func frameSpans(runs []pageRun) [][]pageRun {
	var frames [][]pageRun
	var cur []pageRun
	left := framePages
	for _, r := range runs {
		for r.n > 0 {
			n := min(r.n, left)
			cur = append(cur, pageRun{first: r.first, n: n})
			r.first += n
			r.n -= n
			if left -= n; left == 0 {
				frames = append(frames, cur)
				cur, left = nil, framePages
			}
		}
	}
	if len(cur) > 0 {
		frames = append(frames, cur)
	}
	return frames
}

// looksRandom samples p's bytes: when nearly every byte value shows up in
// a sample of 1 KiB (8 pieces of 128 bytes, so that the sample costs 16
// cache lines, not 1024), the data is random or already compressed, and
// trying to compress it only costs time.
func looksRandom(p []byte) bool {
	const pieces, piece = 8, 128
	if len(p) < pieces*piece {
		return false
	}
	var seen [256]bool
	distinct := 0
	step := len(p) / pieces
	for i := range pieces {
		for _, c := range p[i*step : i*step+piece] {
			if !seen[c] {
				seen[c] = true
				distinct++
			}
		}
	}
	return distinct > 224
}

// parallel calls fn(0..n-1) on up to stateWorkers goroutines (the caller's
// among them) when the work is worth it: items of itemBytes each, in all
// at least parallelBytes. Below that, handing work to another goroutine
// (waiting for it to be scheduled on a loaded machine) costs more than it
// saves. A memory fault in fn (contain) stops the work and is returned.
func parallel(n, itemBytes int, fn func(i int)) error {
	w := min(stateWorkers, n)
	if n*itemBytes < parallelBytes {
		w = 1
	}
	var next atomic.Int64
	var mu sync.Mutex
	var first error
	work := func() {
		var err error
		contain(&err, func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
		if err != nil {
			next.Store(int64(n))
			mu.Lock()
			first = cmp.Or(first, err)
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range w - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return first
}

// statePlan is an encoded state before its bytes are written: the header,
// the runs of changed pages, the frames (compressed ones already
// compressed), and where each goes.
type statePlan struct {
	mem   []byte // the guest's memory (suspended while the plan is used)
	hdr   []byte
	runs  []pageRun
	spans [][]pageRun
	z     [][]byte // compressed frames; nil: raw
	offs  []int    // offs[i]: frame i's offset in the state
	lens  []int    // lens[i]: frame i's stored length
	pad   int      // bytes between the compressed and the raw frames
	end   int      // the state's size
	head  int      // size of the head (up to the first frame)
}

// planKind says how a state is laid out.
type planKind int

const (
	// planCompact: the changed pages only, frames compressed where that
	// pays (a context's snapshot, a fork).
	planCompact planKind = iota
	// planTemplate: one span of raw pages, mapped by every restore from
	// its file (CaptureTemplateTo).
	planTemplate
)

// planState captures memory, globals and tables of a suspended guest.
func (g *Guest) planState(kind planKind) (*statePlan, error) {
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
	if h.Tables, err = g.captureTables(b); err != nil {
		return nil, err
	}
	p := &statePlan{mem: g.mem.UnsafeData(g.store)}
	h.MemoryBytes = uint64(len(p.mem))
	if p.runs, err = pageRuns(p.mem, b.mem, untouchedPages(p.mem, len(b.mem), g.mappedFrom)); err != nil {
		return nil, err
	}
	if kind == planTemplate && len(p.runs) > 1 {
		first, last := p.runs[0], p.runs[len(p.runs)-1]
		p.runs = []pageRun{{first: first.first, n: last.first + last.n - first.first}}
	}
	p.spans = frameSpans(p.runs)
	for _, r := range p.runs {
		h.Pages += r.n
	}
	h.Runs, h.Frames = len(p.runs), len(p.spans)
	if p.hdr, err = json.Marshal(h); err != nil {
		return nil, err
	}

	// Decide each frame: compressed (z) or raw.
	p.z = make([][]byte, len(p.spans))
	err = parallel(len(p.spans), frameBytes, func(i int) {
		sc := scratches.Get().(*scratch)
		defer scratches.Put(sc)
		src := gather(p.mem, p.spans[i], nil)
		if len(p.spans[i]) > 1 {
			src = gather(p.mem, p.spans[i], sc.pages[:spanBytes(p.spans[i])])
		}
		if kind == planTemplate || looksRandom(src) {
			return
		}
		if out := s2.Encode(sc.enc, src); len(out) < len(src)-len(src)/10 {
			p.z[i] = bytes.Clone(out)
		}
	})
	if err != nil {
		return nil, err
	}
	p.head = len(stateMagic) + 8 + len(p.hdr) + 8*len(p.runs) + 8*len(p.spans) + 4 + crcSize
	p.offs, p.lens = make([]int, len(p.spans)), make([]int, len(p.spans))
	off, raw := p.head, 0
	for i, sp := range p.spans {
		if p.z[i] != nil {
			p.offs[i], p.lens[i] = off, len(p.z[i])
			off += len(p.z[i])
		} else {
			p.lens[i] = spanBytes(sp)
			raw += p.lens[i]
		}
	}
	if raw >= alignRawBytes {
		p.pad = (statePage - off%statePage) % statePage
	}
	off += p.pad
	for i := range p.spans {
		if p.z[i] == nil {
			p.offs[i] = off
			off += p.lens[i]
		}
	}
	p.end = off
	return p, nil
}

// alignRawBytes is how many bytes of raw frames a state must hold for them
// to be page-aligned (see the file comment): below it, mapping them saves
// less than the padding costs.
const alignRawBytes = 1 << 20

// size is the encoded state's size.
func (p *statePlan) size() int { return p.end }

// frameWord is frame i's entry in the frame table, less its checksum.
func (p *statePlan) frameWord(i int) uint32 {
	n := uint32(p.lens[i])
	if p.z[i] != nil {
		n |= frameCompressed
	}
	return n
}

// headBytes writes the head into dst (p.head bytes), whose frame table
// already holds the frames' checksums.
func (p *statePlan) headBytes(dst []byte) {
	b := dst[:0]
	b = append(b, stateMagic[:]...)
	b = binary.LittleEndian.AppendUint32(b, stateFormat)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p.hdr)))
	b = append(b, p.hdr...)
	for _, r := range p.runs {
		b = binary.LittleEndian.AppendUint32(b, uint32(r.first))
		b = binary.LittleEndian.AppendUint32(b, uint32(r.n))
	}
	b = b[:len(b)+8*len(p.spans)] // the frame table
	b = binary.LittleEndian.AppendUint32(b, uint32(p.pad))
	binary.LittleEndian.PutUint32(dst[len(b):], crc32.Checksum(b, castagnoli))
}

// frameTable is the frame table inside a head.
func (p *statePlan) frameTable(head []byte) []byte {
	return head[p.head-crcSize-4-8*len(p.spans) : p.head-crcSize-4]
}

// bytes encodes the state into memory.
func (p *statePlan) bytes() ([]byte, error) {
	out := make([]byte, p.size())
	table := p.frameTable(out)
	large := len(out) >= parallelBytes
	// Write the frames and checksum each while it is in the cache.
	err := parallel(len(p.spans), frameBytes, func(i int) {
		dst := out[p.offs[i] : p.offs[i]+p.lens[i]]
		if large { // as in applyState: one call instead of a fault per page
			populate(dst)
		}
		if p.z[i] != nil {
			copy(dst, p.z[i])
		} else {
			gather(p.mem, p.spans[i], dst)
		}
		binary.LittleEndian.PutUint32(table[8*i:], p.frameWord(i))
		binary.LittleEndian.PutUint32(table[8*i+4:], crc32.Checksum(dst, castagnoli))
	})
	if err != nil {
		return nil, err
	}
	p.headBytes(out[:p.head])
	return out, nil
}

// writeTo writes the state into w at offsets 0 to p.size(): the frames
// straight from the guest's memory (no copy of them in the heap), then the
// head with their checksums. The padding is not written (a hole in a new
// file; its bytes are ignored).
func (p *statePlan) writeTo(w io.WriterAt) error {
	head := make([]byte, p.head)
	table := p.frameTable(head)
	units := p.writeUnits()
	errs := make([]error, len(units))
	err := parallel(len(units), writeChunk, func(u int) {
		first, end := units[u][0], units[u][1]
		for i := first; i < end; i++ {
			var crc uint32
			if p.z[i] != nil {
				crc = crc32.Checksum(p.z[i], castagnoli)
			} else {
				for _, r := range p.spans[i] {
					crc = crc32.Update(crc, castagnoli, p.mem[r.first*statePage:(r.first+r.n)*statePage])
				}
			}
			binary.LittleEndian.PutUint32(table[8*i:], p.frameWord(i))
			binary.LittleEndian.PutUint32(table[8*i+4:], crc)
		}
		if p.z[first] != nil {
			_, errs[u] = w.WriteAt(p.z[first], int64(p.offs[first]))
			return
		}
		off := int64(p.offs[first])
		for _, r := range p.spans[first] {
			if end > first+1 { // one run, through frame end-1
				r.n = p.spans[end-1][0].first + p.spans[end-1][0].n - r.first
			}
			piece := p.mem[r.first*statePage : (r.first+r.n)*statePage]
			if _, err := w.WriteAt(piece, off); err != nil {
				errs[u] = err
				return
			}
			off += int64(len(piece))
		}
	})
	if err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	p.headBytes(head)
	_, err = w.WriteAt(head, 0)
	return err
}

// writeChunk bounds what writeTo writes with one call.
const writeChunk = 2 << 20

// writeUnits groups the frames for writeTo, as [first, end) indices: raw
// frames that are each one run of pages, continuing one another in memory
// (and so in the state), up to writeChunk bytes, go together and are
// written with one call; any other frame goes alone. A large write puts
// its pages in large page-cache folios, which a restore maps (RestoreFile)
// at a fraction of the cost of 4 KiB ones: 20 MiB written 64 KiB at a
// time took ~1.3 ms more to map and unmap.
func (p *statePlan) writeUnits() [][2]int {
	var units [][2]int
	oneRun := func(i int) bool { return p.z[i] == nil && len(p.spans[i]) == 1 }
	for i := 0; i < len(p.spans); {
		end := i + 1
		if oneRun(i) {
			for end < len(p.spans) && (end-i)*frameBytes < writeChunk && oneRun(end) &&
				p.spans[end][0].first == p.spans[end-1][0].first+p.spans[end-1][0].n {
				end++
			}
		}
		units = append(units, [2]int{i, end})
		i = end
	}
	return units
}

// scratch is a frame's worth of working memory: capturing 20 MiB would
// otherwise leave ~25 MiB of garbage per capture (an S2 output buffer per
// frame), and the GC it causes lands on the runs that follow.
type scratch struct {
	pages []byte // frameBytes: a frame of several runs, gathered
	enc   []byte // s2.MaxEncodedLen(frameBytes)
}

var scratches = sync.Pool{New: func() any {
	return &scratch{pages: make([]byte, frameBytes), enc: make([]byte, s2.MaxEncodedLen(frameBytes))}
}}

// spanBytes is how many bytes the runs cover.
func spanBytes(sp []pageRun) int {
	n := 0
	for _, r := range sp {
		n += r.n * statePage
	}
	return n
}

// gather returns the bytes of mem the runs cover: a slice of mem when they
// are one run and dst is nil, else copied into dst (allocated when nil).
func gather(mem []byte, sp []pageRun, dst []byte) []byte {
	if dst == nil {
		if len(sp) == 1 {
			return mem[sp[0].first*statePage : (sp[0].first+sp[0].n)*statePage]
		}
		dst = make([]byte, spanBytes(sp))
	}
	o := 0
	for _, r := range sp {
		o += copy(dst[o:], mem[r.first*statePage:(r.first+r.n)*statePage])
	}
	return dst
}

// scatter is gather's inverse: it writes src over the runs of mem.
func scatter(mem []byte, sp []pageRun, src []byte) {
	o := 0
	for _, r := range sp {
		o += copy(mem[r.first*statePage:(r.first+r.n)*statePage], src[o:])
	}
}

const crcSize = 4

// stateFrame is one frame of a decoded state.
type stateFrame struct {
	data       []byte // as stored
	off        int    // where data starts in the state
	compressed bool
	crc        uint32
}

// decodedState is a state whose head is verified, ready to be written into
// an instance: its frames are checked and written straight into the
// guest's memory (applyState).
type decodedState struct {
	h      stateHeader
	runs   []pageRun
	frames []stateFrame
	// file holds the state from fileOff on, when it was read from one
	// (RestoreFile): its page-aligned raw frames may be mapped.
	file    *os.File
	fileOff int64
	// checked: the raw frames were checked by an earlier restore from
	// the same unchanged file (GuestOptions.StateChecked).
	checked bool
	// ahead checks the raw frames while the guest is instantiated
	// (checkAhead); nil: each frame is checked as it is applied.
	ahead *frameCheck
}

// intact reports whether the frame's stored bytes match their checksum.
func (f *stateFrame) intact() bool { return crc32.Checksum(f.data, castagnoli) == f.crc }

// StateInfo is what an encoded state says about itself.
type StateInfo struct {
	Image       string
	MemoryBytes uint64
	// Pages is how many pages differ from the image's; Frames how many of
	// them were stored compressed (Compressed) or raw.
	Pages, Frames, Compressed int
	Tables                    []uint32
}

// parseHead checks the head of an encoded state (magic, format, header,
// runs and frame table, and their checksum) and splits the rest into
// frames; their own checksums are checked when they are applied.
func parseHead(state []byte) (*decodedState, error) {
	if len(state) > maxStateBytes {
		return nil, refused("%d bytes, more than any guest state", len(state))
	}
	if len(state) < len(stateMagic)+8+crcSize {
		return nil, refused("truncated (%d bytes)", len(state))
	}
	if !bytes.Equal(state[:len(stateMagic)], stateMagic[:]) {
		return nil, refused("not a guest state (bad magic)")
	}
	p := state[len(stateMagic):]
	if v := binary.LittleEndian.Uint32(p); v != stateFormat {
		return nil, refused("format version %d, this wasmexec reads %d", v, stateFormat)
	}
	n := uint64(binary.LittleEndian.Uint32(p[4:]))
	p = p[8:]
	if n > uint64(len(p)) {
		return nil, refused("truncated header")
	}
	var d decodedState
	if err := json.Unmarshal(p[:n], &d.h); err != nil {
		return nil, refused("bad header: %v", err)
	}
	h := &d.h
	maxPages := h.MemoryBytes / statePage
	switch {
	case h.MemoryBytes%65536 != 0 || h.MemoryBytes > 1<<32:
		return nil, refused("memory size %d is not a wasm32 memory", h.MemoryBytes)
	case h.Pages < 0 || uint64(h.Pages) > maxPages:
		return nil, refused("%d pages for %d bytes of memory", h.Pages, h.MemoryBytes)
	case h.Runs < 0 || h.Runs > h.Pages || (h.Pages > 0) != (h.Runs > 0):
		return nil, refused("%d runs for %d pages", h.Runs, h.Pages)
	case h.Frames != (h.Pages+framePages-1)/framePages:
		return nil, refused("%d frames for %d pages", h.Frames, h.Pages)
	}
	p = p[n:]
	tables := 8*uint64(h.Runs) + 8*uint64(h.Frames) + 4
	if tables+crcSize > uint64(len(p)) {
		return nil, refused("truncated (the page and frame tables)")
	}
	headLen := len(state) - len(p) + int(tables)
	if crc32.Checksum(state[:headLen], castagnoli) != binary.LittleEndian.Uint32(state[headLen:]) {
		return nil, refused("checksum mismatch in the head (corrupt or truncated)")
	}
	d.runs = make([]pageRun, h.Runs)
	end, pages := 0, 0
	for i := range d.runs {
		first, cnt := binary.LittleEndian.Uint32(p[8*i:]), binary.LittleEndian.Uint32(p[8*i+4:])
		if cnt == 0 || uint64(first) < uint64(end) || uint64(first)+uint64(cnt) > maxPages || (i > 0 && int(first) == end) {
			return nil, refused("page run %d (%d+%d) is empty, out of order or outside the memory", i, first, cnt)
		}
		d.runs[i] = pageRun{first: int(first), n: int(cnt)}
		end, pages = int(first+cnt), pages+int(cnt)
	}
	if pages != h.Pages {
		return nil, refused("the runs hold %d pages, the header says %d", pages, h.Pages)
	}
	ft := p[8*h.Runs : tables-4]
	pad := int(binary.LittleEndian.Uint32(p[tables-4:]))
	if pad >= statePage {
		return nil, refused("%d bytes of padding", pad)
	}
	// The compressed frames come first, then pad bytes, then the raw ones.
	off := headLen + crcSize
	d.frames = make([]stateFrame, h.Frames)
	for pass := range 2 {
		if pass == 1 {
			off += pad
		}
		for i := range d.frames {
			word := binary.LittleEndian.Uint32(ft[8*i:])
			compressed := word&frameCompressed != 0
			if compressed != (pass == 0) {
				continue
			}
			raw := min(framePages, h.Pages-i*framePages) * statePage
			size := int(word &^ frameCompressed)
			if (!compressed && size != raw) || (compressed && (size == 0 || size >= raw)) {
				return nil, refused("frame %d stores %d bytes for %d", i, size, raw)
			}
			if size > len(state)-off {
				return nil, refused("truncated (frame %d)", i)
			}
			d.frames[i] = stateFrame{data: state[off : off+size], off: off, compressed: compressed, crc: binary.LittleEndian.Uint32(ft[8*i+4:])}
			off += size
		}
	}
	if off != len(state) {
		return nil, refused("%d bytes after the last frame", len(state)-off)
	}
	return &d, nil
}

// decodeState verifies an encoded state's head against img (image,
// wasmtime and engine).
func decodeState(img *Image, state []byte) (*decodedState, error) {
	d, err := parseHead(state)
	if err != nil {
		return nil, err
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
	}
	return d, nil
}

// ReadStateInfo checks an encoded state's head (magic, format, checksum)
// and returns what it says about itself.
func ReadStateInfo(state []byte) (StateInfo, error) {
	d, err := parseHead(state)
	if err != nil {
		return StateInfo{}, err
	}
	info := StateInfo{Image: d.h.Image, MemoryBytes: d.h.MemoryBytes, Pages: d.h.Pages, Frames: d.h.Frames, Tables: d.h.Tables}
	for _, f := range d.frames {
		if f.compressed {
			info.Compressed++
		}
	}
	return info, nil
}

// applyState writes a decoded state over the guest's fresh instance
// (before its entry runs). Frames are checked and written in parallel.
func (g *Guest) applyState(d *decodedState) error {
	b, err := g.img.base()
	if err != nil {
		return err
	}
	if len(d.h.Globals) != len(b.globals) {
		return refused("%d globals, the image has %d", len(d.h.Globals), len(b.globals))
	}
	if err := g.applyTables(b, d.h.Tables); err != nil {
		return err
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
	spans := frameSpans(d.runs)
	large := d.h.Pages*statePage >= parallelBytes
	// Large raw ranges of a state in a file are mapped, not copied
	// (statemap.go); every raw frame is still checked (frameCheck).
	planned := d.plannedMaps(spans)
	g.mapped = len(planned)
	// The pages a fresh guest writes (instantiate left them to this) and
	// the pages of the image's snapshot the state is about to write:
	// populated writable in one pass of merged runs, fewer system calls
	// and no copy-on-write fault per page. Not the hot pages inside the
	// ranges about to be mapped: the mapping replaces them (a run from a
	// template of a Python guest that imported sympy spent ~1 ms of its
	// restore populating ~500 pages for nothing).
	hot := runsOutside(g.img.hot, planned)
	if large {
		prefault(mem, hot)
		// Grown memory holding a large state is written whole: in 2 MiB
		// pages it costs a fault per 2 MiB instead of per 4 KiB (restoring
		// 20 MiB: ~16 → ~11 ms and a sixth less CPU on the build machine),
		// and its frames populate their pages as they go (applyFrame).
		hugePages(mem, len(b.mem))
	} else {
		prefault(mem, mergeRuns(hot, runsOutside(d.runs, planned)))
	}
	mapped, slots, err := mapRanges(mem, d.file, planned, func(r memRange) (int, error) { return g.watch.guardRange(mem, r) })
	g.busSlots, g.mappedFrom = slots, mapped
	if err != nil {
		return fmt.Errorf("map the state's pages: %w", err)
	}
	if g.opts.Template && len(mapped) > 0 {
		g.learnOrPopulate(mem, d.file, d.fileOff)
	}
	errs := make([]error, len(spans))
	err = parallel(len(spans), frameBytes, func(i int) {
		f := &d.frames[i]
		errs[i] = applyFrame(mem, f, i, spans[i], mapped, (d.ahead != nil || d.checked) && !f.compressed, large)
	})
	if err != nil {
		return faultRefuses(err)
	}
	if d.ahead != nil {
		if err := d.ahead.wait(); err != nil {
			return err
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
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

// applyFrame checks frame i of a state (unless it was checked) and writes
// its pages, spans, into mem, but for those mapped from the state's file.
// A large state's pages are populated writable first, a frame at a time,
// on the frames' goroutines: one system call instead of a fault at each
// page's first write (a zeroed page past the image's memory, a copy of
// the image's page within it), which pays for a large state only (20 MiB:
// about half the time); for a small one the call per frame costs as much
// as the faults, and applyState populated its pages in one pass.
func applyFrame(mem []byte, f *stateFrame, i int, spans []pageRun, mapped []memRange, checked, large bool) error {
	if !checked && !f.intact() {
		return refused("checksum mismatch in frame %d (corrupt)", i)
	}
	if !f.compressed {
		src := f.data
		for _, r := range spans {
			m, n := r.first*statePage, r.n*statePage
			if !covered(mapped, int64(m), int64(n)) {
				if large {
					prefault(mem, []pageRun{r})
				}
				copy(mem[m:m+n], src)
			}
			src = src[n:]
		}
		return nil
	}
	if large {
		prefault(mem, spans)
	}
	want := spanBytes(spans)
	if n, err := s2.DecodedLen(f.data); err != nil || n != want {
		return refused("frame %d does not decompress to its %d bytes (%d, %v)", i, want, n, err)
	}
	dst := gather(mem, spans, nil) // straight into the guest's memory
	if len(spans) > 1 {
		sc := scratches.Get().(*scratch)
		defer scratches.Put(sc)
		dst = sc.pages[:want]
	}
	if _, err := s2.Decode(dst, f.data); err != nil {
		return refused("frame %d does not decompress: %v", i, err)
	}
	if len(spans) > 1 {
		scatter(mem, spans, dst)
	}
	return nil
}

// applyTables grows the guest's tables to the captured sizes (new entries
// null, as captureTables required). A state whose tables don't fit the
// image (another count, smaller than the image's, past a table's maximum)
// is refused.
func (g *Guest) applyTables(b *imageBase, sizes []uint32) error {
	if len(sizes) != len(b.tables) {
		return refused("%d tables, the image has %d", len(sizes), len(b.tables))
	}
	tables, err := g.tableExports(b)
	if err != nil {
		return err
	}
	for i, t := range tables {
		cur, want := t.Size(g.store), sizes[i]
		if want < cur {
			return refused("table %d of %d entries is smaller than the image's (%d)", i, want, cur)
		}
		if want == cur {
			continue
		}
		ty := t.Type(g.store)
		if has, max := ty.Maximum(); has && want > max {
			return refused("table %d of %d entries is over its maximum (%d)", i, want, max)
		}
		if want-cur > maxTableGrowth {
			return refused("table %d grew by %d entries, more than a guest's table grows (%d)", i, want-cur, maxTableGrowth)
		}
		null := wasmtime.ValFuncref(nil)
		if ty.Element().Kind() == wasmtime.KindExternref {
			null = wasmtime.ValExternref(nil)
		}
		if _, err := t.Grow(g.store, want-cur, null); err != nil {
			return refused("table %d can't grow to %d entries: %v", i, want, err)
		}
	}
	return nil
}

// maxTableGrowth bounds what a state may grow a table by: the store's
// limiter leaves tables unbounded, and a forged state must not make the
// host allocate gigabytes for one.
const maxTableGrowth = 1 << 20

// populate maps p's pages writable ahead of a write over all of it (see
// prefault): one system call instead of a fault per page.
func populate(p []byte) {
	if len(p) < 2*statePage {
		return
	}
	start := (uintptr(unsafe.Pointer(&p[0])) + statePage - 1) &^ (statePage - 1)
	end := (uintptr(unsafe.Pointer(&p[0])) + uintptr(len(p))) &^ (statePage - 1)
	if end > start {
		madvisePopulate(start, end-start)
	}
}
