package engine_test

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
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/pipeline"
)

// MustNetRunner is a JavaScript runner whose ceiling is the loopback
// address on any port (tests' servers are there).
func MustNetRunner(tb testing.TB, cfg egress.Config) *pipeline.Pipeline {
	tb.Helper()
	if cfg.Allow == nil {
		cfg.Allow = []string{"127.0.0.1:*"}
	}
	e, err := egress.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return testenv.Runner(tb, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(tb, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
		PoolSize:  -1,
		Network:   e,
	})
}

func echoServer(tb testing.TB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big" { // larger than the guest's first buffer: taken in a second call
			w.Write([]byte(strings.Repeat("0123456789", 20000)))
			return
		}
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "path": r.URL.Path, "body": string(b), "auth": r.Header.Get("Authorization"), "type": r.Header.Get("Content-Type")})
	}))
	tb.Cleanup(srv.Close)
	return srv
}

func TestGuestFetch(t *testing.T) {
	srv := echoServer(t)
	r := MustNetRunner(t, egress.Config{})
	code := fmt.Sprintf(`
const r = await fetch(%q + "/a", {method: "POST", body: new Uint8Array([104, 105]), headers: {"X-A": "1"}});
const j = await r.json();
const t = await (await fetch(%q + "/b", {method: "PUT", body: "text"})).text();
const ab = await (await fetch(%q + "/big")).arrayBuffer();
let err = "";
try { await fetch("http://127.0.0.2:1/") } catch (e) { err = e.name + ": " + e.message }
[r.status, r.ok, r.headers.get("content-type"), j.method, j.body, JSON.parse(t).type, ab.byteLength, err]`, srv.URL, srv.URL, srv.URL)
	res := MustRun(t, r, wasmexec.Request{Code: code, Network: &wasmexec.Network{Allow: []string{srv.URL}}, Output: wasmexec.OutputOptions{RetainEvents: true}})
	if res.Outcome != wasmexec.Succeeded {
		t.Fatalf("%s: %+v", res.Outcome, res.Error)
	}
	var v []any
	json.Unmarshal(res.Value, &v)
	if len(v) != 8 || v[0] != 200.0 || v[1] != true || v[2] != "application/json" || v[3] != "POST" || v[4] != "hi" || v[5] != "text/plain;charset=UTF-8" || v[6] != 200000.0 ||
		!strings.HasPrefix(v[7].(string), "TypeError: fetch failed: ") || !strings.Contains(v[7].(string), "allow-list") {
		t.Fatalf("value %s", res.Value)
	}
	if len(res.Network) != 4 || res.Network[0].Method != "POST" || res.Network[0].Status != 200 || res.Network[3].Error == "" {
		t.Fatalf("network record %+v", res.Network)
	}
}

// An aborted signal rejects fetch with its reason and no request is
// made: aborted before the call, or after it but before the request's
// turn in the event loop. Aborted after the response, the body can't be
// read. Blob and URLSearchParams bodies go with their content types.
func TestGuestFetchAbort(t *testing.T) {
	srv := echoServer(t)
	r := MustNetRunner(t, egress.Config{})
	code := fmt.Sprintf(`const u = %q;
const why = (p) => p.then(() => "resolved", (e) => e instanceof DOMException ? e.name : String(e));
const before = await why(fetch(u, {signal: AbortSignal.abort()}));
const ac = new AbortController();
const p = fetch(u, {signal: ac.signal}); ac.abort("stop");
const after = await why(p);
const ac2 = new AbortController();
const res = await fetch(u + "/x", {signal: ac2.signal}); ac2.abort();
const body = await why(res.text());
const ok = await (await fetch(u, {signal: AbortSignal.timeout(5000)})).json();
const blob = await (await fetch(u, {method: "POST", body: new Blob(["b"], {type: "text/x"})})).json();
const form = await (await fetch(u, {method: "POST", body: new URLSearchParams({a: "1"})})).json();
[before, after, body, ok.method, blob.body, blob.type, form.body, form.type]`, srv.URL)
	res := MustRun(t, r, wasmexec.Request{Code: code, Network: &wasmexec.Network{Allow: []string{srv.URL}}})
	if res.Outcome != wasmexec.Succeeded {
		t.Fatalf("%s: %+v", res.Outcome, res.Error)
	}
	if want := `["AbortError","stop","AbortError","GET","b","text/x","a=1","application/x-www-form-urlencoded;charset=UTF-8"]`; string(res.Value) != want {
		t.Fatalf("value %s\nwant  %s", res.Value, want)
	}
	if len(res.Network) != 4 {
		t.Fatalf("%d requests made, want 4 (none for the aborted fetches): %+v", len(res.Network), res.Network)
	}
}

