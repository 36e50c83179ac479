-- A row of events may hold several (extensions E2 stays one event per feed
-- position): n events from position id on, their types joined by commas
-- and their data by the ASCII record separator (0x1E), which JSON text never
-- holds unescaped. A transaction records its events as one row: a batch's
-- hundred stock.changed cost one row and its TOAST chunks, not a hundred
-- rows (adapters/bunstore/events.go).
ALTER TABLE events ADD COLUMN n INTEGER NOT NULL DEFAULT 1;
--bun:split
-- lz4 where the server has it: compressing the row's data cheaply makes it
-- fewer TOAST chunks to write. Without lz4, stored out of line uncompressed.
DO $$
BEGIN
    ALTER TABLE events ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    ALTER TABLE events ALTER COLUMN data SET STORAGE EXTERNAL;
END $$;
