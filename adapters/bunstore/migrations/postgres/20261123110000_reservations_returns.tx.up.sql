-- Reservations hold stock for picking: one row per order position and bin
-- location. stock_mappings.reserved_stock is their sum per mapping; both are
-- written in the same transaction, under the order's row lock.
CREATE TABLE reservations (
    order_detail_id   BIGINT NOT NULL REFERENCES order_details (id) ON DELETE CASCADE,
    bin_location_id   BIGINT NOT NULL REFERENCES bin_locations (id),
    warehouse_id      BIGINT NOT NULL,
    article_detail_id BIGINT NOT NULL,
    quantity          INTEGER NOT NULL CHECK (quantity > 0),
    -- the order the position made them in: the last made is released first
    position          INTEGER NOT NULL,
    PRIMARY KEY (order_detail_id, bin_location_id)
);
--bun:split
CREATE INDEX reservations_mapping ON reservations (bin_location_id, article_detail_id);
--bun:split
ALTER TABLE order_details ADD COLUMN returned integer NOT NULL DEFAULT 0 CHECK (returned >= 0);
--bun:split
CREATE TABLE returns (
    id         BIGSERIAL PRIMARY KEY,
    order_id   BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    user_name  TEXT NOT NULL DEFAULT '',
    restock    BOOLEAN NOT NULL
);
--bun:split
CREATE INDEX returns_order ON returns (order_id);
--bun:split
CREATE TABLE return_details (
    return_id         BIGINT NOT NULL REFERENCES returns (id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    order_detail_id   BIGINT NOT NULL,
    article_detail_id BIGINT NOT NULL,
    quantity          INTEGER NOT NULL CHECK (quantity > 0),
    warehouse_id      BIGINT,
    bin_location_id   BIGINT,
    PRIMARY KEY (return_id, position)
);
