CREATE TABLE warehouses (
    id                       INTEGER PRIMARY KEY AUTOINCREMENT,
    code                     TEXT NOT NULL,
    name                     TEXT NOT NULL,
    stock_available_for_sale BOOLEAN NOT NULL DEFAULT TRUE,
    is_default               BOOLEAN NOT NULL DEFAULT FALSE,
    is_default_return        BOOLEAN NOT NULL DEFAULT FALSE,
    null_bin_location_id     BIGINT,
    contact                  TEXT NOT NULL DEFAULT '',
    email                    TEXT NOT NULL DEFAULT '',
    phone                    TEXT NOT NULL DEFAULT '',
    address                  TEXT NOT NULL DEFAULT '',
    comment                  TEXT NOT NULL DEFAULT '',
    bin_location_format      TEXT NOT NULL DEFAULT '[]'
);
--bun:split
CREATE UNIQUE INDEX warehouses_code_key ON warehouses (code);
--bun:split
CREATE UNIQUE INDEX warehouses_one_default ON warehouses (is_default) WHERE is_default;
--bun:split
CREATE UNIQUE INDEX warehouses_one_default_return ON warehouses (is_default_return) WHERE is_default_return;
--bun:split
CREATE TABLE bin_locations (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    warehouse_id BIGINT NOT NULL REFERENCES warehouses (id) ON DELETE CASCADE,
    code         TEXT NOT NULL
);
--bun:split
CREATE UNIQUE INDEX bin_locations_warehouse_code_key ON bin_locations (warehouse_id, code);
--bun:split
CREATE TABLE api_users (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    name     TEXT NOT NULL,
    key_hash TEXT NOT NULL
);
--bun:split
CREATE UNIQUE INDEX api_users_name_key ON api_users (name);
--bun:split
CREATE TABLE article_details (
    id     INTEGER PRIMARY KEY,
    number TEXT NOT NULL,
    name   TEXT NOT NULL DEFAULT ''
);
--bun:split
CREATE UNIQUE INDEX article_details_number_key ON article_details (number);
--bun:split
CREATE TABLE stock_mappings (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    bin_location_id   BIGINT NOT NULL REFERENCES bin_locations (id),
    warehouse_id      BIGINT NOT NULL,
    article_detail_id BIGINT NOT NULL REFERENCES article_details (id),
    stock             INTEGER NOT NULL,
    reserved_stock    INTEGER NOT NULL DEFAULT 0,
    is_default        BOOLEAN NOT NULL DEFAULT FALSE,
    last_stock_take   TIMESTAMP,
    CHECK (stock >= 0 AND reserved_stock >= 0 AND reserved_stock <= stock)
);
--bun:split
CREATE UNIQUE INDEX stock_mappings_bin_article_key ON stock_mappings (bin_location_id, article_detail_id);
--bun:split
CREATE INDEX stock_mappings_article_warehouse ON stock_mappings (article_detail_id, warehouse_id);
--bun:split
CREATE INDEX stock_mappings_warehouse ON stock_mappings (warehouse_id);
--bun:split
CREATE UNIQUE INDEX stock_mappings_one_default ON stock_mappings (article_detail_id, warehouse_id) WHERE is_default;
--bun:split
CREATE TABLE stock_ledger_entries (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    article_detail_id BIGINT NOT NULL,
    warehouse_id      BIGINT NOT NULL,
    bin_location_id   BIGINT NOT NULL,
    type              TEXT NOT NULL,
    quantity          INTEGER NOT NULL,
    stock_after       INTEGER NOT NULL,
    idempotency_key   TEXT,
    operation_id      TEXT,
    order_id          BIGINT,
    order_detail_id   BIGINT,
    user_name         TEXT NOT NULL DEFAULT '',
    created_at        TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX stock_ledger_entries_mapping ON stock_ledger_entries (bin_location_id, article_detail_id);
--bun:split
CREATE TABLE idempotency_keys (
    key         TEXT PRIMARY KEY,
    endpoint    TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    response    BLOB,
    created_at  TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
--bun:split
CREATE TABLE orders (
    id             INTEGER PRIMARY KEY,
    number         TEXT NOT NULL,
    status         TEXT NOT NULL,
    customer_email TEXT NOT NULL DEFAULT ''
);
--bun:split
CREATE UNIQUE INDEX orders_number_key ON orders (number);
--bun:split
CREATE TABLE order_details (
    id                INTEGER PRIMARY KEY,
    order_id          BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    article_detail_id BIGINT NOT NULL REFERENCES article_details (id),
    quantity          INTEGER NOT NULL,
    shipped           INTEGER NOT NULL,
    status            TEXT NOT NULL
);
--bun:split
CREATE INDEX order_details_order ON order_details (order_id);
--bun:split
CREATE INDEX order_details_article ON order_details (article_detail_id);
--bun:split
CREATE TABLE mail_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient       TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    next_attempt_at TIMESTAMP NOT NULL,
    locked_until    TIMESTAMP,
    sent_at         TIMESTAMP,
    failed_at       TIMESTAMP,
    created_at      TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX mail_outbox_pending ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;
