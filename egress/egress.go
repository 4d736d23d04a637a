// Package egress is the network policy of guests: guests have
// no sockets; the host makes each HTTP(S) request on a guest's behalf, with
// Go's net/http, for the hosts the run's allow-list names.
//
// The rules, in the order a request meets them:
//
//   - A run's allow-list (network.allow) must lie within the operator's
//     ceiling (--network-allow; empty: no network for anyone): checked when
//     the request arrives, invalid_argument naming the pattern. An IP
//     literal or CIDR block is within it only by an IP pattern of the
//     ceiling: "*" and "*.example.org" are names, never addresses.
//   - Each request (and each redirect hop) must be http or https to a
//     scheme/host/port some pattern of the run's list allows; a host that
//     is an address (127.1 and 0x7f.0.0.1 included) only by an IP pattern.
//   - Host names are resolved by the host; every address a connection goes
//     to is checked after resolution (and again, by the dialer, on the
//     socket's own address): a loopback, private, link-local, CGNAT,
//     multicast, unspecified or other special-purpose address is refused
//     unless an IP literal or CIDR pattern of the run's list names it, and
//     one of the ceiling's too. So an allowed name that resolves (or
//     re-resolves) to 127.0.0.1 or 169.254.169.254 is refused.
//   - Secrets are substituted for their placeholders in request headers and
//     the URL query, only in requests to their hosts; their values are
//     replaced by the placeholders in everything returned to the guest and
//     in every record, in the encodings servers produce (scrub.go). A
//     redirect whose URL carries the value of a secret not allowed for its
//     host is refused.
//   - Caps: requests per run, response bytes per run, the request body,
//     response headers, redirects, requests in flight on the server.
//
// Each Session has its own transport: connections are never shared between
// runs, so a connection one run was allowed to open can't serve another.
//
// Size: patterns, the post-resolution address check, sessions with their caps
// and the scrubbing of secrets are one policy; each file is one of them.
package egress

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/net/idna"

	"github.com/wasmexec/wasmexec"
)

// Defaults of Config.
const (
	DefaultMaxRequests      = 256
	DefaultMaxResponseBytes = 16 << 20
	// MaxRequestBodyBytes caps one request's body.
	MaxRequestBodyBytes = 8 << 20
	// MaxResponseBytesLimit is the largest --network-max-response-bytes (a
	// response travels to a 32-bit guest in one piece).
	MaxResponseBytesLimit = 1 << 30
	// DefaultMaxConcurrent bounds requests in flight on the whole server.
	DefaultMaxConcurrent = 64
	// MaxRedirects bounds the redirect hops one fetch follows.
	MaxRedirects = 20
	// MaxHeaders bounds the headers of one request.
	MaxHeaders = 128
	// MaxResponseHeaderBytes bounds a response's headers.
	MaxResponseHeaderBytes = 64 << 10
	// maxRecordedURL is how much of a URL a record keeps.
	maxRecordedURL = 2048
	// maxMessageText bounds a URL or an error quoted in a message.
	maxMessageText = 4096
	// maxResponseMeta bounds a response's status text, URL (beyond its
	// length) and headers once scrubbed: a placeholder can be longer
	// than the value it replaces, so scrubbing can make them grow.
	maxResponseMeta = 2 * MaxResponseHeaderBytes
	// maxNesting bounds the percent-decodings a redirect's URL is looked
	// through for secret values (a URL in a parameter of a URL in a
	// parameter...); deeper, the redirect is refused.
	maxNesting = 8
)

// Resolver resolves host names (net.DefaultResolver; tests substitute
// their own to make a public-looking name resolve to 127.0.0.1).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Config is the operator's network settings.
type Config struct {
	// Allow is the ceiling (--network-allow): the patterns runs may ask
	// for. Empty: the network is off for everyone.
	Allow []string
	// MaxRequests per run (--network-max-requests), each redirect hop one.
	MaxRequests int
	// MaxResponseBytes per run, all response bodies together
	// (--network-max-response-bytes).
	MaxResponseBytes int64
	// MaxConcurrent requests in flight on the whole server.
	MaxConcurrent int
	// Resolver resolves names (nil: net.DefaultResolver).
	Resolver Resolver
	// RootCAs verifies servers (nil: the system's roots). Tests only.
	RootCAs *x509.CertPool
}

