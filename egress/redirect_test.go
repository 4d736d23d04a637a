package egress_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
)

// A redirect to a host the secret is not allowed for is refused when its
// URL carries the value, however encoded; that host is never reached.
func TestRedirectCarryingSecret(t *testing.T) {
	var hits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "other")
	}))
	defer other.Close()
	nested := func(n int) encoding {
		return encoding{name: fmt.Sprintf("query %d times", n), url: true, enc: func(v string) string {
			for range n {
				v = url.QueryEscape(v)
			}
			return v
		}}
	}
	cases := []encoding{nested(3), nested(4), nested(5), nested(12)}
	for _, e := range encodings {
		if e.url {
			cases = append(cases, e)
		}
	}
	base, _ := reflector(t, cases, other.URL+"/x")
	for _, e := range cases {
		t.Run(e.name, func(t *testing.T) {
			s, ph := secretSession(t, base, other.URL)
			hits.Store(0)
			r := MustDo(t, s, egress.Request{URL: base + "/?enc=" + url.QueryEscape(e.name) + "&place=redirect+elsewhere&key=" + ph})
			if hits.Load() != 0 {
				t.Fatalf("the other host was reached: %+v", r)
			}
			switch e.name {
			case "query 4 times", "query 5 times":
				// Deeper than the scrubber reads: the response carrying it
				// is refused before its Location is looked at.
				wantRefused(t, r, "carries the value of secret TOKEN encoded more deeply than it can be hidden")
			case "query 12 times":
				wantRefused(t, r, "more than 8 levels deep")
			default:
				wantRefused(t, r, "carries the value of secret TOKEN, which is not allowed for that host")
			}
			if l := leaked(visible(r, s), needles(e, leaky)); l != "" {
				t.Fatalf("the secret came back: %s", l)
			}
		})
	}
	// To the host the secret is for, a value nested more deeply than the
	// scrubber reads would reach the guest in the final URL: refused too.
	// Nor does the guest get it in a response it follows itself.
	for _, n := range []int{4, 5} {
		for _, redirect := range []string{"follow", "manual"} {
			t.Run(fmt.Sprintf("to its own host, query %d times, %s", n, redirect), func(t *testing.T) {
				s, ph := secretSession(t, base, other.URL)
				r := MustDo(t, s, egress.Request{URL: base + "/?enc=" + url.QueryEscape(nested(n).name) + "&place=location&key=" + ph, Redirect: redirect})
				wantRefused(t, r, "encoded more deeply than it can be hidden")
				if l := leaked(visible(r, s), needles(nested(n), leaky)); l != "" {
					t.Fatalf("the secret came back: %s", l)
				}
			})
		}
	}
	// Without the value, the same redirect is followed.
	s, _ := secretSession(t, base, other.URL)
	r := MustDo(t, s, egress.Request{URL: base + "/?enc=raw&place=redirect+elsewhere&key=nothing"})
	if r.Error != "" || string(r.Body) != "other" {
		t.Fatalf("redirect without the secret: %+v %q", r, r.Body)
	}
}

// countingDNS resolves nothing and counts the names it was asked for.
type countingDNS struct{ asked atomic.Int64 }

func (c *countingDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	c.asked.Add(1)
	return nil, fmt.Errorf("no such host %s", host)
}

// A redirect to a host name that holds the value (an exfiltration by
// DNS) is refused before any lookup, and the refusal doesn't quote it.
func TestRedirectToHostHoldingSecret(t *testing.T) {
	const value = "s3cr3tvalue42"
	for _, tc := range []struct{ name, allow, location, want string }{
		{"not in the allow-list", "", "http://" + value + ".elsewhere.test/", "allow-list"},
		{"in the allow-list, not the secret's", "*.elsewhere.test:*", "http://" + value + ".elsewhere.test/", "not allowed for that host"},
		{"upper case", "*.elsewhere.test:*", "http://" + strings.ToUpper(value) + ".elsewhere.test/", "not allowed for that host"},
		// Full-width letters and digits: the value only in the host as
		// dialled (IDNA maps them to ASCII).
		{"full width", "*.elsewhere.test:*", "http://ｓ３ｃｒ３ｔｖａｌｕｅ４２.elsewhere.test/", "not allowed for that host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var location string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", location)
				w.WriteHeader(http.StatusFound)
			}))
			defer srv.Close()
			location = tc.location
			dns := &countingDNS{}
			e := MustEgress(t, egress.Config{Allow: []string{"127.0.0.1:*", "*.elsewhere.test:*"}, Resolver: dns})
			allow := []string{srv.URL}
			if tc.allow != "" {
				allow = append(allow, tc.allow)
			}
			s := MustSession(t, e, allow, map[string]wasmexec.Secret{"TOKEN": {Value: value, Hosts: []string{srv.URL}}})
			r := MustDo(t, s, egress.Request{URL: srv.URL + "/?k=" + wasmexec.SecretPlaceholder("TOKEN")})
			wantRefused(t, r, tc.want)
			if l := leaked(visible(r, s), []string{value}); l != "" {
				t.Fatalf("the secret came back: %s", l)
			}
			if n := dns.asked.Load(); n != 0 {
				t.Fatalf("%d DNS lookups", n)
			}
		})
	}
}
