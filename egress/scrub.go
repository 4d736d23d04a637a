package egress

import (
	"bytes"
	"errors"
	"math/bits"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// The scrubber finds secret values in what a server sends back, in the
// forms servers put them in, reading its input once.
//
// A server that was sent a value may hand it back raw, percent-encoded by
// any encoder (which bytes it escapes, and the case of its hex digits,
// vary: Go, Python, JavaScript, PHP and .NET all differ), JSON-escaped,
// percent-encoded twice (a URL carried in a parameter of another URL, as
// login redirects do), or base64-encoded (cookies, state parameters,
// JWTs). Enumerating every form of every value would not fit: a value of
// 16 KiB has too many. So the scrubber decodes instead: it reads the input
// through several views, each a chain of decoders, and looks for a few
// canonical forms of each value in every view at once, with one
// Aho–Corasick automaton:
//
//   - the bytes themselves;
//   - JSON escapes decoded, then %XX decoded (either case): any percent
//     encoding, whichever bytes it escapes, any JSON escaping, and JSON
//     escaping of a percent encoding;
//   - JSON escapes, %XX twice, JSON escapes again: a percent encoding of
//     a percent encoding, or of a JSON escaping;
//   - the second view decoded as base64 (standard or URL-safe alphabet,
//     padded or not, line breaks skipped) at each of the four offsets a
//     base64 text can start at, so a value is found at any of its three
//     byte alignments in the encoded data. Values shorter than
//     minBase64 are not looked for there: arbitrary text decodes to bytes
//     that would contain them by chance.
//
// Base64 is read because servers do put what they were sent in it (a
// cookie, an OAuth state, a JWT's claims, a pagination cursor, a URL in
// a parameter) and a guest decodes it as easily as a percent escape.
// Decoding costs no memory per value, where matching encoded forms
// would need one per alignment and alphabet, and a match still covers
// the edge characters a value shares with its neighbours at alignments
// 1 and 2. The price is chance matches of short values in decoded text,
// hence minBase64.
//
// Not found: a value in another encoding (hex, HTML entities,
// compression), split or cut short (a part of a value), or more than two
// percent-encodings deep (three when the innermost is the query escaping
// we send: the session looks deeper and refuses what it finds there,
// Session.deepValues). The
// JSON, double-percent and base64 views read from the left like the
// percent view but follow no alternative readings: text ending in an
// open JSON escape ("\", "\u00"), or an open escape of an outer
// encoding, just before a value in those forms can hide it. That takes
// a server writing the guest's text unescaped right before the value
// escaped: the value as we send it, raw (a header) or query-escaped, is
// found whatever precedes it. Likewise a value that itself ends in an
// open escape ("%", "%4", "\", "\u00") is found, when what follows
// completes the escape, only as is or as we send it.
//
// Matching folds ASCII case and '+' with ' ' (a form-encoded space), in
// values and input alike. A match covers the input bytes its decoded
// bytes came from: for base64 that includes the characters a value's
// bits share with its neighbours, so none of its bits remain.
//
// A decoder reads escapes left to right, so text just before a value can
// capture its first characters: "%4" followed by the value "1abc" reads
// as "%41" then "abc". A guest can put such text before a placeholder.
// For the percent view, the scrubber therefore also follows, from each
// %XX escape, the reading that starts at its hex digits (alts below);
// %XX escapes never overlap, so only those two starting points differ.
// The bytes themselves and the query-escaped form we send are matched in
// the first view too, which nothing before them can disturb.
//
// All matches are replaced: overlapping ones together, by the placeholder
// of the leftmost (longest on a tie, then the first secret). Unlike
// leftmost-longest alone this never leaves the tail of an overlapping
// second value in place. The output is written as the input is read and
// stops at a limit, so a placeholder longer than its value can't make
// the output larger than the caller allows; time is linear in the input
// (each view's automaton steps are amortised constant, each match is
// merged once), memory is the automaton (the canonical forms of the
// values), a ring of the last max-form-length positions per view, and the
// output.

// minBase64 is the shortest value looked for in base64 views.
const minBase64 = 6

// maxAlts bounds the readings followed from %XX escapes at once. More
// means a value that repeats itself and an input built to match it from
// many starts; the input is then refused rather than scanned slowly.
const maxAlts = 64

// errScrubAmbiguous is returned for input whose scan would exceed maxAlts.
var errScrubAmbiguous = errors.New("it has too many overlapping partial matches of a secret's value to be checked")

const noPos = int32(1<<31 - 1)

// unit is one byte of a view of the input and the input bytes [s, e) it
// was decoded from.
type unit struct {
	s, e int32
	b    byte
}

// canon folds what matching ignores: ASCII case, and '+' against ' '.
func canon(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	if b == '+' {
		return ' '
	}
	return b
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

func unhex(b byte) byte {
	switch {
	case b <= '9':
		return b - '0'
	case b <= 'F':
		return b - 'A' + 10
	}
	return b - 'a' + 10
}

// b64Value is the 6-bit value of a base64 character of either alphabet
// (' ' is a '+' a form decoder turned into a space), b64Skip for line
// breaks and tabs, which decoders ignore, and b64Break for anything else.
func b64Value(b byte) (v byte, kind int) {
	t := b64Table[b]
	return t & 63, int(t >> 6)
}

// b64Table holds b64Value's answers: kind<<6 | value.
var b64Table = func() (t [256]byte) {
	for i := range t {
		v, kind := b64Classify(byte(i))
		t[i] = byte(kind)<<6 | v
	}
	return t
}()

func b64Classify(b byte) (v byte, kind int) {
	switch {
	case 'A' <= b && b <= 'Z':
		return b - 'A', b64Char
	case 'a' <= b && b <= 'z':
		return b - 'a' + 26, b64Char
	case '0' <= b && b <= '9':
		return b - '0' + 52, b64Char
	case b == '+' || b == '-' || b == ' ':
		return 62, b64Char
	case b == '/' || b == '_':
		return 63, b64Char
	case b == '\r' || b == '\n' || b == '\t':
		return 0, b64Skip
	}
	return 0, b64Break
}

const (
	b64Char = iota
	b64Skip
	b64Break
)

// The reference decoders: whole slices, the definition the streaming
// stages below implement (and the fuzz test checks them against). Also
// used to derive the canonical forms of values.

func unitsOf(b []byte) []unit {
	u := make([]unit, len(b))
	for i, c := range b {
		u[i] = unit{s: int32(i), e: int32(i + 1), b: c}
	}
	return u
}

// jsonEscapeAt: the JSON escape that starts at in[i] (\" \\ \/ \b \f \n
// \r \t, \uXXXX other than a surrogate, or a surrogate pair written as
// two), its length in units and the character; n is 0 when none does.
func jsonEscapeAt(in []unit, i int) (n int, r rune) {
	if in[i].b != '\\' || i+1 >= len(in) {
		return 0, 0
	}
	switch c := in[i+1].b; c {
	case '"', '\\', '/':
		return 2, rune(c)
	case 'b':
		return 2, '\b'
	case 'f':
		return 2, '\f'
	case 'n':
		return 2, '\n'
	case 'r':
		return 2, '\r'
	case 't':
		return 2, '\t'
	case 'u':
	default:
		return 0, 0
	}
	hex4 := func(j int) (rune, bool) {
		if j+4 > len(in) {
			return 0, false
		}
		var r rune
		for k := j; k < j+4; k++ {
			if !isHex(in[k].b) {
				return 0, false
			}
			r = r<<4 | rune(unhex(in[k].b))
		}
		return r, true
	}
	hi, ok := hex4(i + 2)
	switch {
	case !ok || 0xDC00 <= hi && hi <= 0xDFFF:
		return 0, 0
	case hi < 0xD800 || hi > 0xDBFF:
		return 6, hi
	}
	if i+7 >= len(in) || in[i+6].b != '\\' || in[i+7].b != 'u' {
		return 0, 0
	}
	lo, ok := hex4(i + 8)
	if !ok || lo < 0xDC00 || lo > 0xDFFF {
		return 0, 0
	}
	return 12, 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00)
}

// jsonUnits decodes JSON string escapes (a character as UTF-8), leaving
// every other byte as it is.
func jsonUnits(in []unit) []unit {
	out := make([]unit, 0, len(in))
	for i := 0; i < len(in); {
		n, r := jsonEscapeAt(in, i)
		if n == 0 {
			out = append(out, in[i])
			i++
			continue
		}
		for _, b := range utf8.AppendRune(nil, r) {
			out = append(out, unit{s: in[i].s, e: in[i+n-1].e, b: b})
		}
		i += n
	}
	return out
}

// pctUnits decodes %XX escapes (hex in either case); esc[k] is the index
// in in of the '%' of out[k] when out[k] was an escape, else -1.
func pctUnits(in []unit) (out []unit, esc []int) {
	esc = make([]int, 0, len(in))
	return pctDecode(in, &esc), esc
}

func pctDecode(in []unit, esc *[]int) []unit {
	out := make([]unit, 0, len(in))
	for i := 0; i < len(in); {
		if in[i].b == '%' && i+2 < len(in) && isHex(in[i+1].b) && isHex(in[i+2].b) {
			out = append(out, unit{s: in[i].s, e: in[i+2].e, b: unhex(in[i+1].b)<<4 | unhex(in[i+2].b)})
			if esc != nil {
				*esc = append(*esc, i)
			}
			i += 3
			continue
		}
		out = append(out, in[i])
		if esc != nil {
			*esc = append(*esc, -1)
		}
		i++
	}
	return out
}

// b64Units decodes base64 starting groups at the phase'th character after
// each break: the characters between breaks, line breaks left out, less
// the first phase, in groups of four; a byte spans the two characters its
// bits come from.
func b64Units(in []unit, phase int) []unit {
	var out []unit
	var run []unit
	var vals []byte
	decode := func() {
		if len(run) > phase {
			r, v := run[phase:], vals[phase:]
			for g := 0; g+1 < len(r); g += 4 {
				out = append(out, unit{s: r[g].s, e: r[g+1].e, b: v[g]<<2 | v[g+1]>>4})
				if g+2 < len(r) {
					out = append(out, unit{s: r[g+1].s, e: r[g+2].e, b: v[g+1]<<4 | v[g+2]>>2})
				}
				if g+3 < len(r) {
					out = append(out, unit{s: r[g+2].s, e: r[g+3].e, b: v[g+2]<<6 | v[g+3]})
				}
			}
		}
		run, vals = run[:0], vals[:0]
	}
	for _, u := range in {
		switch v, kind := b64Value(u.b); kind {
		case b64Char:
			run, vals = append(run, u), append(vals, v)
		case b64Break:
			decode()
		}
	}
	decode()
	return out
}

// percentDecode decodes every %XX of b once.
func percentDecode(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]) {
			out = append(out, unhex(b[i+1])<<4|unhex(b[i+2]))
			i += 2
			continue
		}
		out = append(out, b[i])
	}
	return out
}

