-- The number of rows of the tables that lists show unfiltered at any size,
-- kept as rows are inserted and deleted, so that a first page does not
-- count millions of rows. SQLite's writers take turns, so one row per
-- table, updated by a trigger per row, is never waited for
-- (adapters/bunstore/row_counts.go).
CREATE TABLE row_counts (
    name TEXT NOT NULL PRIMARY KEY,
    n INTEGER NOT NULL
) WITHOUT ROWID;
--bun:split
INSERT INTO row_counts (name, n) SELECT 'stock_ledger_entries', COUNT(*) FROM stock_ledger_entries;
--bun:split
INSERT INTO row_counts (name, n) SELECT 'orders', COUNT(*) FROM orders;
--bun:split
CREATE TRIGGER stock_ledger_entries_counted_insert AFTER INSERT ON stock_ledger_entries
BEGIN
    UPDATE row_counts SET n = n + 1 WHERE name = 'stock_ledger_entries';
END;
--bun:split
CREATE TRIGGER stock_ledger_entries_counted_delete AFTER DELETE ON stock_ledger_entries
BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'stock_ledger_entries';
END;
--bun:split
CREATE TRIGGER orders_counted_insert AFTER INSERT ON orders
BEGIN
    UPDATE row_counts SET n = n + 1 WHERE name = 'orders';
END;
--bun:split
CREATE TRIGGER orders_counted_delete AFTER DELETE ON orders
BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'orders';
END;
