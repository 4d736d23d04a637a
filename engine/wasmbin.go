package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A minimal reader/writer of the WebAssembly binary format: just enough to
// take a memory-and-globals snapshot of an initialized guest and write it
// back as a module whose data segments *are* that state (the technique of
// bytecodealliance/wizer). Sections other than globals, exports, start,
// memory, data and data count pass through untouched.

const (
	secImport    = 2
	secTable     = 4
	secMemory    = 5
	secGlobal    = 6
	secExport    = 7
	secStart     = 8
	secData      = 11
	secDataCount = 12
)

type wasmSection struct {
	id      byte
	payload []byte
}

type wasmGlobal struct {
	valType byte // 0x7f i32, 0x7e i64, 0x7d f32, 0x7c f64
	mutable bool
	init    []byte // the constant expression, including the final 0x0b
}

func parseSections(wasm []byte) ([]wasmSection, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:8], []byte{0, 'a', 's', 'm', 1, 0, 0, 0}) {
		return nil, errors.New("not a wasm module (bad header)")
	}
	var out []wasmSection
	r := wasm[8:]
	for len(r) > 0 {
		id := r[0]
		size, n, err := uleb(r[1:])
		if err != nil {
			return nil, fmt.Errorf("section size: %w", err)
		}
		start := 1 + n
		if uint64(len(r)-start) < size {
			return nil, errors.New("truncated section")
		}
		out = append(out, wasmSection{id: id, payload: r[start : start+int(size)]})
		r = r[start+int(size):]
	}
	return out, nil
}

func encodeSections(secs []wasmSection) []byte {
	var b bytes.Buffer
	b.Write([]byte{0, 'a', 's', 'm', 1, 0, 0, 0})
	for _, s := range secs {
		b.WriteByte(s.id)
		b.Write(appendULEB(nil, uint64(len(s.payload))))
		b.Write(s.payload)
	}
	return b.Bytes()
}

func parseGlobals(p []byte) ([]wasmGlobal, error) {
	count, n, err := uleb(p)
	if err != nil {
		return nil, err
	}
	p = p[n:]
	gs := make([]wasmGlobal, 0, count)
	for i := uint64(0); i < count; i++ {
		if len(p) < 3 {
			return nil, errors.New("truncated global")
		}
		g := wasmGlobal{valType: p[0], mutable: p[1] == 1}
		end, err := constExprLen(p[2:])
		if err != nil {
			return nil, fmt.Errorf("global %d: %w", i, err)
		}
		g.init = p[2 : 2+end]
		gs = append(gs, g)
		p = p[2+end:]
	}
	return gs, nil
}

// constExprLen returns the length of a constant expression (through 0x0b).
func constExprLen(p []byte) (int, error) {
	i := 0
	for i < len(p) {
		op := p[i]
		i++
		switch op {
		case 0x0b:
			return i, nil
		case 0x41, 0x42, 0x23, 0xd2: // i32.const, i64.const, global.get, ref.func
			_, n, err := uleb(p[i:]) // sleb and uleb have the same length
			if err != nil {
				return 0, err
			}
			i += n
		case 0x43:
			i += 4
		case 0x44:
			i += 8
		case 0xd0: // ref.null t
			i++
		default:
			return 0, fmt.Errorf("unsupported constant expression opcode 0x%x", op)
		}
	}
	return 0, errors.New("unterminated constant expression")
}

func encodeGlobals(gs []wasmGlobal) []byte {
	b := appendULEB(nil, uint64(len(gs)))
	for _, g := range gs {
		mut := byte(0)
		if g.mutable {
			mut = 1
		}
		b = append(b, g.valType, mut)
		b = append(b, g.init...)
	}
	return b
}

// constInit encodes a constant expression holding bits as valType.
func constInit(valType byte, bits uint64) ([]byte, error) {
	switch valType {
	case 0x7f:
		return append(appendSLEB([]byte{0x41}, int64(int32(uint32(bits)))), 0x0b), nil
	case 0x7e:
		return append(appendSLEB([]byte{0x42}, int64(bits)), 0x0b), nil
	case 0x7d:
		b := []byte{0x43, 0, 0, 0, 0, 0x0b}
		binary.LittleEndian.PutUint32(b[1:], uint32(bits))
		return b, nil
	case 0x7c:
		b := []byte{0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b}
		binary.LittleEndian.PutUint64(b[1:], bits)
		return b, nil
	}
	return nil, fmt.Errorf("global of type 0x%x can't be snapshotted", valType)
}

