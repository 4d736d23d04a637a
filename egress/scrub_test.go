package egress

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// naiveScrub is the scrubber's definition written plainly: decode each
// view whole, try every form at every position, merge overlapping
// matches, replace each merged run by the placeholder of its leftmost
// (then longest, then first secret's) match. Quadratic; for tests.
func naiveScrub(values []string, repl [][]byte, src []byte) (out []byte, runs []run, found uint64) {
	type form struct {
		b    []byte
		mask uint64
	}
	var forms []form
	index := map[string]int{}
	for k, v := range values {
		for _, f := range valueForms(v) {
			if i, ok := index[string(f)]; ok {
				forms[i].mask |= 1 << k
				continue
			}
			index[string(f)] = len(forms)
			forms = append(forms, form{f, 1 << k})
		}
	}
	var ms []run
	match := func(view []unit, at int, f form) {
		if at+len(f.b) > len(view) {
			return
		}
		for t, c := range f.b {
			if canon(view[at+t].b) != c {
				return
			}
		}
		found |= f.mask
		s, e := view[at].s, view[at+len(f.b)-1].e
		ms = append(ms, run{s: s, e: e, os: s, oe: e, owner: int32(trailingZeros(f.mask))})
	}
	raw := unitsOf(src)
	js := jsonUnits(raw)
	p1, esc := pctUnits(js)
	p2, _ := pctUnits(p1)
	for _, view := range [][]unit{raw, p1, jsonUnits(p2)} {
		for at := range view {
			for _, f := range forms {
				match(view, at, f)
			}
		}
	}
	for k := range p1 {
		if esc[k] < 0 {
			continue
		}
		alt := append([]unit{js[esc[k]+1], js[esc[k]+2]}, p1[k+1:]...)
		for _, f := range forms {
			match(alt, 0, f)
			match(alt, 1, f)
		}
	}
	for phase := range 4 {
		view := b64Units(p1, phase)
		for at := range view {
			for _, f := range forms {
				if len(f.b) >= minBase64 {
					match(view, at, f)
				}
			}
		}
	}
	slices.SortFunc(ms, func(a, b run) int {
		if a.s != b.s {
			return int(a.s - b.s)
		}
		if a.e != b.e {
			return int(b.e - a.e)
		}
		return int(a.owner - b.owner)
	})
	for _, m := range ms {
		if n := len(runs); n > 0 && m.s < runs[n-1].e {
			runs[n-1].e = max(runs[n-1].e, m.e)
			continue
		}
		runs = append(runs, m)
	}
	at := int32(0)
	for _, r := range runs {
		out = append(out, src[at:r.s]...)
		out = append(out, repl[r.owner]...)
		at = r.e
	}
	return append(out, src[at:]...), runs, found
}

func trailingZeros(m uint64) int {
	n := 0
	for m&1 == 0 {
		m >>= 1
		n++
	}
	return n
}

func placeholders(n int) [][]byte {
	repl := make([][]byte, n)
	for i := range repl {
		repl[i] = fmt.Appendf(nil, "<placeholder-%d>", i)
	}
	return repl
}

// checkScrub runs the scrubber on src and compares it with naiveScrub,
// also cut short; it returns the naive runs.
func checkScrub(t *testing.T, sc *scrubber, values []string, src []byte) []run {
	t.Helper()
	repl := placeholders(len(values))
	want, runs, wantFound := naiveScrub(values, repl, src)
	got, cut, found, err := sc.scrub(nil, src, repl, 1<<30)
	if err == errScrubAmbiguous {
		return runs
	}
	if err != nil || cut || !bytes.Equal(got, want) || found != wantFound {
		t.Fatalf("values %q, input %q:\n got %q (cut %v, found %b, %v)\nwant %q (found %b)", values, src, got, cut, found, err, want, wantFound)
	}
	if d, err := sc.detect(src); err != nil || d != wantFound {
		t.Fatalf("values %q, input %q: detect %b %v, want %b", values, src, d, err, wantFound)
	}
	limit := len(want) / 2
	got, cut, _, _ = sc.scrub([]byte("x"), src, repl, limit)
	if !bytes.Equal(got, append([]byte("x"), want[:limit]...)) || cut != (len(want) > limit) {
		t.Fatalf("values %q, input %q, limit %d: got %q cut %v, want %q", values, src, limit, got, cut, want[:limit])
	}
	return runs
}

