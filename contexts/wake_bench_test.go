package contexts_test

import (
	"context"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// BenchmarkFirstRunAfterHibernation measures a run on a hibernated
// context (its restore included) and a run on a live one, with the
// context's record on disk as in the server.
func BenchmarkFirstRunAfterHibernation(b *testing.B) {
	for _, tc := range []struct {
		lang         wasmexec.Language
		setup, check string
	}{
		{wasmexec.JavaScript, "var kept = Array.from({length: 1000}, (_, i) => 'item ' + i); 0", "kept.length"},
		{wasmexec.Python, "kept = ['item %d' % i for i in range(1000)]\nlen(kept)", "len(kept)"},
	} {
		b.Run(string(tc.lang), func(b *testing.B) {
			if tc.lang == wasmexec.Python && !hasPython() {
				b.Skip("the Python guest image is not built")
			}
			r := MustRunner(b, testenv.RunnerConfig{})
			m := openDurable(b, r, newDurableDirs(b), contexts.Config{})
			defer m.Close()
			MustCreate(b, m, wasmexec.ContextSpec{ContextID: "w", Language: tc.lang})
			MustRun(b, m, "w", wasmexec.Request{Language: tc.lang, Code: tc.setup})
			var live, woken, hib []float64
			var liveCPU, wokenCPU time.Duration
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			for i := 0; i < b.N; i++ {
				t0, c0 := time.Now(), testenv.CPUTime()
				MustRun(b, m, "w", wasmexec.Request{Language: tc.lang, Code: tc.check})
				live = append(live, ms(time.Since(t0)))
				liveCPU += testenv.CPUTime() - c0
				t0 = time.Now()
				if _, err := m.Hibernate(context.Background(), "w"); err != nil {
					b.Fatal(err)
				}
				hib = append(hib, ms(time.Since(t0)))
				t0, c0 = time.Now(), testenv.CPUTime()
				MustRun(b, m, "w", wasmexec.Request{Language: tc.lang, Code: tc.check})
				woken = append(woken, ms(time.Since(t0)))
				wokenCPU += testenv.CPUTime() - c0
			}
			b.ReportMetric(testenv.Median(live), "ms/live-run-p50")
			b.ReportMetric(testenv.Median(woken), "ms/first-run-hibernated-p50")
			b.ReportMetric(testenv.Median(woken)-testenv.Median(live), "ms/wake-p50")
			b.ReportMetric(testenv.Median(hib), "ms/hibernate-p50")
			// The process's CPU per wake (mean): less at the mercy of a loaded
			// machine than the wall clock.
			b.ReportMetric(ms(wokenCPU-liveCPU)/float64(b.N), "cpu-ms/wake")
		})
	}
}
