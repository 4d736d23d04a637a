package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// templateRow is what the cluster's row of a template says.
func (tc *testCluster) templateRow(t *testing.T, id string) (state, builder string, builds int64) {
	t.Helper()
	if err := tc.db.QueryRow(`SELECT state, COALESCE(builder_node, ''), builds FROM cluster_templates WHERE template_id = $1`, id).Scan(&state, &builder, &builds); err != nil {
		t.Fatalf("the row of template %s: %v", id, err)
	}
	return state, builder, builds
}

// readyThrough polls template id through p, with key, until it is ready
// (a failed build fails the test) and returns its descriptor.
func readyThrough(t *testing.T, p *proc, key, id string) map[string]any {
	t.Helper()
	var d map[string]any
	poll.Until(t, 2*time.Minute, "template "+id+" to be ready through "+p.base, func() bool {
		var s int
		var raw string
		s, d, raw = p.doKey(t, key, "GET", "/v1/templates/"+id, "")
		if s != 200 || d["state"] == "failed" {
			t.Fatalf("template %s through %s: %d %s", id, p.base, s, raw)
		}
		return d["state"] == "ready"
	})
	return d
}

func runFrom(t *testing.T, p *proc, key, id, code string) (int, map[string]any, string) {
	t.Helper()
	return p.doKey(t, key, "POST", "/v1/evaluate", fmt.Sprintf(`{"language":"javascript","template":%q,"code":%q}`, id, code))
}

