-- Lots (extensions B). A lot belongs to one article detail and is named by
-- its number; its best-before date is fixed by the first stock that named
-- it. Lots stay after their last piece left, for tracing.
CREATE TABLE lots (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    article_detail_id BIGINT NOT NULL REFERENCES article_details (id) ON DELETE CASCADE,
    number            TEXT NOT NULL,
    -- a date, YYYY-MM-DD, which orders and compares as text
    best_before       TEXT,
    -- domain/stock Lot.ExpiryCounted: its pieces count in stock_totals.expired_stock
    expiry_counted    BOOLEAN NOT NULL DEFAULT FALSE,
    created_at        TIMESTAMP NOT NULL
);
--bun:split
CREATE UNIQUE INDEX lots_article_number_key ON lots (article_detail_id, number);
--bun:split
CREATE INDEX lots_number ON lots (number);
--bun:split
CREATE INDEX lots_best_before ON lots (best_before) WHERE best_before IS NOT NULL;
--bun:split
-- What each lot holds on each mapping of a lot-tracked product: the
-- mapping's stock and reserved_stock are the sums of its rows here, written
-- in the same transaction.
CREATE TABLE lot_stock (
    article_detail_id BIGINT NOT NULL,
    bin_location_id   BIGINT NOT NULL,
    warehouse_id      BIGINT NOT NULL,
    lot_number        TEXT NOT NULL,
    stock             INTEGER NOT NULL,
    reserved_stock    INTEGER NOT NULL DEFAULT 0,
    CHECK (stock >= 0 AND reserved_stock >= 0 AND reserved_stock <= stock),
    PRIMARY KEY (article_detail_id, bin_location_id, lot_number),
    FOREIGN KEY (article_detail_id, lot_number) REFERENCES lots (article_detail_id, number)
);
--bun:split
CREATE INDEX lot_stock_lot ON lot_stock (article_detail_id, lot_number);
--bun:split
CREATE INDEX lot_stock_bin ON lot_stock (bin_location_id);
--bun:split
-- The lot of a ledger entry, NULL for products that are not lot-tracked;
-- the index holds only the entries that have one, so untracked stock pays
-- nothing for it.
ALTER TABLE stock_ledger_entries ADD COLUMN lot_number TEXT;
--bun:split
CREATE INDEX stock_ledger_entries_lot ON stock_ledger_entries (lot_number, id) WHERE lot_number IS NOT NULL;
--bun:split
-- A position may hold pieces of two lots on one bin: the lot is part of a
-- reservation's key ('' for products that are not lot-tracked). SQLite
-- cannot change a table's key, so the table is built anew.
CREATE TABLE reservations_new (
    order_detail_id   BIGINT NOT NULL REFERENCES order_details (id) ON DELETE CASCADE,
    bin_location_id   BIGINT NOT NULL REFERENCES bin_locations (id),
    warehouse_id      BIGINT NOT NULL,
    article_detail_id BIGINT NOT NULL,
    quantity          INTEGER NOT NULL CHECK (quantity > 0),
    -- the order the position made them in: the last made is released first
    position          INTEGER NOT NULL,
    lot_number        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (order_detail_id, bin_location_id, lot_number)
);
--bun:split
INSERT INTO reservations_new (order_detail_id, bin_location_id, warehouse_id, article_detail_id, quantity, position)
SELECT order_detail_id, bin_location_id, warehouse_id, article_detail_id, quantity, position FROM reservations;
--bun:split
DROP TABLE reservations;
--bun:split
ALTER TABLE reservations_new RENAME TO reservations;
--bun:split
CREATE INDEX reservations_mapping ON reservations (bin_location_id, article_detail_id);
--bun:split
ALTER TABLE return_details ADD COLUMN lot_number TEXT;
--bun:split
ALTER TABLE purchase_receipt_lines ADD COLUMN lot_number TEXT;
