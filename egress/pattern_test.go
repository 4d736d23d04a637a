package egress

import (
	"cmp"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// ssrfCeilings are operators' ceilings: the natural "internet" ones and
// ones naming private addresses by IP.
var ssrfCeilings = []string{"*", "*:*", "*.example.com", "example.com:*", "10.0.0.0/8:*", "127.0.0.1:9000", "::/0:*"}

// ssrfCases: what a run may ask for under each ceiling. An address,
// however spelled, is within a ceiling only by one of the ceiling's IP
// patterns: "*" is any host name, never an address.
var ssrfCases = []struct {
	name, request string
	within        []string // the ceilings that accept it; the others refuse
}{
	{"loopback, any port", "127.0.0.1:*", nil},
	{"loopback, short IPv4", "127.1", nil},
	{"loopback, short IPv4 with port", "127.1:9000", []string{"127.0.0.1:9000"}},
	{"loopback, one number", "2130706433:9000", []string{"127.0.0.1:9000"}},
	{"loopback, hex", "0x7f.0.0.1:9000", []string{"127.0.0.1:9000"}},
	{"loopback, octal", "0177.0.0.1:9000", []string{"127.0.0.1:9000"}},
	{"loopback, trailing dot", "127.0.0.1.:9000", []string{"127.0.0.1:9000"}},
	{"loopback, scheme", "http://127.0.0.1:9000", []string{"127.0.0.1:9000"}},
	{"loopback, bracketed", "[127.0.0.1]:9000", []string{"127.0.0.1:9000"}},
	{"loopback, another port", "127.0.0.1:9001", nil},
	{"loopback, IPv4-mapped", "::ffff:127.0.0.1", nil},
	{"loopback, IPv4-mapped with port", "[::ffff:127.0.0.1]:9000", []string{"127.0.0.1:9000"}},
	{"loopback, IPv4-compatible", "[::127.0.0.1]:9000", []string{"::/0:*"}},
	{"loopback, NAT64", "[64:ff9b::7f00:1]:9000", []string{"::/0:*"}},
	{"IPv6 loopback", "[::1]:*", []string{"::/0:*"}},
	{"IPv6 unspecified", "[::]:*", []string{"::/0:*"}},
	{"IPv4 unspecified", "0.0.0.0:*", nil},
	{"every IPv4 address", "0.0.0.0/0:*", nil},
	{"every IPv6 address", "::/0:*", []string{"::/0:*"}},
	{"cloud metadata", "169.254.169.254", nil},
	{"cloud metadata, IPv6", "[fd00:ec2::254]", []string{"::/0:*"}},
	{"a private block", "10.0.0.0/8:*", []string{"10.0.0.0/8:*"}},
	{"a larger block", "10.0.0.0/7:*", nil},
	{"an address of the block", "10.1.2.3:5432", []string{"10.0.0.0/8:*"}},
	{"an address of the block, IPv4-mapped", "::ffff:10.1.2.3", []string{"10.0.0.0/8:*"}},
	{"a public address", "8.8.8.8", nil},
	{"a name", "api.example.com", []string{"*", "*:*", "*.example.com"}},
	{"a name, any port", "example.com:*", []string{"*:*", "example.com:*"}},
	{"a name, another port", "example.com:5432", []string{"*:*", "example.com:*"}},
	{"a subdomain wildcard", "*.example.com", []string{"*", "*:*", "*.example.com"}},
	{"a name that resolves to loopback", "localhost:*", []string{"*:*"}},
	{"any name", "*", []string{"*", "*:*"}},
	{"any name, any port", "*:*", []string{"*:*"}},
	{"https on another port", "https://api.example.com:8443", []string{"*:*"}},
}

func TestSSRFCeiling(t *testing.T) {
	for _, tc := range ssrfCases {
		for _, c := range ssrfCeilings {
			t.Run(tc.name+" under "+c, func(t *testing.T) {
				ceiling, err := ParseList([]string{c})
				if err != nil {
					t.Fatal(err)
				}
				req, err := ParseList([]string{tc.request})
				if err != nil {
					t.Fatal(err)
				}
				err = req.Within(ceiling)
				if want := slices.Contains(tc.within, c); want {
					if err != nil {
						t.Fatalf("%q under %q: %v, want accepted", tc.request, c, err)
					}
				} else if wasmexec.ErrorCode(err) != wasmexec.EInvalid || !strings.Contains(err.Error(), tc.request) {
					t.Fatalf("%q under %q: %v, want invalid_argument naming it", tc.request, c, err)
				}
			})
		}
	}
}

// Host spellings that are IPv4 addresses to URL parsers and inet_aton are
// IP patterns; ones ending in a number that no parser reads as an address
// are refused rather than taken as names.
func TestPatternIPv4Forms(t *testing.T) {
	for _, tc := range []struct {
		name, pattern, want string // want: the address, "" invalid
	}{
		{"dotted", "127.0.0.1", "127.0.0.1"},
		{"two parts", "127.1", "127.0.0.1"},
		{"three parts", "10.1.258", "10.1.1.2"},
		{"one number", "2130706433", "127.0.0.1"},
		{"hex", "0x7f000001", "127.0.0.1"},
		{"hex parts", "0x7F.0X0.0.0x1", "127.0.0.1"},
		{"octal", "0177.0.0.01", "127.0.0.1"},
		{"empty hex", "0x.0.0.1", "0.0.0.1"},
		{"trailing dot", "127.0.0.1.", "127.0.0.1"},
		{"metadata as one number", "2852039166", "169.254.169.254"},
		{"a part over 255", "256.0.0.1", ""},
		{"last part too large", "1.2.65536", ""},
		{"five parts", "1.2.3.4.5", ""},
		{"bad octal", "08.0.0.1", ""},
		{"bad hex", "0xg.0.0.1", ""},
		{"over 32 bits", "4294967296", ""},
		{"a name ending in a number", "host.123", ""},
		{"an empty part", "1..2", ""},
		{"a wildcard ending in a number", "*.0.1", ""},
		{"an IPv6 zone", "[fe80::1%eth0]:80", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePattern(tc.pattern)
			if tc.want == "" {
				if wasmexec.ErrorCode(err) != wasmexec.EInvalid {
					t.Fatalf("ParsePattern(%q) = %+v, %v; want invalid_argument", tc.pattern, p, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !p.isIP || p.prefix != netip.MustParsePrefix(tc.want+"/32") {
				t.Fatalf("ParsePattern(%q) = %+v, want the address %s", tc.pattern, p, tc.want)
			}
			// A URL host spelled the same way is that address too.
			if !p.Match("http", tc.pattern, 80) || !p.NamesAddr(netip.MustParseAddr(tc.want), 80) {
				t.Fatalf("%q does not match its own spelling", tc.pattern)
			}
		})
	}
}

// A name pattern, "*" included, matches host names only; a URL whose host
// is an address, in any spelling, is matched by IP patterns alone.
func TestMatchAddressHosts(t *testing.T) {
	for _, tc := range []struct {
		name, pattern, host string
		want                bool
	}{
		{"any name", "*:*", "api.example.com", true},
		{"any name, not loopback", "*:*", "127.0.0.1", false},
		{"any name, not short loopback", "*:*", "127.1", false},
		{"any name, not a number", "*:*", "2130706433", false},
		{"any name, not hex", "*:*", "0x7f.1", false},
		{"any name, not IPv6 loopback", "*:*", "::1", false},
		{"any name, not IPv4-mapped", "*:*", "::ffff:127.0.0.1", false},
		{"any name, not a public address", "*:*", "8.8.8.8", false},
		{"any name, not an invalid number", "*:*", "256.1", false},
		{"an address pattern, short spelling", "127.0.0.1:*", "127.1", true},
		{"an address pattern, mapped spelling", "127.0.0.1:*", "::ffff:127.0.0.1", true},
		{"an address pattern, IPv4-compatible is another address", "127.0.0.1:*", "::127.0.0.1", false},
		{"a block", "10.0.0.0/8:*", "0xa.1", true},
		{"a block, zoned host", "::/0:*", "fe80::1%eth0", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePattern(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Match("http", tc.host, 9000); got != tc.want {
				t.Fatalf("%q.Match(%q) = %v, want %v", tc.pattern, tc.host, got, tc.want)
			}
		})
	}
}

// fuzzHosts seed the fuzzers' URL hosts: names, and addresses in the
// spellings an attacker would try.
var fuzzHosts = []string{"api.example.com", "a.b.example.com", "example.com", "localhost", "127.0.0.1", "127.1", "2130706433",
	"0x7f.0.0.1", "0177.0.0.1", "::1", "::ffff:127.0.0.1", "::127.0.0.1", "169.254.169.254", "10.1.2.3", "8.8.8.8", "fe80::1%eth0", "256.1", "API.Example.COM."}

func FuzzParsePattern(f *testing.F) {
	for _, c := range ssrfCeilings {
		f.Add(c)
	}
	for _, tc := range ssrfCases {
		f.Add(tc.request)
	}
	for _, h := range fuzzHosts {
		f.Add(h)
	}
	names, _ := ParseList([]string{"*:*", "*", "http://*:*", "https://*:*"})
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := ParsePattern(raw)
		if err != nil {
			if wasmexec.ErrorCode(err) != wasmexec.EInvalid {
				t.Fatalf("ParsePattern(%q): %v, want invalid_argument", raw, err)
			}
			return
		}
		if !p.Covers(p) {
			t.Fatalf("%q does not cover itself", raw)
		}
		if p.isIP {
			for _, n := range names {
				if n.Covers(p) {
					t.Fatalf("the name pattern %q covers the address pattern %q", n.Raw, raw)
				}
			}
			if !p.prefix.IsValid() || p.host != "" || p.any || p.wildcard {
				t.Fatalf("%q: %+v", raw, p)
			}
			return
		}
		// A name pattern's host is never an address in any spelling, and
		// names no address.
		if _, isIP, err := hostAddr(p.host); !p.any && (isIP || err != nil) {
			t.Fatalf("%q: the name %q is an address (%v)", raw, p.host, err)
		}
		for _, h := range fuzzHosts {
			if a, isIP, _ := hostAddr(h); isIP && (p.NamesAddr(a, 443) || p.Match("https", h, 443)) {
				t.Fatalf("the name pattern %q allows the address %s", raw, h)
			}
		}
		if !p.any && !p.wildcard && len(p.ports) > 0 && !p.Match(cmp.Or(p.scheme, "https"), p.host, p.ports[0]) {
			t.Fatalf("%q does not match its own host %q:%d", raw, p.host, p.ports[0])
		}
	})
}

// FuzzCovers: what a covered pattern allows, its cover allows too; an
// address is covered only by an IP pattern containing it.
func FuzzCovers(f *testing.F) {
	for _, tc := range ssrfCases {
		for _, c := range ssrfCeilings {
			h, _, _ := strings.Cut(strings.TrimPrefix(tc.request, "http://"), ":")
			f.Add(c, tc.request, "http", h, uint16(9000))
			f.Add(c, tc.request, "https", "api.example.com", uint16(443))
		}
	}
	f.Fuzz(func(t *testing.T, ceiling, request, scheme, host string, port uint16) {
		c, err := ParsePattern(ceiling)
		if err != nil {
			return
		}
		q, err := ParsePattern(request)
		if err != nil {
			return
		}
		covers := c.Covers(q)
		if err := (List{q}).Within(List{c}); (err == nil) != covers {
			t.Fatalf("Within and Covers disagree on %q under %q: %v", request, ceiling, err)
		}
		if !covers {
			return
		}
		if q.isIP && !(c.isIP && c.prefix.Bits() <= q.prefix.Bits() && c.prefix.Contains(q.prefix.Addr())) {
			t.Fatalf("%q covers the address pattern %q", ceiling, request)
		}
		if q.Match(scheme, host, int(port)) && !c.Match(scheme, host, int(port)) {
			t.Fatalf("%q covers %q, which matches %s://%s:%d, but does not match it", ceiling, request, scheme, host, port)
		}
		if q.isIP {
			for _, a := range []netip.Addr{q.prefix.Addr(), lastAddr(q.prefix)} {
				if q.NamesAddr(a, int(port)) && !c.NamesAddr(a, int(port)) {
					t.Fatalf("%q covers %q, which names %s port %d, but does not name it", ceiling, request, a, port)
				}
			}
		}
	})
}

// FuzzMatch: an address is matched only by an IP pattern naming it, and
// case or a trailing dot change nothing.
func FuzzMatch(f *testing.F) {
	for _, c := range append(slices.Clone(ssrfCeilings), "*.example.com:*", "api.example.com", "https://127.0.0.1") {
		for _, h := range fuzzHosts {
			f.Add(c, "https", h, uint16(443))
		}
	}
	f.Fuzz(func(t *testing.T, pattern, scheme, host string, port uint16) {
		p, err := ParsePattern(pattern)
		if err != nil {
			return
		}
		ok := p.Match(scheme, host, int(port))
		if !strings.HasSuffix(host, ".") && isASCII(host) {
			if again := p.Match(scheme, strings.ToUpper(host)+".", int(port)); again != ok {
				t.Fatalf("%q: Match(%q) = %v but Match(upper-case, trailing dot) = %v", pattern, host, ok, again)
			}
		}
		if !ok {
			return
		}
		a, isIP, err := hostAddr(strings.TrimSuffix(strings.ToLower(host), "."))
		switch {
		case err != nil:
			t.Fatalf("%q matches %q, which is neither a name nor an address: %v", pattern, host, err)
		case isIP && !p.NamesAddr(a, int(port)):
			t.Fatalf("%q matches the address %q but does not name %s:%d", pattern, host, a, port)
		case !isIP && p.isIP:
			t.Fatalf("the address pattern %q matches the name %q", pattern, host)
		}
	})
}

// lastAddr is the last address of a block.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
