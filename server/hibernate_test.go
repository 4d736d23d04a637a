package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/vfs"
)

// Hibernate and fork are scoped to the context's tenant; a fork counts
// against the forking tenant's maxContexts. Contexts that existed before
// the server started (durable ones) keep their owners (ContextOwners).
func TestHibernateAndForkByTenant(t *testing.T) {
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	// "earlier" stands for a context listed again after a restart.
	if _, err := m.Create(context.Background(), &wasmexec.ContextSpec{ContextID: "earlier", Language: wasmexec.JavaScript}); err != nil {
		t.Fatal(err)
	}
	keys, _ := MustKeys(t)
	ts := httptest.NewServer(validated(t, server.New(server.Config{Runner: r, Contexts: m, Auth: keys, ContextOwners: map[string]string{"earlier": "acme"}}).Handler()))
	t.Cleanup(ts.Close)
	const acme, globex = "acme-key-0123456789", "globex-key-0123456789"

	if got := as(t, globex, "GET", ts.URL+"/v1/contexts/earlier", ""); got.Status != http.StatusNotFound {
		t.Fatalf("another tenant sees a context of acme's from before the start: %d", got.Status)
	}
	if got := as(t, acme, "POST", ts.URL+"/v1/contexts/earlier/hibernate", ""); got.Status != http.StatusOK || got.JSON["hibernated"] != true {
		t.Fatalf("acme hibernates its context: %d %s", got.Status, got.Body)
	}
	// A file call wakes a hibernated context, as a run does.
	if got := as(t, acme, "PUT", ts.URL+"/v1/contexts/earlier/files/notes.txt", "kept"); got.Status != http.StatusOK {
		t.Fatalf("upload to a hibernated context: %d %s", got.Status, got.Body)
	}
	if got := as(t, acme, "GET", ts.URL+"/v1/contexts/earlier", ""); got.JSON["hibernated"] != false || got.JSON["restoredAtMs"] == nil {
		t.Fatalf("after a file call: %s", got.Body)
	}
	if got := as(t, acme, "POST", ts.URL+"/v1/contexts/earlier/hibernate", ""); got.Status != http.StatusOK || got.JSON["hibernated"] != true {
		t.Fatalf("acme hibernates its context again: %d %s", got.Status, got.Body)
	}
	if got := as(t, globex, "POST", ts.URL+"/v1/contexts/earlier/hibernate", ""); got.Status != http.StatusNotFound {
		t.Fatalf("globex hibernates acme's context: %d", got.Status)
	}
	if got := as(t, globex, "POST", ts.URL+"/v1/contexts/earlier/fork", `{"contextId":"stolen"}`); got.Status != http.StatusNotFound {
		t.Fatalf("globex forks acme's context: %d", got.Status)
	}
	if got := as(t, acme, "POST", ts.URL+"/v1/contexts/earlier/fork", `{"contextId":"copy"}`); got.Status != http.StatusCreated || got.JSON["contextId"] != "copy" {
		t.Fatalf("acme forks: %d %s", got.Status, got.Body)
	}
	// acme's maxContexts is 2: "earlier" and "copy".
	if got := as(t, acme, "POST", ts.URL+"/v1/contexts/copy/fork", ""); got.Status != http.StatusTooManyRequests {
		t.Fatalf("a fork past maxContexts: %d %s", got.Status, got.Body)
	}
	if got := as(t, globex, "GET", ts.URL+"/v1/contexts/copy", ""); got.Status != http.StatusNotFound {
		t.Fatalf("another tenant sees the fork: %d", got.Status)
	}
	if got := as(t, acme, "POST", ts.URL+"/v1/contexts/copy/fork", `{"contextId": 5}`); got.Status != http.StatusBadRequest {
		t.Fatalf("a bad fork body: %d", got.Status)
	}
}
