-- 0003 (PostgreSQL): see ../0003_request_id.sql.
ALTER TABLE executions ADD COLUMN request_id TEXT NOT NULL DEFAULT '';
