package processes_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/wasmexec/wasmexec"
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
	wantStatus(t, "POST", e.url+"/v1/processes", "application/json", `{"language":"javascript","file":"huge.bin","contextId":"c"}`, 413, wasmexec.ETooLarge)
	e.spawn(t, jsReq(echoJS)) // and the server goes on
}

// A cursor for 2^64-1 used to overflow: the live replay said truncated and
// jumped back to the last event. Nothing lies after it.
func TestOutputAfterTheLargestCursor(t *testing.T) {
	e := MustEnv(t, envOpts{})
	p := e.spawn(t, jsReq(`console.log('a'); for (;;) {}`))
	s := e.openStream(t, p.PID, "", "")
	outputOf(t, s.mustNext(t)) // an event exists
	var r wasmexec.Replay
	call(t, "GET", e.procURL(p.PID, "/output?after=c3w5e11264sgsf"), "", "", &r)
	if r.Truncated || r.HasMore || len(r.Events) != 0 || r.NextCursor != "c3w5e11264sgsf" {
		t.Fatalf("%+v", r)
	}
}

// maxProcesses under a burst: spawns released at once by a start barrier
// start exactly maxProcesses processes (the slot is taken under the
// manager's lock with the check); the others are 429 overloaded.
func TestMaxProcessesConcurrent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		max, n int
	}{
		{"one of 16", 1, 16},
		{"three of 16", 3, 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := MustEnv(t, envOpts{cfg: processes.Config{MaxProcesses: tc.max}})
			start := make(chan struct{})
			var wg sync.WaitGroup
			var mu sync.Mutex
			started, refused := 0, 0
			for range tc.n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					_, err := e.m.Spawn(context.Background(), &wasmexec.SpawnRequest{Language: wasmexec.JavaScript, Code: "stdin.read()"})
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						started++
					case wasmexec.ErrorCode(err) == wasmexec.EOverloaded:
						refused++
					default:
						t.Errorf("spawn: %v", err)
					}
				}()
			}
			close(start)
			wg.Wait()
			running := 0
			for _, p := range e.m.List() {
				if p.State == wasmexec.ProcessRunning {
					running++
				}
			}
			if started != tc.max || refused != tc.n-tc.max || running != tc.max {
				t.Fatalf("%d started, %d refused, %d running; want %d started", started, refused, running, tc.max)
			}
		})
	}
}
