package contexts_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/processes"
)

// Issue 13, item 7: the idle loop doesn't hibernate a context with a live
// process in its workspace, or whose guest holds a file open besides its
// preopens; the descriptor's notice says why, and the context is
// hibernated by a later pass once the process ended or the file is closed.
// (A Python guest holds the file: the JS guest's fs has no descriptors that
// outlive a call.)
func TestIdleWorkWaitsForProcessesAndOpenFiles(t *testing.T) {
	if !hasPython() {
		t.Skip("the Python guest image is not built")
	}
	r := MustRunner(t, testenv.RunnerConfig{})
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	advance := func(d time.Duration) { now.Add(int64(d)) }
	var procs *processes.Manager
	m := MustManager(t, contexts.Config{
		Runner: r, Now: clock, HibernateAfter: time.Minute,
		LiveProcesses: func(id string) int { return procs.ContextProcesses(id) },
	}, 0)
	var err error
	procs, err = processes.New(processes.Config{Runner: r, MaxProcesses: 4, Workspace: m.WorkspaceDir, Quota: m.ProcessQuota})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(procs.Close)

	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "proc"})
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "file", Language: wasmexec.Python})
	MustRun(t, m, "proc", wasmexec.Request{Code: "globalThis.v = 'p'"})
	MustRun(t, m, "file", wasmexec.Request{Language: wasmexec.Python, Code: "held = open('/workspace/held.txt', 'w')\nv = 'f'"})
	p, err := procs.Spawn(context.Background(), &wasmexec.SpawnRequest{ContextID: "proc", Language: wasmexec.JavaScript, Code: `let l; while ((l = stdin.readLine()) !== null) console.log(l)`})
	if err != nil {
		t.Fatal(err)
	}

	advance(2 * time.Minute)
	if n := m.IdleWork(); n != 0 {
		t.Fatalf("the idle loop hibernated %d context(s) that can't be", n)
	}
	for id, why := range map[string]string{"proc": "1 live process(es)", "file": "open file(s)"} {
		d := mustGet(t, m, id)
		if d.Hibernated || !strings.Contains(d.Notice, why) {
			t.Fatalf("%s: hibernated %v, notice %q; want live with a notice saying %q", id, d.Hibernated, d.Notice, why)
		}
		t.Logf("%s: %s", id, d.Notice)
	}

	// What held them ends: the process reaches EOF, the guest closes its file.
	if _, err := procs.CloseStdin(p.PID); err != nil {
		t.Fatal(err)
	}
	if w, err := procs.Wait(context.Background(), p.PID, 30*time.Second); err != nil || w.State != wasmexec.ProcessExited {
		t.Fatalf("the process did not end: %+v, %v", w, err)
	}
	MustRun(t, m, "file", wasmexec.Request{Language: wasmexec.Python, Code: "held.close()"})
	advance(2 * time.Minute) // past the idle time and the retry delay
	if n := m.IdleWork(); n != 2 {
		t.Fatalf("the idle loop hibernated %d context(s) once nothing held them, want 2", n)
	}
	for _, id := range []string{"proc", "file"} {
		if d := mustGet(t, m, id); !d.Hibernated || d.Notice != "" {
			t.Fatalf("%s: %+v", id, d)
		}
	}
	wantValue(t, MustRun(t, m, "proc", wasmexec.Request{Code: "v"}), `"p"`)
	wantValue(t, MustRun(t, m, "file", wasmexec.Request{Language: wasmexec.Python, Code: "v"}), `"f"`)
}
