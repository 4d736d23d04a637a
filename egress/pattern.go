package egress

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/wasmexec/wasmexec"
)

// Pattern is one allow-list entry:
//
//	api.example.com          the host, ports 80 and 443, http or https
//	api.example.com:8443     the host, that port
//	*.example.org            any subdomain of example.org (not example.org itself)
//	*                        any host name (ports 80 and 443); "*:*" any port too
//	https://api.example.com  https only (port 443 unless one is given)
//	http://127.0.0.1:9000    an IP literal; [::1]:8080 for IPv6
//	10.0.0.0/8:5432          a CIDR block of IP addresses
//
// Host names are matched case-insensitively, without a trailing dot.
//
// Names and addresses are two separate worlds. A name pattern, "*"
// included, matches host names only, never a host that is an address; an
// address is matched, and covered, by IP patterns alone. Otherwise an
// operator's "*:*", meant as "the internet", would let a run ask for
// 127.0.0.1:* and reach the server's own API, or 169.254.169.254. A host
// is an address in every spelling URL parsers and inet_aton read as one
// (127.1, 2130706433, 0x7f.0.0.1, ::ffff:127.0.0.1): such spellings are
// IP patterns, and a host that ends in a number but is no address is
// refused rather than taken as a name.
type Pattern struct {
	Raw      string
	scheme   string // "", "http" or "https"
	host     string // lower-case name; "" when any, or when an IP/CIDR
	wildcard bool   // host is "*.host"
	any      bool   // host is "*"
	prefix   netip.Prefix
	isIP     bool
	anyPort  bool
	ports    []int
}

// ParsePattern parses one allow-list pattern (invalid_argument naming it).
func ParsePattern(raw string) (Pattern, error) {
	bad := func(why string) (Pattern, error) {
		return Pattern{}, wasmexec.Errorf(wasmexec.EInvalid, "network pattern %q: %s", raw, why)
	}
	if raw == "" || len(raw) > 300 {
		return bad("must be 1-300 characters")
	}
	p := Pattern{Raw: raw}
	s := raw
	if i := strings.Index(s, "://"); i >= 0 {
		p.scheme = strings.ToLower(s[:i])
		if p.scheme != "http" && p.scheme != "https" {
			return bad("the scheme must be http or https")
		}
		s = s[i+3:]
		s = strings.TrimSuffix(s, "/")
	}
	if strings.ContainsAny(s, "?#@ \t\\") {
		return bad("must be [scheme://]host[:port]")
	}
	host, port := s, ""
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.Index(s, "]")
		if end < 0 {
			return bad("unclosed [")
		}
		host, port = s[1:end], s[end+1:]
		if port != "" {
			if !strings.HasPrefix(port, ":") {
				return bad("text after ]")
			}
			port = port[1:]
		}
	default:
		if i := strings.LastIndex(s, ":"); i >= 0 {
			// A bare IPv6 address or block has colons of its own.
			if _, err := netip.ParseAddr(s); err == nil {
				break
			}
			if _, err := netip.ParsePrefix(s); err == nil {
				break
			}
			host, port = s[:i], s[i+1:]
		}
	}
	switch {
	case port == "*":
		p.anyPort = true
	case port != "":
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return bad("the port must be 1-65535 or *")
		}
		p.ports = []int{n}
	case p.scheme == "http":
		p.ports = []int{80}
	case p.scheme == "https":
		p.ports = []int{443}
	default:
		p.ports = []int{80, 443}
	}
	if strings.HasSuffix(host, "*.") {
		return bad("not a host name")
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	switch {
	case host == "":
		return bad("the host is missing")
	case host == "*":
		p.any = true
	case strings.Contains(host, "/"):
		pre, err := netip.ParsePrefix(host)
		if err != nil {
			return bad("not a CIDR block")
		}
		p.prefix, p.isIP = pre.Masked(), true
	default:
		a, isIP, err := hostAddr(host)
		switch {
		case err != nil:
			return bad(err.Error())
		case isIP && a.Zone() != "":
			return bad("an IPv6 zone is not allowed")
		case isIP:
			p.prefix, p.isIP = netip.PrefixFrom(a, a.BitLen()), true
			return p, nil
		}
		if strings.HasPrefix(host, "*.") {
			p.wildcard, host = true, host[2:]
		}
		if !validHostname(host) {
			return bad("not a host name")
		}
		p.host = host
	}
	return p, nil
}

// hostAddr returns the address host is (IPv4-mapped forms unmapped) when
// it is one in any spelling: IPv6, or IPv4 as URL parsers and inet_aton
// read it. isIP is false for a name; err says why a host ending in a
// number is no address.
func hostAddr(host string) (a netip.Addr, isIP bool, err error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return a.Unmap(), true, nil
	}
	if !endsInNumber(host) {
		return netip.Addr{}, false, nil
	}
	a, ok := parseIPv4(host)
	if !ok {
		return netip.Addr{}, false, fmt.Errorf("not an IPv4 address nor a host name")
	}
	return a, true, nil
}

