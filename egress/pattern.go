package egress

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/wasmexec/wasmexec/exec"
)

// Pattern is one allow-list entry:
//
//	api.example.com          the host, ports 80 and 443, http or https
//	api.example.com:8443     the host, that port
//	*.example.org            any subdomain of example.org (not example.org itself)
//	*                        any host (ports 80 and 443); "*:*" any port too
//	https://api.example.com  https only (port 443 unless one is given)
//	http://127.0.0.1:9000    an IP literal; [::1]:8080 for IPv6
//	10.0.0.0/8:5432          a CIDR block of IP addresses
//
// Host names are matched case-insensitively, without a trailing dot.
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
		return Pattern{}, exec.Errorf(exec.EInvalid, "network pattern %q: %s", raw, why)
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
		if a, err := netip.ParseAddr(host); err == nil {
			a = a.Unmap()
			p.prefix, p.isIP = netip.PrefixFrom(a, a.BitLen()), true
			break
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

// MatchHost reports whether the pattern allows scheme://host:port (host
// lower-case, an IP literal unbracketed).
func (p Pattern) Match(scheme, host string, port int) bool {
	if p.scheme != "" && p.scheme != scheme {
		return false
	}
	if !p.anyPort && !slices.Contains(p.ports, port) {
		return false
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		return p.any || (p.isIP && p.prefix.Contains(a.Unmap()))
	}
	switch {
	case p.any:
		return true
	case p.isIP:
		return false
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
	case p.any:
		return true
	case q.any:
		return false
	case p.isIP || q.isIP:
		return p.isIP && q.isIP && p.prefix.Bits() <= q.prefix.Bits() && p.prefix.Contains(q.prefix.Addr())
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
			return exec.Errorf(exec.EInvalid, "network.allow %q is beyond what this server allows (--network-allow)", q.Raw)
		}
	}
	return nil
}

func (p Pattern) String() string { return fmt.Sprint(p.Raw) }
