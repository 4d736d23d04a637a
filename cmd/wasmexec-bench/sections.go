package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

func init() {
	register("store", benchStore)
	register("pool", benchPool)
}

// benchStore compares one-shot throughput with the SQLite store on (the
// default server) and off, and reports the store's size per record.
func benchStore(t *table, on *server, dataDir string) error {
	body := `{"language":"javascript","code":"1+1"}`
	offDir := filepath.Join(dataDir, "nostore")
	full, err := startServer(filepath.Join(dataDir, "full"), []string{"--store-sync", "full"})
	if err != nil {
		return err
	}
	defer full.stop()
	off, err := startServer(offDir, []string{"--store=false"})
	if err != nil {
		return err
	}
	defer off.stop()
	// Each round measures a server with the store and the one without
	// side by side, alternating which goes first; the cost is the median
	// of the rounds' (single 3 s runs on this machine vary by ±15%, so
	// one pair says little).
	cost := func(with *server) (float64, float64, string) {
		var costs, withs, withouts []float64
		for round := range 5 {
			a, b := with, off
			if round%2 == 1 {
				a, b = off, with
			}
			ra := a.throughput("/v1/evaluate", body, 4, *duration).rate
			rb := b.throughput("/v1/evaluate", body, 4, *duration).rate
			w, wo := ra, rb
			if round%2 == 1 {
				w, wo = rb, ra
			}
			withs, withouts, costs = append(withs, w), append(withouts, wo), append(costs, 100*(1-w/wo))
		}
		sorted := slices.Clone(costs)
		slices.Sort(sorted)
		return pct(withs, 50), pct(withouts, 50), fmt.Sprintf("%.1f%% (rounds %.0f…%.0f%%)", pct(costs, 50), sorted[0], sorted[len(sorted)-1])
	}
	w, wo, fullCost := cost(full)
	t.add("JS throughput c=4: store on (sync=full) / off (req/s, medians)", fmt.Sprintf("%.0f / %.0f", w, wo), "")
	t.add("store cost in one-shot throughput, sync=full (median of 5 rounds)", fullCost, "≤ 10%")
	_, _, normalCost := cost(on) // the default server: --store-sync=normal
	t.add("store cost in one-shot throughput, sync=normal (default; median of 5 rounds)", normalCost, "≤ 10%")
	if fi, err := os.Stat(filepath.Join(dataDir, "wasmexec.db")); err == nil {
		wal, _ := os.Stat(filepath.Join(dataDir, "wasmexec.db-wal"))
		size := fi.Size()
		if wal != nil {
			size += wal.Size()
		}
		t.add("store file size incl. WAL (MiB, ≤1024 records kept)", fmt.Sprintf("%.1f", float64(size)/(1<<20)), "report")
	}
	return nil
}

// benchPool compares one-shot latency with pre-started guests on and off.
func benchPool(t *table, _ *server, dataDir string) error {
	on, err := startServer(filepath.Join(dataDir, "pool"), []string{"--store=false"})
	if err != nil {
		return err
	}
	defer on.stop()
	off, err := startServer(filepath.Join(dataDir, "nopool"), []string{"--pool-size", "0", "--store=false"})
	if err != nil {
		return err
	}
	defer off.stop()
	// Back to back, a pool can only help as fast as it refills; paced (an
	// agent's think time between calls) every request finds a ready guest.
	for _, lang := range []struct{ name, target string }{{"javascript", "pool ≤ 2 ms"}, {"python", "pool ≤ 5 ms"}} {
		body := fmt.Sprintf(`{"language":%q,"code":"1+1"}`, lang.name)
		if _, err := on.post("/v1/evaluate", body); err != nil {
			continue
		}
		n := min(*samples, 100)
		paced := on.pacedLatencies("/v1/evaluate", body, n, 50*time.Millisecond)
		latOn := on.latencies("/v1/evaluate", body, n)
		latOff := off.latencies("/v1/evaluate", body, n)
		t.add(fmt.Sprintf("%s one-shot p50: pool paced 50 ms / pool back-to-back / no pool (ms)", lang.name), fmt.Sprintf("%.2f / %.2f / %.2f", pct(paced, 50), pct(latOn, 50), pct(latOff, 50)), lang.target)
	}
	return nil
}
