package server_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/pypi"
	"github.com/wasmexec/wasmexec/pypi/pypitest"
	"github.com/wasmexec/wasmexec/server"
)

// POST /v1/contexts/:id/pip/install over HTTP with the real service and a
// local index: decode, install, encode; an index outside the allowed list
// is a 400 and nothing is fetched from it; 501 when off.
func TestPipInstallOverHTTP(t *testing.T) {
	ix := pypitest.New(t)
	ix.Add(t, pypitest.Dist{Project: "purefn", Version: "1.0", Files: map[string]string{"purefn.py": "def double(x):\n    return 2 * x\n"}})
	ws := t.TempDir()
	svc := &pypi.Service{Client: &pypi.Client{CacheDir: t.TempDir(), Python: "-"}, Index: ix.URL,
		Workspace: func(id string) (string, error) {
			if id != "c1" {
				return "", wasmexec.Errorf(wasmexec.ENotFound, "no context %q", id)
			}
			return ws, nil
		}}
	ts := httptest.NewServer(server.New(server.Config{Pip: svc}).Handler())
	t.Cleanup(ts.Close)
	r := do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/pip/install", `{"packages": ["purefn==1.0"]}`)
	if r.Status != 200 || r.JSON["outcome"] != "succeeded" || r.JSON["kind"] != "pip_install" || r.JSON["installed"].([]any)[0].(map[string]any)["name"] != "purefn" {
		t.Fatalf("got %d %s", r.Status, r.Body)
	}
	if _, err := os.Stat(filepath.Join(ws, pypi.SiteDir, "purefn.py")); err != nil {
		t.Fatal(err)
	}
	r = do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/pip/install", `{"packages": ["numpy-like-missing"]}`)
	if r.Status != 200 || r.JSON["outcome"] != "failed" || !strings.Contains(string(r.Body), "pip_install_failed") {
		t.Fatalf("failed install: %d %s", r.Status, r.Body)
	}
	downloads := ix.Downloads.Load()
	wantStatus(t, do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/pip/install", `{"packages": ["purefn"], "indexUrl": "http://169.254.169.254/"}`), 400, "invalid_argument")
	wantStatus(t, do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/pip/install", `{"packages": ["purefn"], "extraIndexUrls": ["http://10.0.0.1/simple"]}`), 400, "invalid_argument")
	wantStatus(t, do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/pip/install", `{"packages": ["purefn >>> 1"]}`), 400, "invalid_argument")
	wantStatus(t, do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/pip/install", `{"pakages": ["purefn"]}`), 400, "invalid_argument")
	wantStatus(t, do(t, http.MethodPost, ts.URL+"/v1/contexts/nope/pip/install", `{"packages": ["purefn"]}`), 404, "not_found")
	if ix.Downloads.Load() != downloads {
		t.Fatal("a refused request reached the index")
	}

	off := httptest.NewServer(server.New(server.Config{}).Handler())
	t.Cleanup(off.Close)
	if r := do(t, http.MethodPost, off.URL+"/v1/contexts/c1/pip/install", `{}`); r.Status != 501 {
		t.Fatalf("without pip: %d %s", r.Status, r.Body)
	}
}
