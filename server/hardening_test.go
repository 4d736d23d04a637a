package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/vfs"
)

// A 1 TiB sparse file in a workspace (a guest makes one with truncate)
// used to kill the server with OOM on GET: the read sized its buffer from
// the file's size. Now it is a 413 and the server keeps answering.
func TestReadSparseTiBOverHTTP(t *testing.T) {
	s := mustContextServer(t, contexts.Config{}, 0, 0)
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"c","language":"javascript"}`), 201, "")
	dir, err := s.M.WorkspaceDir("c")
	if err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.bin")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err != nil {
		t.Skipf("this file system can't hold a 1 TiB sparse file: %v", err)
	}
	wantStatus(t, do(t, "GET", s.URL+"/v1/contexts/c/files/huge.bin", ""), 413, "payload_too_large")
	r := do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"c","code":"1+1"}`)
	if r.Status != 200 || r.JSON["value"] != float64(2) {
		t.Fatalf("sentinel: %d %s", r.Status, r.Body)
	}
}

// seedBody is an evaluate request seeding n files under src/ (in 10
// directories) and counting them from the guest.
func seedBody(n int, extra string) string {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("src/d%d/f%d.txt", i%10, i)] = "x"
	}
	b, _ := json.Marshal(files)
	return `{"language":"javascript","code":"fs.readdirSync('src').map(d => fs.readdirSync('src/' + d).length).reduce((a, b) => a + b)","files":` + string(b) + extra + `}`
}

// Seeding is linear and capped: the cap's worth of files is seeded (it
// used to take seconds: each file re-walked the workspace), one more is a
// 413 naming the cap, in one-shot runs and in contexts; a deadline that
// passes while seeding is timed_out, not a server error.
func TestSeedFilesCap(t *testing.T) {
	s := mustContextServer(t, contexts.Config{}, 0, 0)
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"c","language":"javascript"}`), 201, "")
	for _, ctx := range []string{"", `,"contextId":"c"`} {
		r := do(t, "POST", s.URL+"/v1/evaluate", seedBody(vfs.DefaultMaxSeedFiles, ctx))
		if r.Status != 200 || r.JSON["value"] != float64(vfs.DefaultMaxSeedFiles) {
			t.Fatalf("seed %d files%s: %d %.300s", vfs.DefaultMaxSeedFiles, ctx, r.Status, r.Body)
		}
		r = do(t, "POST", s.URL+"/v1/evaluate", seedBody(vfs.DefaultMaxSeedFiles+1, ctx))
		wantStatus(t, r, 413, "payload_too_large")
		if msg, _ := r.JSON["message"].(string); !strings.Contains(msg, fmt.Sprint(vfs.DefaultMaxSeedFiles)) {
			t.Fatalf("the message doesn't name the cap: %s", r.Body)
		}
	}
	r := do(t, "POST", s.URL+"/v1/evaluate", seedBody(vfs.DefaultMaxSeedFiles, `,"timeoutMs":1`))
	if r.Status != 200 || r.JSON["outcome"] != "timed_out" {
		t.Fatalf("seeding past the deadline: %d %.300s", r.Status, r.Body)
	}
}

// Request bodies: inputs nested 9,000 deep came back 500 internal; a body
// with invalid UTF-8 was accepted with the bytes replaced. Both are 400 at
// the door, and the server goes on.
func TestRequestBodyDepthAndUTF8(t *testing.T) {
	ts := MustServer(t, testenv.RunnerConfig{}, 0)
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct{ name, body string }{
		{"inputs 9000 deep", `{"language":"javascript","code":"1","inputs":{"a":` + deep(9000) + `}}`},
		{"inputs past the limit", `{"language":"javascript","code":"1","inputs":{"a":` + deep(server.MaxJSONDepth) + `}}`},
		{"invalid UTF-8 in code", "{\"language\":\"javascript\",\"code\":\"'\xff\xfe'.length\"}"},
		{"invalid UTF-8 in stdin", "{\"language\":\"javascript\",\"code\":\"1\",\"stdin\":\"\xc3\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, "POST", ts.URL+"/v1/evaluate", tc.body)
			wantStatus(t, r, 400, "invalid_argument")
		})
	}
	r := do(t, "POST", ts.URL+"/v1/evaluate", `{"language":"javascript","code":"inputs.a.flat(Infinity).length + 1","inputs":{"a":`+deep(100)+`}}`)
	if r.Status != 200 || r.JSON["value"] != float64(1) {
		t.Fatalf("100 deep: %d %s", r.Status, r.Body)
	}
}

// Symlinks a program plants (a Python guest can os.symlink("..", "up") or
// "../../etc/passwd"; here they are planted on the host, /etc/passwd
// absolute too) are contained: the file API never follows one, and the
// guest can't follow one out of /workspace.
func TestSymlinksContained(t *testing.T) {
	s := mustContextServer(t, contexts.Config{}, 0, 0)
	base := s.URL + "/v1/contexts/c/files"
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"c","language":"javascript"}`), 201, "")
	wantStatus(t, do(t, "PUT", base+"/a.txt", "inside"), 200, "")
	dir, err := s.M.WorkspaceDir("c")
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"up": "..", "pw": "/etc/passwd", "in": "a.txt", "out": secret} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"/up", "/up/" + filepath.Base(dir) + "/a.txt", "/pw", "/in", "/out"} {
		wantStatus(t, do(t, "GET", base+p, ""), 400, "invalid_argument")
		wantStatus(t, do(t, "PUT", base+p, "x"), 400, "invalid_argument")
	}
	wantStatus(t, do(t, "GET", base+"?dir=up", ""), 400, "invalid_argument")
	r := do(t, "GET", base, "")
	types := map[string]any{}
	for _, e := range r.JSON["entries"].([]any) {
		types[e.(map[string]any)["path"].(string)] = e.(map[string]any)["type"]
	}
	if types["up"] != "symlink" || types["pw"] != "symlink" || types["in"] != "symlink" || types["a.txt"] != "file" {
		t.Fatalf("list: %s", r.Body)
	}
	// The guest: out of /workspace fails, inside works.
	r = do(t, "POST", s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"c","code":"const t = p => { try { return fs.readFileSync(p, 'utf8') } catch (e) { return 'refused' } }; [t('pw'), t('up/etc/passwd'), t('in')]"}`)
	if r.Status != 200 || fmt.Sprint(r.JSON["value"]) != "[refused refused inside]" {
		t.Fatalf("guest: %d %s", r.Status, r.Body)
	}
	// DELETE removes a link, never its target (shown with a target of
	// ours rather than /etc/passwd).
	wantStatus(t, do(t, "DELETE", base+"/out", ""), 204, "")
	if _, err := os.Lstat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Fatalf("the link is still there: %v", err)
	}
	if _, err := os.Stat(secret); err != nil {
		t.Fatalf("the target went away: %v", err)
	}
}