// Egress is the host side of guest networking: the ceiling and caps.
type Egress struct {
	cfg     Config
	ceiling List
	sem     chan struct{}
}

var _ wasmexec.NetworkCeiling = (*Egress)(nil)

// New validates cfg (invalid_argument for a bad pattern or cap).
func New(cfg Config) (*Egress, error) {
	ceiling, err := ParseList(cfg.Allow)
	if err != nil {
		return nil, err
	}
	if cfg.MaxRequests == 0 {
		cfg.MaxRequests = DefaultMaxRequests
	}
	if cfg.MaxResponseBytes == 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = DefaultMaxConcurrent
	}
	if cfg.MaxRequests < 0 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "--network-max-requests must be positive")
	}
	if cfg.MaxResponseBytes < 0 || cfg.MaxResponseBytes > MaxResponseBytesLimit {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "--network-max-response-bytes must be 1..%d", MaxResponseBytesLimit)
	}
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	return &Egress{cfg: cfg, ceiling: ceiling, sem: make(chan struct{}, cfg.MaxConcurrent)}, nil
}

// Enabled reports whether the ceiling allows anything.
func (e *Egress) Enabled() bool { return e != nil && len(e.ceiling) > 0 }

// Config returns the settings (defaults filled in).
func (e *Egress) Config() Config { return e.cfg }

// CheckNetwork implements wasmexec.NetworkCeiling.
func (e *Egress) CheckNetwork(n *wasmexec.Network, secrets map[string]wasmexec.Secret) error {
	if n != nil {
		l, err := ParseList(n.Allow)
		if err != nil {
			return err
		}
		if !e.Enabled() && len(l) > 0 {
			return wasmexec.Errorf(wasmexec.EInvalid, "network.allow %q: the network is disabled on this server (--network-allow is empty)", l[0].Raw)
		}
		if err := l.Within(e.ceiling); err != nil {
			return err
		}
	}
	for name, s := range secrets {
		if _, err := ParseList(s.Hosts); err != nil {
			return wasmexec.Errorf(wasmexec.EInvalid, "secrets.%s.hosts: %s", name, wasmexec.ErrorMessage(err))
		}
	}
	return nil
}

// secret is one secret of a session, its hosts parsed.
type secret struct {
	name, value, placeholder string
	hosts                    List
}

// Session is one run's use of the network: its allow-list, secrets,
// counters and record. Do is called by one goroutine at a time (the
// guest's); Records may be called from others.
type Session struct {
	e       *Egress
	allow   List
	secrets []secret
	// sc finds the secrets' values; built at the first use (a run's
	// secrets are often never used), by Do's goroutine.
	sc        *scrubber
	repl      [][]byte // the placeholders, as sc numbers the secrets
	transport *http.Transport
	// OnRecord, when set, is told of each request as it completes (the
	// run's retained output gets a network event).
	OnRecord func(wasmexec.NetworkRequest)

	mu        sync.Mutex
	records   []wasmexec.NetworkRequest
	requests  int
	respBytes int64

	// Pending is the engine's: a response too large for the guest's
	// buffer, kept until the guest takes it.
	Pending []byte
}

// NewSession starts a run's session; n and secrets were checked by
// CheckNetwork. A run without network gets a session that refuses every
// request, saying why.
func (e *Egress) NewSession(n *wasmexec.Network, secrets map[string]wasmexec.Secret) (*Session, error) {
	s := &Session{e: e}
	if n != nil {
		l, err := ParseList(n.Allow)
		if err != nil {
			return nil, err
		}
		s.allow = l
	}
	names := make([]string, 0, len(secrets))
	for name := range secrets {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		sec := secrets[name]
		hosts, err := ParseList(sec.Hosts)
		if err != nil {
			return nil, err
		}
		for i := range hosts {
			if hosts[i].scheme == "" {
				hosts[i].scheme = "https" // never in clear text unless the pattern says http://
			}
		}
		s.secrets = append(s.secrets, secret{name: name, value: sec.Value, placeholder: wasmexec.SecretPlaceholder(name), hosts: hosts})
	}
	if e != nil && len(s.allow) > 0 {
		s.transport = e.newTransport(s.allow)
	}
	return s, nil
}

