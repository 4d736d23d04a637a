package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func init() {
	extraSections = append(extraSections,
		struct {
			name string
			run  func(t *table, srv *server, dataDir string) error
		}{"store", benchStore},
		struct {
			name string
			run  func(t *table, srv *server, dataDir string) error
		}{"pool", benchPool},
	)
}

// benchStore compares one-shot throughput with the SQLite store on (the
// default server) and off, and reports the store's size per record.
func benchStore(t *table, on *server, dataDir string) error {
	body := `{"language":"javascript","code":"1+1"}`
	offDir := filepath.Join(dataDir, "nostore")
	off, err := startServer(offDir, []string{"--store=false"})
	if err != nil {
		return err
	}
	defer off.stop()
	var withStore, without float64
	for round := 0; round < 2; round++ { // interleave to share the noise
		n, _ := on.throughput("/v1/evaluate", body, 4, *duration)
		withStore += n
		n, _ = off.throughput("/v1/evaluate", body, 4, *duration)
		without += n
	}
	t.add("JS throughput c=4: store on (sync=full) / off (req/s)", fmt.Sprintf("%.0f / %.0f", withStore/2, without/2), "")
	t.add("store cost in one-shot throughput, sync=full", fmt.Sprintf("%.1f%%", 100*(1-withStore/without)), "≤ 10%")
	normal, err := startServer(filepath.Join(dataDir, "normal"), []string{"--store-sync", "normal"})
	if err != nil {
		return err
	}
	defer normal.stop()
	var withNormal, without2 float64
	for round := 0; round < 2; round++ {
		n, _ := normal.throughput("/v1/evaluate", body, 4, *duration)
		withNormal += n
		n, _ = off.throughput("/v1/evaluate", body, 4, *duration)
		without2 += n
	}
	t.add("store cost in one-shot throughput, sync=normal", fmt.Sprintf("%.1f%%", 100*(1-withNormal/without2)), "≤ 10%")
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
	body := `{"language":"javascript","code":"1+1"}`
	latOn := on.latencies("/v1/evaluate", body, *samples)
	latOff := off.latencies("/v1/evaluate", body, *samples)
	t.add("JS one-shot p50 with pool / without (ms)", fmt.Sprintf("%.2f / %.2f", pct(latOn, 50), pct(latOff, 50)), "pool ≤ 2 ms")
	return nil
}
