package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrationFS embed.FS

// The migrations of each backend: the same numbers for the same change.
const (
	sqliteMigrations   = "migrations"
	postgresMigrations = "migrations/postgres"
)

// migration is one embedded file migrations/NNNN_name.sql.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the migrations in dir in version order. Versions
// start at 1 and have no gaps or duplicates.
func loadMigrations(fsys fs.FS, dir string) ([]migration, error) {
	names, err := fs.Glob(fsys, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, name := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(name, dir+"/"), ".sql")
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive number", name)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d (versions start at 1, without gaps or duplicates)", m.name, i+1)
		}
	}
	return ms, nil
}

// migrate applies the embedded migrations that the migrations table does not
// list yet, each in its own transaction with its bookkeeping row. A database
// written by a newer binary (a version this one does not know) is an error.
func migrate(ctx context.Context, db migrator, dir string, now time.Time) error {
	ms, err := loadMigrations(migrationFS, dir)
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (
		version       INTEGER PRIMARY KEY,
		name          TEXT    NOT NULL,
		applied_at_ms BIGINT  NOT NULL
	)`); err != nil {
		return fmt.Errorf("create migrations table: %w", err)
	}
	var current int
	if err := db.QueryRowContext(ctx, "SELECT coalesce(max(version), 0) FROM migrations").Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > len(ms) {
		return fmt.Errorf("schema version %d is newer than this binary knows (%d): refusing to use it", current, len(ms))
	}
	for _, m := range ms[current:] {
		if err := applyMigration(ctx, db, m, now); err != nil {
			return err
		}
	}
	return nil
}

// migrator is a *sql.DB or, for PostgreSQL, the *sql.Conn that holds the
// migration lock.
type migrator interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

func applyMigration(ctx context.Context, db migrator, m migration, now time.Time) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO migrations (version, name, applied_at_ms) VALUES ($1, $2, $3)",
		m.version, m.name, now.UnixMilli()); err != nil {
		return fmt.Errorf("migration %s: record: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", m.name, err)
	}
	return nil
}
