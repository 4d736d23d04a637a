package contexts_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
)

// benchLanguages are the context families to measure: JS always, Python
// when its image is built.
func benchLanguages(b *testing.B) []wasmexec.Language {
	langs := []wasmexec.Language{wasmexec.JavaScript}
	if hasPython() {
		langs = append(langs, wasmexec.Python)
	} else {
		b.Log("python: guest image not built, skipped")
	}
	return langs
}

// BenchmarkContextEvaluate measures a trivial evaluate in an existing
// context (in process, no HTTP), with a workspace quota on (the quota's
// post-run walk is part of the cost). Reports p50/p99 in ms.
func BenchmarkContextEvaluate(b *testing.B) {
	for _, lang := range benchLanguages(b) {
		b.Run(string(lang), func(b *testing.B) {
			m := MustManager(b, contexts.Config{}, 64<<20)
			d := MustCreate(b, m, wasmexec.ContextSpec{Language: lang})
			code := "1+1"
			req := wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: lang, ContextID: d.ContextID, Code: code}
			for range 20 { // warm up
				r := req
				m.Run(context.Background(), &r)
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				r := req
				start := time.Now()
				res, err := m.Run(context.Background(), &r)
				lat = append(lat, time.Since(start))
				if err != nil || res.Outcome != wasmexec.Succeeded {
					b.Fatalf("%v %+v", err, res)
				}
			}
			b.StopTimer()
			reportLatency(b, lat)
		})
	}
}

func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	q := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

// BenchmarkIdleContextMemory creates 16 contexts, runs one trivial
// evaluate in each, and reports the growth of the process's RSS per
// context (VmRSS from /proc/self/status), then deletes them.
func BenchmarkIdleContextMemory(b *testing.B) {
	const n = 16
	for _, lang := range benchLanguages(b) {
		b.Run(string(lang), func(b *testing.B) {
			m := MustManager(b, contexts.Config{MaxContexts: n + 1}, 0)
			warm := MustCreate(b, m, wasmexec.ContextSpec{Language: lang}) // code mapped, pools warm
			MustRun(b, m, warm.ContextID, wasmexec.Request{Language: lang, Code: "1"})
			var perCtx float64
			for range b.N {
				runtime.GC()
				debug.FreeOSMemory()
				before := rssBytes(b)
				ids := make([]string, n)
				for i := range n {
					ids[i] = MustCreate(b, m, wasmexec.ContextSpec{Language: lang}).ContextID
					MustRun(b, m, ids[i], wasmexec.Request{Language: lang, Code: "1"})
				}
				runtime.GC()
				after := rssBytes(b)
				perCtx = float64(after-before) / n / (1 << 20)
				for _, id := range ids {
					m.Delete(context.Background(), id)
				}
			}
			b.ReportMetric(perCtx, "MiB/idle-context")
		})
	}
}

func rssBytes(tb testing.TB) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		tb.Skip("no /proc/self/status")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			fields := strings.Fields(rest)
			kb, err := strconv.ParseInt(fields[0], 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return kb << 10
		}
	}
	tb.Fatal(fmt.Errorf("no VmRSS"))
	return 0
}