// endsInNumber reports whether host's last label is a number, which makes
// the whole host an IPv4 address to a URL parser (the WHATWG URL
// standard's "ends in a number"), and to getaddrinfo.
func endsInNumber(host string) bool {
	labels := strings.Split(host, ".")
	if len(labels) > 1 && labels[len(labels)-1] == "" {
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last == "" {
		return false
	}
	if strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := ipv4Number(last)
	return ok
}

// parseIPv4 reads the WHATWG URL standard's IPv4 host: one to four
// numbers, decimal, octal (leading 0) or hex (0x), the last one filling
// the remaining bytes: 127.1 is 127.0.0.1, 2130706433 too.
func parseIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, part := range parts {
		n, ok := ipv4Number(part)
		if !ok {
			return netip.Addr{}, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return netip.Addr{}, false
			}
			v |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return netip.Addr{}, false
		}
		v |= n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// ipv4Number reads one part of an IPv4 host.
func ipv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
	case len(s) >= 2 && s[0] == '0':
		base, s = 8, s[1:]
	}
	if s == "" {
		return 0, true
	}
	// With a base given, ParseUint takes its digits only: no sign, prefix
	// or underscore.
	n, err := strconv.ParseUint(s, base, 64)
	return n, err == nil
}

func validHostname(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// Match reports whether the pattern allows scheme://host:port (an IP
// literal unbracketed).
func (p Pattern) Match(scheme, host string, port int) bool {
	if p.scheme != "" && p.scheme != scheme {
		return false
	}
	if !p.anyPort && !slices.Contains(p.ports, port) {
		return false
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	a, isIP, err := hostAddr(host)
	switch {
	case err != nil:
		return false
	case isIP:
		// Only an IP pattern matches an address: "*" is any name.
		return p.isIP && p.prefix.Contains(a)
	case p.isIP:
		return false
	case p.any:
		return true
	case p.wildcard:
		return strings.HasSuffix(host, "."+p.host)
	}
	return host == p.host
}

// NamesAddr reports whether the pattern names addr by IP literal or CIDR
// block on port (a name, even "*", never does).
func (p Pattern) NamesAddr(addr netip.Addr, port int) bool {
	return p.isIP && p.prefix.Contains(addr.Unmap()) && (p.anyPort || slices.Contains(p.ports, port))
}

// Covers reports whether everything q allows, p allows too.
func (p Pattern) Covers(q Pattern) bool {
	if p.scheme != "" && p.scheme != q.scheme {
		return false
	}
	if !p.anyPort {
		if q.anyPort {
			return false
		}
		for _, n := range q.ports {
			if !slices.Contains(p.ports, n) {
				return false
			}
		}
	}
	switch {
	case q.isIP:
		// An address is within the ceiling only when the operator named
		// it by IP: a name pattern, even "*", never covers one.
		return p.isIP && p.prefix.Bits() <= q.prefix.Bits() && p.prefix.Contains(q.prefix.Addr())
	case p.isIP:
		return false
	case p.any:
		return true
	case q.any:
		return false
	case p.wildcard:
		return q.host != p.host && strings.HasSuffix(q.host, "."+p.host) || q.wildcard && q.host == p.host
	}
	return !q.wildcard && q.host == p.host
}

// List is a parsed allow-list.
type List []Pattern

// ParseList parses patterns (invalid_argument naming the first bad one).
func ParseList(raw []string) (List, error) {
	out := make(List, 0, len(raw))
	for _, r := range raw {
		p, err := ParsePattern(strings.TrimSpace(r))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Match reports whether some pattern allows scheme://host:port.
func (l List) Match(scheme, host string, port int) bool {
	for _, p := range l {
		if p.Match(scheme, host, port) {
			return true
		}
	}
	return false
}

// NamesAddr reports whether some pattern names addr:port by IP or CIDR.
func (l List) NamesAddr(addr netip.Addr, port int) bool {
	for _, p := range l {
		if p.NamesAddr(addr, port) {
			return true
		}
	}
	return false
}

// Within returns nil when every pattern of l is covered by one of the
// ceiling's, else invalid_argument naming the first that is not.
func (l List) Within(ceiling List) error {
	for _, q := range l {
		if !slices.ContainsFunc(ceiling, func(p Pattern) bool { return p.Covers(q) }) {
			return wasmexec.Errorf(wasmexec.EInvalid, "network.allow %q is beyond what this server allows (--network-allow)", q.Raw)
		}
	}
	return nil
}

func (p Pattern) String() string { return fmt.Sprint(p.Raw) }
