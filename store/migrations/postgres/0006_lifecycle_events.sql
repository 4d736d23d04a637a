-- 0006 (PostgreSQL): the lifecycle event log behind GET /v1/events, shared
-- by every server on this database (store/eventlog.go). SQLite's 0006 is
-- empty: one server keeps its events in memory (events.Hub).

-- The one row an event write locks: it allocates the sequences of the
-- events the transaction inserts, and holds that lock until the commit, so
-- sequences are gapless and become visible in order on every server (a
-- reader never passes a sequence that commits later).
CREATE TABLE lifecycle_event_state (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    last_seq BIGINT  NOT NULL
);
INSERT INTO lifecycle_event_state (id, last_seq) VALUES (1, 0);

-- The window: the newest events (the writer deletes the older ones in the
-- same transaction). event is events.Event as JSON (the API's form:
-- without seq and tenant, which are columns).
CREATE TABLE lifecycle_events (
    seq    BIGINT PRIMARY KEY,
    tenant TEXT   NOT NULL DEFAULT '',
    event  JSONB  NOT NULL
);
