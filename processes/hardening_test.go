package processes_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/processes"
)

// A process started from a 1 TiB sparse workspace file is refused (413)
// instead of reading the file into memory (it used to kill the server).
func TestSpawnFileSparseTiB(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.bin")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err != nil {
		t.Skipf("this file system can't hold a 1 TiB sparse file: %v", err)
	}
	e := MustEnv(t, envOpts{cfg: processes.Config{Workspace: func(id string) (string, error) { return dir, nil }}})
	wantStatus(t, "POST", e.url+"/v1/processes", "application/json", `{"language":"javascript","file":"huge.bin","contextId":"c"}`, 413, exec.ETooLarge)
	e.spawn(t, jsReq(echoJS)) // and the server goes on
}
