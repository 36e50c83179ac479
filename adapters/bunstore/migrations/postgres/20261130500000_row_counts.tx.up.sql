-- The number of rows of the tables that lists show unfiltered at any size,
-- kept as rows are inserted and deleted, so that a first page does not
-- count millions of rows. Each inserting or deleting statement adds one row
-- here (a statement-level trigger, once per statement whatever its number
-- of rows), so concurrent writers never queue on one counter row; the
-- count is the sum of a table's rows, and the service folds them into one
-- now and then (adapters/bunstore/row_counts.go).
CREATE TABLE row_counts (
    name TEXT NOT NULL,
    n BIGINT NOT NULL
);
--bun:split
CREATE INDEX row_counts_name ON row_counts (name);
--bun:split
CREATE FUNCTION row_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO row_counts (name, n) SELECT TG_TABLE_NAME, COUNT(*) FROM inserted HAVING COUNT(*) > 0;
    RETURN NULL;
END $$;
--bun:split
CREATE FUNCTION row_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO row_counts (name, n) SELECT TG_TABLE_NAME, -COUNT(*) FROM deleted HAVING COUNT(*) > 0;
    RETURN NULL;
END $$;
--bun:split
-- The triggers come before the counts: creating one locks out writers of
-- its table until this migration commits, so the count taken afterwards
-- misses no row and no row is counted twice.
CREATE TRIGGER stock_ledger_entries_counted_insert AFTER INSERT ON stock_ledger_entries
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION row_counts_inserted();
--bun:split
CREATE TRIGGER stock_ledger_entries_counted_delete AFTER DELETE ON stock_ledger_entries
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION row_counts_deleted();
--bun:split
CREATE TRIGGER orders_counted_insert AFTER INSERT ON orders
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION row_counts_inserted();
--bun:split
CREATE TRIGGER orders_counted_delete AFTER DELETE ON orders
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION row_counts_deleted();
--bun:split
INSERT INTO row_counts (name, n) SELECT 'stock_ledger_entries', COUNT(*) FROM stock_ledger_entries;
--bun:split
INSERT INTO row_counts (name, n) SELECT 'orders', COUNT(*) FROM orders;
