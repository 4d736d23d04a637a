package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver

	"github.com/wasmexec/wasmexec"
)

// PostgreSQL, the second backend.
//
// The two backends share every method of Store; the differences are here
// and at the few places that test s.pg:
//
//   - Placeholders: the shared SQL is written with '?'; q rewrites it to
//     $1, $2, … once per statement (cached).
//   - Counting: SQLite keeps the record count in memory (one process owns
//     the file). PostgreSQL may be shared by many nodes, so the count lives
//     in the row store_state(id=1), and every write transaction starts with
//     SELECT … FOR UPDATE on it (lockCount). That lock serializes writers
//     across all nodes, which gives three things at once: the count cap is
//     exact, a seq is taken and committed before the next writer takes one
//     (List cursors are as stable as with SQLite), and two sweepers can
//     never interleave.
//   - Sweeping: one sweeper across the cluster. Each Store's sweep loop runs
//     a sweep only while it holds a session advisory lock (sweepLockKey) on
//     a connection it keeps; the others try again every followerRetry (2 s),
//     so when the holder's process dies (its session ends) another takes
//     over.
//     The cap is also enforced by every Save, so it never depends on the
//     sweeper.
//   - Migrations run under another advisory lock, so nodes starting at once
//     apply each migration once.
//   - Durability: a Save returns nil after COMMIT returned, which with
//     synchronous_commit=on (PostgreSQL's default) means the commit record
//     is flushed to the server's WAL. A lost connection before that is an
//     error: the completion is not reported as stored.
type pgState struct {
	url string // redacted

	qmu   sync.Mutex
	qs    map[string]string
	lmu   sync.Mutex
	lconn *sql.Conn // holds sweepLockKey while this Store is the sweeper
}

// Advisory lock keys (pg_advisory_lock takes a bigint): "wasmexec" in
// ASCII, plus one for each use.
const (
	sweepLockKey   int64 = 0x7761736d65786563
	migrateLockKey int64 = 0x7761736d65786564
)

// pgWriteTimeout bounds one group commit in PostgreSQL.
const pgWriteTimeout = 30 * time.Second

// pgMaxConns bounds the pool of one Store: its writes are serialized by
// wsem (one connection), the rest serve reads.
const pgMaxConns = 8

// openPostgres opens the store in the PostgreSQL database at cfg.URL,
// applies pending migrations under an advisory lock and starts the sweeper.
func openPostgres(ctx context.Context, cfg Config) (*Store, error) {
	redacted := RedactURL(cfg.URL)
	connCfg, err := pgx.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %s", redacted, redactErr(err, cfg.URL))
	}
	if connCfg.ConnectTimeout == 0 {
		connCfg.ConnectTimeout = 10 * time.Second
	}
	s := &Store{
		cfg:  cfg,
		path: redacted,
		log:  cfg.Logger.With("component", "store", "backend", "postgres"),
		pg:   &pgState{url: redacted, qs: map[string]string{}},
		wsem: make(chan struct{}, 1),
		wake: make(chan struct{}, 1),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	s.plannedMs.Store(1<<63 - 1)
	s.w = stdlib.OpenDB(*connCfg)
	s.w.SetMaxOpenConns(pgMaxConns)
	s.w.SetMaxIdleConns(pgMaxConns)
	s.w.SetConnMaxIdleTime(5 * time.Minute)
	s.r = s.w
	fail := func(what string, err error) (*Store, error) {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: %s%s", redacted, what, redactErr(err, cfg.URL))
	}
	if err := s.w.PingContext(ctx); err != nil {
		return fail("cannot reach PostgreSQL: ", err)
	}
	if err := s.migratePostgres(ctx); err != nil {
		return fail("", err)
	}
	if cfg.manualSweep {
		close(s.done)
	} else {
		go s.sweepLoop()
	}
	return s, nil
}

// migratePostgres applies the PostgreSQL migrations on one connection that
// holds migrateLockKey, so concurrent Opens apply each migration once.
func (s *Store) migratePostgres(ctx context.Context) error {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return fmt.Errorf("cannot reach PostgreSQL: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrateLockKey); err != nil {
		return fmt.Errorf("take the migration lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrateLockKey)
	return migrate(ctx, conn, postgresMigrations, s.cfg.Now())
}

// closePostgres releases the sweeper lock (if held) and closes the pool.
func (s *Store) closePostgres() error {
	s.pg.lmu.Lock()
	if s.pg.lconn != nil {
		// Release at once, so a Store opened next takes over without
		// waiting for the server to end this session.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		s.pg.lconn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", sweepLockKey)
		cancel()
		s.pg.lconn.Close()
		s.pg.lconn = nil
	}
	s.pg.lmu.Unlock()
	if err := s.w.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", s.path, err)
	}
	return nil
}

// statsPostgres: the counted records and the bytes of the store's tables
// with their indexes and TOAST.
func (s *Store) statsPostgres(ctx context.Context) (int, int64, error) {
	var count, size int64
	err := s.r.QueryRowContext(ctx, `SELECT (SELECT executions FROM store_state WHERE id = 1),
		pg_total_relation_size('executions') + pg_total_relation_size('events') + pg_total_relation_size('tombstones')`).Scan(&count, &size)
	if err != nil {
		return 0, 0, s.dbError("stats", err)
	}
	return int(count), size, nil
}

// q returns query with its '?' placeholders as PostgreSQL wants them
// ($1, $2, …), or unchanged for SQLite. The shared SQL has no '?' other
// than placeholders.
func (s *Store) q(query string) string {
	if s.pg == nil {
		return query
	}
	s.pg.qmu.Lock()
	defer s.pg.qmu.Unlock()
	if r, ok := s.pg.qs[query]; ok {
		return r
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	s.pg.qs[query] = b.String()
	return b.String()
}

// lockCount starts a write inside tx: for PostgreSQL it locks the
// store_state row (serializing writers on every node) and returns the
// record count; for SQLite the caller already holds wsem, the only writer.
func (s *Store) lockCount(ctx context.Context, tx *sql.Tx) (int, error) {
	if s.pg == nil {
		return s.count, nil
	}
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT executions FROM store_state WHERE id = 1 FOR UPDATE").Scan(&n); err != nil {
		return 0, err
	}
	return int(n), nil
}

// addCount records delta more rows inside tx (PostgreSQL) or, after the
// commit, in memory (SQLite: call committed).
func (s *Store) addCount(ctx context.Context, tx *sql.Tx, delta int) error {
	if s.pg == nil || delta == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, "UPDATE store_state SET executions = executions + $1 WHERE id = 1", delta)
	return err
}

