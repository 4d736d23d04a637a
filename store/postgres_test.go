package store

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// What only the PostgreSQL backend has: a shared database, its migrations,
// one sweeper across nodes, a server that can be unreachable. Everything
// the two backends share is tested over both (forEachBackend).

func pgVersions(t *testing.T, s *Store) []int {
	t.Helper()
	rows, err := s.r.Query("SELECT version FROM migrations ORDER BY version")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var vs []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	return vs
}

// TestPostgresMigrations: every migration applied once, also when several
// nodes open a new database at the same moment; the SQLite and PostgreSQL
// migrations have the same numbers; a newer schema is refused.
func TestPostgresMigrations(t *testing.T) {
	url := pgtest.NewDatabase(t)
	pgms, err := loadMigrations(migrationFS, postgresMigrations)
	if err != nil {
		t.Fatal(err)
	}
	sqlms, err := loadMigrations(migrationFS, sqliteMigrations)
	if err != nil {
		t.Fatal(err)
	}
	if len(pgms) != len(sqlms) {
		t.Fatalf("%d PostgreSQL migrations, %d SQLite ones: each change needs both", len(pgms), len(sqlms))
	}
	for i := range pgms {
		if pgms[i].name != sqlms[i].name {
			t.Errorf("migration %d is %s for PostgreSQL, %s for SQLite", i+1, pgms[i].name, sqlms[i].name)
		}
	}

	// Four nodes start at once on the empty database.
	stores := make([]*Store, 4)
	errs := make([]error, len(stores))
	var wg sync.WaitGroup
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = Open(context.Background(), Config{URL: url, Logger: discardLogger(), manualSweep: true})
		}()
	}
	wg.Wait()
	for i, s := range stores {
		if errs[i] != nil {
			t.Fatalf("Open %d: %v", i, errs[i])
		}
		defer s.Close()
	}
	want := make([]int, len(pgms))
	for i := range want {
		want[i] = i + 1
	}
	if got := pgVersions(t, stores[0]); !reflect.DeepEqual(got, want) {
		t.Fatalf("applied versions %v, want %v", got, want)
	}
	MustSave(t, stores[0], newResult("a", time.Now()), makeEvents(1, 3))
	MustGet(t, stores[3], "a")

	if _, err := stores[0].w.Exec("INSERT INTO migrations (version, name, applied_at_ms) VALUES (999, 'future', 0)"); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), Config{URL: url, Logger: discardLogger()})
	errContains(t, err, RedactURL(url), "schema version 999 is newer")
}

