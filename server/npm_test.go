package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/server"
)

type fakeNPM struct{ got *wasmexec.NPMInstallRequest }

func (f *fakeNPM) Install(_ context.Context, id string, req *wasmexec.NPMInstallRequest) (*wasmexec.NPMInstallResult, error) {
	if id != "c1" {
		return nil, wasmexec.Errorf(wasmexec.ENotFound, "no context %q", id)
	}
	if len(req.Packages) > 0 && req.Packages[0] == "../x" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "bad name")
	}
	f.got = req
	out := "added left@1.0.0\n"
	return &wasmexec.NPMInstallResult{
		Result:    &wasmexec.Result{ExecutionID: "exe_1", Kind: wasmexec.KindNPMInstall, Outcome: wasmexec.Succeeded, Stdout: &out},
		Installed: []wasmexec.NPMPackage{{Name: "left", Version: "1.0.0", Integrity: "sha512-x", Path: "node_modules/left"}},
	}, nil
}

// POST /v1/contexts/:id/npm/install: decode, call, encode; an empty body
// installs the project; errors map to their statuses; 501 when off.
func TestNPMInstallOverHTTP(t *testing.T) {
	f := &fakeNPM{}
	ts := httptest.NewServer(server.New(server.Config{NPM: f}).Handler())
	t.Cleanup(ts.Close)
	r := do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/npm/install", `{"packages": ["left@1"], "dev": true}`)
	if r.Status != 200 || r.JSON["outcome"] != "succeeded" || r.JSON["kind"] != "npm_install" || r.JSON["installed"].([]any)[0].(map[string]any)["name"] != "left" {
		t.Fatalf("got %d %s", r.Status, r.Body)
	}
	if !f.got.Dev || f.got.Packages[0] != "left@1" {
		t.Fatalf("request %+v", f.got)
	}
	if r := do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/npm/install", ""); r.Status != 200 || len(f.got.Packages) != 0 {
		t.Fatalf("empty body: %d %s", r.Status, r.Body)
	}
	wantStatus(t, do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/npm/install", `{"packages": "left"}`), 400, "invalid_argument")
	wantStatus(t, do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/npm/install", `{"pakages": ["left"]}`), 400, "invalid_argument")
	wantStatus(t, do(t, http.MethodPost, ts.URL+"/v1/contexts/c1/npm/install", `{"packages": ["../x"]}`), 400, "invalid_argument")
	wantStatus(t, do(t, http.MethodPost, ts.URL+"/v1/contexts/nope/npm/install", `{}`), 404, "not_found")

	off := httptest.NewServer(server.New(server.Config{}).Handler())
	t.Cleanup(off.Close)
	if r := do(t, http.MethodPost, off.URL+"/v1/contexts/c1/npm/install", `{}`); r.Status != 501 {
		t.Fatalf("without npm: %d %s", r.Status, r.Body)
	}
}
