package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() {
	register("frontdoor", benchFrontDoor)
	register("authcost", func(t *table, _ *server, dataDir string) error { return benchAuthCost(t, dataDir) })
}

// benchFrontDoor measures the front door: JS "1+1" through
// /mcp run_code against /v1/evaluate, the cost of API keys and tenant
// checks on one-shot throughput, and lifecycle events fanned out to 100
// subscribers.
func benchFrontDoor(t *table, srv *server, dataDir string) error {
	if err := benchMCP(t, srv); err != nil {
		t.add("MCP run_code", "error: "+firstLine(err.Error()), "")
	}
	if err := benchAuthCost(t, dataDir); err != nil {
		t.add("auth cost", "error: "+firstLine(err.Error()), "")
	}
	return benchEventsFanout(t, srv)
}

func benchMCP(t *table, srv *server) error {
	ctx := context.Background()
	c := sdk.NewClient(&sdk.Implementation{Name: "wasmexec-bench", Version: "1"}, nil)
	s, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.base + "/mcp", HTTPClient: srv.hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	args := map[string]any{"language": "javascript", "code": "1+1"}
	body := `{"language":"javascript","code":"1+1"}`
	var viaMCP, viaHTTP []float64
	for i := 0; i < *samples; i++ { // interleaved: same moment, same noise
		t0 := time.Now()
		res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "run_code", Arguments: args})
		if err != nil || res.IsError {
			return fmt.Errorf("run_code: %v %v", err, res)
		}
		viaMCP = append(viaMCP, float64(time.Since(t0).Microseconds())/1000)
		t0 = time.Now()
		if _, err := srv.post("/v1/evaluate", body); err == nil {
			viaHTTP = append(viaHTTP, float64(time.Since(t0).Microseconds())/1000)
		}
	}
	t.add(`javascript "1+1" p50: /mcp run_code / /v1/evaluate (ms)`, fmt.Sprintf("%.2f / %.2f", pct(viaMCP, 50), pct(viaHTTP, 50)), "report")
	return nil
}

func benchAuthCost(t *table, dataDir string) error {
	keys := filepath.Join(dataDir, "keys.json")
	const key = "bench-key-0123456789"
	if err := os.WriteFile(keys, []byte(`{"tenants":{"bench":{"maxConcurrentRuns":64,"maxRunsPerMinute":100000000}},"keys":[{"tenant":"bench","key":"`+key+`"}]}`), 0o600); err != nil {
		return err
	}
	open, err := startServer(filepath.Join(dataDir, "open"), []string{"--store=false"})
	if err != nil {
		return err
	}
	defer open.stop()
	keyed, err := startServer(filepath.Join(dataDir, "keyed"), []string{"--store=false", "--auth-keys-file", keys})
	if err != nil {
		return err
	}
	defer keyed.stop()
	keyed.hc.Transport = bearer{key, keyed.hc.Transport}
	open2, err := startServer(filepath.Join(dataDir, "open2"), []string{"--store=false"})
	if err != nil {
		return err
	}
	defer open2.stop()
	// Every client sends the key (an open server ignores it), so only the
	// servers differ.
	open.hc.Transport = bearer{key, open.hc.Transport}
	open2.hc.Transport = bearer{key, open2.hc.Transport}
	ab := compareThroughput(open, keyed)
	aa := compareThroughput(open, open2)
	t.add("one-shot throughput at c=4: open / with keys (req/s, median cost of 8 pairs)", fmt.Sprintf("%.0f / %.0f (%+.1f%%)", ab.rateA, ab.rateB, ab.cost), "≤ 3% cost")
	t.add("  server CPU per one-shot request: open / with keys (ms, median cost)", fmt.Sprintf("%.3f / %.3f (%+.1f%%)", ab.cpuA, ab.cpuB, ab.cpuCost), "≤ 3% cost")
	t.add("  control: the same on two open servers (req/s cost; CPU cost)", fmt.Sprintf("%+.1f%%; %+.1f%%", aa.cost, aa.cpuCost), "noise floor")
	return nil
}

// comparison is what compareThroughput measured.
type comparison struct {
	rateA, rateB float64 // mean req/s
	cost         float64 // median of the pairs' 100 × (1 − rateB/rateA)
	cpuA, cpuB   float64 // median server CPU ms per request
	cpuCost      float64 // median of the pairs' 100 × (cpuB/cpuA − 1)
}

