package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

func BenchmarkGuestStart(b *testing.B) {
	img := testenv.Image(b, "js")
	for i := 0; i < 3; i++ {
		g, _ := img.Start(context.Background(), engine.GuestOptions{})
		g.Close()
	}
	b.ResetTimer()
	var inst time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		g, err := img.Start(context.Background(), engine.GuestOptions{})
		if err != nil {
			b.Fatal(err)
		}
		inst += time.Since(t0)
		g.Close()
	}
	b.ReportMetric(float64(inst.Microseconds())/float64(b.N), "µs/start")
}

func BenchmarkRunParallel(b *testing.B) {
	for _, lang := range []wasmexec.Language{wasmexec.JavaScript, wasmexec.Python} {
		b.Run(string(lang), func(b *testing.B) {
			r := testenv.Runner(b, testenv.RunnerConfig{
				Images: map[string]*engine.Image{
					js.ImageName:     testenv.Image(b, js.ImageName),
					python.ImageName: testenv.Image(b, python.ImageName),
				},
				Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}, wasmexec.Python: python.Driver{}},
				PoolSize:  2,
			})
			b.SetParallelism(2)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					MustRun(b, r, wasmexec.Request{Language: lang, Code: "1+1"})
				}
			})
		})
	}
}
