package tscheck

import (
	"context"
	_ "embed"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sort"
	"strings"
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
			var lat, cpu []time.Duration
			b.ResetTimer()
			for b.Loop() {
				t := time.Now()
				res, err := p.Check(context.Background(), req)
				if err != nil || res.Outcome != "succeeded" {
					b.Fatalf("Check: %v %+v", err, res)
				}
				lat = append(lat, time.Since(t))
				cpu = append(cpu, time.Duration(res.workerCPUMs*float64(time.Millisecond)))
			}
			b.StopTimer()
			p50 := reportPercentiles(b, lat, "")
			// CPU time is less disturbed by a busy machine than latency.
			reportPercentiles(b, cpu, "worker-cpu-")
			if node, ok := nodeBaseline(b, bc.libs); ok {
				b.ReportMetric(node, "node-p50-ms")
				b.ReportMetric(p50/node, "x-node")
			}
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

// reportPercentiles reports the p50 (and for latency the p90) in ms and
// returns the p50.
func reportPercentiles(b *testing.B, lat []time.Duration, prefix string) float64 {
	if len(lat) == 0 {
		return 0
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	at := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.5), prefix+"p50-ms")
	if prefix == "" {
		b.ReportMetric(at(0.9), prefix+"p90-ms")
	}
	return at(0.5)
}

// nodeBaseline runs guest-images/typescript/bench-node.js on the same file
// and libs and returns node's warm p50 in ms; false when node or the script
// is missing.
func nodeBaseline(b *testing.B, libs []string) (float64, bool) {
	b.Helper()
	node, err := osexec.LookPath("node")
	if err != nil {
		return 0, false
	}
	// Tests run in the package directory, languages/ts/tscheck.
	wd, err := os.Getwd()
	if err != nil {
		return 0, false
	}
	script := filepath.Join(wd, "..", "..", "..", "guest-images", "typescript", "bench-node.js")
	if _, err := os.Stat(script); err != nil {
		return 0, false
	}
	out, err := osexec.Command(node, script, testImageDir, filepath.Join("testdata", "bench.ts"),
		"--lib", strings.Join(libs, ","), "--iterations", "30", "--json").Output()
	if err != nil {
		b.Logf("bench-node.js: %v", err)
		return 0, false
	}
	var r struct {
		P50Ms float64 `json:"p50Ms"`
	}
	if err := json.Unmarshal(out, &r); err != nil || r.P50Ms <= 0 {
		b.Logf("bench-node.js output %q: %v", out, err)
		return 0, false
	}
	return r.P50Ms, true
}
