package egress_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
)

// fakeDNS is the resolver seam: names resolve to the addresses the test
// says (a public-looking name to 127.0.0.1), everything else fails. The
// post-resolution check runs on what it returns.
type fakeDNS map[string][]netip.Addr

func (f fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

var loopback = []netip.Addr{netip.MustParseAddr("127.0.0.1")}

func hostPort(tb testing.TB, srv *httptest.Server) (string, string) {
	tb.Helper()
	u, _ := url.Parse(srv.URL)
	return u.Hostname(), u.Port()
}

func MustEgress(tb testing.TB, cfg egress.Config) *egress.Egress {
	tb.Helper()
	e, err := egress.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

func MustSession(tb testing.TB, e *egress.Egress, allow []string, secrets map[string]wasmexec.Secret) *egress.Session {
	tb.Helper()
	if err := e.CheckNetwork(&wasmexec.Network{Allow: allow}, secrets); err != nil {
		tb.Fatal(err)
	}
	s, err := e.NewSession(&wasmexec.Network{Allow: allow}, secrets)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

func MustDo(tb testing.TB, s *egress.Session, req egress.Request) *egress.Response {
	tb.Helper()
	r, err := s.Do(context.Background(), req)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func wantRefused(tb testing.TB, r *egress.Response, substr string) {
	tb.Helper()
	if r.Error == "" || !strings.Contains(r.Error, substr) {
		tb.Fatalf("response %d %q, error %q: want an error containing %q", r.Status, r.Body, r.Error, substr)
	}
}

func TestPatterns(t *testing.T) {
	for _, tc := range []struct {
		pattern, scheme, host string
		port                  int
		want                  bool
	}{
		{"api.example.com:443", "https", "api.example.com", 443, true},
		{"api.example.com:443", "https", "API.Example.com.", 443, true},
		{"api.example.com:443", "https", "api.example.com", 8443, false},
		{"api.example.com", "http", "api.example.com", 80, true},
		{"api.example.com", "https", "api.example.com", 8080, false},
		{"*.example.org", "https", "a.b.example.org", 443, true},
		{"*.example.org", "https", "example.org", 443, false},
		{"*.example.org", "https", "evilexample.org", 443, false},
		{"http://127.0.0.1:9000", "http", "127.0.0.1", 9000, true},
		{"http://127.0.0.1:9000", "https", "127.0.0.1", 9000, false},
		{"https://x.test", "https", "x.test", 443, true},
		{"https://x.test", "https", "x.test", 80, false},
		{"10.0.0.0/8:*", "http", "10.1.2.3", 5432, true},
		{"10.0.0.0/8:*", "http", "11.1.2.3", 5432, false},
		{"[::1]:8080", "http", "::1", 8080, true},
		{"*", "https", "anything.example", 443, true},
		{"*:*", "http", "anything.example", 1234, true},
	} {
		t.Run(tc.pattern+" "+tc.host, func(t *testing.T) {
			p, err := egress.ParsePattern(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Match(tc.scheme, tc.host, tc.port); got != tc.want {
				t.Fatalf("Match(%s, %s, %d) = %v, want %v", tc.scheme, tc.host, tc.port, got, tc.want)
			}
		})
	}
	for _, bad := range []string{"", "ftp://x", "x:0", "x:99999", "x/path", "user@x", "*.", "a..b", "10.0.0.0/33"} {
		if _, err := egress.ParsePattern(bad); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
			t.Errorf("ParsePattern(%q) = %v, want invalid_argument", bad, err)
		}
	}
}

// A run asking beyond the operator's ceiling is refused, naming the pattern.
func TestCeiling(t *testing.T) {
	e := MustEgress(t, egress.Config{Allow: []string{"*.example.org", "api.example.com:443", "http://127.0.0.1:9000"}})
	for _, tc := range []struct {
		name    string
		allow   []string
		refused string // "" ok
	}{
		{"within", []string{"a.example.org", "*.b.example.org", "api.example.com:443", "http://127.0.0.1:9000"}, ""},
		{"apex of a wildcard", []string{"example.org"}, "example.org"},
		{"other port", []string{"api.example.com:8443"}, "api.example.com:8443"},
		{"any port", []string{"api.example.com:*"}, "api.example.com:*"},
		{"https of an http-only pattern", []string{"https://127.0.0.1:9000"}, "https://127.0.0.1:9000"},
		{"another address", []string{"127.0.0.2:9000"}, "127.0.0.2:9000"},
		{"everything", []string{"*"}, `"*"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := e.CheckNetwork(&wasmexec.Network{Allow: tc.allow}, nil)
			if tc.refused == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if wasmexec.ErrorCode(err) != wasmexec.EInvalid || !strings.Contains(err.Error(), tc.refused) {
				t.Fatalf("err = %v, want invalid_argument naming %s", err, tc.refused)
			}
		})
	}
	off := MustEgress(t, egress.Config{})
	if err := off.CheckNetwork(&wasmexec.Network{Allow: []string{"example.com"}}, nil); wasmexec.ErrorCode(err) != wasmexec.EInvalid || !strings.Contains(err.Error(), "disabled") {
		t.Fatalf("no ceiling: %v", err)
	}
}

// Every non-public address is refused in every spelling: IPv6 forms that
// embed an IPv4 address are judged by it or refused whole.
func TestPublic(t *testing.T) {
	for _, tc := range []struct {
		name, addr string
		want       bool
	}{
		{"public IPv4", "8.8.8.8", true},
		{"public IPv6", "2606:4700::1111", true},
		{"public IPv4, mapped", "::ffff:8.8.8.8", true},
		{"public IPv4, well-known NAT64", "64:ff9b::8.8.8.8", true},
		{"loopback", "127.0.0.1", false},
		{"loopback, another", "127.5.5.5", false},
		{"IPv6 loopback", "::1", false},
		{"private 10/8", "10.1.1.1", false},
		{"private 172.16/12", "172.16.0.1", false},
		{"private 192.168/16", "192.168.1.1", false},
		{"cloud metadata", "169.254.169.254", false},
		{"CGNAT", "100.64.0.1", false},
		{"this network", "0.0.0.0", false},
		{"this network, another", "0.1.2.3", false},
		{"IETF protocol assignments", "192.0.0.8", false},
		{"IPv4 documentation", "198.51.100.7", false},
		{"IPv4 benchmarking", "198.18.0.1", false},
		{"6to4 relay anycast", "192.88.99.1", false},
		{"IPv4 multicast", "224.0.0.1", false},
		{"reserved", "240.0.0.1", false},
		{"broadcast", "255.255.255.255", false},
		{"IPv6 unspecified", "::", false},
		{"IPv6 link-local", "fe80::1", false},
		{"IPv6 link-local, zoned", "fe80::1%eth0", false},
		{"public IPv6, zoned", "2606:4700::1111%eth0", false},
		{"ULA", "fc00::1", false},
		{"ULA, AWS metadata", "fd00:ec2::254", false},
		{"site-local", "fec0::1", false},
		{"IPv6 multicast", "ff02::1", false},
		{"IPv6 multicast, global scope", "ff0e::1", false},
		{"IPv6 documentation", "2001:db8::1", false},
		{"IPv6 documentation, 3fff::/20", "3fff::1", false},
		{"discard", "100::1", false},
		{"loopback, IPv4-mapped", "::ffff:127.0.0.1", false},
		{"metadata, IPv4-mapped", "::ffff:169.254.169.254", false},
		{"loopback, IPv4-compatible", "::127.0.0.1", false},
		{"public, IPv4-compatible (deprecated)", "::8.8.8.8", false},
		{"private, IPv4-compatible", "::10.0.0.1", false},
		{"loopback, SIIT", "::ffff:0:127.0.0.1", false},
		{"public, SIIT", "::ffff:0:8.8.8.8", false},
		{"metadata, well-known NAT64", "64:ff9b::a9fe:a9fe", false},
		{"loopback, well-known NAT64", "64:ff9b::127.0.0.1", false},
		{"private, well-known NAT64", "64:ff9b::10.0.0.1", false},
		{"public, local-use NAT64", "64:ff9b:1::8.8.8.8", false},
		{"private, local-use NAT64", "64:ff9b:1:a00:1::", false},
		{"loopback, 6to4", "2002:7f00:1::1", false},
		{"private, 6to4", "2002:a00:1::1", false},
		{"public, 6to4", "2002:808:808::1", false},
		{"Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2", false},
		{"outside global unicast", "4000::1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := egress.Public(netip.MustParseAddr(tc.addr)); got != tc.want {
				t.Fatalf("Public(%s) = %v, want %v", tc.addr, got, tc.want)
			}
		})
	}
}

func TestAllowDeny(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Method", r.Method)
		fmt.Fprintf(w, "hello %s", b)
	}))
	defer srv.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("the refused server was reached") }))
	defer other.Close()
	e := MustEgress(t, egress.Config{Allow: []string{"127.0.0.1:*"}})
	s := MustSession(t, e, []string{srv.URL}, nil)

	r := MustDo(t, s, egress.Request{Method: "post", URL: srv.URL + "/x", Body: []byte("body")})
	if r.Error != "" || r.Status != 200 || string(r.Body) != "hello body" {
		t.Fatalf("allowed request: %+v %q", r, r.Body)
	}
	wantRefused(t, MustDo(t, s, egress.Request{URL: other.URL}), "not in the run's network allow-list")
	wantRefused(t, MustDo(t, s, egress.Request{URL: "ftp://127.0.0.1/"}), "scheme")
	wantRefused(t, MustDo(t, s, egress.Request{URL: "http://[::1"}), "invalid URL")
	wantRefused(t, MustDo(t, s, egress.Request{Method: "TRACE", URL: srv.URL}), "not allowed")
	wantRefused(t, MustDo(t, s, egress.Request{URL: srv.URL, Headers: [][2]string{{"X-A", "a\r\nHost: evil"}}}), "invalid request header")
	wantRefused(t, MustDo(t, s, egress.Request{URL: srv.URL, Headers: [][2]string{{"X A", "b"}}}), "invalid request header")
	wantRefused(t, MustDo(t, s, egress.Request{URL: srv.URL, Headers: make([][2]string, egress.MaxHeaders+1)}), "request headers")
	wantRefused(t, MustDo(t, s, egress.Request{URL: "http://user:pw@" + strings.TrimPrefix(srv.URL, "http://")}), "credentials")
	wantRefused(t, MustDo(t, s, egress.Request{Method: "POST", URL: srv.URL, Body: make([]byte, egress.MaxRequestBodyBytes+1)}), "request body")

	recs := s.Records()
	if len(recs) != 4 || strings.Contains(recs[3].URL, "pw") || recs[0].Status != 200 || recs[0].Method != "POST" || recs[0].Bytes != 10 || recs[1].Error == "" {
		t.Fatalf("records: %+v", recs)
	}

	none, _ := e.NewSession(nil, nil)
	wantRefused(t, MustDo(t, none, egress.Request{URL: srv.URL}), "not enabled")
}

// An allowed name that resolves to 127.0.0.1 is refused after resolution,
// unless the run's list also names the address.
func TestPrivateAddressAfterResolution(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "internal") }))
	defer srv.Close()
	_, port := hostPort(t, srv)
	dns := fakeDNS{"api.public.test": loopback, "metadata.public.test": {netip.MustParseAddr("169.254.169.254")}}
	e := MustEgress(t, egress.Config{Allow: []string{"*.public.test:*", "127.0.0.1:*"}, Resolver: dns})

	s := MustSession(t, e, []string{"api.public.test:" + port, "metadata.public.test:" + port}, nil)
	wantRefused(t, MustDo(t, s, egress.Request{URL: "http://api.public.test:" + port + "/"}), "resolves to 127.0.0.1")
	wantRefused(t, MustDo(t, s, egress.Request{URL: "http://metadata.public.test:" + port + "/"}), "169.254.169.254")

	named := MustSession(t, e, []string{"api.public.test:" + port, "127.0.0.1:" + port}, nil)
	if r := MustDo(t, named, egress.Request{URL: "http://api.public.test:" + port + "/"}); r.Error != "" || string(r.Body) != "internal" {
		t.Fatalf("named address: %+v", r)
	}
	// A literal private address needs to be named too: "*" is any name.
	star := MustEgress(t, egress.Config{Allow: []string{"*:*"}, Resolver: dns})
	wantRefused(t, MustDo(t, MustSession(t, star, []string{"*:*"}, nil), egress.Request{URL: srv.URL}), `"*" is any host name`)
}

// The server's own API on loopback, under the "internet" ceiling *:*: a
// run can't ask for 127.0.0.1 (nor any address), and no spelling of a
// loopback URL, nor a name resolving to one, gets through "*:*". A
// session made without the ceiling's check (as a caller skipping
// CheckNetwork would) is still held to the ceiling when it dials.
func TestWildcardCeilingSSRF(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "api reached") }))
	defer api.Close()
	_, port := hostPort(t, api)
	dns := fakeDNS{
		"localhost": loopback, "api.public.test": loopback,
		"metadata.public.test": {netip.MustParseAddr("169.254.169.254")},
		"v6.public.test":       {netip.MustParseAddr("::1")},
		"mapped.public.test":   {netip.MustParseAddr("::ffff:127.0.0.1")},
		"compat.public.test":   {netip.MustParseAddr("::127.0.0.1")},
		"nat64.public.test":    {netip.MustParseAddr("64:ff9b::a9fe:a9fe")},
	}
	internet := MustEgress(t, egress.Config{Allow: []string{"*:*"}, Resolver: dns})

	for _, allow := range []string{"127.0.0.1:*", "127.1:" + port, "2130706433:" + port, "[::1]:*", "[::ffff:127.0.0.1]:*",
		"0.0.0.0/0:*", "::/0:*", "169.254.169.254", "10.0.0.0/8:*", "8.8.8.8"} {
		if err := internet.CheckNetwork(&wasmexec.Network{Allow: []string{allow}}, nil); wasmexec.ErrorCode(err) != wasmexec.EInvalid || !strings.Contains(err.Error(), allow) {
			t.Errorf("network.allow %q under *:*: %v, want invalid_argument naming it", allow, err)
		}
	}

	named := MustEgress(t, egress.Config{Allow: []string{"*:*", "127.0.0.1:" + port}, Resolver: dns})
	for _, tc := range []struct {
		name  string
		e     *egress.Egress
		allow []string
		check bool   // CheckNetwork first (else the session skips it)
		url   string // host:port is the API's
		want  string // an error containing it; "" the API is reached
	}{
		{"any name, loopback", internet, []string{"*:*"}, true, "http://127.0.0.1:PORT/v1/evaluate", "not in the run's network allow-list"},
		{"any name, short loopback", internet, []string{"*:*"}, true, "http://127.1:PORT/", "not in the run's network allow-list"},
		{"any name, loopback as a number", internet, []string{"*:*"}, true, "http://2130706433:PORT/", "not in the run's network allow-list"},
		{"any name, hex loopback", internet, []string{"*:*"}, true, "http://0x7f.0.0.1:PORT/", "not in the run's network allow-list"},
		{"any name, full-width loopback", internet, []string{"*:*"}, true, "http://１２７.０.０.１:PORT/", "not in the run's network allow-list"},
		{"any name, percent-encoded loopback", internet, []string{"*:*"}, true, "http://%31%32%37.0.0.1:PORT/", "invalid URL"},
		{"any name, mapped loopback", internet, []string{"*:*"}, true, "http://[::ffff:127.0.0.1]:PORT/", "not in the run's network allow-list"},
		{"any name, localhost", internet, []string{"*:*"}, true, "http://localhost:PORT/", "localhost resolves to 127.0.0.1"},
		{"any name, a name of loopback", internet, []string{"*:*"}, true, "http://api.public.test:PORT/", "resolves to 127.0.0.1"},
		{"any name, a name of IPv6 loopback", internet, []string{"*:*"}, true, "http://v6.public.test:PORT/", "resolves to ::1"},
		{"any name, a name of mapped loopback", internet, []string{"*:*"}, true, "http://mapped.public.test:PORT/", "resolves to 127.0.0.1"},
		{"any name, a name of IPv4-compatible loopback", internet, []string{"*:*"}, true, "http://compat.public.test:PORT/", "resolves to ::7f00:1"},
		{"any name, a name of the metadata service via NAT64", internet, []string{"*:*"}, true, "http://nat64.public.test:PORT/", "resolves to 64:ff9b::a9fe:a9fe"},
		{"any name, a name of the metadata service", internet, []string{"*:*"}, true, "http://metadata.public.test:PORT/", "169.254.169.254"},
		{"unchecked: loopback beyond the ceiling", internet, []string{"127.0.0.1:*"}, false, "http://127.0.0.1:PORT/", "127.0.0.1 is a private or special-purpose address the allow-list does not name"},
		{"unchecked: a name of loopback beyond the ceiling", internet, []string{"*:*", "127.0.0.1:*"}, false, "http://localhost:PORT/", "localhost resolves to 127.0.0.1"},
		{"named by the operator", named, []string{"127.0.0.1:" + port}, true, "http://127.0.0.1:PORT/", ""},
		{"named by the operator, short spelling", named, []string{"127.0.0.1:" + port}, true, "http://127.1:PORT/", ""},
		{"named by the operator, a name of it", named, []string{"*:*", "127.0.0.1:" + port}, true, "http://localhost:PORT/", ""},
		{"named by the operator, not asked for by the run", named, []string{"*:*"}, true, "http://localhost:PORT/", "localhost resolves to 127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s *egress.Session
			if tc.check {
				s = MustSession(t, tc.e, tc.allow, nil)
			} else {
				var err error
				if s, err = tc.e.NewSession(&wasmexec.Network{Allow: tc.allow}, nil); err != nil {
					t.Fatal(err)
				}
				defer s.Close()
			}
			r := MustDo(t, s, egress.Request{Method: "POST", URL: strings.ReplaceAll(tc.url, "PORT", port), Body: []byte(`{"code":"1"}`)})
			if tc.want == "" {
				if r.Error != "" || string(r.Body) != "api reached" {
					t.Fatalf("want the API reached: %+v", r)
				}
				return
			}
			wantRefused(t, r, tc.want)
			if r.Status != 0 || len(r.Body) != 0 {
				t.Fatalf("the API answered: %d %q", r.Status, r.Body)
			}
		})
	}
}

// Every redirect hop is checked against the allow-list again.
func TestRedirectRecheck(t *testing.T) {
	forbidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("the forbidden server was reached") }))
	defer forbidden.Close()
	var allowedURL string
	allowed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, forbidden.URL+"/x%2541", http.StatusFound)
		case "/home":
			http.Redirect(w, r, allowedURL+"/final", http.StatusSeeOther)
		default:
			fmt.Fprintf(w, "%s %s", r.Method, r.URL.Path)
		}
	}))
	defer allowed.Close()
	allowedURL = allowed.URL
	e := MustEgress(t, egress.Config{Allow: []string{"127.0.0.1:*"}})
	s := MustSession(t, e, []string{allowed.URL}, nil)

	wantRefused(t, MustDo(t, s, egress.Request{URL: allowed.URL + "/away"}), "not in the run's network allow-list")
	r := MustDo(t, s, egress.Request{Method: "POST", URL: allowed.URL + "/home", Body: []byte("x")})
	if r.Error != "" || string(r.Body) != "GET /final" || !r.Redirected || r.URL != allowed.URL+"/final" {
		t.Fatalf("same-host redirect: %+v %q", r, r.Body)
	}
	wantRefused(t, MustDo(t, s, egress.Request{URL: allowed.URL + "/away", Redirect: "error"}), "redirected to "+forbidden.URL+"/x%2541 (redirect: error)")
	manual := MustDo(t, s, egress.Request{URL: allowed.URL + "/away", Redirect: "manual"})
	if manual.Status != http.StatusFound {
		t.Fatalf("manual: %+v", manual)
	}
	if recs := s.Records(); len(recs) != 6 || recs[1].URL != forbidden.URL+"/x%2541" || recs[1].Error == "" {
		t.Fatalf("records: %+v", recs)
	}
}

// A secret is substituted only in requests to its host, never leaves in
// a response or a record.
func TestSecrets(t *testing.T) {
	const value = "s3cr3t-VALUE-42"
	echo := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		fmt.Fprintf(w, "auth=%s q=%s", r.Header.Get("Authorization"), r.URL.Query().Get("key"))
	}
	api := httptest.NewTLSServer(http.HandlerFunc(echo))
	defer api.Close()
	var seenElsewhere string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seenElsewhere = r.Header.Get("Authorization") + " " + r.URL.RawQuery
	}))
	defer elsewhere.Close()
	_, apiPort := hostPort(t, api)
	roots := api.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	// httptest's certificate is for example.com (and 127.0.0.1): the name
	// resolves to the test server, which the list names by address.
	e := MustEgress(t, egress.Config{Allow: []string{"example.com:*", "127.0.0.1:*"}, RootCAs: roots, Resolver: fakeDNS{"example.com": loopback}})
	secrets := map[string]wasmexec.Secret{"API_TOKEN": {Value: value, Hosts: []string{"example.com:" + apiPort}}}
	s := MustSession(t, e, []string{"example.com:" + apiPort, elsewhere.URL, "127.0.0.1:" + apiPort}, secrets)
	ph := wasmexec.SecretPlaceholder("API_TOKEN")

	r := MustDo(t, s, egress.Request{URL: "https://example.com:" + apiPort + "/?key=" + ph, Headers: [][2]string{{"Authorization", "Bearer " + ph}}})
	if r.Error != "" || r.Status != 200 {
		t.Fatalf("api: %+v", r)
	}
	if want := "auth=Bearer " + ph + " q=" + ph; string(r.Body) != want {
		t.Fatalf("body %q, want the value scrubbed: %q", r.Body, want)
	}
	for _, h := range r.Headers {
		if strings.Contains(h[1], value) {
			t.Fatalf("header %v holds the value", h)
		}
	}
	// Plain HTTP to the same host: the placeholder stays (https only).
	MustDo(t, s, egress.Request{URL: elsewhere.URL + "/?key=" + ph, Headers: [][2]string{{"Authorization", "Bearer " + ph}}})
	if strings.Contains(seenElsewhere, value) || !strings.Contains(seenElsewhere, ph) {
		t.Fatalf("another host saw %q", seenElsewhere)
	}
	// By address, not by the secret's name: no substitution either.
	r = MustDo(t, s, egress.Request{URL: "https://127.0.0.1:" + apiPort + "/", Headers: [][2]string{{"Authorization", ph}}})
	if string(r.Body) != "auth="+ph+" q=" {
		t.Fatalf("by address: %q", r.Body)
	}
	recs, _ := json.Marshal(s.Records())
	if strings.Contains(string(recs), value) || !strings.Contains(string(recs), `"secrets":["API_TOKEN"]`) {
		t.Fatalf("records: %s", recs)
	}
}

func TestCaps(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 600))
	}))
	defer srv.Close()
	e := MustEgress(t, egress.Config{Allow: []string{"127.0.0.1:*"}, MaxRequests: 3, MaxResponseBytes: 1000})
	s := MustSession(t, e, []string{srv.URL}, nil)
	if r := MustDo(t, s, egress.Request{URL: srv.URL}); r.Error != "" || len(r.Body) != 600 {
		t.Fatalf("first: %+v", r)
	}
	wantRefused(t, MustDo(t, s, egress.Request{URL: srv.URL}), "--network-max-response-bytes")
	MustDo(t, s, egress.Request{URL: "http://127.0.0.2:1/"}) // refused, but counted
	wantRefused(t, MustDo(t, s, egress.Request{URL: srv.URL}), "--network-max-requests")
	if n := len(s.Records()); n != 3 {
		t.Fatalf("%d records, want 3", n)
	}
	// Response headers are capped by the transport.
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("a", egress.MaxResponseHeaderBytes))
	}))
	defer big.Close()
	wantRefused(t, MustDo(t, MustSession(t, e, []string{big.URL}, nil), egress.Request{URL: big.URL}), "failed")
}

// trickle writes a byte every few milliseconds until the client leaves.
func trickle(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(200)
	for {
		if _, err := w.Write([]byte("x")); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// A server trickling bytes forever is cut off by the run's deadline; a
// server that never answers, by a cancel.
func TestInterrupted(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(trickle))
	defer slow.Close()
	stuck, arrived := make(chan struct{}), make(chan struct{}, 1)
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-stuck:
		case <-r.Context().Done():
		}
	}))
	defer silent.Close()
	defer close(stuck)
	e := MustEgress(t, egress.Config{Allow: []string{"127.0.0.1:*"}})
	s := MustSession(t, e, []string{"127.0.0.1:*"}, nil)

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := s.Do(ctx, egress.Request{URL: slow.URL}); !errors.Is(err, egress.ErrInterrupted) {
		t.Fatalf("trickle: err = %v", err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	go func() {
		<-arrived // the request is at the server: cancel it there
		cancel2()
	}()
	if _, err := s.Do(ctx2, egress.Request{URL: silent.URL}); !errors.Is(err, egress.ErrInterrupted) {
		t.Fatalf("cancel: err = %v", err)
	}
	recs := s.Records()
	if len(recs) != 2 || !strings.Contains(recs[0].Error, "interrupted") || !strings.Contains(recs[1].Error, "interrupted") {
		t.Fatalf("records: %+v", recs)
	}
}
