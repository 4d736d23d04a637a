-- 0004 (PostgreSQL): see ../0004_tenant.sql.
ALTER TABLE executions ADD COLUMN tenant TEXT NOT NULL DEFAULT '';
ALTER TABLE tombstones ADD COLUMN tenant TEXT NOT NULL DEFAULT '';
CREATE INDEX executions_tenant ON executions (tenant, seq);