// Without network.allow a guest's fetch fails with the reason; a list
// beyond the ceiling is refused before the run.
func TestGuestFetchDenied(t *testing.T) {
	srv := echoServer(t)
	r := MustNetRunner(t, egress.Config{})
	res := MustRun(t, r, wasmexec.Request{Code: fmt.Sprintf(`let m; try { await fetch(%q) } catch (e) { m = e instanceof TypeError && e.message } m`, srv.URL)})
	if !strings.Contains(string(res.Value), "not enabled for this run") {
		t.Fatalf("value %s (%+v)", res.Value, res.Error)
	}
	_, err := r.Run(context.Background(), &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, Code: "1", Network: &wasmexec.Network{Allow: []string{"example.com"}}}, wasmexec.RunOptions{})
	if wasmexec.ErrorCode(err) != wasmexec.EInvalid || !strings.Contains(err.Error(), `"example.com"`) {
		t.Fatalf("beyond the ceiling: %v", err)
	}
}

// The guest sees a placeholder; the server its host was listed for sees
// the value; the record and the result never hold it.
func TestGuestSecret(t *testing.T) {
	const value = "tok-9f8e7d6c5b4a"
	api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+value {
			w.WriteHeader(401)
		}
		io.WriteString(w, "you sent "+r.Header.Get("Authorization"))
	}))
	defer api.Close()
	port := api.URL[strings.LastIndex(api.URL, ":")+1:]
	roots := api.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	r := MustNetRunner(t, egress.Config{Allow: []string{"example.com:*", "127.0.0.1:*"}, RootCAs: roots, Resolver: fixedDNS{"example.com": "127.0.0.1"}})
	res := MustRun(t, r, wasmexec.Request{
		Code:    fmt.Sprintf(`const r = await fetch("https://example.com:%s/", {headers: {Authorization: "Bearer " + process.env.API_TOKEN}}); [r.status, await r.text(), process.env.API_TOKEN]`, port),
		Network: &wasmexec.Network{Allow: []string{"example.com:" + port, "127.0.0.1:" + port}},
		Secrets: map[string]wasmexec.Secret{"API_TOKEN": {Value: value, Hosts: []string{"example.com:" + port}}},
		Output:  wasmexec.OutputOptions{RetainEvents: true},
	})
	ph := wasmexec.SecretPlaceholder("API_TOKEN")
	if want := fmt.Sprintf(`[200,"you sent Bearer %s","%s"]`, ph, ph); string(res.Value) != want {
		t.Fatalf("value %s, want %s (%+v)", res.Value, want, res.Error)
	}
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), value) || len(res.Network) != 1 || res.Network[0].Secrets[0] != "API_TOKEN" {
		t.Fatalf("result %s", b)
	}
}

// A server that trickles bytes forever: the run's deadline ends the fetch
// and the run (timed_out), a cancel likewise (cancelled).
func TestGuestFetchInterrupted(t *testing.T) {
	arrived := make(chan struct{}, 2)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
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
	}))
	defer slow.Close()
	r := MustNetRunner(t, egress.Config{})
	req := wasmexec.Request{Code: fmt.Sprintf(`await (await fetch(%q)).text()`, slow.URL), Network: &wasmexec.Network{Allow: []string{slow.URL}}, TimeoutMs: 500}
	res := MustRun(t, r, req)
	wantFailure(t, res, wasmexec.TimedOut, "")
	if len(res.Network) != 1 || !strings.Contains(res.Network[0].Error, "interrupted") {
		t.Fatalf("record %+v", res.Network)
	}

	<-arrived
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived // the guest's request is at the server
		cancel()
	}()
	req.TimeoutMs = 20000
	req.Kind, req.Language = wasmexec.KindEvaluate, wasmexec.JavaScript
	res, err := r.Run(ctx, &req, wasmexec.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantFailure(t, res, wasmexec.Cancelled, "")
}

// fixedDNS is egress's resolver seam: a name resolves to the test's address.
type fixedDNS map[string]string

func (f fixedDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}
