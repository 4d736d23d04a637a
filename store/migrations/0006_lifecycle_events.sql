-- 0006: nothing in SQLite. The PostgreSQL 0006 adds the lifecycle event log
-- that several servers share; with SQLite there is one server, and it
-- keeps its events in memory (events.Hub). Kept so both backends have the
-- same migration numbers.
SELECT 1;