func unitBytes(u []unit) []byte {
	b := make([]byte, len(u))
	for i := range u {
		b[i] = canon(u[i].b)
	}
	return b
}

// valueForms are the canonical forms of a value matched in every view. A
// view's decoders undo the encodings a server applied, the rest apply to
// the value itself (a value holding "%41" or "\n" reads differently
// decoded): so each tail of each view's chain of decoders applied to the
// value. And the same for the form we send in a query string, so that
// base64 of a URL we sent is found too.
func valueForms(v string) [][]byte {
	var forms [][]byte
	seen := map[string]bool{}
	add := func(u []unit) {
		if b := unitBytes(u); len(b) > 0 && !seen[string(b)] {
			seen[string(b)] = true
			forms = append(forms, b)
		}
	}
	pct := func(u []unit) []unit { return pctDecode(u, nil) }
	chains := [][]func([]unit) []unit{{jsonUnits, pct}, {jsonUnits, pct, pct, jsonUnits}}
	for _, y := range []string{v, url.QueryEscape(v)} {
		raw := unitsOf([]byte(y))
		add(raw)
		if !strings.ContainsAny(v, "%\\") {
			// Nothing to decode in v, and decoding its query escaping
			// gives v back (canonically: a '+' is a ' ').
			continue
		}
		for _, chain := range chains {
			for k := range chain {
				f := raw
				for _, decode := range chain[k:] {
					f = decode(f)
				}
				add(f)
			}
		}
	}
	return forms
}

