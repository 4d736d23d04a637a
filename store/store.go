package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/wasmexec/wasmexec"
)

// Defaults for the zero fields of Config.
const (
	DefaultCompletedTTL   = 300000 * time.Millisecond
	DefaultMaxCompleted   = 1024
	DefaultMaxCodeBytes   = 64 << 10
	DefaultMaxEventsBytes = 1 << 20
	// DefaultMaxValueBytes: a larger value is not stored (valueTruncated).
	DefaultMaxValueBytes = 1 << 20
	// DefaultMaxStreamBytes: stdout and stderr keep their first bytes up
	// to this each (stdoutTruncated, stderrTruncated).
	DefaultMaxStreamBytes = 1 << 20
	// DefaultMaxErrorBytes caps the JSON of a record's error: its message
	// and stack are cut, then its details dropped ("truncated": true in the
	// details says so).
	DefaultMaxErrorBytes = 64 << 10
	// DefaultMaxExtraBytes: a larger kind-specific payload (e.g. TypeScript
	// diagnostics) is replaced by {"truncated": true, "bytes": N}.
	DefaultMaxExtraBytes = 1 << 20
	// DefaultMaxPageBytes is the byte budget of one List page.
	DefaultMaxPageBytes  = 8 << 20
	DefaultSweepInterval = 30 * time.Second
	// DefaultTombstonesPerRecord sets the default MaxTombstones to this many
	// times MaxCompleted.
	DefaultTombstonesPerRecord = 10
)

// Config configures a Store. The zero value of every field except Path means
// "use the default".
type Config struct {
	// Sync is the durability level: "full" (default) fsyncs every commit, so
	// a reported completion survives power loss; "normal" fsyncs only at
	// checkpoints: a reported completion survives kill -9 and any crash of
	// the process, but not of the machine.
	Sync string

	// Path of the SQLite file. Its directory is created if missing.
	Path string
	// URL, instead of Path, keeps the store in PostgreSQL:
	// postgres://user:password@host:port/database?sslmode=… (any
	// parameter pgx accepts). Sync does not apply: every commit is durable
	// as the server's synchronous_commit says (on by default). Several
	// Stores, in one process or many, may share one database.
	URL string
	// CompletedTTL is how long a record lives after its completion
	// (default 300000 ms). Granularity is one millisecond.
	CompletedTTL time.Duration
	// MaxCompleted caps the number of stored records (default 1024); over
	// it, the oldest completions are evicted first.
	MaxCompleted int
	// MaxCodeBytes is how much of an execution's code is kept (default 64 KiB).
	MaxCodeBytes int
	// MaxEventsBytes caps the chunk bytes of the events retained per
	// execution (default 1 MiB); the oldest events are dropped first.
	MaxEventsBytes int64
	// MaxValueBytes, MaxStreamBytes (each of stdout and stderr),
	// MaxErrorBytes and MaxExtraBytes bound what one record stores (see the
	// Default constants for what happens past them), so a record is at
	// most a few MiB whatever a run returned.
	MaxValueBytes  int
	MaxStreamBytes int
	MaxErrorBytes  int
	MaxExtraBytes  int
	// MaxPageBytes is the budget of one List page (default 8 MiB), counted
	// as the JSON of its records' value, stdout, stderr, error and extra,
	// escapes included, plus a fixed overhead per record.
	MaxPageBytes int64
	// MaxTombstones caps how many expired/evicted ids are remembered
	// (default 10×MaxCompleted).
	MaxTombstones int
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Logger receives sweeper errors and debug lines (default slog.Default()).
	Logger *slog.Logger
	// SweepInterval is the longest the sweeper sleeps (default 30 s).
	SweepInterval time.Duration

	// manualSweep disables the background sweeper (tests drive sweep directly).
	manualSweep bool
}