// cpuSeconds is the server process's user + system CPU time so far.
func (s *server) cpuSeconds() float64 {
	u, sys := s.cpuTicks()
	return float64(u+sys) * tickMs / 1000
}

// compareThroughput measures one-shot throughput of a and b in 8 pairs of
// short runs, alternating which goes first (a b, b a, a b, ...) so neither
// always inherits the other's after-load work (pool refills, GC), with a
// pause after each run (its pool refill). Besides the rates it measures
// each server's CPU time per request (from /proc, the pool refill
// included): on a shared machine the rates move with everyone's load, the
// CPU a request costs the server much less.
func compareThroughput(a, b *server) comparison {
	body := `{"language":"javascript","code":"1+1"}`
	per := max(*duration/2, time.Second)
	a.throughput("/v1/evaluate", body, 4, per/2) // warm both
	b.throughput("/v1/evaluate", body, 4, per/2)
	const pairs = 8
	var c comparison
	var costs, cpuCosts, cpusA, cpusB []float64
	for i := 0; i < pairs; i++ {
		first, second := a, b
		if i%2 == 1 {
			first, second = b, a
		}
		rates, cpu := map[*server]float64{}, map[*server]float64{}
		for _, s := range []*server{first, second} {
			cpu0, t0 := s.cpuSeconds(), time.Now()
			rates[s] = s.throughput("/v1/evaluate", body, 4, per).rate
			n := rates[s] * time.Since(t0).Seconds()
			time.Sleep(300 * time.Millisecond) // its pool refill, counted
			cpu[s] = 1000 * (s.cpuSeconds() - cpu0) / max(n, 1)
		}
		c.rateA, c.rateB = c.rateA+rates[a]/pairs, c.rateB+rates[b]/pairs
		costs = append(costs, 100*(1-rates[b]/rates[a]))
		cpuCosts = append(cpuCosts, 100*(cpu[b]/cpu[a]-1))
		cpusA, cpusB = append(cpusA, cpu[a]), append(cpusB, cpu[b])
		fmt.Fprintf(os.Stderr, "    pair %d: %.0f / %.0f req/s, %.3f / %.3f CPU ms per request\n", i+1, rates[a], rates[b], cpu[a], cpu[b])
	}
	c.cost, c.cpuCost = median(costs), median(cpuCosts)
	c.cpuA, c.cpuB = median(cpusA), median(cpusB)
	return c
}

// median is the middle value (the mean of the two middle ones).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}

// benchEventsFanout: 100 subscribers of /v1/events; for each of n runs,
// the time from the run's answer until the last subscriber got its
// execution.completed.
func benchEventsFanout(t *table, srv *server) error {
	const subs, runs = 100, 50
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	got := map[string][]time.Time{} // executionId → receive times
	var ready sync.WaitGroup
	for i := 0; i < subs; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.base+"/v1/events?type=execution.completed", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		if resp.StatusCode != 200 {
			return fmt.Errorf("events: HTTP %d", resp.StatusCode)
		}
		ready.Add(1)
		go func() {
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			sc.Scan() // the opening comment: subscribed
			ready.Done()
			for sc.Scan() {
				line := sc.Text()
				if !strings.HasPrefix(line, "data: ") {
					continue
				}
				var e struct{ ExecutionID string }
				json.Unmarshal([]byte(line[6:]), &e)
				mu.Lock()
				got[e.ExecutionID] = append(got[e.ExecutionID], time.Now())
				mu.Unlock()
			}
		}()
	}
	ready.Wait()
	var lags []float64
	for i := 0; i < runs; i++ {
		resp, err := srv.hc.Post(srv.base+"/v1/evaluate", "application/json", strings.NewReader(`{"language":"javascript","code":"1+1"}`))
		if err != nil {
			return err
		}
		var r struct{ ExecutionID string }
		json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		answered := time.Now()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(200 * time.Microsecond) {
			mu.Lock()
			ts := got[r.ExecutionID]
			mu.Unlock()
			if len(ts) == subs {
				last := ts[0]
				for _, x := range ts {
					if x.After(last) {
						last = x
					}
				}
				lags = append(lags, float64(last.Sub(answered).Microseconds())/1000)
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("events reached %d of %d subscribers", len(ts), subs)
			}
		}
	}
	t.add("events fan-out to 100 subscribers: last delivery after the answer p50 / p95 (ms)", fmt.Sprintf("%.2f / %.2f", pct(lags, 50), pct(lags, 95)), "report")
	return nil
}
