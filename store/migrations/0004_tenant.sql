-- 0004: the tenant (of the API key) an execution belongs to, '' on an open
-- server, so ownership survives a restart: with a tenant in the reader's
-- context, another tenant's record (or tombstone) reads as not_found.
ALTER TABLE executions ADD COLUMN tenant TEXT NOT NULL DEFAULT '';
ALTER TABLE tombstones ADD COLUMN tenant TEXT NOT NULL DEFAULT '';
-- List filtered by tenant, newest first.
CREATE INDEX executions_tenant ON executions (tenant, seq);
