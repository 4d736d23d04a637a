-- 0001: completed executions, their retained output events, and tombstones
-- for ids that expired or were evicted (so reads can say execution_expired).

-- seq is a monotonic insertion id (AUTOINCREMENT: never reused, even after the
-- newest row is deleted). It orders List pages and keys the events.
CREATE TABLE executions (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    id               TEXT    NOT NULL UNIQUE,
    kind             TEXT    NOT NULL,
    language         TEXT    NOT NULL,
    context_id       TEXT    NOT NULL DEFAULT '',
    pid              INTEGER NOT NULL DEFAULT 0,
    outcome          TEXT    NOT NULL,
    error            BLOB,                       -- JSON exec.ErrorData; NULL when none
    exit_code        INTEGER NOT NULL DEFAULT 0,
    value            BLOB,                       -- raw JSON; NULL when none
    stdout           BLOB,                       -- NULL when not captured
    stderr           BLOB,                       -- NULL when not captured
    stdout_truncated INTEGER NOT NULL DEFAULT 0,
    stderr_truncated INTEGER NOT NULL DEFAULT 0,
    started_at_ms    INTEGER NOT NULL,
    completed_at_ms  INTEGER NOT NULL,
    duration_ms      REAL    NOT NULL DEFAULT 0,
    fuel_consumed    INTEGER NOT NULL DEFAULT 0, -- uint64 stored as its int64 bits
    context_reset    INTEGER NOT NULL DEFAULT 0,
    code_sha256      TEXT    NOT NULL DEFAULT '',
    code             BLOB,                       -- first MaxCodeBytes of the code
    code_bytes       INTEGER NOT NULL DEFAULT 0, -- size of the code before the cap
    events_retained  INTEGER NOT NULL DEFAULT 0,
    output_truncated INTEGER NOT NULL DEFAULT 0, -- the retained event log dropped events
    extra            BLOB,                       -- raw JSON; NULL when none
    expires_at_ms    INTEGER NOT NULL            -- completed_at_ms + TTL at save time
);

-- The sweeper sleeps until MIN(expires_at_ms) and deletes rows at or past it.
CREATE INDEX executions_expires_at ON executions (expires_at_ms);
-- The count cap evicts oldest completions first: ORDER BY completed_at_ms, seq.
CREATE INDEX executions_completed_at ON executions (completed_at_ms);
-- List filtered by context, newest first.
CREATE INDEX executions_context ON executions (context_id, seq);

CREATE TABLE events (
    exec_seq     INTEGER NOT NULL REFERENCES executions (seq) ON DELETE CASCADE,
    sequence     INTEGER NOT NULL,
    pid          INTEGER NOT NULL DEFAULT 0,
    channel      TEXT    NOT NULL,
    chunk        BLOB    NOT NULL,
    timestamp_ms INTEGER NOT NULL,
    PRIMARY KEY (exec_seq, sequence)
) WITHOUT ROWID;

-- One row per id removed by expiry or eviction. Rowid order is removal order;
-- the oldest are trimmed to keep the table bounded (Config.MaxTombstones).
CREATE TABLE tombstones (
    id            TEXT    NOT NULL PRIMARY KEY,
    removed_at_ms INTEGER NOT NULL,
    reason        TEXT    NOT NULL -- 'expired' | 'evicted'
);