// withDefaults returns c with its zero fields filled in.
func (c Config) withDefaults() Config {
	if c.CompletedTTL == 0 {
		c.CompletedTTL = DefaultCompletedTTL
	}
	if c.MaxCompleted == 0 {
		c.MaxCompleted = DefaultMaxCompleted
	}
	if c.MaxCodeBytes == 0 {
		c.MaxCodeBytes = DefaultMaxCodeBytes
	}
	if c.MaxEventsBytes == 0 {
		c.MaxEventsBytes = DefaultMaxEventsBytes
	}
	if c.MaxValueBytes == 0 {
		c.MaxValueBytes = DefaultMaxValueBytes
	}
	if c.MaxStreamBytes == 0 {
		c.MaxStreamBytes = DefaultMaxStreamBytes
	}
	if c.MaxErrorBytes == 0 {
		c.MaxErrorBytes = DefaultMaxErrorBytes
	}
	if c.MaxExtraBytes == 0 {
		c.MaxExtraBytes = DefaultMaxExtraBytes
	}
	if c.MaxPageBytes == 0 {
		c.MaxPageBytes = DefaultMaxPageBytes
	}
	if c.MaxTombstones == 0 && c.MaxCompleted > 0 {
		if c.MaxCompleted > math.MaxInt/DefaultTombstonesPerRecord {
			c.MaxTombstones = math.MaxInt
		} else {
			c.MaxTombstones = DefaultTombstonesPerRecord * c.MaxCompleted
		}
	}
	if c.SweepInterval == 0 {
		c.SweepInterval = DefaultSweepInterval
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Validate reports the first invalid field: an empty Path, or a negative
// size, count or duration (zero means the default). The error is an
// *wasmexec.Error with code wasmexec.EInvalid.
func (c Config) Validate() error {
	switch {
	case c.Path == "" && c.URL == "":
		return wasmexec.Errorf(wasmexec.EInvalid, "store: Path (SQLite) or URL (PostgreSQL) is required")
	case c.Path != "" && c.URL != "":
		return wasmexec.Errorf(wasmexec.EInvalid, "store: set Path (SQLite) or URL (PostgreSQL), not both")
	case c.URL != "" && !strings.HasPrefix(c.URL, "postgres://") && !strings.HasPrefix(c.URL, "postgresql://"):
		return wasmexec.Errorf(wasmexec.EInvalid, "store: URL must start with postgres:// or postgresql://, got %q", RedactURL(c.URL))
	case c.Sync != "" && c.Sync != "full" && c.Sync != "normal":
		return wasmexec.Errorf(wasmexec.EInvalid, "store: Sync must be full or normal, got %q", c.Sync)
	case c.CompletedTTL < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "store: CompletedTTL must be positive, got %v", c.CompletedTTL)
	case c.CompletedTTL > 0 && c.CompletedTTL < time.Millisecond:
		return wasmexec.Errorf(wasmexec.EInvalid, "store: CompletedTTL must be at least 1ms, got %v", c.CompletedTTL)
	case c.MaxCompleted < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "store: MaxCompleted must be a positive integer, got %d", c.MaxCompleted)
	case c.MaxCodeBytes < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "store: MaxCodeBytes must be a positive integer, got %d", c.MaxCodeBytes)
	case c.MaxEventsBytes < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "store: MaxEventsBytes must be a positive integer, got %d", c.MaxEventsBytes)
	case c.MaxValueBytes < 0 || c.MaxStreamBytes < 0 || c.MaxExtraBytes < 0 || c.MaxPageBytes < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "store: MaxValueBytes, MaxStreamBytes, MaxExtraBytes and MaxPageBytes must be positive")
	case c.MaxErrorBytes < 0 || (c.MaxErrorBytes > 0 && c.MaxErrorBytes < minErrorBytes):
		return wasmexec.Errorf(wasmexec.EInvalid, "store: MaxErrorBytes must be at least %d, got %d", minErrorBytes, c.MaxErrorBytes)
	case c.MaxTombstones < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "store: MaxTombstones must be a positive integer, got %d", c.MaxTombstones)
	case c.SweepInterval < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "store: SweepInterval must be positive, got %v", c.SweepInterval)
	}
	return nil
}

