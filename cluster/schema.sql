-- The cluster's tables (package cluster). Created at start under an
-- advisory lock; IF NOT EXISTS makes it idempotent.
CREATE TABLE IF NOT EXISTS cluster_nodes (
    node_num      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- the high bits of its pids
    node_id       TEXT NOT NULL UNIQUE,
    url           TEXT NOT NULL,
    started_at_ms BIGINT NOT NULL,
    seen_at_ms    BIGINT NOT NULL DEFAULT 0 -- its last heartbeat (every lease/3): lists ask the live ones
);
CREATE TABLE IF NOT EXISTS cluster_contexts (
    context_id          TEXT PRIMARY KEY,
    tenant              TEXT NOT NULL DEFAULT '',
    owner_node          TEXT,   -- NULL: released, the next request claims it
    owner_url           TEXT,
    generation          BIGINT NOT NULL, -- +1 at every claim and release: the fence
    lease_expires_at_ms BIGINT NOT NULL, -- PostgreSQL's clock
    created_at_ms       BIGINT NOT NULL,
    snapshot            BYTEA,  -- zstd tar: the record, then the workspace
    snapshot_at_ms      BIGINT
);
CREATE INDEX IF NOT EXISTS cluster_contexts_owner ON cluster_contexts (owner_node);
-- The bytes of the context's workspace as its last snapshot counted them
-- (vfs's quota charge): a tenant's maxWorkspaceBytes counts its contexts
-- on the other nodes by this.
ALTER TABLE cluster_contexts ADD COLUMN IF NOT EXISTS workspace_bytes BIGINT NOT NULL DEFAULT 0;
