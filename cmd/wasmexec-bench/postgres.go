package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/store"
)

func init() {
	register("postgres", benchPostgres)
}

// benchPostgres compares one-shot throughput with the PostgreSQL store (a
// throwaway cluster of Debian's server on this machine, fsync on, default
// synchronous_commit: a reported completion survives a crash of the
// machine) against the default SQLite store (sync=normal) and SQLite with
// sync=full (the same durability as PostgreSQL here). Rounds interleave so
// the machine's noise falls on all three alike; the figures are medians of
// the rounds.
func benchPostgres(t *table, sqlite *server, dataDir string) error {
	c, err := pgtest.Start(true)
	if err != nil {
		return fmt.Errorf("start PostgreSQL (make postgres installs it): %w", err)
	}
	defer c.Close()
	url, err := c.CreateDatabase(context.Background())
	if err != nil {
		return err
	}
	pg, err := startServer(filepath.Join(dataDir, "postgres"), []string{"--store", "postgres", "--store-url", url})
	if err != nil {
		return err
	}
	defer pg.stop()
	// For comparison only: commits that do not wait for the WAL flush
	// (synchronous_commit=off), which shows how much of the cost is the
	// flush. Not the store's promise: a crash of the server may lose them.
	async, err := c.CreateDatabase(context.Background())
	if err != nil {
		return err
	}
	asyncURL := async + "&options=-c%20synchronous_commit%3Doff"
	pgAsync, err := startServer(filepath.Join(dataDir, "postgres-async"), []string{"--store", "postgres", "--store-url", asyncURL})
	if err != nil {
		return err
	}
	defer pgAsync.stop()
	full, err := startServer(filepath.Join(dataDir, "pgcmp-full"), []string{"--store-sync", "full"})
	if err != nil {
		return err
	}
	defer full.stop()
	body := `{"language":"javascript","code":"1+1"}`
	var onPG, onAsync, onSQLite, onFull []float64
	for range 3 {
		onPG = append(onPG, pg.throughput("/v1/evaluate", body, 4, *duration).rate)
		onAsync = append(onAsync, pgAsync.throughput("/v1/evaluate", body, 4, *duration).rate)
		onSQLite = append(onSQLite, sqlite.throughput("/v1/evaluate", body, 4, *duration).rate)
		onFull = append(onFull, full.throughput("/v1/evaluate", body, 4, *duration).rate)
	}
	p, s, f := pct(onPG, 50), pct(onSQLite, 50), pct(onFull, 50)
	t.add("JS throughput c=4: postgres / sqlite normal / sqlite full (req/s)", fmt.Sprintf("%.0f / %.0f / %.0f", p, s, f), "report")
	t.add("one-shot throughput ratio postgres / sqlite (default)", fmt.Sprintf("%.2f", p/s), "report")
	t.add("one-shot throughput ratio postgres / sqlite sync=full", fmt.Sprintf("%.2f", p/f), "report")
	t.add("JS throughput c=4: postgres synchronous_commit=off, not durable (req/s)", fmt.Sprintf("%.0f", pct(onAsync, 50)), "report")
	if n, _, err := storeStats(url); err == nil {
		t.add("postgres records kept after the runs (cap 1024)", fmt.Sprint(n), "1024")
	}
	return nil
}

// storeStats opens the benchmark's PostgreSQL store beside the server (a
// second node's view) and reads its record count and size.
func storeStats(url string) (int, int64, error) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{URL: url})
	if err != nil {
		return 0, 0, err
	}
	defer st.Close()
	return st.Stats(ctx)
}

// startPostgres starts a throwaway PostgreSQL cluster (fsync on) with one
// database for wasmexec; stop removes it.
func startPostgres() (url string, stop func(), err error) {
	c, err := pgtest.Start(true)
	if err != nil {
		return "", nil, fmt.Errorf("start PostgreSQL (make postgres installs it): %w", err)
	}
	if url, err = c.CreateDatabase(context.Background()); err != nil {
		c.Close()
		return "", nil, err
	}
	return url, c.Close, nil
}
