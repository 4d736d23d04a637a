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
-- Templates (templates.go): one row each, shared by every node. A build
-- is claimed by one node at a time under a lease (builder_node,
-- generation, lease_expires_at_ms, as a context's owner); its capture is
-- stored once, in chunks, with its SHA-256.
CREATE TABLE IF NOT EXISTS cluster_templates (
    template_id         TEXT PRIMARY KEY,
    tenant              TEXT NOT NULL DEFAULT '',
    implicit            BOOLEAN NOT NULL DEFAULT false,
    state               TEXT NOT NULL,   -- building, ready, failed
    meta                BYTEA NOT NULL,  -- the templates package's descriptor and recipe (JSON)
    builder_node        TEXT,            -- the node building it, or that built it last
    generation          BIGINT NOT NULL, -- +1 at every claim of a build: the fence
    lease_expires_at_ms BIGINT NOT NULL DEFAULT 0, -- of the build under way, PostgreSQL's clock
    bytes               BIGINT NOT NULL DEFAULT 0, -- state + workspace, as maxTemplateBytes counts
    capture_sha256      TEXT,            -- of the stored capture (a zstd tar: record, workspace)
    capture_bytes       BIGINT NOT NULL DEFAULT 0,
    builds              BIGINT NOT NULL DEFAULT 0, -- builds that ended (ready or failed)
    created_at_ms       BIGINT NOT NULL,
    last_used_at_ms     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS cluster_templates_tenant ON cluster_templates (tenant);
CREATE TABLE IF NOT EXISTS cluster_template_chunks (
    template_id TEXT NOT NULL REFERENCES cluster_templates ON DELETE CASCADE,
    seq         INT NOT NULL,
    data        BYTEA NOT NULL,
    PRIMARY KEY (template_id, seq)
);
