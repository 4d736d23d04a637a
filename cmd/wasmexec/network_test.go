package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The real binary: a network beyond --network-allow is a 400 naming the
// pattern; an allowed fetch is in the stored record and the retained
// output as a network event; a secret's value reaches its host and
// nothing else: not the result, the record, the events or the log.
func TestServeNetwork(t *testing.T) {
	const value = "SeCrEt-0123456789"
	var seen string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Get("Authorization")
		io.WriteString(w, "echo "+seen)
	}))
	defer srv.Close()
	p := MustServe(t, t.TempDir(), "--network-allow", "127.0.0.1:*", "--network-max-requests", "5")

	status, e := p.do(t, "POST", "/v1/evaluate", `{"language":"javascript","code":"1","network":{"allow":["api.example.com"]}}`)
	if status != 400 || e["code"] != "invalid_argument" || !strings.Contains(e["message"].(string), `"api.example.com"`) {
		t.Fatalf("beyond the ceiling: %d %v", status, e)
	}

	body, _ := json.Marshal(map[string]any{
		"language": "javascript", "output": map[string]any{"retainEvents": true},
		"code":    fmt.Sprintf(`console.log("before"); const r = await fetch(%q, {headers: {Authorization: "Bearer " + process.env.TOKEN}}); await r.text()`, srv.URL+"/x"),
		"network": map[string]any{"allow": []string{srv.URL}},
		"secrets": map[string]any{"TOKEN": map[string]any{"value": value, "hosts": []string{srv.URL}}},
	})
	status, res := p.do(t, "POST", "/v1/evaluate", string(body))
	if status != 200 || res["value"] != "echo Bearer wasmexec-secret-TOKEN" || seen != "Bearer "+value {
		t.Fatalf("evaluate: %d %v (server saw %q)", status, res, seen)
	}
	id := res["executionId"].(string)
	for _, path := range []string{"/v1/executions/" + id, "/v1/executions/" + id + "/output"} {
		resp, err := http.Get(p.base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || strings.Contains(string(b), value) {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
		}
		want := `"network":[{"method":"GET","url":"` + srv.URL + `/x","status":200,"bytes":29`
		if strings.HasSuffix(path, "/output") {
			want = `"channel":"network","chunk":"{\"method\":\"GET\",\"url\":\"` + srv.URL + `/x\",\"status\":200`
		}
		if !strings.Contains(string(b), want) {
			t.Fatalf("%s: %s\nwant %s", path, b, want)
		}
		// Output written before the request comes before its event.
		if i := strings.Index(string(b), `"chunk":"before\n"`); strings.HasSuffix(path, "/output") && (i < 0 || i > strings.Index(string(b), `"channel":"network"`)) {
			t.Fatalf("events out of order: %s", b)
		}
	}
	if strings.Contains(p.logs.String(), value) {
		t.Fatalf("the log holds the secret:\n%s", p.logs.String())
	}
}

// The red team's SSRF, against the real binary: under the "internet"
// ceiling *:*, a run can't ask for the server's own loopback address, and
// a guest given *:* can't reach the server's API by its address nor by a
// name of it.
func TestServeNetworkWildcardCeiling(t *testing.T) {
	p := MustServe(t, t.TempDir(), "--network-allow", "*:*")
	for _, allow := range []string{"127.0.0.1:*", "127.1:*", "[::1]:*", "[::ffff:127.0.0.1]:*", "169.254.169.254", "0.0.0.0/0:*", "10.0.0.0/8:*"} {
		body, _ := json.Marshal(map[string]any{"language": "javascript", "code": "1", "network": map[string]any{"allow": []string{allow}}})
		status, e := p.do(t, "POST", "/v1/evaluate", string(body))
		if status != 400 || e["code"] != "invalid_argument" || !strings.Contains(e["message"].(string), fmt.Sprintf("%q", allow)) {
			t.Errorf("network.allow %q under *:*: %d %v, want a 400 naming it", allow, status, e)
		}
	}

	port := p.base[strings.LastIndex(p.base, ":")+1:]
	var urls []string
	for _, host := range []string{"127.0.0.1", "127.1", "2130706433", "[::ffff:127.0.0.1]", "localhost"} {
		urls = append(urls, "http://"+host+":"+port+"/v1/evaluate")
	}
	code := fmt.Sprintf(`const out = [];
for (const u of %s) {
  try {
    const r = await fetch(u, {method: "POST", headers: {"content-type": "application/json"}, body: '{"language":"javascript","code":"6*7"}'});
    out.push(u + " reached: " + r.status);
  } catch (e) { out.push(u + " refused: " + e.message) }
}
out.join("\n")`, mustJSON(t, urls))
	body, _ := json.Marshal(map[string]any{"language": "javascript", "code": code, "network": map[string]any{"allow": []string{"*:*"}}})
	status, res := p.do(t, "POST", "/v1/evaluate", string(body))
	if status != 200 {
		t.Fatalf("evaluate: %d %v", status, res)
	}
	got, _ := res["value"].(string)
	lines := strings.Split(got, "\n")
	if len(lines) != len(urls) {
		t.Fatalf("value %q", got)
	}
	for i, u := range urls {
		want := u + " refused: "
		if !strings.HasPrefix(lines[i], want) || !strings.Contains(lines[i], "not in the run's network allow-list") && !strings.Contains(lines[i], "resolves to") {
			t.Errorf("fetch %s: %q, want it refused", u, lines[i])
		}
	}
	// The guest's run is the only execution: no fetch ran one.
	if status, list := p.do(t, "GET", "/v1/executions", ""); status != 200 || len(list["executions"].([]any)) != 1 {
		t.Fatalf("executions: %d %v", status, list)
	}
}

func mustJSON(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}
