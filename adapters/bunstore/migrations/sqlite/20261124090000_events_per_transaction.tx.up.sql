-- A row of events may hold several (extensions E2 stays one event per feed
-- position): n events from position id on, their types joined by commas
-- and their data by the ASCII record separator (0x1E), which JSON text never
-- holds unescaped. SQLite writes one event per row; PostgreSQL writes a
-- transaction's events as one row (adapters/bunstore/events.go).
ALTER TABLE events ADD COLUMN n INTEGER NOT NULL DEFAULT 1;
