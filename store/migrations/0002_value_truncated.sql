-- 0002: a value over Config.MaxValueBytes is not stored; this flag says so
-- (exec.Result.ValueTruncated).
ALTER TABLE executions ADD COLUMN value_truncated INTEGER NOT NULL DEFAULT 0;