// Close drops the session's idle connections.
func (s *Session) Close() {
	if s.transport != nil {
		s.transport.CloseIdleConnections()
	}
}

// Records returns the requests made so far.
func (s *Session) Records() []wasmexec.NetworkRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.records)
}

func (e *Egress) newTransport(allow List) *http.Transport {
	dialer := &net.Dialer{
		Timeout: 30 * time.Second,
		// The last word: the address the socket connects to, whatever
		// resolved it.
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("egress: unexpected address %q", address)
			}
			if !e.addrAllowed(allow, ap.Addr(), int(ap.Port())) {
				return fmt.Errorf("%s is a private or special-purpose address the allow-list does not name", ap.Addr())
			}
			return nil
		},
	}
	dial := func(ctx context.Context, network, address string) (net.Conn, error) {
		host, portStr, err := net.SplitHostPort(address)
		if err != nil {
			return nil, err
		}
		port, _ := strconv.Atoi(portStr)
		var addrs []netip.Addr
		a, literal, err := hostAddr(host)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%s: %w", host, err)
		case literal:
			// 127.1 is 127.0.0.1 here as in Match, not a name for DNS.
			addrs = []netip.Addr{a}
		default:
			addrs, err = e.cfg.Resolver.LookupNetIP(ctx, "ip", host)
			if err != nil {
				return nil, fmt.Errorf("resolve %s: %w", host, err)
			}
		}
		var refused []string
		var lastErr error
		for _, a := range addrs {
			a = a.Unmap()
			if !e.addrAllowed(allow, a, port) {
				refused = append(refused, a.String())
				continue
			}
			c, err := dialer.DialContext(ctx, network, netip.AddrPortFrom(a, uint16(port)).String())
			if err == nil {
				return c, nil
			}
			lastErr = err
		}
		if lastErr != nil {
			return nil, lastErr
		}
		switch {
		case len(refused) > 0 && literal:
			return nil, fmt.Errorf("%s is a private or special-purpose address the allow-list does not name", refused[0])
		case len(refused) > 0:
			return nil, fmt.Errorf("%s resolves to %s: a private or special-purpose address the allow-list does not name", host, strings.Join(refused, ", "))
		}
		return nil, fmt.Errorf("%s has no addresses", host)
	}
	return &http.Transport{
		Proxy:                  nil, // never the host's HTTP_PROXY
		DialContext:            dial,
		TLSClientConfig:        &tls.Config{RootCAs: e.cfg.RootCAs, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:      true,
		MaxResponseHeaderBytes: MaxResponseHeaderBytes,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        30 * time.Second,
		TLSHandshakeTimeout:    15 * time.Second,
	}
}

// addrAllowed: a public address, or one the run's allow-list names by IP
// and the ceiling too. The run's list was checked against the ceiling when
// the run was accepted; the ceiling is asked again here so that no path to
// a session (a stored context's list, a future caller skipping
// CheckNetwork) can open a private address the operator did not name.
func (e *Egress) addrAllowed(allow List, a netip.Addr, port int) bool {
	return Public(a) || allow.NamesAddr(a, port) && e.ceiling.NamesAddr(a, port)
}

// specialV4 are the IPv4 blocks that are not globally reachable unicast
// beyond what netip's predicates catch (loopback, RFC 1918, link-local,
// multicast, unspecified).
var specialV4 = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // CGNAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("192.88.99.0/24"), // 6to4 relay anycast
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"), // and 255.255.255.255
}

// IPv6 is public only inside global unicast, and not in one of
// specialV6; the one exception outside it is nat64, judged by the IPv4
// address it embeds.
var (
	globalUnicast = netip.MustParsePrefix("2000::/3")
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
)