// automaton is an Aho–Corasick automaton over the canonical forms, kept
// small (a value may be 16 KiB, with several forms, for each of 64
// secrets): 16 bytes a node. Forms are inserted in sorted order, so a
// node's first child is always the node after it; further children
// hang off that one's sibling list. Outputs are few and kept in maps.
type automaton struct {
	n    []acNode
	root [256]int32 // the root's children by byte (0: none)
	// out is, for a node that is not the end of a form but has one on its
	// failure chain, the nearest such node.
	out map[int32]int32
	// pid is the form ending at a node.
	pid map[int32]int32
}

type acNode struct {
	fail, sibling, depth int32
	label                byte
	flags                byte
}

const (
	hasChild = 1 << iota
	isOutput // a form ends here
	outChain // a form ends on the failure chain (in out)
)

func (a *automaton) child(n int32, b byte) int32 {
	if a.n[n].flags&hasChild == 0 {
		return -1
	}
	for c := n + 1; c > 0; c = a.n[c].sibling {
		if a.n[c].label == b {
			return c
		}
	}
	return -1
}

// next is the state after b.
func (a *automaton) next(n int32, b byte) int32 {
	for n != 0 {
		if c := a.child(n, b); c >= 0 {
			return c
		}
		n = a.n[n].fail
	}
	return a.root[b]
}

