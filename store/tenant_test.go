package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

func tenantCtx(id string) context.Context {
	return wasmexec.WithTenant(context.Background(), &wasmexec.Tenant{ID: id})
}

// With a tenant in the context, the store shows that tenant's records and
// tombstones only: another tenant's id answers exactly like an unknown
// one, for Get, Output, Delete and List, and after it expires.
func TestTenantScope(t *testing.T) {
	forEachBackend(t, func(t *testing.T, be backend) {
		clock := newFakeClock()
		s := be.open(t, Config{Now: clock.Now, CompletedTTL: time.Minute})
		for _, r := range []struct{ id, tenant string }{{"exe_a", "a"}, {"exe_b", "b"}, {"exe_open", ""}} {
			res := newResult(r.id, clock.Now())
			res.Tenant = r.tenant
			MustSave(t, s, res, makeEvents(1, 3))
		}
		a, b := tenantCtx("a"), tenantCtx("b")

		if r, err := s.Get(a, "exe_a"); err != nil || r.Tenant != "a" {
			t.Fatalf("a's own record: %v %+v", err, r)
		}
		if r := MustGet(t, s, "exe_a"); r.Tenant != "a" {
			t.Fatalf("without a tenant the record reads with its tenant, got %q", r.Tenant)
		}
		_, unknown := s.Get(b, "exe_nope")
		wantCode(t, "unknown id", unknown, wasmexec.ENotFound)
		same := func(what string, err error, id string) {
			t.Helper()
			wantCode(t, what, err, wasmexec.ENotFound)
			if got, want := strings.ReplaceAll(err.Error(), id, "ID"), strings.ReplaceAll(unknown.Error(), "exe_nope", "ID"); got != want {
				t.Fatalf("%s: %q, unlike an unknown id's %q", what, got, want)
			}
		}
		for _, id := range []string{"exe_a", "exe_open"} {
			_, err := s.Get(b, id)
			same("b gets "+id, err, id)
			_, err = s.Output(b, id, "", 0)
			same("b replays "+id, err, id)
			same("b deletes "+id, s.Delete(b, id), id)
		}
		if _, err := s.Output(a, "exe_a", "", 0); err != nil {
			t.Fatalf("a replays its own: %v", err)
		}
		page, err := s.List(b, wasmexec.HistoryFilter{})
		if err != nil || len(page.Executions) != 1 || page.Executions[0].ExecutionID != "exe_b" {
			t.Fatalf("b's list: %v %+v", err, page)
		}
		if page, err := s.List(context.Background(), wasmexec.HistoryFilter{}); err != nil || len(page.Executions) != 3 {
			t.Fatalf("the server's own list (no tenant): %v %d records", err, len(page.Executions))
		}

		// Expired: the owner is told, another tenant still sees nothing.
		clock.Add(2 * time.Minute)
		mustSweep(t, s)
		_, err = s.Get(a, "exe_a")
		wantCode(t, "a's expired record", err, wasmexec.EExpired)
		_, err = s.Get(b, "exe_a")
		same("b gets a's expired record", err, "exe_a")
		_, err = s.Output(b, "exe_a", "", 0)
		same("b replays a's expired record", err, "exe_a")
	})
}

// A data directory from before migration 0004 opens: its records belong
// to no tenant, so every tenant is told not_found, and the server itself
// (no tenant) still reads them.
func TestTenantMigrationOfOldData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", dsn(path, nil))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations(migrationFS, sqliteMigrations)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := db.Exec(`CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:3] { // the schema before tenants
		if err := applyMigration(ctx, db, m, t0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO executions (id, kind, language, outcome, started_at_ms, completed_at_ms, expires_at_ms)
		VALUES ('exe_old', 'evaluate', 'javascript', 'succeeded', ?, ?, ?)`, t0.UnixMilli(), t0.UnixMilli(), t0.Add(time.Hour).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := MustOpen(t, Config{Path: path, Now: func() time.Time { return t0 }})
	if r := MustGet(t, s, "exe_old"); r.Tenant != "" {
		t.Fatalf("an old record's tenant = %q, want none", r.Tenant)
	}
	_, err = s.Get(tenantCtx("a"), "exe_old")
	wantCode(t, "a tenant reads an old record", err, wasmexec.ENotFound)
	r := newResult("exe_new", t0)
	r.Tenant = "a"
	MustSave(t, s, r, nil)
	if page, err := s.List(tenantCtx("a"), wasmexec.HistoryFilter{}); err != nil || len(page.Executions) != 1 || page.Executions[0].ExecutionID != "exe_new" {
		t.Fatalf("a's list after the migration: %v %+v", err, page)
	}
}
