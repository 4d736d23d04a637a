package ts

import (
	"encoding/json"
	"errors"
	"sort"
	"unicode/utf8"
)

// Why a hand-written decoder instead of github.com/go-sourcemap/sourcemap:
//
//   - We only ever read maps esbuild produced for one source, so the whole job
//     is "decode the VLQ mappings of one file" (~60 lines); no sections, no
//     URL resolution, no sourcesContent.
//   - Lookup semantics matter for stack traces and go-sourcemap's are not what
//     we want: its Source() falls back to the last mapping of an *earlier*
//     generated line when the queried line has none, which silently attributes
//     a frame to the wrong statement. We look only at the queried line
//     (greatest segment at or before the column, else the line's first
//     segment) and report ok=false otherwise.
//   - Columns: source maps count UTF-16 code units, goja reports byte columns.
//     Owning the decoder keeps that conversion in one place.
//   - It is decoded lazily (first MapPosition call), so the common path — a
//     program that runs without an error — never pays for it.

// segment is one decoded mapping: generated column → original line/column,
// all 0-based; columns in UTF-16 code units (source map v3 semantics).
type segment struct {
	genCol  int32
	srcLine int32
	srcCol  int32
}

// lineMap is a decoded source map plus the generated code's line starts.
type lineMap struct {
	segs      []segment
	lineStart []int32 // segs[lineStart[i]:lineStart[i+1]] are generated line i's segments
	jsLines   []int32 // byte offset where each generated JS line starts
}

var errBadMappings = errors.New("ts: malformed source map mappings")

// decodeSourceMap parses an esbuild source map (JSON, version 3) for js.
func decodeSourceMap(raw []byte, js string) (*lineMap, error) {
	var sm struct {
		Version  int    `json:"version"`
		Mappings string `json:"mappings"`
	}
	if err := json.Unmarshal(raw, &sm); err != nil {
		return nil, err
	}
	if sm.Version != 3 {
		return nil, errors.New("ts: unsupported source map version")
	}
	m, err := decodeMappings(sm.Mappings)
	if err != nil {
		return nil, err
	}
	m.jsLines = lineStarts(js)
	return m, nil
}

// decodeMappings decodes the "mappings" field of a v3 source map.
func decodeMappings(s string) (*lineMap, error) {
	m := &lineMap{lineStart: []int32{0}}
	var genCol, srcIdx, srcLine, srcCol, name int32
	var f [5]int32
	for i := 0; i < len(s); {
		switch s[i] {
		case ';':
			m.lineStart = append(m.lineStart, int32(len(m.segs)))
			genCol = 0
			i++
			continue
		case ',':
			i++
			continue
		}
		n := 0
		for i < len(s) && s[i] != ',' && s[i] != ';' {
			if n == len(f) {
				return nil, errBadMappings
			}
			v, next, ok := decodeVLQ(s, i)
			if !ok {
				return nil, errBadMappings
			}
			f[n] = v
			n++
			i = next
		}
		switch n {
		case 1: // generated column only: code with no original position
			genCol += f[0]
		case 4, 5:
			genCol += f[0]
			srcIdx += f[1]
			srcLine += f[2]
			srcCol += f[3]
			if n == 5 {
				name += f[4]
			}
			if genCol < 0 || srcLine < 0 || srcCol < 0 {
				return nil, errBadMappings
			}
			m.segs = append(m.segs, segment{genCol: genCol, srcLine: srcLine, srcCol: srcCol})
		default:
			return nil, errBadMappings
		}
	}
	m.lineStart = append(m.lineStart, int32(len(m.segs)))
	// The spec does not promise sorted segments within a line; esbuild emits
	// them sorted, but sorting a sorted slice is cheap insurance.
	for l := 0; l+1 < len(m.lineStart); l++ {
		line := m.segs[m.lineStart[l]:m.lineStart[l+1]]
		if !sort.SliceIsSorted(line, func(a, b int) bool { return line[a].genCol < line[b].genCol }) {
			sort.SliceStable(line, func(a, b int) bool { return line[a].genCol < line[b].genCol })
		}
	}
	return m, nil
}

// decodeVLQ decodes one base64 VLQ value starting at s[i].
func decodeVLQ(s string, i int) (v int32, next int, ok bool) {
	var result, shift uint32
	for {
		if i >= len(s) || shift > 30 {
			return 0, i, false
		}
		d := base64Value(s[i])
		if d < 0 {
			return 0, i, false
		}
		i++
		result |= uint32(d&31) << shift
		if d&32 == 0 {
			break
		}
		shift += 5
	}
	v = int32(result >> 1)
	if result&1 != 0 {
		v = -v
	}
	return v, i, true
}

func base64Value(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// lookup maps a 0-based generated line and 0-based UTF-16 column to the
// original 0-based line and UTF-16 column.
func (m *lineMap) lookup(line, col int) (srcLine, srcCol int, ok bool) {
	if line < 0 || line+1 >= len(m.lineStart) {
		return 0, 0, false
	}
	segs := m.segs[m.lineStart[line]:m.lineStart[line+1]]
	if len(segs) == 0 {
		return 0, 0, false
	}
	// Greatest segment starting at or before col; a column before the first
	// segment (leading indentation) takes the line's first segment.
	i := sort.Search(len(segs), func(i int) bool { return int(segs[i].genCol) > col }) - 1
	if i < 0 {
		i = 0
	}
	return int(segs[i].srcLine), int(segs[i].srcCol), true
}

// jsLine returns the text of generated line i (0-based), without terminator.
func (m *lineMap) jsLine(js string, i int) (string, bool) {
	if i < 0 || i >= len(m.jsLines) {
		return "", false
	}
	start := int(m.jsLines[i])
	end := len(js)
	if i+1 < len(m.jsLines) {
		end = int(m.jsLines[i+1])
	}
	line := js[start:end]
	// Trim the terminator (\n, \r\n, \r, U+2028, U+2029).
	switch {
	case len(line) >= 2 && line[len(line)-2:] == "\r\n":
		line = line[:len(line)-2]
	case len(line) >= 1 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r'):
		line = line[:len(line)-1]
	case len(line) >= 3 && (line[len(line)-3:] == "\u2028" || line[len(line)-3:] == "\u2029"):
		line = line[:len(line)-3]
	}
	return line, true
}

// lineStarts returns the byte offset of each line of s, splitting on the
// same terminators goja (and ECMAScript) use: \n, \r\n, \r, U+2028, U+2029.
// Generated line numbers reported by goja therefore index this slice.
func lineStarts(s string) []int32 {
	starts := make([]int32, 1, 64)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			starts = append(starts, int32(i+1))
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			starts = append(starts, int32(i+1))
		case 0xE2: // U+2028 / U+2029 are E2 80 A8 / E2 80 A9
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
				i += 2
				starts = append(starts, int32(i+1))
			}
		}
	}
	return starts
}

// utf16Len counts the UTF-16 code units of s. Invalid UTF-8 bytes count as
// one unit each (they decode to U+FFFD).
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// byteToUTF16Col converts a 0-based byte offset within line to a 0-based
// UTF-16 column. Offsets past the end of the line count one unit per byte.
func byteToUTF16Col(line string, byteCol int) int {
	if byteCol <= 0 {
		return 0
	}
	if byteCol > len(line) {
		return utf16Len(line) + byteCol - len(line)
	}
	return utf16Len(line[:byteCol])
}
