package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// vmRSS reads the resident set of process pid (VmRSS, in bytes).
func vmRSS(tb testing.TB, pid int) int64 {
	tb.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Skipf("no /proc: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				tb.Fatalf("VmRSS %q: %v", v, err)
			}
			return kb << 10
		}
	}
	tb.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}

// A template's state is mapped copy-on-write into each run from it and
// nothing of a run is kept once it ends: 1,000 one-shot runs from one
// 60 MB template (random bytes, which no page sharing or compression can
// make smaller; each run reads it and writes a page of its own) leave
// the server's resident set within 100 MB of where it was. A server that
// copied the state per run, or kept a run's guest, would grow by
// gigabytes.
func TestServeTemplateRunsKeepRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 runs: not in -short mode")
	}
	testenv.ImageDir(t, "python")
	p := MustServe(t, t.TempDir(), "--tscheck-workers", "0")
	const stateMB = 60
	body := fmt.Sprintf(`{"templateId":"big","language":"python","limits":{"memoryBytes":%d},"setupCode":"import os\nbig = os.urandom(%d << 20)"}`, 256<<20, stateMB)
	if s, d := p.do(t, "POST", "/v1/templates", body); s != 202 {
		t.Fatalf("create: %d %v", s, d)
	}
	var desc map[string]any
	poll.Until(t, 2*time.Minute, "the template's build", func() bool {
		_, desc = p.do(t, "GET", "/v1/templates/big", "")
		if desc["state"] == "failed" {
			t.Fatalf("the build failed: %v", desc)
		}
		return desc["state"] == "ready"
	})
	if sb, _ := desc["stateBytes"].(float64); sb < stateMB<<20 {
		t.Fatalf("the template's state is %v bytes, want at least %d MB: %v", desc["stateBytes"], stateMB, desc)
	}
	run := `{"language":"python","template":"big","code":"page = bytearray(4096)\nlen(big) + big[12345] * 0"}`
	if s, d := p.do(t, "POST", "/v1/evaluate", run); s != 200 || d["value"] != float64(stateMB<<20) {
		t.Fatalf("a run from the template: %d %v", s, d)
	}
	before := vmRSS(t, p.cmd.Process.Pid)

	const runs, workers = 1000, 4
	var next, failed atomic.Int64
	var first sync.Once
	var firstErr string
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= runs {
				s, d, err := p.post("/v1/evaluate", run)
				if err != nil || s != 200 || d["value"] != float64(stateMB<<20) {
					failed.Add(1)
					first.Do(func() { firstErr = fmt.Sprintf("%d %v %v", s, d, err) })
				}
			}
		}()
	}
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Fatalf("%d of %d runs failed; the first: %s", n, runs, firstErr)
	}
	after := vmRSS(t, p.cmd.Process.Pid)
	t.Logf("%d runs from a %d MB template in %v; server RSS %d MiB before, %d MiB after", runs, stateMB, time.Since(start).Round(time.Millisecond), before>>20, after>>20)
	if grew := after - before; grew > 100<<20 {
		t.Fatalf("the server's RSS grew by %d MiB over %d runs (%d → %d MiB), want at most 100 MiB", grew>>20, runs, before>>20, after>>20)
	}
}
