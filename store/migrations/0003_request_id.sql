-- 0003: the X-Request-Id of the request that ran an execution
-- (exec.Result.RequestID), so a record can be found from an access log line.
ALTER TABLE executions ADD COLUMN request_id TEXT NOT NULL DEFAULT '';
