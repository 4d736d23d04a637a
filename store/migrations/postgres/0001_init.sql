-- 0001 (PostgreSQL): the schema of ../0001_init.sql with PostgreSQL types,
-- plus store_state, the record count every writer locks (see postgres.go).

-- seq is a monotonic insertion id. Writers hold the store_state row lock
-- from before they take a seq until they commit, so seqs become visible in
-- the order they were taken: List's cursors are as stable as in SQLite.
CREATE TABLE executions (
    seq              BIGSERIAL PRIMARY KEY,
    id               TEXT    NOT NULL UNIQUE,
    kind             TEXT    NOT NULL,
    language         TEXT    NOT NULL,
    context_id       TEXT    NOT NULL DEFAULT '',
    pid              BIGINT  NOT NULL DEFAULT 0,
    outcome          TEXT    NOT NULL,
    error            BYTEA,                      -- JSON exec.ErrorData; NULL when none
    exit_code        BIGINT  NOT NULL DEFAULT 0,
    value            BYTEA,                      -- raw JSON; NULL when none
    stdout           BYTEA,                      -- NULL when not captured
    stderr           BYTEA,                      -- NULL when not captured
    stdout_truncated BOOLEAN NOT NULL DEFAULT false,
    stderr_truncated BOOLEAN NOT NULL DEFAULT false,
    started_at_ms    BIGINT  NOT NULL,
    completed_at_ms  BIGINT  NOT NULL,
    duration_ms      DOUBLE PRECISION NOT NULL DEFAULT 0,
    fuel_consumed    BIGINT  NOT NULL DEFAULT 0, -- uint64 stored as its int64 bits
    context_reset    BOOLEAN NOT NULL DEFAULT false,
    code_sha256      TEXT    NOT NULL DEFAULT '',
    code             BYTEA,                      -- first MaxCodeBytes of the code
    code_bytes       BIGINT  NOT NULL DEFAULT 0, -- size of the code before the cap
    events_retained  BOOLEAN NOT NULL DEFAULT false,
    output_truncated BOOLEAN NOT NULL DEFAULT false,
    extra            BYTEA,                      -- raw JSON; NULL when none
    expires_at_ms    BIGINT  NOT NULL            -- completed_at_ms + TTL at save time
);

CREATE INDEX executions_expires_at ON executions (expires_at_ms);
CREATE INDEX executions_completed_at ON executions (completed_at_ms, seq);
CREATE INDEX executions_context ON executions (context_id, seq);

CREATE TABLE events (
    exec_seq     BIGINT  NOT NULL REFERENCES executions (seq) ON DELETE CASCADE,
    sequence     BIGINT  NOT NULL,
    pid          BIGINT  NOT NULL DEFAULT 0,
    channel      TEXT    NOT NULL,
    chunk        BYTEA   NOT NULL,
    timestamp_ms BIGINT  NOT NULL,
    PRIMARY KEY (exec_seq, sequence)
);

-- n orders removals (SQLite's rowid): a re-tombstoned id takes a new n.
CREATE TABLE tombstones (
    id            TEXT    NOT NULL PRIMARY KEY,
    removed_at_ms BIGINT  NOT NULL,
    reason        TEXT    NOT NULL, -- 'expired' | 'evicted'
    n             BIGSERIAL NOT NULL
);
CREATE INDEX tombstones_n ON tombstones (n);

-- The one row every write transaction locks first (SELECT … FOR UPDATE):
-- it serializes writers across every node sharing the database and holds
-- the exact number of rows in executions, which the count cap needs.
CREATE TABLE store_state (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    executions BIGINT  NOT NULL
);
INSERT INTO store_state (id, executions) VALUES (1, 0);
