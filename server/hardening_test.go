package server_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wasmexec/wasmexec/contexts"
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
