package egress_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
)

// The secret of these tests: '/', '+', '=', a space, quotes, '<', '>'
// and a non-ASCII letter, which encoders treat differently.
const leaky = `AKIA/s3cr3t+k3y= "Zq"<é>`

// encoding is how a server hands back what it received.
type encoding struct {
	name string
	enc  func(string) string
	// token: the result is a valid header name; url: it may stand in a
	// URL's query as is; nested: two encodings, one in the other (after
	// an open escape only the value in one is found: the guest's "%4"
	// and the outer layer's first byte make an escape).
	token, url, nested bool
	// core returns the characters of enc(v) that carry v's bits (base64:
	// not those shared with the bytes around it); nil: all of enc(v).
	core func(string) string
}

var hexEscape = regexp.MustCompile(`%[0-9A-F]{2}`)

func escapeAll(v, format string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		fmt.Fprintf(&b, format, v[i])
	}
	return b.String()
}

// phpJSON is PHP's json_encode: '/' as "\/", non-ASCII as \u escapes.
func phpJSON(v string) string {
	var b strings.Builder
	for _, r := range v {
		switch {
		case r == '"' || r == '\\' || r == '/':
			b.WriteString(`\` + string(r))
		case r >= 0x80 || r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
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

// b64 encodes "x"*k + v + "!": v at byte alignment k.
func b64(e *base64.Encoding, k int) func(string) string {
	return func(v string) string { return e.EncodeToString([]byte(strings.Repeat("x", k) + v + "!")) }
}

func b64Core(e *base64.Encoding, k int) func(string) string {
	return func(v string) string {
		s := b64(e, k)(v)
		return s[(8*k+5)/6 : 8*(k+len(v))/6]
	}
}

var encodings = func() []encoding {
	encs := []encoding{
		{name: "raw", enc: func(v string) string { return v }},
		{name: "query", enc: url.QueryEscape, token: true, url: true},
		{name: "path", enc: url.PathEscape, url: true},
		{name: "%20 for space", enc: func(v string) string { return strings.ReplaceAll(url.QueryEscape(v), "+", "%20") }, token: true, url: true},
		{name: "lower-case hex", enc: func(v string) string { return hexEscape.ReplaceAllStringFunc(url.QueryEscape(v), strings.ToLower) }, token: true, url: true},
		{name: "every byte", enc: func(v string) string { return escapeAll(v, "%%%02X") }, token: true, url: true},
		{name: "every byte lower", enc: func(v string) string { return escapeAll(v, "%%%02x") }, token: true, url: true},
		{name: "query twice", enc: func(v string) string { return url.QueryEscape(url.QueryEscape(v)) }, token: true, url: true},
		{name: "query of path", enc: func(v string) string { return url.QueryEscape(url.PathEscape(v)) }, token: true, url: true, nested: true},
		{name: "json go", enc: goJSON},
		{name: "json php", enc: phpJSON},
		{name: "json php in a query", enc: func(v string) string { return url.QueryEscape(phpJSON(v)) }, token: true, url: true, nested: true},
	}
	for k := range 3 {
		for _, e := range []struct {
			name string
			e    *base64.Encoding
			url  bool
		}{{"std", base64.StdEncoding, false}, {"url", base64.URLEncoding, true}, {"raw std", base64.RawStdEncoding, false}, {"raw url", base64.RawURLEncoding, true}} {
			encs = append(encs, encoding{name: fmt.Sprintf("base64 %s at %d", e.name, k), enc: b64(e.e, k), core: b64Core(e.e, k), url: e.url})
		}
	}
	return encs
}()

// reflector is a host the secret is allowed for that hands back what it
// received in ?key= in the encoding (?enc=) and at the place (?place=) the
// request names, writing its responses by hand so that any status text
// and header name can be sent. It answers /final with "done".
func reflector(t *testing.T, encs []encoding, redirectTo string) (base string, hits *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	hits = new(atomic.Int64)
	respond := func(r *http.Request) string {
		hits.Add(1)
		if r.URL.Path == "/final" {
			return "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ndone"
		}
		q := r.URL.Query()
		v := q.Get("key")
		for _, e := range encs {
			if e.name == q.Get("enc") {
				v = e.enc(v)
			}
		}
		status, header, body := "200 OK", "", "before "+v+" after"
		switch q.Get("place") {
		case "header":
			header = "X-Echo: " + v + "\r\n"
		case "header name":
			header = "X-Leak-" + v + ": 1\r\n"
		case "status":
			status = "200 " + v
		case "location":
			status, header = "302 Found", "Location: /final?v="+v+"\r\n"
		case "redirect elsewhere":
			status, header = "302 Found", "Location: "+redirectTo+"?v="+v+"\r\n"
		case "after an open escape":
			body = "%4" + v
		}
		return fmt.Sprintf("HTTP/1.1 %s\r\n%sContent-Length: %d\r\n\r\n%s", status, header, len(body), body)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					r, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, r.Body)
					if _, err := io.WriteString(c, respond(r)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String(), hits
}

// visible is everything of a response and the session's records a guest
// or a reader of the run's record sees.
func visible(r *egress.Response, s *egress.Session) []string {
	out := []string{r.Error, r.StatusText, r.URL, string(r.Body)}
	for _, h := range r.Headers {
		out = append(out, h[0], h[1])
	}
	recs, _ := json.Marshal(s.Records())
	return append(out, string(recs))
}

// leaked returns the first of needles some text holds (case-insensitive:
// a header name comes back lower-cased), or "".
func leaked(texts, needles []string) string {
	for _, t := range texts {
		for _, n := range needles {
			if strings.Contains(strings.ToLower(t), strings.ToLower(n)) {
				return fmt.Sprintf("%q in %q", n, t)
			}
		}
	}
	return ""
}

// needles: what must not come back of value v encoded by e.
func needles(e encoding, v string) []string {
	if e.core == nil {
		return []string{v, e.enc(v)}
	}
	// Any six characters of the part that carries the value.
	core := e.core(v)
	n := []string{v}
	for i := 0; i+6 <= len(core); i++ {
		n = append(n, core[i:i+6])
	}
	return n
}

func secretSession(t *testing.T, base string, allow ...string) (*egress.Session, string) {
	t.Helper()
	e := MustEgress(t, egress.Config{Allow: []string{"127.0.0.1:*"}})
	secrets := map[string]wasmexec.Secret{"TOKEN": {Value: leaky, Hosts: []string{base}}}
	return MustSession(t, e, append([]string{base}, allow...), secrets), wasmexec.SecretPlaceholder("TOKEN")
}

// A host the secret is allowed for hands it back in each encoding servers
// use, at each place of a response: none of it reaches the guest or the
// record, the placeholder does.
func TestSecretComesBackEncoded(t *testing.T) {
	base, _ := reflector(t, encodings, "")
	for _, e := range encodings {
		for _, place := range []string{"body", "header", "header name", "status", "location", "after an open escape"} {
			switch {
			case place == "header name" && !e.token,
				place == "after an open escape" && (e.core != nil || e.nested):
				continue
			}
			for _, redirect := range []string{"follow", "manual", "error"} {
				if place != "location" && redirect != "follow" || place == "location" && redirect == "follow" && !e.url {
					continue
				}
				name := e.name + " in " + place
				if place == "location" {
					name += " (redirect " + redirect + ")"
				}
				t.Run(name, func(t *testing.T) {
					s, ph := secretSession(t, base)
					r := MustDo(t, s, egress.Request{URL: base + "/?enc=" + url.QueryEscape(e.name) + "&place=" + url.QueryEscape(place) + "&key=" + ph, Redirect: redirect})
					if place == "location" && redirect == "follow" {
						if r.Error != "" || string(r.Body) != "done" || !strings.Contains(r.URL, ph) {
							t.Fatalf("redirect: %+v %q", r, r.Body)
						}
					} else if redirect != "error" && r.Error != "" {
						t.Fatalf("response: %+v", r)
					}
					if l := leaked(visible(r, s), needles(e, leaky)); l != "" {
						t.Fatalf("the secret came back: %s", l)
					}
					if all := strings.Join(visible(r, s)[:len(visible(r, s))-1], " "); !strings.Contains(all, ph) {
						t.Fatalf("no placeholder in %q", all)
					}
				})
			}
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Secrets with short values and long names: every value in what is
// scrubbed grows by the length of a placeholder. What is recorded, sent
// back or refused stays within a small multiple of the input.
func TestScrubMemoryBounded(t *testing.T) {
	long := strings.Repeat("N", 120)
	secrets := map[string]wasmexec.Secret{"A" + long: {Value: "ab", Hosts: []string{"x.test"}}, "B" + long: {Value: "cd", Hosts: []string{"x.test"}}}
	filler := func(n int) string { return strings.Repeat("abcd", n/4) }

	var body, header string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if header != "" {
			w.Header().Set("X-Big", header)
		}
		io.WriteString(w, body)
	}))
	defer srv.Close()
	e := MustEgress(t, egress.Config{Allow: []string{"127.0.0.1:*", "*.test"}, MaxResponseBytes: 2 << 20})

	for _, n := range []int{16 << 10, 256 << 10} {
		t.Run(fmt.Sprintf("refused URL of %d bytes", n), func(t *testing.T) {
			s := MustSession(t, e, []string{srv.URL}, secrets)
			u := "http://elsewhere.test/?q=" + filler(n)
			var r *egress.Response
			a := allocated(func() { r = MustDo(t, s, egress.Request{URL: u}) })
			t.Logf("%d bytes allocated for a %d-byte URL", a, n)
			if a > uint64(8*n+256<<10) {
				t.Fatalf("%d bytes allocated for a %d-byte URL", a, n)
			}
			wantRefused(t, r, "allow-list")
			if rec := s.Records()[0].URL; len(rec) > 2100 || strings.Contains(rec, "abcd") {
				t.Fatalf("recorded URL: %d bytes, %.100q", len(rec), rec)
			}
		})
	}
	t.Run("body", func(t *testing.T) {
		body, header = filler(1<<20), ""
		s := MustSession(t, e, []string{srv.URL}, secrets)
		var r *egress.Response
		a := allocated(func() { r = MustDo(t, s, egress.Request{URL: srv.URL}) })
		t.Logf("%d bytes allocated for a 1 MiB body", a)
		if a > 16<<20 {
			t.Fatalf("%d bytes allocated for a 1 MiB body", a)
		}
		wantRefused(t, r, "response budget")
	})
	t.Run("header", func(t *testing.T) {
		body, header = "", filler(60<<10)
		s := MustSession(t, e, []string{srv.URL}, secrets)
		var r *egress.Response
		a := allocated(func() { r = MustDo(t, s, egress.Request{URL: srv.URL}) })
		t.Logf("%d bytes allocated for 60 KiB of headers", a)
		if a > 2<<20 {
			t.Fatalf("%d bytes allocated for 60 KiB of headers", a)
		}
		wantRefused(t, r, "headers")
	})
	// A body of values within budget once scrubbed is sent back.
	t.Run("small body", func(t *testing.T) {
		body, header = "ab cd", ""
		s := MustSession(t, e, []string{srv.URL}, secrets)
		r := MustDo(t, s, egress.Request{URL: srv.URL})
		if want := wasmexec.SecretPlaceholder("A"+long) + " " + wasmexec.SecretPlaceholder("B"+long); r.Error != "" || string(r.Body) != want {
			t.Fatalf("%+v %q", r, r.Body)
		}
	})
}