// exportEntry encodes one export.
func exportEntry(name string, kind byte, index uint32) []byte {
	b := appendULEB(nil, uint64(len(name)))
	b = append(b, name...)
	b = append(b, kind)
	return appendULEB(b, uint64(index))
}

// addExports appends entries to an export section payload.
func addExports(p []byte, entries [][]byte) ([]byte, error) {
	count, n, err := uleb(p)
	if err != nil {
		return nil, err
	}
	out := appendULEB(nil, count+uint64(len(entries)))
	out = append(out, p[n:]...)
	for _, e := range entries {
		out = append(out, e...)
	}
	return out, nil
}

// memorySection returns a memory section with one memory of min pages,
// keeping the max of the original.
func memorySection(orig []byte, minPages uint64) ([]byte, error) {
	count, n, err := uleb(orig)
	if err != nil || count != 1 {
		return nil, fmt.Errorf("expected exactly one memory, got %d (%v)", count, err)
	}
	p := orig[n:]
	flags := p[0]
	if flags&^1 != 0 {
		return nil, fmt.Errorf("unsupported memory flags 0x%x", flags)
	}
	_, m, err := uleb(p[1:])
	if err != nil {
		return nil, err
	}
	out := []byte{1, flags}
	out = appendULEB(out, minPages)
	if flags&1 != 0 {
		out = append(out, p[1+m:]...)
	}
	return out, nil
}

// dataSegments encodes mem as active segments of memory 0, one per run of
// pages that aren't all zero, page-aligned so wasmtime can map them
// copy-on-write.
func dataSegments(mem []byte) (payload []byte, count int) {
	const page = 4096
	var segs [][2]int
	for off := 0; off < len(mem); off += page {
		end := min(off+page, len(mem))
		if allZero(mem[off:end]) {
			continue
		}
		if len(segs) > 0 && segs[len(segs)-1][1] == off {
			segs[len(segs)-1][1] = end
		} else {
			segs = append(segs, [2]int{off, end})
		}
	}
	b := appendULEB(nil, uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0x00, 0x41) // active, memory 0, i32.const offset
		b = appendSLEB(b, int64(int32(uint32(s[0]))))
		b = append(b, 0x0b)
		b = appendULEB(b, uint64(s[1]-s[0]))
		b = append(b, mem[s[0]:s[1]]...)
	}
	return b, len(segs)
}

func allZero(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b) != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func uleb(p []byte) (uint64, int, error) {
	var v uint64
	var shift uint
	for i, c := range p {
		if i == 10 {
			break
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, i + 1, nil
		}
		shift += 7
	}
	return 0, 0, errors.New("bad LEB128")
}

func appendULEB(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
		} else {
			return append(b, c)
		}
	}
}

func appendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// importedGlobals counts the globals a module imports (they come first in
// the global index space) and reports whether it imports a memory.
func importedGlobals(p []byte) (globals, tables int, memory bool, err error) {
	count, n, err := uleb(p)
	if err != nil {
		return 0, 0, false, err
	}
	p = p[n:]
	skipName := func() error {
		l, n, err := uleb(p)
		if err != nil || uint64(len(p)-n) < l {
			return errors.New("bad import name")
		}
		p = p[n+int(l):]
		return nil
	}
	skipLimits := func() error {
		if len(p) < 1 {
			return errors.New("truncated limits")
		}
		flags := p[0]
		p = p[1:]
		for i := 0; i < 1+int(flags&1); i++ {
			_, n, err := uleb(p)
			if err != nil {
				return err
			}
			p = p[n:]
		}
		return nil
	}
	for i := uint64(0); i < count; i++ {
		if err := skipName(); err != nil {
			return 0, 0, false, err
		}
		if err := skipName(); err != nil {
			return 0, 0, false, err
		}
		if len(p) < 1 {
			return 0, 0, false, errors.New("truncated import")
		}
		kind := p[0]
		p = p[1:]
		switch kind {
		case 0: // func: type index
			_, n, err := uleb(p)
			if err != nil {
				return 0, 0, false, err
			}
			p = p[n:]
		case 1: // table: reftype + limits
			tables++
			p = p[1:]
			if err := skipLimits(); err != nil {
				return 0, 0, false, err
			}
		case 2:
			memory = true
			if err := skipLimits(); err != nil {
				return 0, 0, false, err
			}
		case 3:
			globals++
			p = p[2:]
		default:
			return 0, 0, false, fmt.Errorf("unknown import kind %d", kind)
		}
	}
	return globals, tables, memory, nil
}

func mathFloat32bits(f float32) uint32 { return math.Float32bits(f) }
func mathFloat64bits(f float64) uint64 { return math.Float64bits(f) }