// TestPostgresOpenErrors: an unreachable server or a bad URL is an error
// at Open naming the URL, never its password.
func TestPostgresOpenErrors(t *testing.T) {
	c := pgtest.Shared(t)
	const secret = "s3cr3t-pw"
	// A port nothing listens on: the cluster's own port while it runs is
	// in use, so take another free one.
	dead := fmt.Sprintf("postgres://alice:%s@127.0.0.1:%d/db?sslmode=disable", secret, c.Port+1)
	for _, tt := range []struct {
		name, url string
		want      []string
	}{
		{"unreachable", dead, []string{"postgres://alice:xxxxx@127.0.0.1:", "cannot reach PostgreSQL"}},
		{"password parameter", strings.Replace(dead, "alice:"+secret+"@", "alice@", 1) + "&password=" + secret, []string{"password=xxxxx", "cannot reach PostgreSQL"}},
		{"bad parameter", "postgres://alice:" + secret + "@127.0.0.1/db?sslmode=sometimes", []string{"postgres://alice:xxxxx@127.0.0.1/db"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := Open(ctx, Config{URL: tt.url, Logger: discardLogger()})
			errContains(t, err, tt.want...)
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("the error shows the password: %v", err)
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:pw@h:5432/db":            "postgres://u:xxxxx@h:5432/db",
		"postgres://u@h/db?password=pw&x=1":    "postgres://u@h/db?password=xxxxx&x=1",
		"postgres://h/db":                      "postgres://h/db",
		"postgres://u:p%40ss@h/db?sslmode=off": "postgres://u:xxxxx@h/db?sslmode=off",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPostgresOneSweeper: of the Stores sharing a database only one
// sweeps; when it closes (or its process dies: the session ends either
// way) another takes over.
func TestPostgresOneSweeper(t *testing.T) {
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	a := MustOpen(t, Config{URL: url, manualSweep: true})
	b := MustOpen(t, Config{URL: url, manualSweep: true})
	if lead, err := a.leadSweeps(ctx); err != nil || !lead {
		t.Fatalf("a.leadSweeps = %v, %v; want the lock", lead, err)
	}
	if lead, err := a.leadSweeps(ctx); err != nil || !lead {
		t.Fatalf("a.leadSweeps again = %v, %v; want to keep it", lead, err)
	}
	if lead, err := b.leadSweeps(ctx); err != nil || lead {
		t.Fatalf("b.leadSweeps = %v, %v; want no lock while a holds it", lead, err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 30*time.Second, "b to take over the sweeper lock", func() bool {
		lead, err := b.leadSweeps(ctx)
		return err == nil && lead
	})
}

// TestPostgresTwoNodes: two Stores on one database, as two nodes: saves
// from both under a cap are counted exactly, each reads what the other
// wrote, and a client paging through one node while both save sees every
// record that existed when it started, once.
func TestPostgresTwoNodes(t *testing.T) {
	const (
		perNode = 80
		max     = 100
	)
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	clock := newFakeClock()
	a := MustOpen(t, Config{URL: url, MaxCompleted: max, Now: clock.Now, manualSweep: true})
	b := MustOpen(t, Config{URL: url, MaxCompleted: max, Now: clock.Now, manualSweep: true})

	// 30 records before a client starts paging.
	for i := range 30 {
		MustSave(t, a, newResult(fmt.Sprintf("before-%02d", i), t0.Add(time.Duration(i)*time.Millisecond)), nil)
	}
	first, err := b.List(ctx, wasmexec.HistoryFilter{Limit: 7})
	if err != nil || len(first.Executions) != 7 {
		t.Fatalf("first page: %v", err)
	}
	seen := map[string]int{}
	for _, r := range first.Executions {
		seen[r.ExecutionID]++
	}

	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for n, s := range map[string]*Store{"a": a, "b": b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perNode {
				// Completed later than every "before" record: once the
				// 70 free slots fill, the cap evicts those first.
				r := newResult(fmt.Sprintf("%s-%03d", n, i), t0.Add(time.Hour+time.Duration(i)*time.Millisecond))
				if err := s.Save(ctx, r, makeEvents(1, 2), false); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	// Page through b while both save: the pages after the first hold the
	// "before" records older than the cursor, and nothing new.
	cursor := first.NextCursor
	for cursor != "" {
		p, err := b.List(ctx, wasmexec.HistoryFilter{After: cursor, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Executions {
			if !strings.HasPrefix(r.ExecutionID, "before-") {
				t.Fatalf("record %s saved after the first page appeared on a later one", r.ExecutionID)
			}
			seen[r.ExecutionID]++
		}
		cursor = p.NextCursor
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("%s seen %d times", id, n)
		}
	}

	// The cap held across both nodes, exactly.
	if n, raw := storedCount(t, a), rawCount(t, a, "executions"); n != max || raw != max {
		t.Fatalf("count %d, rows %d, want %d", n, raw, max)
	}
	// 90 were evicted, oldest completions first: every "before" record
	// went, the newest of each node stayed.
	for i := range 30 {
		_, err := b.Get(ctx, fmt.Sprintf("before-%02d", i))
		wantCode(t, "evicted before record", err, wasmexec.EExpired)
	}
	got := MustGet(t, a, fmt.Sprintf("b-%03d", perNode-1))
	if got.ContextID != "ctx-1" {
		t.Fatalf("b-079 read through a: %+v", got)
	}
	MustGet(t, b, fmt.Sprintf("a-%03d", perNode-1))
}

// TestPostgresServerDown stops the server under an open Store: Save and
// reads fail with wasmexec.EUnavailable (503 with Retry-After at the HTTP
// front), a Save that failed is not stored, and once the server is back
// the same Store works again without a restart.
func TestPostgresServerDown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster of its own")
	}
	c, url := pgtest.Own(t)
	ctx := context.Background()
	s := MustOpen(t, Config{URL: url, manualSweep: true})
	MustSave(t, s, newResult("before", time.Now()), makeEvents(1, 2))

	if err := c.StopServer(); err != nil {
		t.Fatal(err)
	}
	err := s.Save(ctx, newResult("during", time.Now()), makeEvents(1, 2), false)
	wantCode(t, "Save while down", err, wasmexec.EUnavailable)
	errContains(t, err, "PostgreSQL", RedactURL(url), "unavailable")
	_, err = s.Get(ctx, "before")
	wantCode(t, "Get while down", err, wasmexec.EUnavailable)
	_, err = s.List(ctx, wasmexec.HistoryFilter{})
	wantCode(t, "List while down", err, wasmexec.EUnavailable)
	_, err = s.Output(ctx, "before", "", 0)
	wantCode(t, "Output while down", err, wasmexec.EUnavailable)

	if err := c.StartServer(); err != nil {
		t.Fatal(err)
	}
	MustGet(t, s, "before")
	_, err = s.Get(ctx, "during")
	wantCode(t, "the Save that failed", err, wasmexec.ENotFound)
	MustSave(t, s, newResult("after", time.Now()), nil)
	if n := storedCount(t, s); n != 2 {
		t.Fatalf("count %d, want 2", n)
	}
}