// Store is the record of completed executions, in SQLite (Config.Path) or
// PostgreSQL (Config.URL). Both backends share this type and its code;
// what differs (SQL dialect, who counts the records, locking) is chosen
// by the pg field (see postgres.go). Its methods are safe for concurrent use.
type Store struct {
	cfg  Config
	path string // absolute (SQLite) or the redacted URL (PostgreSQL)
	log  *slog.Logger

	w    *sql.DB // SQLite: one connection, every write goes through it; PostgreSQL: the pool
	r    *sql.DB // SQLite: a read-only pool; PostgreSQL: the same pool as w
	lock *os.File

	// pg is set when the store lives in PostgreSQL.
	pg *pgState
	// evlog is the shared event log opened on this store, if any
	// (PostgreSQL): Close stops it before closing the pool it writes with.
	evlog atomic.Pointer[EventLog]

	// wsem serializes this Store's write transactions (a channel so
	// waiting respects ctx) and guards count.
	wsem  chan struct{}
	count int // SQLite: rows in executions (PostgreSQL counts in store_state)

	// plannedMs is when the sweeper next wakes (Unix ms). Save wakes it
	// earlier when it stores a record expiring before that.
	plannedMs atomic.Int64
	wake      chan struct{}
	stop      chan struct{}
	done      chan struct{}

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error

	// Group commit: concurrent Saves queue here; one of them (the leader)
	// writes every queued record in one transaction, so one fsync covers
	// many completions.
	gmu     sync.Mutex
	queue   []*pendingSave
	leading bool
}

const busyTimeoutMs = 5000

// Open opens (creating if needed) the store at cfg.Path, applies pending
// migrations and starts the sweeper. A corrupt file, an unwritable location
// or a file already opened by another Store is an error naming the path.
//
// With Config.URL it opens the PostgreSQL database instead (openPostgres):
// a database that cannot be reached is an error naming the URL with its
// password redacted.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.URL != "" {
		return openPostgres(ctx, cfg)
	}
	path, err := filepath.Abs(cfg.Path)
	if err != nil {
		return nil, fmt.Errorf("store: resolve path %s: %w", cfg.Path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("store: create directory for %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("store: open %s: is a directory, not a database file", path)
	}

	s := &Store{
		cfg:  cfg,
		path: path,
		log:  cfg.Logger.With("component", "store"),
		wsem: make(chan struct{}, 1),
		wake: make(chan struct{}, 1),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	s.plannedMs.Store(math.MaxInt64)

	ok := false
	defer func() {
		if !ok {
			s.closeHandles(false)
		}
	}()

	if s.lock, err = lockFile(path + ".lock"); err != nil {
		return nil, err
	}

	// The writer: a single connection, BEGIN IMMEDIATE, WAL, fsync per commit.
	s.w, err = sql.Open("sqlite3", dsn(path, url.Values{
		"_journal_mode":    {"WAL"},
		"_synchronous":     {s.cfg.syncMode()},
		"_busy_timeout":    {fmt.Sprint(busyTimeoutMs)},
		"_foreign_keys":    {"1"},
		"_txlock":          {"immediate"},
		"_stmt_cache_size": {"32"},
	}))
	if err != nil {
		return nil, openError(path, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0)
	s.w.SetConnMaxIdleTime(0)
	if err := s.w.PingContext(ctx); err != nil {
		return nil, openError(path, err)
	}
	var mode string
	if err := s.w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return nil, openError(path, err)
	}
	if mode != "wal" {
		return nil, fmt.Errorf("store: open %s: journal_mode is %q, want wal (is the filesystem able to hold a WAL?)", path, mode)
	}
	if err := migrate(ctx, s.w, sqliteMigrations, cfg.Now()); err != nil {
		return nil, openError(path, err)
	}
	if err := probeWritable(ctx, s.w); err != nil {
		return nil, openError(path, err)
	}

	// Readers: a small pool that can never write.
	s.r, err = sql.Open("sqlite3", dsn(path, url.Values{
		"_busy_timeout":    {fmt.Sprint(busyTimeoutMs)},
		"_foreign_keys":    {"1"},
		"_query_only":      {"1"},
		"_stmt_cache_size": {"32"},
	}))
	if err != nil {
		return nil, openError(path, err)
	}
	s.r.SetMaxOpenConns(4)
	s.r.SetMaxIdleConns(4)
	if err := s.r.PingContext(ctx); err != nil {
		return nil, openError(path, err)
	}

	if err := s.w.QueryRowContext(ctx, "SELECT count(*) FROM executions").Scan(&s.count); err != nil {
		return nil, openError(path, err)
	}

	if cfg.manualSweep {
		close(s.done)
	} else {
		go s.sweepLoop()
	}
	ok = true
	return s, nil
}

// probeWritable fails when SQLite opened the file read-only: it silently
// falls back to that when it may not write the file (an immutable file, a
// read-only mount), and every Save would fail later. A write statement that
// changes nothing is enough to ask, and the transaction is rolled back.
func probeWritable(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, "DELETE FROM migrations WHERE 0")
	return err
}

// dsn builds a go-sqlite3 data source name: a file: URI (so any byte of the
// path survives, '?' included) followed by the driver's parameters.
func dsn(path string, params url.Values) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return "file:" + u.EscapedPath() + "?" + params.Encode()
}

