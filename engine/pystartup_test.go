package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// BenchmarkPythonGuestStart is BenchmarkGuestStart for the CPython guest:
// instantiate the snapshotted image and run its serve entry until the driver
// waits for the first request (the goal: at most 1 ms). Each guest has a
// workspace, as every real guest does (the snapshot's preopen layout).
func BenchmarkPythonGuestStart(b *testing.B) {
	img := testenv.Image(b, "python")
	ws := b.TempDir()
	start := func() *engine.Guest {
		g, err := img.Start(context.Background(), engine.GuestOptions{Workspace: ws})
		if err != nil {
			b.Fatal(err)
		}
		return g
	}
	for i := 0; i < 3; i++ {
		start().Close()
	}
	b.ResetTimer()
	var inst time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		g := start()
		inst += time.Since(t0)
		g.Close()
	}
	b.ReportMetric(float64(inst.Microseconds())/float64(b.N), "µs/start")
}