// firstOut is the deepest node ending a form among n and its failure
// chain, or -1; the next one is firstOut(fail).
func (a *automaton) firstOut(n int32) int32 {
	switch f := a.n[n].flags; {
	case f&isOutput != 0:
		return n
	case f&outChain != 0:
		return a.out[n]
	}
	return -1
}

func buildAutomaton(forms [][]byte) *automaton {
	size := 1
	for _, f := range forms {
		size += len(f)
	}
	a := &automaton{n: make([]acNode, 1, size), out: map[int32]int32{}, pid: map[int32]int32{}}
	order := make([]int, len(forms))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return bytes.Compare(forms[i], forms[j]) })
	path := []int32{0} // the nodes of the previous form, by depth
	var prev []byte
	for _, id := range order {
		f := forms[id]
		k := 0
		for k < len(f) && k < len(prev) && f[k] == prev[k] {
			k++
		}
		path = path[:k+1]
		for _, b := range f[k:] {
			parent := path[len(path)-1]
			c := int32(len(a.n))
			a.n = append(a.n, acNode{depth: a.n[parent].depth + 1, label: b})
			switch {
			case a.n[parent].flags&hasChild == 0:
				a.n[parent].flags |= hasChild // c == parent+1: sorted order
			default:
				a.n[c].sibling, a.n[parent+1].sibling = a.n[parent+1].sibling, c
			}
			if parent == 0 {
				a.root[b] = c
			}
			path = append(path, c)
		}
		end := path[len(path)-1]
		a.n[end].flags |= isOutput
		a.pid[end] = int32(id)
		prev = f
	}
	queue := make([]int32, 0, len(a.n))
	for b := range a.root {
		if c := a.root[b]; c != 0 {
			queue = append(queue, c)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		// Breadth first: the failure chains of shallower nodes are set.
		if a.n[n].flags&isOutput == 0 {
			if o := a.firstOut(a.n[n].fail); o >= 0 {
				a.n[n].flags |= outChain
				a.out[n] = o
			}
		}
		if a.n[n].flags&hasChild == 0 {
			continue
		}
		for c := n + 1; c > 0; c = a.n[c].sibling {
			a.n[c].fail = a.next(a.n[n].fail, a.n[c].label)
			queue = append(queue, c)
		}
	}
	return a
}

// scrubber finds the values of up to 64 secrets.
type scrubber struct {
	ac    *automaton
	forms []formInfo
	// maxLen is the longest form, in decoded bytes.
	maxLen int
}

type formInfo struct {
	mask uint64 // the secrets (bit i: values[i]) it is a form of
	b64  bool   // looked for in base64 views
}