// Templates in a cluster are stored once in PostgreSQL and built once for
// all servers: a template made through n1 is run through n2, which
// fetches its capture (once) and never builds it; two nodes asked at once
// for the same template build it once; a stored capture that was tampered
// with fails its checksum on the node that fetches it and is rebuilt from
// the recipe, once, however many nodes found it out; another tenant's id
// is a 404 through every node; maxTemplates and maxTemplateBytes hold
// across nodes creating at once; kill -9 of the node building a template
// leaves it to another node, which completes it.
func TestServeClusterTemplates(t *testing.T) {
	tc := newTestCluster(t)
	n1, n2 := tc.node(t, "n1"), tc.node(t, "n2")
	nodes := []*proc{n1, n2}

	// Built on n1, run on n2.
	if s, _, raw := n1.doKey(t, clusterKeyA, "POST", "/v1/templates", `{"templateId":"warm","language":"javascript","setupCode":"globalThis.base = 40","files":{"two.txt":"2"}}`); s != 202 {
		t.Fatalf("create through n1: %d %s", s, raw)
	}
	readyThrough(t, n2, clusterKeyA, "warm")
	const code = "base + Number(require('fs').readFileSync('/workspace/two.txt', 'utf8'))"
	for i := range 3 {
		if s, r, raw := runFrom(t, n2, clusterKeyA, "warm", code); s != 200 || r["value"] != float64(42) {
			t.Fatalf("run %d from warm through n2: %d %s\n%s", i, s, raw, n2.logs.String())
		}
	}
	if s, _, raw := n2.doKey(t, clusterKeyA, "POST", "/v1/contexts", `{"contextId":"from-warm","template":"warm"}`); s != 201 {
		t.Fatalf("a context from warm through n2: %d %s", s, raw)
	}
	mustValue(t, n2, "from-warm", "javascript", "base + 2", 42)
	if state, builder, builds := tc.templateRow(t, "warm"); state != "ready" || builder != "n1" || builds != 1 {
		t.Fatalf("warm's row: %s, built by %q, %d builds; want ready, n1, 1", state, builder, builds)
	}
	if logs := n2.logs.String(); strings.Contains(logs, `msg="template ready"`) || strings.Count(logs, "fetched a template's capture") != 1 {
		t.Fatalf("n2 built warm, or fetched it other than once:\n%s", logs)
	}

	// Another tenant's id is a 404 on every node, on every route.
	for _, p := range nodes {
		for _, c := range []struct{ method, path, body string }{
			{"GET", "/v1/templates/warm", ""},
			{"DELETE", "/v1/templates/warm", ""},
			{"POST", "/v1/evaluate", `{"language":"javascript","template":"warm","code":"base"}`},
			{"POST", "/v1/contexts", `{"template":"warm"}`},
		} {
			if s, r, raw := p.doKey(t, clusterKeyB, c.method, c.path, c.body); s != 404 || r["code"] != "template_not_found" {
				t.Fatalf("tenant b: %s %s through %s: %d %s", c.method, c.path, p.base, s, raw)
			}
		}
		if s, _, raw := p.doKey(t, clusterKeyB, "GET", "/v1/templates", ""); s != 200 || strings.Contains(raw, "warm") {
			t.Fatalf("tenant b's list through %s: %d %s", p.base, s, raw)
		}
		if s, _, raw := p.doKey(t, clusterKeyA, "GET", "/v1/templates", ""); s != 200 || !strings.Contains(raw, `"warm"`) {
			t.Fatalf("tenant a's list through %s: %d %s", p.base, s, raw)
		}
	}

	// Asked at once through both nodes for the same template: one build.
	var wg sync.WaitGroup
	status := make([]int, len(nodes))
	for i, p := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status[i], _, _ = p.doKey(t, clusterKeyA, "POST", "/v1/templates", `{"templateId":"twice","language":"javascript","setupCode":"globalThis.base = 40","files":{"two.txt":"2"}}`)
		}()
	}
	wg.Wait()
	if !(status[0] == 202 && status[1] == 409 || status[0] == 409 && status[1] == 202) {
		t.Fatalf("the same template created through both nodes at once: %v, want one 202 and one 409", status)
	}
	readyThrough(t, n1, clusterKeyA, "twice")
	if _, _, builds := tc.templateRow(t, "twice"); builds != 1 {
		t.Fatalf("twice was built %d times", builds)
	}

	// A tampered capture: n2 has no copy of "twice" unless it built it;
	// the node that did not build it fetches it, finds it fails its
	// checksum, and it is rebuilt from its recipe, once, though both
	// nodes run from it at once.
	_, builder, _ := tc.templateRow(t, "twice")
	other := n1
	if builder == "n1" {
		other = n2
	}
	if _, err := tc.db.Exec(`UPDATE cluster_template_chunks SET data = set_byte(data, 4000, (get_byte(data, 4000) + 1) % 256) WHERE template_id = 'twice' AND seq = 0`); err != nil {
		t.Fatal(err)
	}
	// The builder keeps its own copy; the other refuses the stored one.
	if s, r, raw := runFrom(t, other, clusterKeyA, "twice", code); s != 200 || r["value"] != float64(42) {
		t.Fatalf("a run from the tampered template through %s: %d %s\n%s", other.base, s, raw, other.logs.String())
	}
	if !strings.Contains(other.logs.String(), "failed its checksum") {
		t.Fatalf("%s used a tampered capture without refusing it:\n%s", other.base, other.logs.String())
	}
	d := readyThrough(t, n1, clusterKeyA, "twice")
	if notice, _ := d["notice"].(string); !strings.Contains(notice, "checksum") || d["builds"] != float64(2) {
		t.Fatalf("the tampered template after its rebuild: %v", d)
	}
	// Tampered again, and both nodes without a good copy (the rebuilder
	// has one: runs through it are fine): the runs through the others
	// rebuild it once.
	if _, err := tc.db.Exec(`UPDATE cluster_template_chunks SET data = set_byte(data, 4000, (get_byte(data, 4000) + 1) % 256) WHERE template_id = 'twice' AND seq = 0`); err != nil {
		t.Fatal(err)
	}
	_, rebuilder, _ := tc.templateRow(t, "twice")
	fetcher := n1
	if rebuilder == "n1" {
		fetcher = n2
	}
	errs := make(chan string, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s, r, raw := runFrom(t, fetcher, clusterKeyA, "twice", code); s != 200 || r["value"] != float64(42) {
				errs <- fmt.Sprintf("%d %s", s, raw)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatalf("concurrent runs from a tampered template: %s", e)
	}
	if _, _, builds := tc.templateRow(t, "twice"); builds != 3 {
		t.Fatalf("after the second tampering twice has %d builds, want 3 (one rebuild for four runs)", builds)
	}

	// Deleted through n2: gone on n1 too, though n1 holds a copy.
	if s, _, raw := n2.doKey(t, clusterKeyA, "DELETE", "/v1/templates/warm", ""); s != 204 {
		t.Fatalf("delete through n2: %d %s", s, raw)
	}
	if s, r, raw := runFrom(t, n1, clusterKeyA, "warm", code); s != 404 || r["code"] != "template_not_found" {
		t.Fatalf("a run from a deleted template through n1: %d %s", s, raw)
	}

	// maxTemplates (2) across nodes creating at once.
	const creates = 6
	codes := make([]int, creates)
	for i := range creates {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _, _ = nodes[i%2].doKey(t, clusterKeyT, "POST", "/v1/templates", fmt.Sprintf(`{"templateId":"q%d","language":"javascript"}`, i))
		}()
	}
	wg.Wait()
	made := 0
	for _, c := range codes {
		switch c {
		case 202:
			made++
		case 429:
		default:
			t.Fatalf("creates of tenant t: %v", codes)
		}
	}
	var rows int
	tc.db.QueryRow(`SELECT count(*) FROM cluster_templates WHERE tenant = 't'`).Scan(&rows)
	if made != 2 || rows != 2 {
		t.Fatalf("tenant t (maxTemplates 2) made %d templates through two nodes at once (%d rows): %v", made, rows, codes)
	}

	// maxTemplateBytes (12 MB) across nodes: two templates of 7-8 MB
	// built at once on two nodes; one is refused when it ends.
	for i, p := range nodes {
		if s, _, raw := p.doKey(t, clusterKeyM, "POST", "/v1/templates", fmt.Sprintf(`{"templateId":"m%d","language":"javascript"}`, i)); s != 202 {
			t.Fatalf("create m%d: %d %s", i, s, raw)
		}
	}
	var states []string
	var failure map[string]any
	poll.Until(t, 2*time.Minute, "both of tenant m's builds to end", func() bool {
		states, failure = nil, nil
		for i := range nodes {
			_, d, _ := n1.doKey(t, clusterKeyM, "GET", fmt.Sprintf("/v1/templates/m%d", i), "")
			states = append(states, fmt.Sprint(d["state"]))
			if d["state"] == "failed" {
				failure, _ = d["error"].(map[string]any)
			}
		}
		return states[0] != "building" && states[1] != "building"
	})
	if !(states[0] == "ready" && states[1] == "failed" || states[0] == "failed" && states[1] == "ready") || failure["code"] != "quota_exceeded" {
		t.Fatalf("tenant m (maxTemplateBytes 12 MB) built two templates at once on two nodes: %v, failure %v", states, failure)
	}

	// kill -9 of the node building a template: the other takes it over
	// once its lease is over and completes it.
	if s, _, raw := n1.doKey(t, clusterKeyA, "POST", "/v1/templates", `{"templateId":"slow","language":"javascript","setupCode":"const end = Date.now() + 4000; while (Date.now() < end) {} globalThis.done = 42"}`); s != 202 {
		t.Fatalf("create slow through n1: %d %s", s, raw)
	}
	if state, builder, _ := tc.templateRow(t, "slow"); state != "building" || builder != "n1" {
		t.Fatalf("slow: %s by %q", state, builder)
	}
	n1.cmd.Process.Signal(syscall.SIGKILL)
	n1.cmd.Wait()
	d = readyThrough(t, n2, clusterKeyA, "slow")
	if state, builder, builds := tc.templateRow(t, "slow"); state != "ready" || builder != "n2" || builds != 1 {
		t.Fatalf("slow after n1's kill -9: %s, built by %q, %d builds", state, builder, builds)
	}
	if notice, _ := d["notice"].(string); !strings.Contains(notice, "stopped before it ended") {
		t.Fatalf("slow's notice: %v", d)
	}
	if s, r, raw := runFrom(t, n2, clusterKeyA, "slow", "done"); s != 200 || r["value"] != float64(42) {
		t.Fatalf("a run from slow through n2: %d %s", s, raw)
	}
}

