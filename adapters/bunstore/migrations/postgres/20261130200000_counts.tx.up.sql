-- Counts (cycle counting). A count's warehouse is no foreign key: a
-- warehouse deleted later leaves its counts readable.
CREATE TABLE counts (
    id           BIGSERIAL PRIMARY KEY,
    warehouse_id BIGINT NOT NULL,
    status       TEXT NOT NULL,
    blind        BOOLEAN NOT NULL DEFAULT FALSE,
    lock_bins    BOOLEAN NOT NULL DEFAULT FALSE,
    -- the products a count by products covers, as a comma list; NULL: all
    articles     TEXT,
    user_name    TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMPTZ NOT NULL
);
--bun:split
CREATE INDEX counts_status ON counts (status, id);
--bun:split
CREATE INDEX counts_warehouse ON counts (warehouse_id, id);
--bun:split
-- The bins a count covers, with the ledger position of its snapshot.
CREATE TABLE count_bins (
    count_id        BIGINT NOT NULL REFERENCES counts (id) ON DELETE CASCADE,
    bin_location_id BIGINT NOT NULL,
    code            TEXT NOT NULL,
    position        BIGINT NOT NULL,
    counted         BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (count_id, bin_location_id)
);
--bun:split
-- What the snapshot held per bin, product and lot ('' for none).
CREATE TABLE count_snapshot (
    count_id          BIGINT NOT NULL REFERENCES counts (id) ON DELETE CASCADE,
    bin_location_id   BIGINT NOT NULL,
    article_detail_id BIGINT NOT NULL,
    lot_number        TEXT NOT NULL DEFAULT '',
    stock             INTEGER NOT NULL,
    PRIMARY KEY (count_id, bin_location_id, article_detail_id, lot_number)
);
--bun:split
-- What was found per bin, product and lot.
CREATE TABLE count_lines (
    count_id          BIGINT NOT NULL REFERENCES counts (id) ON DELETE CASCADE,
    bin_location_id   BIGINT NOT NULL,
    article_detail_id BIGINT NOT NULL,
    lot_number        TEXT NOT NULL DEFAULT '',
    -- a new lot's date, YYYY-MM-DD; best_before_given tells null from absent
    best_before       TEXT,
    best_before_given BOOLEAN NOT NULL DEFAULT FALSE,
    quantity          INTEGER NOT NULL CHECK (quantity >= 0),
    PRIMARY KEY (count_id, bin_location_id, article_detail_id, lot_number)
);
--bun:split
-- One open count per bin: a row per bin of every Open count, claimed at
-- creation and given back when the count is applied or cancelled. The
-- batch path reads the locked ones of its warehouses with its locations.
CREATE TABLE count_open_bins (
    bin_location_id BIGINT PRIMARY KEY,
    count_id        BIGINT NOT NULL,
    warehouse_id    BIGINT NOT NULL,
    locked          BOOLEAN NOT NULL
);
--bun:split
CREATE INDEX count_open_bins_locked ON count_open_bins (warehouse_id) WHERE locked;
--bun:split
CREATE INDEX count_open_bins_count ON count_open_bins (count_id);
--bun:split
ALTER TABLE stock_ledger_entries ADD COLUMN count_id BIGINT;
--bun:split
CREATE INDEX stock_ledger_entries_count ON stock_ledger_entries (count_id) WHERE count_id IS NOT NULL;