func newScrubber(values []string) *scrubber {
	if len(values) > 64 {
		panic("egress: more than 64 secrets")
	}
	sc := &scrubber{}
	index := map[string]int{}
	var forms [][]byte
	for k, v := range values {
		for _, f := range valueForms(v) {
			if id, ok := index[string(f)]; ok {
				sc.forms[id].mask |= 1 << k
				continue
			}
			index[string(f)] = len(forms)
			forms = append(forms, f)
			sc.forms = append(sc.forms, formInfo{mask: 1 << k, b64: len(f) >= minBase64})
			sc.maxLen = max(sc.maxLen, len(f))
		}
	}
	sc.ac = buildAutomaton(forms)
	return sc
}

// scrub appends src to dst with each match replaced by repl[secret], and
// at most limit bytes written (cut reports that more would have been).
// found has bit i set when secret i's value was found.
func (sc *scrubber) scrub(dst, src []byte, repl [][]byte, limit int) (out []byte, cut bool, found uint64, err error) {
	s := sc.newScan(src)
	s.repl, s.out, s.limit = repl, dst, len(dst)+limit
	s.run()
	return s.out, s.full, s.found, s.err
}

// detect reports the secrets whose values src holds.
func (sc *scrubber) detect(src []byte) (uint64, error) {
	s := sc.newScan(src)
	s.detect = true
	s.run()
	return s.found, s.err
}

// walker is the automaton's state over one view, with the input position
// each of the view's last units started at.
type walker struct {
	state   int32
	cnt     int32
	ring    []int32
	mask    int32
	onlyB64 bool
}

// alt follows the reading that starts at the hex digits of a %XX escape:
// fed those two characters, then the view's units after the escape.
type alt struct {
	state, cnt int32
	s          [2]int32 // where the two digits start
}

type run struct {
	s, e   int32 // the input replaced
	os, oe int32 // the owner's match
	owner  int32 // its secret
}

type pctOut struct {
	u      unit
	esc    bool
	h1, h2 unit
}

type jsonStage struct {
	pend []unit
	out  []unit
}

type pctStage struct {
	pend []unit
	out  []pctOut
}

type b64Stage struct {
	phase, skip, g int
	held           unit
	hv             byte
}

type scan struct {
	sc  *scrubber
	src []byte

	// plain: src has no '%' or '\\', so the decoding views equal the
	// first and only the base64 ones need to run.
	plain  bool
	w0     walker // the bytes
	w1     walker // JSON and %XX decoded
	w2     walker // JSON, %XX twice, JSON
	wb     [4]walker
	js, j2 jsonStage
	p1, p2 pctStage
	b64    [4]b64Stage
	alts   []alt
	runs   []run
	head   int
	found  uint64
	detect bool
	err    error

	repl    [][]byte
	out     []byte
	limit   int
	emitted int32
	full    bool
}

func (sc *scrubber) newScan(src []byte) *scan {
	s := &scan{sc: sc, src: src, plain: bytes.IndexByte(src, '%') < 0 && bytes.IndexByte(src, '\\') < 0}
	n := 1
	for n < min(sc.maxLen, len(src))+1 {
		n <<= 1
	}
	rings := make([]int32, 7*n)
	ws := []*walker{&s.w0, &s.w1, &s.w2, &s.wb[0], &s.wb[1], &s.wb[2], &s.wb[3]}
	for i, w := range ws {
		w.ring, w.mask = rings[i*n:(i+1)*n:(i+1)*n], int32(n-1)
		w.onlyB64 = i >= 3
	}
	for p := range s.b64 {
		s.b64[p].phase, s.b64[p].skip = p, p
	}
	return s
}

func (s *scan) run() {
	for i := 0; i < len(s.src) && !s.full && s.err == nil; i++ {
		u := unit{s: int32(i), e: int32(i + 1), b: s.src[i]}
		s.step(&s.w0, canon(u.b), u.s, u.e)
		if s.plain {
			s.base64(u)
		} else {
			s.json1(u)
		}
		if s.head < len(s.runs) {
			s.flush(s.frontier(int32(i + 1)))
		}
	}
	if s.full || s.err != nil {
		return
	}
	if !s.plain {
		for _, j := range s.js.drain(true) {
			s.pct1(j)
		}
		for _, p := range s.p1.drain(true) {
			s.afterPct(p.u, p.esc, p.h1, p.h2)
		}
		for _, p := range s.p2.drain(true) {
			s.json2(p.u)
		}
		for _, j := range s.j2.drain(true) {
			s.step(&s.w2, canon(j.b), j.s, j.e)
		}
	}
	s.flush(noPos)
	if !s.detect && !s.full {
		s.copyUpTo(int32(len(s.src)))
	}
}

