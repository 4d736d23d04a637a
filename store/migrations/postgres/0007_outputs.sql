-- 0007 (PostgreSQL): see ../0007_outputs.sql.
ALTER TABLE executions ADD COLUMN outputs BYTEA;
