-- Purchase orders (extensions R). Their warehouse is no foreign key: a
-- warehouse that is deleted leaves its purchase orders readable, and a
-- receipt against them fails like any operation naming an unknown warehouse.
CREATE TABLE purchase_orders (
    id           BIGINT PRIMARY KEY,
    number       TEXT NOT NULL,
    supplier     TEXT NOT NULL DEFAULT '',
    warehouse_id BIGINT NOT NULL,
    status       TEXT NOT NULL,
    -- a date, YYYY-MM-DD, which orders and compares as text
    expected_at  TEXT,
    created_at   TIMESTAMPTZ NOT NULL
);
--bun:split
CREATE UNIQUE INDEX purchase_orders_number_key ON purchase_orders (number);
--bun:split
CREATE INDEX purchase_orders_status ON purchase_orders (status, id);
--bun:split
CREATE TABLE purchase_order_lines (
    id                BIGINT PRIMARY KEY,
    purchase_order_id BIGINT NOT NULL REFERENCES purchase_orders (id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    article_detail_id BIGINT NOT NULL REFERENCES article_details (id),
    quantity          INTEGER NOT NULL CHECK (quantity > 0),
    received          INTEGER NOT NULL DEFAULT 0 CHECK (received >= 0 AND received <= quantity)
);
--bun:split
CREATE INDEX purchase_order_lines_order ON purchase_order_lines (purchase_order_id, position);
--bun:split
CREATE INDEX purchase_order_lines_article ON purchase_order_lines (article_detail_id);
--bun:split
CREATE TABLE purchase_receipts (
    id                BIGSERIAL PRIMARY KEY,
    purchase_order_id BIGINT NOT NULL REFERENCES purchase_orders (id) ON DELETE CASCADE,
    created_at        TIMESTAMPTZ NOT NULL,
    user_name         TEXT NOT NULL DEFAULT ''
);
--bun:split
CREATE INDEX purchase_receipts_order ON purchase_receipts (purchase_order_id, id);
--bun:split
CREATE TABLE purchase_receipt_lines (
    receipt_id        BIGINT NOT NULL REFERENCES purchase_receipts (id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    line_id           BIGINT NOT NULL,
    article_detail_id BIGINT NOT NULL,
    quantity          INTEGER NOT NULL CHECK (quantity > 0),
    warehouse_id      BIGINT NOT NULL,
    bin_location_id   BIGINT NOT NULL,
    PRIMARY KEY (receipt_id, position)
);
--bun:split
-- incomingStock per product, kept by the transactions that change it (the
-- service computes it, as it does the other figures' totals); a product
-- with nothing incoming has no row or a row of 0.
CREATE TABLE incoming_stock (
    article_detail_id BIGINT PRIMARY KEY REFERENCES article_details (id) ON DELETE CASCADE,
    quantity          BIGINT NOT NULL CHECK (quantity >= 0)
);
--bun:split
ALTER TABLE stock_ledger_entries ADD COLUMN purchase_order_id BIGINT;
--bun:split
CREATE INDEX stock_ledger_entries_purchase_order ON stock_ledger_entries (purchase_order_id) WHERE purchase_order_id IS NOT NULL;