// The decoding views: each stage passes a unit on at once unless it may
// start an escape; the stage then holds it until the escape is whole or
// not one.

func (s *scan) json1(u unit) {
	if len(s.js.pend) == 0 && u.b != '\\' {
		s.pct1(u)
		return
	}
	s.js.pend = append(s.js.pend, u)
	for _, j := range s.js.drain(false) {
		s.pct1(j)
	}
}

func (s *scan) pct1(u unit) {
	if len(s.p1.pend) == 0 && u.b != '%' {
		s.afterPct(u, false, unit{}, unit{})
		return
	}
	s.p1.pend = append(s.p1.pend, u)
	for _, p := range s.p1.drain(false) {
		s.afterPct(p.u, p.esc, p.h1, p.h2)
	}
}

// afterPct takes a unit of the view with JSON and %XX decoded; when it
// was an escape, h1 and h2 are its digits.
func (s *scan) afterPct(u unit, esc bool, h1, h2 unit) {
	c := canon(u.b)
	s.step(&s.w1, c, u.s, u.e)
	if len(s.alts) > 0 {
		s.stepAlts(c, u.e)
	}
	if esc {
		s.spawnAlt(h1, h2)
	}
	s.pct2(u)
	s.base64(u)
}

func (s *scan) pct2(u unit) {
	if len(s.p2.pend) == 0 && u.b != '%' {
		s.json2(u)
		return
	}
	s.p2.pend = append(s.p2.pend, u)
	for _, p := range s.p2.drain(false) {
		s.json2(p.u)
	}
}

func (s *scan) json2(u unit) {
	if len(s.j2.pend) == 0 && u.b != '\\' {
		s.step(&s.w2, canon(u.b), u.s, u.e)
		return
	}
	s.j2.pend = append(s.j2.pend, u)
	for _, j := range s.j2.drain(false) {
		s.step(&s.w2, canon(j.b), j.s, j.e)
	}
}

func (s *scan) base64(u unit) {
	v, kind := b64Value(u.b)
	if kind == b64Skip {
		return
	}
	for p := range s.b64 {
		if b, ok := s.b64[p].feed(u, v, kind); ok {
			s.step(&s.wb[p], canon(b.b), b.s, b.e)
		}
	}
}

func (s *scan) step(w *walker, c byte, start, end int32) {
	ac := s.sc.ac
	if w.state == 0 && ac.root[c] == 0 {
		// Most bytes start no form: the position of a unit that stays
		// at the root is never asked for.
		w.cnt++
		return
	}
	w.ring[w.cnt&w.mask] = start
	w.cnt++
	w.state = ac.next(w.state, c)
	if ac.n[w.state].flags&(isOutput|outChain) == 0 {
		return
	}
	for o := ac.firstOut(w.state); o >= 0; o = ac.firstOut(ac.n[o].fail) {
		id := ac.pid[o]
		if w.onlyB64 && !s.sc.forms[id].b64 {
			continue
		}
		s.report(w.ring[(w.cnt-ac.n[o].depth)&w.mask], end, id)
	}
}

func (s *scan) altOutputs(a *alt, end int32) {
	ac := s.sc.ac
	for o := ac.firstOut(a.state); o >= 0; o = ac.firstOut(ac.n[o].fail) {
		i := a.cnt - ac.n[o].depth
		if i >= 2 {
			break // this and every shorter form start after the escape: w1 finds them
		}
		s.report(a.s[i], end, ac.pid[o])
	}
}

func (s *scan) stepAlts(c byte, end int32) {
	ac := s.sc.ac
	k := 0
	for _, a := range s.alts {
		a.state = ac.next(a.state, c)
		a.cnt++
		s.altOutputs(&a, end)
		if a.cnt-ac.n[a.state].depth < 2 {
			s.alts[k] = a
			k++
		}
	}
	s.alts = s.alts[:k]
}

