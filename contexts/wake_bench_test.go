package contexts_test

import (
	"context"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/exec"
)

// BenchmarkFirstRunAfterHibernation measures a run on a hibernated
// context (its restore included) and a run on a live one, with the
// context's record on disk as in the server.
func BenchmarkFirstRunAfterHibernation(b *testing.B) {
	r := MustRunner(b, engine.RunnerConfig{})
	m := openDurable(b, r, newDurableDirs(b), contexts.Config{})
	defer m.Close()
	MustCreate(b, m, exec.ContextSpec{ContextID: "w"})
	MustRun(b, m, "w", exec.Request{Code: "var kept = Array.from({length: 1000}, (_, i) => 'item ' + i); 0"})
	var live, woken, hib time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		MustRun(b, m, "w", exec.Request{Code: "kept.length"})
		live += time.Since(t0)
		t0 = time.Now()
		if _, err := m.Hibernate(context.Background(), "w"); err != nil {
			b.Fatal(err)
		}
		hib += time.Since(t0)
		t0 = time.Now()
		MustRun(b, m, "w", exec.Request{Code: "kept.length"})
		woken += time.Since(t0)
	}
	b.ReportMetric(float64(live.Microseconds())/float64(b.N)/1000, "ms/live-run")
	b.ReportMetric(float64(woken.Microseconds())/float64(b.N)/1000, "ms/first-run-hibernated")
	b.ReportMetric(float64(hib.Microseconds())/float64(b.N)/1000, "ms/hibernate")
}
