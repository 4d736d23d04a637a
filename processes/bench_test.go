package processes_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/processes/procbench"
)

// BenchmarkStdinRoundTrip: stdin → stdout of a live JS echo process, timed
// from POST /stdin to the reply on the live SSE stream.
func BenchmarkStdinRoundTrip(b *testing.B) {
	e := MustEnv(b, envOpts{})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	b.ResetTimer()
	rt, err := procbench.MeasureRoundTrip(context.Background(), client, e.url, max(b.N, 20))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(rt.P50.Microseconds()), "p50-µs")
	b.ReportMetric(float64(rt.P99.Microseconds()), "p99-µs")
}

// BenchmarkOutputThroughput: a JS guest writes 4 KiB chunks in a loop (b.N
// chunks, at least 16 MiB) to a live SSE reader.
func BenchmarkOutputThroughput(b *testing.B) {
	e := MustEnv(b, envOpts{})
	total := max(int64(b.N)*4096, 16<<20)
	b.SetBytes(4096)
	b.ResetTimer()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t, err := procbench.MeasureThroughput(ctx, nil, e.url, total)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(t.MBps, "MB/s-delivered")
	b.ReportMetric(float64(t.Dropped), "dropped-events")
}
