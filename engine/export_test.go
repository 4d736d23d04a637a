package engine

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
)

// Instantiate exposes instantiate to the tests: a guest created and not
// started, as the pool keeps them for snapshotted images.
var Instantiate = (*Image).instantiate

func SetStateWorkers(n int) int { old := stateWorkers; stateWorkers = n; return old }

// EditStateHeader returns state with its JSON header changed by edit and
// the head's checksum made to match: a forged state only the checks after
// the checksum can refuse.
func EditStateHeader(state []byte, edit func(h map[string]any)) []byte {
	d, err := parseHead(state)
	if err != nil {
		panic(err)
	}
	n := binary.LittleEndian.Uint32(state[len(stateMagic)+4:])
	start := len(stateMagic) + 8
	var h map[string]any
	if err := json.Unmarshal(state[start:start+int(n)], &h); err != nil {
		panic(err)
	}
	edit(h)
	hdr, _ := json.Marshal(h)
	tables := 8*len(d.runs) + 8*len(d.frames) + 4 // and the padding word
	out := append([]byte(nil), state[:start-4]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(hdr)))
	out = append(out, hdr...)
	out = append(out, state[start+int(n):start+int(n)+tables]...)
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
	return append(out, state[start+int(n)+tables+crcSize:]...)
}

// MappedRanges is how many ranges of memory live guests map from state
// files.
func MappedRanges() int64 { return mappedRanges.Load() }

// WrittenMappedPages is how many pages of the ranges g mapped from its
// state's file are its own copies (written, or populated writable).
func WrittenMappedPages(g *Guest) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	w, err := writtenPages(g.mem.UnsafeData(g.store))
	if err != nil {
		panic(err)
	}
	n := 0
	for _, r := range insideRanges(w, g.mappedFrom) {
		n += r.n
	}
	return n
}

// RelearnEvery is how often a guest made ahead measures its run's writes.
const RelearnEvery = relearnEvery