func covered(runs []run, s, e int) bool {
	for _, r := range runs {
		if int(r.s) <= s && e <= int(r.e) {
			return true
		}
	}
	return false
}

// An encoded value placed in some text: the input bytes [s, e) hold the
// value's information and must be replaced.
type placed struct {
	name string
	text []byte
	s, e int
}

var hexDigit = regexp.MustCompile(`%[0-9A-F]{2}`)

func fullEscape(v string, lower bool) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if lower {
			fmt.Fprintf(&b, "%%%02x", v[i])
		} else {
			fmt.Fprintf(&b, "%%%02X", v[i])
		}
	}
	return b.String()
}

// mixEscape escapes some bytes (always '%' and '\\', as every encoder
// does), in either case, as a server with its own idea of safe bytes.
func mixEscape(v string, r *rand.Rand) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '%' || c == '\\' || c < 0x20 || c >= 0x7f || r.IntN(2) == 0:
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "%%%02x", c)
			} else {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		case c == ' ' && r.IntN(2) == 0:
			b.WriteByte('+')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// jsonEscape writes v as the inside of a JSON string, as PHP (slash,
// non-ASCII as \u escapes) or Python (ensure_ascii) would.
func jsonEscape(v string, slash, ascii bool) string {
	var b strings.Builder
	for _, r := range v {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '/' && slash:
			b.WriteString(`\/`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x80 && ascii:
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, `\u%04x`, u)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func goJSON(v string) string {
	b, _ := json.Marshal(v)
	return string(b[1 : len(b)-1])
}

// placements puts v's encodings between pre and post. Encodings a
// decoder reads left to right could lose to the text before them get a
// '"' after pre, which ends any escape pre leaves open; those that can't
// (the value, and the query escaping we send) and single percent
// escapings (the alternative readings from each %XX) take pre as is,
// unless a JSON escape may be open in its last 12 bytes.
func placements(v string, pre, post []byte, r *rand.Rand) []placed {
	var out []placed
	clean := append(slices.Clip(pre), '"')
	put := func(name string, pre []byte, enc string) {
		text := append(append(slices.Clip(pre), enc...), post...)
		out = append(out, placed{name, text, len(pre), len(pre) + len(enc)})
	}
	put("raw", pre, v)
	put("query", pre, url.QueryEscape(v))
	pctPre := pre
	if bytes.Contains(pre[max(0, len(pre)-12):], []byte(`\`)) {
		pctPre = clean
	}
	qe := url.QueryEscape(v)
	for name, enc := range map[string]string{
		"path":       url.PathEscape(v),
		"%20":        strings.ReplaceAll(qe, "+", "%20"),
		"lower hex":  hexDigit.ReplaceAllStringFunc(qe, strings.ToLower),
		"full":       fullEscape(v, false),
		"full lower": fullEscape(v, true),
		"mixed":      mixEscape(v, r),
	} {
		put(name, pctPre, enc)
	}
	// A value ending in an open escape ("%", "%4", a backslash, "\u00")
	// reads differently decoded when what follows completes it; only the
	// bytes themselves are found then.
	endsOpen := regexp.MustCompile(`%[0-9A-Fa-f]?$`).MatchString(v) || strings.Contains(v[max(0, len(v)-12):], `\`)
	if endsOpen {
		post = append([]byte("!"), post...) // ends no escape, completes none
	}
	for name, enc := range map[string]string{
		"query twice":      url.QueryEscape(qe),
		"path of query":    url.PathEscape(qe),
		"query of path":    url.QueryEscape(url.PathEscape(v)),
		"full of query":    fullEscape(qe, true),
		"json of query":    jsonEscape(qe, true, true),
		"query of json":    url.QueryEscape(jsonEscape(v, true, true)),
		"json in query %":  url.QueryEscape(goJSON(v)),
		"mixed of mixed":   mixEscape(mixEscape(v, r), r),
		"query of mixed":   url.QueryEscape(mixEscape(v, r)),
		"json php":         jsonEscape(v, true, true),
		"json python":      jsonEscape(v, false, true),
		"json utf-8":       jsonEscape(v, false, false),
		"json go":          goJSON(v),
		"json php of path": jsonEscape(url.PathEscape(v), true, false),
	} {
		if strings.Contains(name, "json") && !utf8.ValidString(v) {
			continue // a JSON encoder replaces invalid UTF-8: the value is not there
		}
		put(name, clean, enc)
	}
	if len(v) < minBase64 {
		return out
	}
	// Base64 of the value at each byte alignment, in each alphabet, padded
	// or not: the characters carrying its bits are [a, b).
	for k := range 3 {
		data := append(append(bytes.Repeat([]byte{0xA5}, k), v...), 0x5A, 0xC3)[:k+len(v)+r.IntN(3)]
		a, b := 8*k/6, (8*(k+len(v))+5)/6
		for name, enc := range map[string]*base64.Encoding{"std": base64.StdEncoding, "url": base64.URLEncoding, "raw std": base64.RawStdEncoding, "raw url": base64.RawURLEncoding} {
			s := enc.EncodeToString(data)
			text := append(append(slices.Clip(clean), s...), post...)
			out = append(out, placed{fmt.Sprintf("base64 %s at %d", name, k), text, len(clean) + a, len(clean) + b})
		}
		// In a query string, percent-encoded; with MIME line breaks.
		s := base64.StdEncoding.EncodeToString(data)
		q := url.QueryEscape(s)
		if a, b := len(url.QueryEscape(s[:a])), len(url.QueryEscape(s[:b])); true {
			text := append(append(slices.Clip(clean), q...), post...)
			out = append(out, placed{fmt.Sprintf("base64 in a query at %d", k), text, len(clean) + a, len(clean) + b})
		}
		if len(s) > 8 {
			wrapped := s[:4] + "\r\n" + s[4:]
			aw, bw := a, b
			if aw >= 4 {
				aw += 2
			}
			if bw > 4 {
				bw += 2
			}
			text := append(append(slices.Clip(clean), wrapped...), post...)
			out = append(out, placed{fmt.Sprintf("base64 wrapped at %d", k), text, len(clean) + aw, len(clean) + bw})
		}
	}
	// Base64 of a URL we sent: the query-escaped value inside.
	s := base64.RawURLEncoding.EncodeToString([]byte("https://x/?k=" + qe + "&"))
	a, b := 8*13/6, (8*(13+len(qe))+5)/6
	out = append(out, placed{"base64 of a URL", append(append(slices.Clip(clean), s...), post...), len(clean) + a, len(clean) + b})
	return out
}

// checkPlacements: every placement of every value is replaced whole.
func checkPlacements(t *testing.T, values []string, pre, post []byte, seed uint64) {
	t.Helper()
	sc := newScrubber(values)
	for _, v := range values {
		r := rand.New(rand.NewPCG(seed, 1))
		for _, p := range placements(v, pre, post, r) {
			runs := checkScrub(t, sc, values, p.text)
			if !covered(runs, p.s, p.e) {
				t.Fatalf("value %q %s: input %q, bytes %d-%d (%q) are not replaced whole: runs %v", v, p.name, p.text, p.s, p.e, p.text[p.s:p.e], runs)
			}
		}
	}
}

func TestScrubPlacements(t *testing.T) {
	for _, tc := range []struct {
		name      string
		values    []string
		pre, post string
	}{
		{"aws key", []string{"AKIA/s3cr3t+key="}, "token=", "&x=1"},
		{"spaces quotes non-ASCII", []string{`AKIA/s3cr3t+k3y= "Zq"<é>`}, `{"a": "`, `"}`},
		{"after an open escape", []string{"4fe2/99+x=y z"}, "%", ""},
		{"after half an escape", []string{"e2/99+x=y zq"}, "%4", "1"},
		{"after a backslash", []string{"n/t u0041 x"}, `\`, ""},
		{"after \\u00", []string{"41/xyz=+ é"}, `\u00`, ""},
		{"holds escapes", []string{`a%41b\nc%2Fd%`}, "%", "41"},
		{"value inside another", []string{"secret-value-1", "value"}, "", ""},
		{"overlapping values", []string{"abcdef", "defghi"}, "xx", "yy"},
		{"short value", []string{"a"}, "b", "c"},
		{"long placeholder, short values", []string{"ab", "cd"}, "abcdab", "cdcd"},
		{"binary", []string{"\x00\xff\xfe%\\\"\n"}, "\x00", "\xff"},
		{"github token", []string{"ghp_R4nd0mT0k3nV4lu3xyzABC123"}, "Authorization: Bearer ", "\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkPlacements(t, tc.values, []byte(tc.pre), []byte(tc.post), 1)
		})
	}
}

// Inputs where a match starts before a unit an earlier match ended in
// is decoded: the earlier run must not be written out before.
func TestScrubCases(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		values     []string
		want       string
	}{
		{"JSON escape after a one-byte match", `a\u0062c`, []string{`\`, "bc"}, "a<placeholder-1>"},
		{"escape digits after a match", "%41b%20c", []string{"%4", "41b c"}, "<placeholder-0>"},
		{"base64 after a match", "xQUtJQS9zM2NyM3Q", []string{"x", "AKIA/s3cr3t"}, "<placeholder-0><placeholder-1>"},
		{"overlapping values", "abcdefghi", []string{"defghi", "abcdef"}, "<placeholder-1>"},
		{"touching values", "abcdef", []string{"abc", "def"}, "<placeholder-0><placeholder-1>"},
		{"case and plus", "AKIA/S3CR3T key=", []string{"akia/s3cr3t+KEY="}, "<placeholder-0>"},
		{"lower-case hex", "akia%2fs3cr3t%2bkey%3d", []string{"AKIA/s3cr3t+key="}, "<placeholder-0>"},
		{"header name", "x-leak-ghpsecretvalue42", []string{"ghpSecretValue42"}, "x-leak-<placeholder-0>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScrubber(tc.values)
			checkScrub(t, sc, tc.values, []byte(tc.text))
			got, _, _, _ := sc.scrub(nil, []byte(tc.text), placeholders(len(tc.values)), 1000)
			if string(got) != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// The matcher against its definition on random text made of the values'
// pieces and escape characters.
func TestScrubRandom(t *testing.T) {
	alphabet := []string{"%", "\\", "u", "4", "1", "f", "2", "F", "+", " ", "/", "=", "\"", "AKIA", "s3cr3t", "key", "%2F", "%2B", "%3D", "%25", "a", "b", "c", "\\u0041", "\\u0062", "\\/", "Q", "\n", "x", "y", "QUtJ", "QS9z", "%4", "1b", "%20", "41"}
	for _, tc := range []struct {
		name   string
		values []string
	}{
		{"tokens", []string{"AKIA/s3cr3t+key=", "4f%2", "ab", `x\"y`}},
		// One-byte values end matches on an escape's first byte, before
		// the escape is read: a run must wait for it.
		{"escape characters", []string{"\\", "bc", "%", "A"}},
		{"prefixes of each other", []string{"AKIA", "AKIA/s3", "s3cr3t+key=", "key"}},
		// A match from an escape's digits starts before the escape's end:
		// a run there must wait for it.
		{"open escapes", []string{"%4", "41b c", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 7))
			sc := newScrubber(tc.values)
			for range 3000 {
				var b []byte
				for range r.IntN(30) {
					b = append(b, alphabet[r.IntN(len(alphabet))]...)
				}
				checkScrub(t, sc, tc.values, b)
			}
		})
	}
}

func FuzzScrub(f *testing.F) {
	f.Add("AKIA/s3cr3t+key=", []byte("x=AKIA%2Fs3cr3t%2Bkey%3D&y=QUtJQS9zM2NyM3Qra2V5PQ"), uint64(1))
	f.Add("4fe2 99\nab", []byte("%4fe2%2099 %ab %"), uint64(2))
	f.Add(`n\u0041/"é"`, []byte(`\\u00\"\u00e9`), uint64(3))
	f.Add("s3cr3t-value\nvalue", []byte("s3cr3t-value-value"), uint64(4))
	f.Fuzz(func(t *testing.T, vals string, text []byte, seed uint64) {
		var values []string
		for _, v := range strings.Split(vals, "\n") {
			if v != "" && len(v) <= 48 && len(values) < 3 {
				values = append(values, v)
			}
		}
		if len(values) == 0 || len(text) > 512 {
			return
		}
		sc := newScrubber(values)
		checkScrub(t, sc, values, text)
		half := len(text) / 2
		checkPlacements(t, values, text[:half], text[half:], seed)
	})
}

// Memory stays linear in the input, whatever it holds: inputs built to
// keep many matches pending, or many escapes open.
func TestScrubLinear(t *testing.T) {
	values := []string{"ab", "x", strings.Repeat("x", 1000) + "y", "4a" + strings.Repeat("J", 40), `\u0041\u00`}
	sc := newScrubber(values)
	repl := placeholders(len(values))
	for _, tc := range []struct {
		name  string
		piece string
	}{
		{"all matches", "abab"},
		{"a long value's prefix and a short value", "x"},
		{"escapes", "%41%4"},
		{"alternative readings", "%4A%4A%4A%4A"},
		{"json escapes", `\u0041\`},
		{"base64", "QUJBQkFCQUJ"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []int{1 << 14, 1 << 18} {
				in := bytes.Repeat([]byte(tc.piece), n/len(tc.piece))
				var out []byte
				var err error
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				out, _, _, err = sc.scrub(nil, in, repl, 1<<30)
				runtime.ReadMemStats(&m1)
				// The output, grown by doubling, and a few bytes per input
				// byte at most.
				if a := m1.TotalAlloc - m0.TotalAlloc; a > uint64(2*len(out)+4*len(in)+128<<10) {
					t.Fatalf("%d bytes in, %d out: %d allocated", len(in), len(out), a)
				}
				if err != nil && tc.name != "alternative readings" {
					t.Fatal(err)
				}
			}
		})
	}
}

// A value that repeats itself, in an input made to match it from every
// escape, is refused rather than scanned slowly.
func TestScrubAmbiguous(t *testing.T) {
	values := []string{"4a" + strings.Repeat("J", 200)}
	sc := newScrubber(values)
	in := bytes.Repeat([]byte("%4A"), 300)
	if _, _, _, err := sc.scrub(nil, in, placeholders(1), 1<<20); err != errScrubAmbiguous {
		t.Fatalf("err = %v", err)
	}
	if _, err := sc.detect(in); err != errScrubAmbiguous {
		t.Fatalf("detect: err = %v", err)
	}
}

// BenchmarkScrub: a JSON body of 1 MiB with escapes, three secrets.
func BenchmarkScrub(b *testing.B) {
	values := []string{"AKIA/s3cr3t+key=", "ghp_R4nd0mT0k3nV4lu3xyzABC123", `p4ss "word" é`}
	sc := newScrubber(values)
	repl := placeholders(len(values))
	var body []byte
	for len(body) < 1<<20 {
		body = append(body, `{"url": "https://api.example.com/v1/items?page=2&q=%22x%22", "name": "caf\u00e9 \"menu\"", "token": "QUtJQS9zM2NyM3Qra2V5PQ==", "n": 12345},`...)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		sc.scrub(nil, body, repl, 2<<20)
	}
}

// A node stays at 16 bytes: 64 secrets of 16 KiB, each with a few forms,
// make millions of them (about 90 MB at most).
func TestAutomatonNodeSize(t *testing.T) {
	if n := unsafe.Sizeof(acNode{}); n != 16 {
		t.Fatalf("acNode is %d bytes", n)
	}
}
