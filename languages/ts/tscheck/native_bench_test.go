package tscheck

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// BenchmarkNativeCheckWarm measures a warm TypeScript 7 check of benchSource
// (the file BenchmarkCheckWarm checks with 5.9 in goja) on one warm worker;
// p50-ms is the median Check latency, tsc-cli-p50-ms TypeScript 7's own
// CLI (`tsc -p`, a cold process) on the same file and options.
func BenchmarkNativeCheckWarm(b *testing.B) {
	for _, bc := range []struct {
		name string
		libs []string
	}{
		{"es2022", []string{"es2022"}},
		{"dom", []string{"es2022", "dom"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := MustStartNativePool(b, NativeConfig{Size: 1, WarmLibs: [][]string{bc.libs}})
			l, _ := json.Marshal(bc.libs)
			req := Request{Code: benchSource, Options: map[string]json.RawMessage{"lib": l}}
			for range 5 {
				if res := MustNativeCheck(b, p, req); len(res.Diagnostics) != 1 {
					b.Fatalf("diagnostics %+v; want the one TS2322", res.Diagnostics)
				}
			}
			var lat []time.Duration
			b.ResetTimer()
			n := 0
			for b.Loop() {
				// A new text every time, as agents send: the compiler
				// must re-parse and re-check the file, not answer from its
				// cache of the last program.
				n++
				req.Code = benchSource + "// " + strconv.Itoa(n) + "\n"
				t := time.Now()
				res, err := p.Check(context.Background(), req)
				if err != nil || res.Outcome != "succeeded" {
					b.Fatalf("Check: %v %+v", err, res)
				}
				lat = append(lat, time.Since(t))
			}
			b.StopTimer()
			p50 := reportPercentiles(b, lat, "")
			if cli := tsc7CLIp50(b, p, req); cli > 0 {
				b.ReportMetric(cli, "tsc-cli-p50-ms")
				b.ReportMetric(p50/cli, "x-tsc-cli")
			}
		})
	}
}

// tsc7CLIp50 is the median wall time of TypeScript 7's CLI checking req.
func tsc7CLIp50(b *testing.B, p *NativePool, req Request) float64 {
	var lat []time.Duration
	for range 7 {
		t := time.Now()
		RunTSC7(b, p, req)
		lat = append(lat, time.Since(t))
	}
	return median(lat)
}

func median(d []time.Duration) float64 {
	s := append([]time.Duration{}, d...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return float64(s[len(s)/2].Microseconds()) / 1000
}
