-- Transfers between warehouses. Their warehouses are no foreign keys: a
-- warehouse that is deleted leaves its transfers readable, and a shipment
-- or receipt against them fails like any operation naming an unknown
-- warehouse.
CREATE TABLE transfers (
    id                       BIGINT PRIMARY KEY,
    number                   TEXT NOT NULL,
    source_warehouse_id      BIGINT NOT NULL,
    destination_warehouse_id BIGINT NOT NULL,
    status                   TEXT NOT NULL,
    created_at               TIMESTAMP NOT NULL
);
--bun:split
CREATE UNIQUE INDEX transfers_number_key ON transfers (number);
--bun:split
CREATE INDEX transfers_status ON transfers (status, id);
--bun:split
CREATE TABLE transfer_lines (
    id                BIGINT PRIMARY KEY,
    transfer_id       BIGINT NOT NULL REFERENCES transfers (id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    article_detail_id BIGINT NOT NULL REFERENCES article_details (id),
    -- the lot the line names, '' when it names none
    lot_number        TEXT NOT NULL DEFAULT '',
    quantity          INTEGER NOT NULL CHECK (quantity > 0)
);
--bun:split
CREATE INDEX transfer_lines_transfer ON transfer_lines (transfer_id, position);
--bun:split
CREATE INDEX transfer_lines_article ON transfer_lines (article_detail_id);
--bun:split
-- What each line shipped per lot ('' for a product that is not
-- lot-tracked) and what became of it; what is in transit is what is left.
CREATE TABLE transfer_line_lots (
    transfer_line_id BIGINT NOT NULL REFERENCES transfer_lines (id) ON DELETE CASCADE,
    lot_number       TEXT NOT NULL,
    position         INTEGER NOT NULL,
    shipped          INTEGER NOT NULL,
    received         INTEGER NOT NULL DEFAULT 0,
    returned         INTEGER NOT NULL DEFAULT 0,
    lost             INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (transfer_line_id, lot_number),
    CHECK (received >= 0 AND returned >= 0 AND lost >= 0 AND received + returned + lost <= shipped)
);
--bun:split
-- Shipments and receipts of transfers, with what each line moved from or
-- to which bin.
CREATE TABLE transfer_movements (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    transfer_id BIGINT NOT NULL REFERENCES transfers (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    user_name   TEXT NOT NULL DEFAULT ''
);
--bun:split
CREATE INDEX transfer_movements_transfer ON transfer_movements (transfer_id, kind, id);
--bun:split
CREATE TABLE transfer_movement_lines (
    movement_id       BIGINT NOT NULL REFERENCES transfer_movements (id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    line_id           BIGINT NOT NULL,
    article_detail_id BIGINT NOT NULL,
    quantity          INTEGER NOT NULL CHECK (quantity > 0),
    warehouse_id      BIGINT NOT NULL,
    bin_location_id   BIGINT NOT NULL,
    lot_number        TEXT,
    PRIMARY KEY (movement_id, position)
);
--bun:split
-- inTransitStock per product, kept by the transactions that change it, as
-- incoming_stock is; a product with nothing on the road has no row or a row
-- of 0.
CREATE TABLE in_transit_stock (
    article_detail_id BIGINT PRIMARY KEY REFERENCES article_details (id) ON DELETE CASCADE,
    quantity          BIGINT NOT NULL CHECK (quantity >= 0)
);
--bun:split
ALTER TABLE stock_ledger_entries ADD COLUMN transfer_id BIGINT;
--bun:split
CREATE INDEX stock_ledger_entries_transfer ON stock_ledger_entries (transfer_id) WHERE transfer_id IS NOT NULL;
