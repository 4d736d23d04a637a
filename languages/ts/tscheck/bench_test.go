package tscheck

import (
	"context"
	_ "embed"
	"sort"
	"testing"
	"time"
)

// benchSource is a ~30-line agent-style file with one type error; the node
// baseline (guest-images/typescript/bench-node.js) checks the same file.
//
//go:embed testdata/bench.ts
var benchSource string

// BenchmarkCheckWarm measures a warm check of benchSource on one worker
// whose lib set is pre-warmed. Besides ns/op it reports p50-ms, the median
// Check latency (what the 150 ms target is about).
func BenchmarkCheckWarm(b *testing.B) {
	for _, bc := range []struct {
		name string
		libs []string
	}{
		{"es2022", []string{"es2022"}},
		{"dom", []string{"es2022", "dom"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := MustStartPool(b, PoolConfig{Size: 1, PrewarmLibs: [][]string{bc.libs}})
			req := Request{Code: benchSource, CompilerOptions: CompilerOptions{Lib: bc.libs}}
			for range 5 { // settle: first checks after pre-warm still allocate caches
				if res := MustSucceed(b, p, req); len(res.Diagnostics) != 1 {
					b.Fatalf("diagnostics %+v; want the one TS2322", res.Diagnostics)
				}
			}
			var lat []time.Duration
			b.ResetTimer()
			for b.Loop() {
				t := time.Now()
				res, err := p.Check(context.Background(), req)
				if err != nil || res.Outcome != "succeeded" {
					b.Fatalf("Check: %v %+v", err, res)
				}
				lat = append(lat, time.Since(t))
			}
			b.StopTimer()
			reportPercentiles(b, lat)
		})
	}
}

// BenchmarkWorkerColdStart measures a worker from process start to ready:
// compile typescript.js, pre-warm es2022, answer the first check.
func BenchmarkWorkerColdStart(b *testing.B) {
	requireImage(b)
	for b.Loop() {
		p := mustNewStartedPool(b, PoolConfig{Size: 1, PrewarmLibs: [][]string{{"es2022"}}})
		MustSucceed(b, p, Request{Code: benchSource})
		b.StopTimer()
		p.Close()
		b.StartTimer()
	}
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	at := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.9), "p90-ms")
}