// fakeNPM serves one package, tiny@1.0.0, as an npm registry does.
func fakeNPM(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range map[string]string{"package/package.json": `{"name":"tiny","version":"1.0.0","main":"index.js"}`, "package/index.js": "exports.x = 41;"} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	tgz := buf.Bytes()
	sum := sha512.Sum512(tgz)
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/tiny":
			json.NewEncoder(w).Encode(map[string]any{"name": "tiny", "dist-tags": map[string]any{"latest": "1.0.0"}, "versions": map[string]any{"1.0.0": map[string]any{
				"name": "tiny", "version": "1.0.0", "dist": map[string]any{"tarball": srv.URL + "/tiny/-/tiny-1.0.0.tgz", "integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum[:])}}}})
		case "/tiny/-/tiny-1.0.0.tgz":
			w.Write(tgz)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// One-shot runs with the same packages through two nodes at once: the
// implicit template of that set is built once, by one node, and runs
// through either start from it (the other fetches it).
func TestServeClusterImplicitTemplateBuiltOnce(t *testing.T) {
	tc := newTestCluster(t, "--npm-registry", fakeNPM(t))
	nodes := []*proc{tc.node(t, "n1"), tc.node(t, "n2")}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("n1:\n%s\nn2:\n%s", nodes[0].logs.String(), nodes[1].logs.String())
		}
	})
	run := `{"language":"javascript","packages":["tiny@1.0.0"],"code":"require('tiny').x + 1"}`
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s, r, raw := nodes[i%2].doKey(t, clusterKeyA, "POST", "/v1/evaluate", run); s != 200 || r["value"] != float64(42) {
				t.Errorf("a one-shot run with packages through %s: %d %s", nodes[i%2].base, s, raw)
			}
		}()
	}
	wg.Wait()
	var id string
	poll.Until(t, 2*time.Minute, "the implicit template to be ready", func() bool {
		var state string
		err := tc.db.QueryRow(`SELECT template_id, state FROM cluster_templates WHERE implicit`).Scan(&id, &state)
		if state == "failed" {
			t.Fatalf("the implicit template failed: %s", nodes[0].logs.String()+nodes[1].logs.String())
		}
		return err == nil && state == "ready"
	})
	var rows int
	tc.db.QueryRow(`SELECT count(*) FROM cluster_templates WHERE implicit`).Scan(&rows)
	if _, _, builds := tc.templateRow(t, id); builds != 1 || rows != 1 {
		t.Fatalf("%d implicit templates, %s built %d times; want one, built once", rows, id, builds)
	}
	// Both nodes start runs from it: the one that did not build it
	// fetches it (in the background, at a run that finds no copy).
	_, builder, _ := tc.templateRow(t, id)
	other := nodes[0]
	if builder == "n1" {
		other = nodes[1]
	}
	poll.Until(t, time.Minute, "the other node to fetch the implicit template", func() bool {
		if s, r, raw := other.doKey(t, clusterKeyA, "POST", "/v1/evaluate", run); s != 200 || r["value"] != float64(42) {
			t.Fatalf("a run through the other node: %d %s", s, raw)
		}
		return strings.Contains(other.logs.String(), "fetched a template's capture")
	})
	if _, _, builds := tc.templateRow(t, id); builds != 1 {
		t.Fatalf("%s built %d times", id, builds)
	}
}
