-- 0007: a run's rich outputs (exec.Result.Outputs: display data such as
-- figures) as JSON {"items": [...], "dropped": N}; NULL when it made none.
ALTER TABLE executions ADD COLUMN outputs BLOB;