// openError gives a failure of Open a message that names the file and, for
// the common causes, what is wrong with it.
func openError(path string, err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
			return fmt.Errorf("store: open %s: the file is corrupt or not a SQLite database (move it aside to start with an empty store): %w", path, err)
		case sqlite3.ErrCantOpen, sqlite3.ErrPerm, sqlite3.ErrReadonly, sqlite3.ErrAuth:
			return fmt.Errorf("store: open %s: cannot open the database file for reading and writing (check the path and its permissions): %w", path, err)
		case sqlite3.ErrIoErr, sqlite3.ErrFull:
			return fmt.Errorf("store: open %s: I/O error on the database file: %w", path, err)
		}
	}
	return fmt.Errorf("store: open %s: %w", path, err)
}

// Close stops the sweeper and waits for it, checkpoints the WAL into the
// database file and closes it. It waits for a Save in progress. Calling it
// again returns the first result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		if l := s.evlog.Load(); l != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			l.Stop(ctx)
			cancel()
		}
		s.closed.Store(true)
		close(s.stop)
		<-s.done
		s.wsem <- struct{}{} // no write in flight from here on
		s.closeErr = s.closeHandles(true)
	})
	return s.closeErr
}

// closeHandles closes whatever Open managed to open, checkpointing the WAL
// first when asked (not after a failed Open: the file may be the problem).
func (s *Store) closeHandles(checkpoint bool) error {
	if s.pg != nil {
		return s.closePostgres()
	}
	var errs []error
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	if s.w != nil {
		if checkpoint {
			if _, err := s.w.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
				s.log.Warn("checkpoint on close failed", "path", s.path, "err", err)
			}
		}
		errs = append(errs, s.w.Close())
	}
	if s.lock != nil {
		errs = append(errs, unlockFile(s.lock))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("store: close %s: %w", s.path, err)
	}
	return nil
}

// Path returns the absolute path of the database file, or for PostgreSQL
// the URL with its password redacted.
func (s *Store) Path() string { return s.path }

// Stats returns the number of stored records (including expired ones not yet
// swept) and the bytes of database pages in use (page_count − freelist_count,
// × page_size; the logical size including the WAL's newer pages). The file on
// disk may be larger: freed pages are reused, not returned.
func (s *Store) Stats(ctx context.Context) (count int, sizeBytes int64, err error) {
	if err := s.checkOpen(); err != nil {
		return 0, 0, err
	}
	if s.pg != nil {
		return s.statsPostgres(ctx)
	}
	var pages, free, pageSize int64
	err = s.r.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM executions),
		(SELECT page_count FROM pragma_page_count()),
		(SELECT freelist_count FROM pragma_freelist_count()),
		(SELECT page_size FROM pragma_page_size())`).Scan(&count, &pages, &free, &pageSize)
	if err != nil {
		return 0, 0, fmt.Errorf("store: stats: %w", err)
	}
	return count, (pages - free) * pageSize, nil
}

func (s *Store) checkOpen() error {
	if s.closed.Load() {
		return wasmexec.Errorf(wasmexec.EUnavailable, "store is closed")
	}
	return nil
}

func (s *Store) nowMs() int64 { return s.cfg.Now().UnixMilli() }

// lockWrite takes the write semaphore, or fails when ctx ends first.
func (s *Store) lockWrite(ctx context.Context) error {
	select {
	case s.wsem <- struct{}{}:
		if s.closed.Load() {
			<-s.wsem
			return wasmexec.Errorf(wasmexec.EUnavailable, "store is closed")
		}
		return nil
	case <-s.stop:
		return wasmexec.Errorf(wasmexec.EUnavailable, "store is closed")
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Store) unlockWrite() { <-s.wsem }

func (c Config) syncMode() string {
	if c.Sync == "normal" {
		return "NORMAL"
	}
	return "FULL"
}