// committed applies delta to the in-memory count of SQLite after a commit.
func (s *Store) committed(delta int) {
	if s.pg == nil {
		s.count += delta
	}
}

// tombstoneSQL inserts (or replaces) tombstones from sel, a SELECT of (id,
// removed_at_ms, reason, tenant).
func (s *Store) tombstoneSQL(sel string) string {
	if s.pg == nil {
		return "INSERT OR REPLACE INTO tombstones (id, removed_at_ms, reason, tenant) " + sel
	}
	return s.q("INSERT INTO tombstones (id, removed_at_ms, reason, tenant) " + sel +
		" ON CONFLICT (id) DO UPDATE SET removed_at_ms = excluded.removed_at_ms, reason = excluded.reason, tenant = excluded.tenant, n = excluded.n")
}

// tombstoneOrder is the column that orders removals: SQLite's rowid, n in
// PostgreSQL.
func (s *Store) tombstoneOrder() string {
	if s.pg == nil {
		return "rowid"
	}
	return "n"
}

// isUniqueViolation reports a duplicate key: the id is already stored.
func isUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// leadSweeps reports whether this Store is the cluster's sweeper, taking
// the sweeper lock when it is free. Always true for SQLite.
func (s *Store) leadSweeps(ctx context.Context) (bool, error) {
	if s.pg == nil {
		return true, nil
	}
	s.pg.lmu.Lock()
	defer s.pg.lmu.Unlock()
	if s.pg.lconn != nil {
		// Still ours while the session lives.
		if err := s.pg.lconn.PingContext(ctx); err == nil {
			return true, nil
		}
		s.pg.lconn.Close()
		s.pg.lconn = nil
	}
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return false, err
	}
	var got bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", sweepLockKey).Scan(&got); err != nil {
		conn.Close()
		return false, err
	}
	if !got {
		conn.Close()
		return false, nil
	}
	s.pg.lconn = conn
	return true, nil
}

// RedactURL returns u with its password (in the user info or a password
// parameter) replaced by "xxxxx", for logs and errors. A string that does
// not parse as a URL is replaced whole.
func RedactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(an unparsable URL)"
	}
	if q := p.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		p.RawQuery = q.Encode()
	}
	return p.Redacted()
}

// redactErr is err's message with any occurrence of the URL's password
// removed (drivers may echo the connection string).
func redactErr(err error, u string) string {
	msg := err.Error()
	if p, perr := url.Parse(u); perr == nil {
		if pw, ok := p.User.Password(); ok && pw != "" {
			msg = strings.ReplaceAll(msg, pw, "xxxxx")
		}
		if pw := p.Query().Get("password"); pw != "" {
			msg = strings.ReplaceAll(msg, pw, "xxxxx")
		}
	}
	return msg
}

// dbError wraps a failure of a statement. A PostgreSQL that cannot be
// reached (connection refused or lost, server shutting down) is
// wasmexec.EUnavailable, so the server answers 503 with Retry-After rather
// than 500.
func (s *Store) dbError(what string, err error) error {
	if err == nil {
		return nil
	}
	if s.pg != nil && isConnectionError(err) {
		return &wasmexec.Error{Code: wasmexec.EUnavailable, Message: fmt.Sprintf("the execution store (PostgreSQL at %s) is unavailable: %s", s.pg.url, what), Err: err}
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

// isConnectionError reports a failure to reach or keep talking to the
// server, as opposed to an error the server returned for a statement: a
// PgError of class 08 (connection exception) or 57P0x (the server is
// shutting down or starting), or any error that is not the server's and
// not a cancelled context (dial, EOF, a closed connection, a server that
// did not answer before a deadline).
func isConnectionError(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P0")
	}
	return true
}

// Ping checks that the store can be reached: for PostgreSQL a round trip
// to the server (wasmexec.EUnavailable when it fails), for SQLite only that
// the Store is open.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	if s.pg == nil {
		return nil
	}
	return s.dbError("ping", s.r.PingContext(ctx))
}
