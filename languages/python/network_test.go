package python_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/python"
	"github.com/wasmexec/wasmexec/pipeline"
)

type fixedDNS map[string]string

func (f fixedDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

func MustNetRunner(tb testing.TB, cfg egress.Config) *pipeline.Pipeline {
	tb.Helper()
	e, err := egress.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return testenv.Runner(tb, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{python.ImageName: testenv.Image(tb, python.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.Python: python.Driver{}},
		Network:   e,
	})
}

// urllib and http.client work over the host's fetch: methods, bodies,
// headers, HTTP errors, redirects (each hop checked by the host), a
// response larger than the first buffer, refusals as URLError, HTTPS with
// a secret substituted for its host only.
func TestPythonNetwork(t *testing.T) {
	const value = "py-secret-123456"
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Echo", r.Header.Get("X-A"))
		fmt.Fprintf(w, "%s %s %s %s", r.Method, b, r.Header.Get("Content-Type"), r.Header.Get("Authorization"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("z", 300000)) })
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no such thing", 404) })
	mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/echo", http.StatusFound) })
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.2:1/", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	tls := httptest.NewTLSServer(mux)
	defer tls.Close()
	port := tls.URL[strings.LastIndex(tls.URL, ":")+1:]
	roots := tls.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	r := MustNetRunner(t, egress.Config{Allow: []string{"127.0.0.1:*", "example.com:*"}, RootCAs: roots, Resolver: fixedDNS{"example.com": "127.0.0.1"}})

	code := fmt.Sprintf(`
import urllib.request, urllib.error, http.client, os
base = %q
out = {}
out["get"] = urllib.request.urlopen(base + "/echo").read().decode()
req = urllib.request.Request(base + "/echo", data=b"k=v", headers={"X-A": "1"})
with urllib.request.urlopen(req) as resp:
    out["post"] = [resp.status, resp.headers["X-Echo"], resp.read().decode()]
out["big"] = len(urllib.request.urlopen(base + "/big").read())
out["redirect"] = urllib.request.urlopen(base + "/hop").geturl()
try:
    urllib.request.urlopen(base + "/missing")
except urllib.error.HTTPError as e:
    out["missing"] = [e.code, e.read().decode().strip()]
for name, url in [("refused", "http://127.0.0.3:8/"), ("away", base + "/away")]:
    try:
        urllib.request.urlopen(url)
    except urllib.error.URLError as e:
        out[name] = str(e.reason)
c = http.client.HTTPConnection(base[len("http://"):])
c.request("PUT", "/echo", body="body", headers={"Content-Type": "text/x"})
out["client"] = c.getresponse().read().decode()
s = http.client.HTTPSConnection("example.com", %s)
s.request("GET", "/echo", headers={"Authorization": "Bearer " + os.environ["TOKEN"]})
out["https"] = s.getresponse().read().decode()
out`, srv.URL, port)
	res := MustRun(t, r, wasmexec.Request{Code: code,
		Network: &wasmexec.Network{Allow: []string{srv.URL, "example.com:" + port, "127.0.0.1:" + port}},
		Secrets: map[string]wasmexec.Secret{"TOKEN": {Value: value, Hosts: []string{"example.com:" + port}}}})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	var out map[string]any
	if err := json.Unmarshal(res.Value, &out); err != nil {
		t.Fatal(err)
	}
	ph := wasmexec.SecretPlaceholder("TOKEN")
	want := map[string]any{
		"get":      "GET   ",
		"post":     []any{200.0, "1", "POST k=v application/x-www-form-urlencoded "},
		"big":      300000.0,
		"redirect": srv.URL + "/echo",
		"missing":  []any{404.0, "no such thing"},
		"client":   "PUT body text/x ",
		"https":    "GET   Bearer " + ph,
	}
	for k, v := range want {
		if fmt.Sprint(out[k]) != fmt.Sprint(v) {
			t.Errorf("%s = %#v, want %#v", k, out[k], v)
		}
	}
	if !strings.Contains(fmt.Sprint(out["refused"]), "allow-list") || !strings.Contains(fmt.Sprint(out["away"]), "allow-list") {
		t.Errorf("refusals: %q, %q", out["refused"], out["away"])
	}
	if b, _ := json.Marshal(res); strings.Contains(string(b), value) {
		t.Fatalf("the result holds the secret: %s", b)
	}
}

// The bundled requests works over the host's fetch too (patch_layer.py):
// JSON in and out, headers, status codes, cookies, sessions, and a refused
// host as requests' ConnectionError naming the reason.
func TestPythonRequests(t *testing.T) {
	testenv.BuiltDir(t, python.LayerImage, "site")
	mux := http.NewServeMux()
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		var in map[string]any
		json.NewDecoder(r.Body).Decode(&in)
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "abc"})
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"got": in, "method": r.Method, "ua": r.Header.Get("X-App")})
	})
	mux.HandleFunc("/cookie", func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Cookie("sid")
		if c != nil {
			io.WriteString(w, c.Value)
		}
	})
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", 410) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	r := MustNetRunner(t, egress.Config{Allow: []string{"127.0.0.1:*"}})
	code := fmt.Sprintf(`
import requests
base = %q
s = requests.Session()
j = s.post(base + "/json", json={"a": 1}, headers={"X-App": "t"}).json()
gone = s.get(base + "/gone")
try:
    requests.get("http://127.0.0.3:9/")
    refused = None
except requests.ConnectionError as e:
    refused = str(e)
[j, s.get(base + "/cookie").text, gone.status_code, gone.ok, refused]`, srv.URL)
	res := MustRun(t, r, wasmexec.Request{Code: code, Network: &wasmexec.Network{Allow: []string{srv.URL}}})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	var out []any
	if err := json.Unmarshal(res.Value, &out); err != nil || len(out) != 5 {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	if got := fmt.Sprint(out[:4]); got != "[map[got:map[a:1] method:POST ua:t] abc 410 false]" {
		t.Errorf("requests: %s", got)
	}
	if !strings.Contains(fmt.Sprint(out[4]), "allow-list") {
		t.Errorf("refused: %v", out[4])
	}
}

// The http.client replacement is reachable from user code; it must not
// lead to the driver's globals (which would let code answer for later
// requests), only to a namespace of its own.
func TestPythonNetworkIsolated(t *testing.T) {
	r := MustNetRunner(t, egress.Config{Allow: []string{"127.0.0.1:*"}})
	res := MustRun(t, r, wasmexec.Request{Code: `
import http.client, gc
leaks = []
for cls in (http.client.HTTPConnection, http.client.HTTPSConnection):
    for k, v in list(vars(cls).items()):
        g = getattr(v, "__globals__", None)
        if g is not None and ("_serve_one" in g or "_modules" in g):
            leaks.append(k)
        for cell in getattr(v, "__closure__", None) or ():
            c = cell.cell_contents
            if getattr(c, "__globals__", {}).get("_serve_one") is not None:
                leaks.append(k + " closure")
leaks`})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	if string(res.Value) != "[]" {
		t.Fatalf("driver globals reachable through: %s", res.Value)
	}
}