func (s *scan) spawnAlt(h1, h2 unit) {
	ac := s.sc.ac
	a := alt{s: [2]int32{h1.s, h2.s}}
	for _, h := range [2]unit{h1, h2} {
		a.state = ac.next(a.state, canon(h.b))
		a.cnt++
		s.altOutputs(&a, h.e)
	}
	if a.cnt-ac.n[a.state].depth >= 2 {
		return
	}
	if len(s.alts) >= maxAlts {
		s.err = errScrubAmbiguous
		return
	}
	s.alts = append(s.alts, a)
}

// report records a match of form id over src[start:end].
func (s *scan) report(start, end int32, id int32) {
	mask := s.sc.forms[id].mask
	s.found |= mask
	if s.detect {
		return
	}
	n := run{s: start, e: end, os: start, oe: end, owner: int32(bits.TrailingZeros64(mask))}
	i := len(s.runs)
	for i > s.head && s.runs[i-1].e > start {
		i--
	}
	j := i
	for j < len(s.runs) && s.runs[j].s < end {
		j++
	}
	for _, r := range s.runs[i:j] {
		n.s, n.e = min(n.s, r.s), max(n.e, r.e)
		if r.os < n.os || r.os == n.os && (r.oe > n.oe || r.oe == n.oe && r.owner < n.owner) {
			n.os, n.oe, n.owner = r.os, r.oe, r.owner
		}
	}
	if i == j {
		s.runs = slices.Insert(s.runs, i, n)
		return
	}
	s.runs[i] = n
	s.runs = slices.Delete(s.runs, i+1, j)
}

// frontier is the earliest input position a match not yet reported can
// start at, next being the next input byte.
func (s *scan) frontier(next int32) int32 {
	f := next
	front := func(w *walker) {
		if d := s.sc.ac.n[w.state].depth; d > 0 {
			f = min(f, w.ring[(w.cnt-d)&w.mask])
		}
	}
	front(&s.w0)
	front(&s.w1)
	front(&s.w2)
	for p := range s.wb {
		front(&s.wb[p])
		if s.b64[p].g > 0 {
			f = min(f, s.b64[p].held.s)
		}
	}
	for _, a := range s.alts {
		f = min(f, a.s[a.cnt-s.sc.ac.n[a.state].depth])
	}
	if len(s.js.pend) > 0 {
		f = min(f, s.js.pend[0].s)
	}
	if len(s.p1.pend) > 0 {
		f = min(f, s.p1.pend[0].s)
	}
	if len(s.p2.pend) > 0 {
		f = min(f, s.p2.pend[0].s)
	}
	if len(s.j2.pend) > 0 {
		f = min(f, s.j2.pend[0].s)
	}
	return f
}

// flush writes out the runs no later match can touch.
func (s *scan) flush(f int32) {
	for s.head < len(s.runs) && s.runs[s.head].e <= f {
		r := s.runs[s.head]
		s.head++
		if s.detect {
			continue
		}
		if s.copyUpTo(r.s); s.full {
			return
		}
		ph := s.repl[r.owner]
		if room := s.limit - len(s.out); len(ph) > room {
			s.write(ph[:room])
			s.full = true
			return
		}
		s.write(ph)
		s.emitted = r.e
	}
	if s.head > 16 && 2*s.head > len(s.runs) {
		s.runs, s.head = s.runs[:copy(s.runs, s.runs[s.head:])], 0
	}
}

func (s *scan) copyUpTo(pos int32) {
	text := s.src[s.emitted:pos]
	if room := s.limit - len(s.out); len(text) > room {
		text, s.full = text[:room], true
	}
	s.write(text)
	s.emitted = pos
}

// write appends b to the output, doubling its room when it must grow
// (append grows large slices by a quarter: five times the output in
// all).
func (s *scan) write(b []byte) {
	if len(s.out)+len(b) > cap(s.out) {
		grown := make([]byte, len(s.out), min(max(2*cap(s.out), len(s.out)+len(b), 512), max(s.limit, len(s.out)+len(b))))
		copy(grown, s.out)
		s.out = grown
	}
	s.out = append(s.out, b...)
}

