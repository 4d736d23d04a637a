package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// A flood of 200 concurrent TypeScript evaluations against the real binary
// (--max-concurrent 4 --max-queued 16) queues, times out and is refused
// like JavaScript: the transpile happens inside the run, in a worker
// process, after a run slot is held. The excess gets 429 with
// Retry-After, no request waits in the queue past its timeoutMs, and a
// 1+1 afterwards answers normally.
func TestServeTypeScriptFlood(t *testing.T) {
	p := MustServe(t, t.TempDir(), "--max-concurrent", "4", "--max-queued", "16", "--queue-timeout-ms", "30000")
	const n, timeoutMs = 200, 1500
	body := fmt.Sprintf(`{"language":"typescript","timeoutMs":%d,"code":"const t: number = Date.now(); let i: number = 0; while (Date.now() - t < 100) { i++ }; i > 0"}`, timeoutMs)
	type answer struct {
		status  int
		retry   string
		outcome string
		waited  time.Duration
	}
	answers := make([]answer, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			resp, err := http.Post(p.base+"/v1/evaluate", "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			var m map[string]any
			json.NewDecoder(resp.Body).Decode(&m)
			o, _ := m["outcome"].(string)
			answers[i] = answer{resp.StatusCode, resp.Header.Get("Retry-After"), o, time.Since(start)}
		}()
	}
	wg.Wait()
	var ok, refused int
	for i, a := range answers {
		switch a.status {
		case 200:
			ok++
			if a.outcome != "succeeded" && a.outcome != "timed_out" {
				t.Errorf("request %d: outcome %q", i, a.outcome)
			}
		case 429:
			refused++
			if a.retry == "" {
				t.Errorf("request %d: 429 without Retry-After", i)
			}
		default:
			t.Errorf("request %d: status %d", i, a.status)
		}
		// Queue wait ≤ timeoutMs, then the run itself ≤ timeoutMs; the
		// rest is slack for a loaded machine, far below the 30 s queue
		// timeout a request would have waited before.
		if a.waited > 2*timeoutMs*time.Millisecond+10*time.Second {
			t.Errorf("request %d waited %s", i, a.waited)
		}
	}
	t.Logf("%d answered, %d refused", ok, refused)
	if ok == 0 || refused == 0 {
		t.Fatalf("want both answers and refusals: %d answered, %d refused", ok, refused)
	}
	if status, m := p.do(t, "POST", "/v1/evaluate", `{"language":"javascript","code":"1+1"}`); status != 200 || m["value"] != float64(2) {
		t.Fatalf("after the flood: %d %v", status, m)
	}
}
