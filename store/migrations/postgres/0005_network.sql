-- 0005 (PostgreSQL): see ../0005_network.sql.
ALTER TABLE executions ADD COLUMN network BYTEA;