// specialV6 are the blocks of 2000::/3 that are not public. Everything
// outside 2000::/3 is refused already: ::/96 IPv4-compatible (and ::,
// ::1), ::ffff:0:0/96 IPv4-mapped, ::ffff:0:0:0/96 SIIT, 64:ff9b:1::/48
// local-use NAT64 (an operator's own translator, in front of anything),
// 100::/64 discard, fc00::/7 ULA, fe80::/10 link-local, fec0::/10
// site-local, ff00::/8 multicast.
var specialV6 = []netip.Prefix{
	// IETF protocol assignments, Teredo (2001::/32: an IPv4 server and
	// client embedded, obfuscated) and benchmarking among them.
	netip.MustParsePrefix("2001::/23"),
	netip.MustParsePrefix("2001:db8::/32"), // documentation
	// 6to4: an IPv4 address embedded, reached through relays anyone may
	// run; deprecated (RFC 7526), so refused whatever it embeds.
	netip.MustParsePrefix("2002::/16"),
	netip.MustParsePrefix("3fff::/20"), // documentation
}

// Public reports whether a is a globally routable unicast address: not
// loopback (127/8, ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7),
// link-local (169.254/16 with the cloud metadata address, fe80::/10),
// CGNAT, multicast, unspecified, documentation or another special block.
// An IPv6 address embedding an IPv4 one is public only in the well-known
// NAT64 prefix 64:ff9b::/96, with a public IPv4 address (what DNS64 gives
// for every IPv4-only site on an IPv6-only host); IPv4-mapped addresses
// are their IPv4 address.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	// A zone only scopes link-local addresses, which are refused anyway.
	if !a.IsValid() || a.Zone() != "" || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	if a.Is6() {
		if nat64.Contains(a) {
			b := a.As16()
			return Public(netip.AddrFrom4([4]byte(b[12:])))
		}
		if !globalUnicast.Contains(a) {
			return false
		}
		for _, p := range specialV6 {
			if p.Contains(a) {
				return false
			}
		}
		return true
	}
	for _, p := range specialV4 {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// Request is a guest's request.
type Request struct {
	Method  string      `json:"method"`
	URL     string      `json:"url"`
	Headers [][2]string `json:"headers"`
	// Redirect is follow (default), manual (return the 3xx) or error.
	Redirect string `json:"redirect"`
	Body     []byte `json:"-"`
}

// Response is what the guest gets back: a response, or Error.
type Response struct {
	Status     int         `json:"status,omitempty"`
	StatusText string      `json:"statusText,omitempty"`
	URL        string      `json:"url,omitempty"`
	Redirected bool        `json:"redirected,omitempty"`
	Headers    [][2]string `json:"headers,omitempty"`
	Body       []byte      `json:"-"`
	// Error says why the request failed (the guest's TypeError/URLError).
	Error string `json:"error,omitempty"`
}

// ErrInterrupted is returned by Do when the run's ctx ended (deadline,
// cancel, context reset or delete) during the request.
var ErrInterrupted = errors.New("egress: the run ended during the request")

func fail(format string, args ...any) *Response {
	return &Response{Error: fmt.Sprintf(format, args...)}
}

// forbiddenMethods are refused, as by fetch.
var forbiddenMethods = map[string]bool{"CONNECT": true, "TRACE": true, "TRACK": true}

// droppedHeaders are set by the transport, never by the guest.
var droppedHeaders = map[string]bool{
	"Host": true, "Content-Length": true, "Transfer-Encoding": true, "Connection": true, "Keep-Alive": true,
	"Upgrade": true, "Te": true, "Trailer": true, "Proxy-Authorization": true, "Proxy-Connection": true,
}

// Do performs req (following redirects per req.Redirect), each hop checked
// and recorded. A refusal or failure is a Response with Error; the error
// is ErrInterrupted, only when ctx ended.
func (s *Session) Do(ctx context.Context, req Request) (*Response, error) {
	if len(s.allow) == 0 {
		return fail("network access is not enabled for this run (network.allow is empty)"), nil
	}
	if int64(len(req.Body)) > MaxRequestBodyBytes {
		return fail("the request body is %d bytes; at most %d", len(req.Body), MaxRequestBodyBytes), nil
	}
	method := strings.ToUpper(req.Method)
	if method == "" {
		method = http.MethodGet
	}
	if !validToken(method) || forbiddenMethods[method] {
		return fail("method %q is not allowed", req.Method), nil
	}
	if len(req.Headers) > MaxHeaders {
		return fail("%d request headers; at most %d", len(req.Headers), MaxHeaders), nil
	}
	header := http.Header{}
	for _, h := range req.Headers {
		if !validToken(h[0]) || strings.ContainsAny(h[1], "\r\n\x00") {
			return fail("invalid request header %q", s.scrub(h[0])), nil
		}
		k := http.CanonicalHeaderKey(h[0])
		if droppedHeaders[k] || strings.HasPrefix(k, "Proxy-") {
			continue
		}
		header.Add(k, h[1])
	}
	switch req.Redirect {
	case "", "follow", "manual", "error":
	default:
		return fail("redirect must be follow, manual or error"), nil
	}
	u, err := url.Parse(req.URL)
	if err != nil {
		return fail("invalid URL: %s", s.scrub(err.Error())), nil
	}
	body := req.Body
	for hop := 0; ; hop++ {
		resp, next, err := s.hop(ctx, method, u, header, body, hop > 0)
		if err != nil || resp.Error != "" || next == nil {
			if resp != nil && hop > 0 {
				resp.Redirected = true
			}
			return resp, err
		}
		switch req.Redirect {
		case "manual":
			return resp, nil
		case "error":
			shown, _ := s.shownURL(next, 0)
			return fail("redirected to %s (redirect: error)", s.scrub(shown)), nil
		}
		if hop+1 > MaxRedirects {
			return fail("more than %d redirects", MaxRedirects), nil
		}
		// fetch's rules: 303 (and 301/302 after a POST) become a GET
		// without a body; 307/308 repeat the request.
		if resp.Status == http.StatusSeeOther && method != http.MethodHead || (resp.Status == 301 || resp.Status == 302) && method == http.MethodPost {
			method, body = http.MethodGet, nil
			for _, k := range []string{"Content-Type", "Content-Encoding", "Content-Language", "Content-Location"} {
				header.Del(k)
			}
		}
		u = next
	}
}

// hop makes one request; redirected when u came from a server's
// Location. next is the redirect target when the response is a redirect
// with a Location.
func (s *Session) hop(ctx context.Context, method string, u *url.URL, header http.Header, body []byte, redirected bool) (*Response, *url.URL, error) {
	// Every attempt counts, refused ones too: the record stays bounded.
	s.mu.Lock()
	if s.requests >= s.e.cfg.MaxRequests {
		s.mu.Unlock()
		return fail("the run made its %d requests (the server's --network-max-requests)", s.e.cfg.MaxRequests), nil, nil
	}
	s.requests++
	room := s.e.cfg.MaxResponseBytes - s.respBytes
	s.mu.Unlock()

	start := time.Now()
	rec := wasmexec.NetworkRequest{Method: method, URL: s.recordURL(u)}
	finish := func(r *Response) *Response {
		// A refusal may name the host or scheme of a server's Location.
		r.Error = s.scrub(r.Error)
		rec.Error = r.Error
		rec.Ms = time.Since(start).Milliseconds()
		s.record(rec)
		return r
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return finish(fail("scheme %q is not allowed (http and https only)", u.Scheme)), nil, nil
	}
	if u.User != nil {
		return finish(fail("URLs with credentials are not supported; use an Authorization header")), nil, nil
	}
	out := u // the URL requested: u with the host net/http would dial
	host := u.Hostname()
	if !isASCII(host) {
		// net/http dials the IDNA form of a host (full-width digits
		// become an IPv4 address): check the one it dials.
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return finish(fail("invalid host %q: %s", s.scrub(host), err)), nil, nil
		}
		c := *u
		c.Host = a
		if p := u.Port(); p != "" {
			c.Host = net.JoinHostPort(a, p)
		}
		host, out = a, &c
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return finish(fail("the URL has no host")), nil, nil
	}
	port := 80
	if u.Scheme == "https" {
		port = 443
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return finish(fail("invalid port %q", p)), nil, nil
		}
		port = n
	}
	if !s.allow.Match(u.Scheme, host, port) {
		why := ""
		if _, isIP, _ := hostAddr(host); isIP {
			why = ` (an address needs an IP literal or CIDR pattern: "*" is any host name)`
		}
		return finish(fail("%s://%s is not in the run's network allow-list%s", u.Scheme, net.JoinHostPort(host, strconv.Itoa(port)), why)), nil, nil
	}
	// A server's Location may hand on a value it was sent (a login page's
	// return URL holding the request's URL, an open redirect): the hop
	// must not take it to a host the secret isn't for. The guest's own
	// URL and headers hold placeholders only.
	if redirected {
		msg := s.carried(u, host, port)
		if msg == "" && out != u { // the host as dialled (IDNA) too
			msg = s.carried(out, host, port)
		}
		if msg != "" {
			rec.URL = s.scrub(fmt.Sprintf("%s://%s/… (withheld: %s)", u.Scheme, u.Host, msg))
			return finish(fail("redirect to %s://%s refused: %s", u.Scheme, net.JoinHostPort(host, strconv.Itoa(port)), msg)), nil, nil
		}
	}
	// Secrets go only to their hosts, the guest's placeholders elsewhere.
	h := header.Clone()
	for _, sec := range s.secrets {
		if !sec.hosts.Match(u.Scheme, host, port) {
			continue
		}
		used := false
		for k, vs := range h {
			for i, v := range vs {
				if strings.Contains(v, sec.placeholder) {
					h[k][i], used = strings.ReplaceAll(v, sec.placeholder, sec.value), true
				}
			}
		}
		if strings.Contains(out.RawQuery, sec.placeholder) {
			c := *out
			c.RawQuery = strings.ReplaceAll(c.RawQuery, sec.placeholder, url.QueryEscape(sec.value))
			out, used = &c, true
		}
		if used {
			rec.Secrets = append(rec.Secrets, sec.name)
		}
	}
	sort.Strings(rec.Secrets)

	select {
	case s.e.sem <- struct{}{}:
		defer func() { <-s.e.sem }()
	case <-ctx.Done():
		finish(&Response{Error: "interrupted: the run ended"})
		return nil, nil, ErrInterrupted
	}
	hr, err := http.NewRequestWithContext(ctx, method, out.String(), bytes.NewReader(body))
	if err != nil {
		return finish(fail("invalid request: %s", s.scrub(err.Error()))), nil, nil
	}
	if body == nil {
		hr.Body, hr.ContentLength = http.NoBody, 0
	}
	hr.Header = h
	if hr.Header.Get("User-Agent") == "" {
		hr.Header.Set("User-Agent", "wasmexec-guest")
	}
	resp, err := s.transport.RoundTrip(hr)
	if err != nil {
		if ctx.Err() != nil {
			finish(&Response{Error: "interrupted: the run ended"})
			return nil, nil, ErrInterrupted
		}
		return finish(fail("request to %s failed: %s", s.scrub(rec.URL), s.scrub(err.Error()))), nil, nil
	}
	defer resp.Body.Close()
	rec.Status = resp.StatusCode
	data, err := io.ReadAll(io.LimitReader(resp.Body, room+1))
	rec.Bytes = int64(len(data))
	s.mu.Lock()
	s.respBytes += int64(len(data))
	s.mu.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			finish(&Response{Error: "interrupted: the run ended"})
			return nil, nil, ErrInterrupted
		}
		return finish(fail("reading the response of %s failed: %s", s.scrub(rec.URL), s.scrub(err.Error()))), nil, nil
	}
	if int64(len(data)) > room {
		return finish(fail("the response of %s is over the run's response budget (%d bytes in all, the server's --network-max-response-bytes)", s.scrub(rec.URL), s.e.cfg.MaxResponseBytes)), nil, nil
	}
	// What is scrubbed is capped before it is written: the body by what
	// is left of the budget, the rest together by maxResponseMeta.
	body, cut, err := s.scrubBytes(data, int(room))
	switch {
	case err != nil:
		return finish(fail("the response of %s could not be checked for secret values: %s", s.scrub(rec.URL), err)), nil, nil
	case cut:
		return finish(fail("the response of %s is over the run's response budget once secret values are replaced by their placeholders (%d bytes in all, the server's --network-max-response-bytes)", s.scrub(rec.URL), s.e.cfg.MaxResponseBytes)), nil, nil
	}
	if err := s.deepError(body); err != nil {
		return finish(fail("the response of %s was refused: %s", s.scrub(rec.URL), err)), nil, nil
	}
	if extra := int64(len(body) - len(data)); extra > 0 {
		s.mu.Lock()
		s.respBytes += extra
		s.mu.Unlock()
	}
	meta, metaErr := len(u.String())+maxResponseMeta, error(nil)
	field := func(v string) string {
		out, cut, err := s.scrubBytes([]byte(v), meta)
		if err == nil && cut {
			err = fmt.Errorf("its status line, URL and headers grow by over %d bytes once secret values are replaced by their placeholders", maxResponseMeta)
		}
		if err == nil {
			err = s.deepError(out)
		}
		metaErr = cmp.Or(metaErr, err)
		meta -= len(out)
		return string(out)
	}
	r := &Response{Status: resp.StatusCode, StatusText: field(strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))), URL: field(u.String()), Body: body}
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := field(strings.ToLower(k))
		for _, v := range resp.Header[k] {
			r.Headers = append(r.Headers, [2]string{name, field(v)})
		}
	}
	if metaErr != nil {
		return finish(fail("the response of %s was refused: %s", s.scrub(rec.URL), metaErr)), nil, nil
	}
	var next *url.URL
	if loc := resp.Header.Get("Location"); loc != "" && isRedirect(resp.StatusCode) {
		// Not scrubbed: the next hop goes where the server said, checked
		// for values it must not carry (above, on that hop).
		if n, err := u.Parse(loc); err == nil {
			next = n
		} else {
			return finish(fail("redirect to an invalid URL: %s", s.scrub(err.Error()))), nil, nil
		}
	}
	return finish(r), next, nil
}

