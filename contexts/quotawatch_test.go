package contexts_test

import (
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
)

// A context run was checked only after it finished (256 MiB on disk
// mid-run against a 64 MiB quota). Now it is watched while it writes: a
// run that keeps writing is stopped (quota_exceeded, the guest replaced),
// its files are rolled back, and the context serves the next run. Empty
// directories count too (20k of them were 78 MiB at usedBytes 0).
func TestQuotaWatchedWhileRunning(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 1<<20)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "w"})
	for _, code := range []string{
		"const s = 'x'.repeat(1 << 16); for (let i = 0; ; i++) fs.writeFileSync('f' + i + '.bin', s)",
		"for (let i = 0; ; i++) fs.mkdirSync('d' + i)",
	} {
		res := MustRun(t, m, "w", wasmexec.Request{Code: code, TimeoutMs: 30000})
		if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeQuotaExceeded || !res.ContextReset {
			t.Fatalf("%s: %s %+v reset=%v", code, res.Outcome, res.Error, res.ContextReset)
		}
		if d := mustGet(t, m, "w"); d.Workspace.UsedBytes > 1<<20 {
			t.Fatalf("after the rollback: %+v", d.Workspace)
		}
		wantValue(t, MustRun(t, m, "w", wasmexec.Request{Code: "1+1"}), "2")
	}
}
