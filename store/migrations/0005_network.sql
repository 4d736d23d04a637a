-- 0005: the HTTP requests a run made through the host (exec.Result.Network,
-- issue 18) as a JSON array; NULL when it made none.
ALTER TABLE executions ADD COLUMN network BLOB;
