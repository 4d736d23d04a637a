// Package store keeps the record of completed executions: the wasmexec.Result
// of each run, its retained output events, and tombstones for ids that have
// expired or been evicted. It holds them in SQLite (Config.Path, the
// default) or PostgreSQL (Config.URL), and is the only package that imports
// github.com/mattn/go-sqlite3 or github.com/jackc/pgx/v5.
//
// # Two backends, one Store
//
// Both backends are the one Store type with the same methods (Save, Get,
// List, Output, Delete, Stats, Ping, Close) and the same code for
// everything but the SQL dialect, the record count and the locks
// (postgres.go lists the differences). So every rule below holds for
// both, and one test suite runs over both (forEachBackend in the tests).
// Each backend has its own numbered migrations, with the same numbers for
// the same change: migrations/NNNN_*.sql (SQLite) and
// migrations/postgres/NNNN_*.sql; a new column needs both.
//
// What only PostgreSQL adds: several Stores (nodes) may share one
// database. Every write transaction first locks the row store_state(id=1),
// which holds the record count: writers on all nodes are serialized, so
// the cap is exact and insertion ids (seq) become visible in order, which
// keeps List cursors stable across nodes. One node at a time sweeps (a
// session advisory lock). PostgreSQL also holds the lifecycle event log
// that all nodes share (OpenEventLog, eventlog.go: an events.Log; with
// SQLite one server keeps its events in an events.Hub and migration 0006
// is empty). The sections below speak of SQLite's file; for
// PostgreSQL, "the file" is the database and "the lock file" does not
// exist.
//
// # What is stored
//
// Only completed work is stored: Save takes a finished wasmexec.Result (its
// Outcome must be one of succeeded, failed, cancelled, timed_out). A running
// execution never reaches the store, so eviction can never touch running
// work; the engine keeps live executions in memory and calls Save once they
// are done.
//
// # Expiry and the count cap
//
// A record expires TTL after its completion: expires_at = CompletedAtMs +
// CompletedTTL, fixed when the record is saved (a later change of the TTL
// applies to new records only). A record is expired at exactly expires_at:
// with a TTL of 300000 ms, a read 299999 ms after completion finds it and a
// read 300000 ms after completion gets execution_expired. Reading never
// extends the TTL. Reads compare expires_at with Config.Now, so a record that
// has expired but not yet been swept already reads as expired.
//
// One background goroutine (the sweeper) deletes expired rows. It sleeps
// until the earliest expires_at (read from an index), at most
// Config.SweepInterval, or until Save stores a record that expires earlier
// than the sweeper planned to wake. There is no timer per execution.
//
// Over Config.MaxCompleted records, Save evicts the oldest completions first
// (ORDER BY completed_at, insertion order) in the same transaction as the
// insert. Expired and evicted ids are tombstoned, so Get and Output answer
// execution_expired instead of not_found; tombstones are themselves capped at
// Config.MaxTombstones (oldest removed first), after which such an id reads
// as not_found.
//
// # Durability
//
// The database runs in WAL mode with synchronous=FULL (Config.Sync "full"; the
// server defaults to "normal", see below), and every Save is one
// transaction. In WAL mode a commit appends the transaction's pages plus a
// commit frame to the -wal file; with synchronous=FULL SQLite fsyncs the WAL
// after writing the commit frame and before COMMIT returns. So when Save
// returns nil:
//
//   - kill -9 of the process: the data was already handed to the kernel by
//     write(2) (that alone survives a process kill; synchronous=NORMAL would
//     do as well) and the next Open replays the WAL. A transaction
//     interrupted mid-way has no valid commit frame and is ignored on
//     recovery: a record is saved with all its events or not at all.
//   - power loss or kernel crash: the fsync made the WAL durable on disk.
//     synchronous=NORMAL would not guarantee this (it only fsyncs at
//     checkpoints), which is why the store uses FULL, at the cost of one
//     fsync per Save (see BenchmarkSave).
//
// This holds as long as the filesystem and disk honour fsync. Close
// checkpoints the WAL into the main file (wal_checkpoint(TRUNCATE)); an
// unclean stop only leaves a longer WAL for the next Open to replay.
//
// PostgreSQL: Save returns nil after COMMIT returned; with the server's
// default synchronous_commit=on its commit record is flushed to the
// server's WAL by then. A connection lost before that is an error
// (wasmexec.EUnavailable), and the completion is not reported as stored; the
// transaction then either committed or not, and a retry of the same id
// gets wasmexec.EConflict if it had.
//
// One Store owns its file: Open takes an exclusive lock on "<path>.lock" and
// fails if another Store (in this or another process) holds it. That keeps
// the in-memory record count (used by the cap) exact. The lock is released by
// the kernel when a process dies.
//
// # Tenants
//
// A record keeps the tenant it belongs to (wasmexec.Result.Tenant, the API
// key's tenant; "" on an open server), and so do tombstones. With a tenant
// in the caller's context (wasmexec.WithTenant), Get, Output, Delete and List
// see only that tenant's records: another tenant's id, live or expired,
// reads as not_found with the same message as an id never stored. Without
// a tenant in the context (an open server, the server's own reads) every
// record is seen. Records saved without a tenant (before migration 0004,
// or by an open server) are hidden from every tenant.
//
// # Cursors
//
// Output cursors are wasmexec.EncodeCursor(sequence), the same as the live log.
// List cursors are the store's own: "l" followed by the base-36 insertion id
// of the last record returned. A page after a cursor holds records inserted
// before it, newest first, so records saved while a client pages never shift
// or duplicate what it reads; records that expire in the meantime drop out.
//
// # Error codes
//
// Methods return *exec.Error with wasmexec.ENotFound, wasmexec.EExpired,
// wasmexec.EInvalid, wasmexec.EConflict (Save of an id already stored) or
// wasmexec.EUnavailable (the store is closed, or PostgreSQL cannot be reached:
// the message names its URL with the password redacted). Anything else is
// an internal failure of the store, wrapped with context.
//
// Size: one Store over two databases (SQLite and PostgreSQL) with the same
// semantics, their migrations, paging, retention and the shared event
// log; splitting by database would duplicate the semantics.
package store