func isRedirect(code int) bool {
	switch code {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

func (s *Session) record(r wasmexec.NetworkRequest) {
	s.mu.Lock()
	s.records = append(s.records, r)
	on := s.OnRecord
	s.mu.Unlock()
	if on != nil {
		on(r)
	}
}

// recordURL is the URL as a record keeps it: the guest's (placeholders,
// not values) or a server's Location, scrubbed, cut to maxRecordedURL
// bytes as it is scrubbed.
func (s *Session) recordURL(u *url.URL) string {
	if u.User != nil { // never recorded (and refused)
		c := *u
		c.User = nil
		u = &c
	}
	return s.scrubCut(u.String(), maxRecordedURL)
}

// scrubber returns the matcher of the secrets' values, nil when none.
func (s *Session) scrubber() *scrubber {
	if s.sc == nil && len(s.secrets) > 0 {
		values := make([]string, len(s.secrets))
		s.repl = make([][]byte, len(s.secrets))
		for i, sec := range s.secrets {
			values[i], s.repl[i] = sec.value, []byte(sec.placeholder)
		}
		s.sc = newScrubber(values)
	}
	return s.sc
}

// scrubBytes returns b with every secret value, in every form the
// scrubber knows, replaced by its placeholder, written up to limit bytes
// (cut: more would have been). b itself when there are no secrets.
func (s *Session) scrubBytes(b []byte, limit int) (out []byte, cut bool, err error) {
	sc := s.scrubber()
	if sc == nil {
		if len(b) > limit {
			return b[:limit], true, nil
		}
		return b, false, nil
	}
	out, cut, _, err = sc.scrub(make([]byte, 0, min(len(b), limit)), b, s.repl, limit)
	return out, cut, err
}

// scrub is v scrubbed for a message, cut to maxMessageText bytes.
func (s *Session) scrub(v string) string { return s.scrubCut(v, maxMessageText) }

func (s *Session) scrubCut(v string, limit int) string {
	out, cut, err := s.scrubBytes([]byte(v), limit)
	switch {
	case err != nil:
		return "(withheld: " + err.Error() + ")"
	case cut:
		return string(out) + "…"
	}
	return string(out)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// carried says why the hop to u, a server's Location, is refused, or "":
// its URL carries the value of a secret not allowed for
// scheme://host:port, however encoded, or it can't be shown scrubbed
// (shownURL).
func (s *Session) carried(u *url.URL, host string, port int) string {
	if len(s.secrets) == 0 {
		return ""
	}
	var disallowed uint64
	for i, sec := range s.secrets {
		if !sec.hosts.Match(u.Scheme, host, port) {
			disallowed |= 1 << i
		}
	}
	raw := []byte(u.String())
	found, err := s.scrubber().detect(raw)
	if err != nil {
		return "its URL could not be checked for secret values: " + err.Error()
	}
	if found&disallowed == 0 {
		_, why := s.shownURL(u, disallowed)
		return why
	}
	what, is := s.secretNames(found & disallowed)
	return fmt.Sprintf("its URL carries %s, which %s not allowed for that host", what, is)
}

// shownURL is u as the guest and the record may see it: scrubbed, as long
// as that leaves no value in it (deepValues) and it is nested at most
// maxNesting levels deep. why says why not; it names disallowed secrets
// as not allowed for u's host.
func (s *Session) shownURL(u *url.URL, disallowed uint64) (shown, why string) {
	if len(s.secrets) == 0 {
		return u.String(), ""
	}
	raw := []byte(u.String())
	text, cut, err := s.scrubBytes(raw, len(raw)+maxResponseMeta)
	var found uint64
	var deeper bool
	if err == nil && !cut {
		found, deeper, err = s.deepValues(text)
	}
	switch {
	case err != nil:
		why = "its URL could not be checked for secret values: " + err.Error()
	case cut:
		why = "its URL is too long once secret values are replaced by their placeholders"
	case found&disallowed != 0:
		what, is := s.secretNames(found & disallowed)
		why = fmt.Sprintf("its URL carries %s, which %s not allowed for that host", what, is)
	case found != 0:
		what, _ := s.secretNames(found)
		why = fmt.Sprintf("its URL carries %s encoded more deeply than it can be hidden from the guest", what)
	case deeper:
		why = fmt.Sprintf("its URL is percent-encoded more than %d levels deep, too deep to check for secret values", maxNesting)
	default:
		return string(text), ""
	}
	return s.scrub(fmt.Sprintf("%s://%s/… (withheld: %s)", u.Scheme, u.Host, why)), why
}

// deepValues reports the secrets whose values scrubbed text still holds,
// percent-encoded more deeply than the scrubber reads (a return URL in a
// return URL...): the text is decoded again and again, each time looked
// at (reading up to two levels more), until that changes nothing or
// maxNesting times (deeper: it still changed). Only text holding an
// escaped '%' ("%25") can hide one; other text costs nothing.
func (s *Session) deepValues(text []byte) (found uint64, deeper bool, err error) {
	if s.scrubber() == nil || !bytes.Contains(text, []byte("%25")) {
		return 0, false, nil
	}
	for range maxNesting {
		next := percentDecode(text)
		if bytes.Equal(next, text) {
			return found, false, nil
		}
		text = next
		if found, err = s.sc.detect(text); err != nil || found != 0 {
			return found, false, err
		}
	}
	return 0, !bytes.Equal(percentDecode(text), text), nil
}

// deepError says why scrubbed text can't be shown: it holds a value
// nested more deeply than the scrubber reads, or is nested too deep to
// tell (deepValues).
func (s *Session) deepError(text []byte) error {
	found, deeper, err := s.deepValues(text)
	switch {
	case err != nil:
		return err
	case found != 0:
		what, _ := s.secretNames(found)
		return fmt.Errorf("it carries %s encoded more deeply than it can be hidden from the guest", what)
	case deeper:
		return fmt.Errorf("it is percent-encoded more than %d levels deep, too deep to check for secret values", maxNesting)
	}
	return nil
}

// secretNames names the secrets of mask: "the value of secret A" or "the
// values of secrets A, B", and the verb that goes with it.
func (s *Session) secretNames(mask uint64) (string, string) {
	var n []string
	for i, sec := range s.secrets {
		if mask&(1<<i) != 0 {
			n = append(n, sec.name)
		}
	}
	if len(n) == 1 {
		return "the value of secret " + n[0], "is"
	}
	return "the values of secrets " + strings.Join(n, ", "), "are"
}

// validToken reports whether s is an HTTP token (method, header name).
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}

type sessionKey struct{}

// NewContext returns ctx carrying s (the run's session, for the engine's
// host function).
func NewContext(ctx context.Context, s *Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// FromContext returns the session in ctx, or nil.
func FromContext(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}
