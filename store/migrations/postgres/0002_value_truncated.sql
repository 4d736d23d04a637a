-- 0002 (PostgreSQL): see ../0002_value_truncated.sql.
ALTER TABLE executions ADD COLUMN value_truncated BOOLEAN NOT NULL DEFAULT false;