// The streaming stages: the reference decoders above, a unit at a time.

// drain returns the units the held ones make (valid until the next
// call), holding back what may still become an escape unless eof.
func (j *jsonStage) drain(eof bool) []unit {
	j.out = j.out[:0]
	for len(j.pend) > 0 {
		n, r, more := jsonPrefix(j.pend)
		switch {
		case n > 0:
			first, last := j.pend[0].s, j.pend[n-1].e
			var buf [4]byte
			for _, b := range utf8.AppendRune(buf[:0], r) {
				j.out = append(j.out, unit{s: first, e: last, b: b})
			}
			j.pend = j.pend[:copy(j.pend, j.pend[n:])]
		case more && !eof:
			return j.out
		default:
			j.out = append(j.out, j.pend[0])
			j.pend = j.pend[:copy(j.pend, j.pend[1:])]
		}
	}
	return j.out
}

// jsonPrefix: p is a whole escape (n, r), the start of one (more), or
// neither.
func jsonPrefix(p []unit) (n int, r rune, more bool) {
	if p[0].b != '\\' {
		return 0, 0, false
	}
	if len(p) == 1 {
		return 0, 0, true
	}
	switch c := p[1].b; c {
	case '"', '\\', '/':
		return 2, rune(c), false
	case 'b':
		return 2, '\b', false
	case 'f':
		return 2, '\f', false
	case 'n':
		return 2, '\n', false
	case 'r':
		return 2, '\r', false
	case 't':
		return 2, '\t', false
	case 'u':
	default:
		return 0, 0, false
	}
	var hi, lo rune
	for k := 2; k < len(p); k++ {
		c := p[k].b
		switch {
		case k < 6 || 8 <= k && k < 12:
			if !isHex(c) {
				return 0, 0, false
			}
			if k < 6 {
				hi = hi<<4 | rune(unhex(c))
			} else {
				lo = lo<<4 | rune(unhex(c))
			}
		case k == 6 && c != '\\', k == 7 && c != 'u':
			return 0, 0, false
		}
		switch k {
		case 5:
			switch {
			case 0xDC00 <= hi && hi <= 0xDFFF:
				return 0, 0, false
			case hi < 0xD800 || hi > 0xDBFF:
				return 6, hi, false
			}
		case 11:
			if lo < 0xDC00 || lo > 0xDFFF {
				return 0, 0, false
			}
			return 12, 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00), false
		}
	}
	return 0, 0, true
}

func (p *pctStage) drain(eof bool) []pctOut {
	p.out = p.out[:0]
	for len(p.pend) > 0 {
		q := p.pend
		switch {
		case q[0].b != '%', len(q) >= 2 && !isHex(q[1].b), len(q) == 3 && !isHex(q[2].b), eof:
			p.out = append(p.out, pctOut{u: q[0]})
			p.pend = q[:copy(q, q[1:])]
		case len(q) < 3:
			return p.out
		default:
			p.out = append(p.out, pctOut{u: unit{s: q[0].s, e: q[2].e, b: unhex(q[1].b)<<4 | unhex(q[2].b)}, esc: true, h1: q[1], h2: q[2]})
			p.pend = q[:0]
		}
	}
	return p.out
}

// feed returns the byte u (of value v and kind b64Char or b64Break)
// completes, if any.
func (b *b64Stage) feed(u unit, v byte, kind int) (unit, bool) {
	switch {
	case kind == b64Break:
		b.skip, b.g = b.phase, 0
		return unit{}, false
	case b.skip > 0:
		b.skip--
		return unit{}, false
	}
	var out unit
	switch b.g {
	case 1:
		out = unit{s: b.held.s, e: u.e, b: b.hv<<2 | v>>4}
	case 2:
		out = unit{s: b.held.s, e: u.e, b: b.hv<<4 | v>>2}
	case 3:
		out = unit{s: b.held.s, e: u.e, b: b.hv<<6 | v}
	}
	b.held, b.hv = u, v
	b.g = (b.g + 1) & 3
	return out, b.g != 1
}
