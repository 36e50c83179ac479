-- Reorder points (extensions E4).
ALTER TABLE article_details ADD COLUMN reorder_point INTEGER NOT NULL DEFAULT 0 CHECK (reorder_point >= 0);
--bun:split

-- The last stock figures recorded per article detail: a transaction
-- compares its figures with these to decide whether stock.changed and
-- stock.low fire (application/events.go).
CREATE TABLE stock_snapshots (
    article_detail_id BIGINT PRIMARY KEY,
    figures           TEXT NOT NULL DEFAULT '',
    below             BOOLEAN NOT NULL DEFAULT FALSE
);
--bun:split

-- The feed's counters: 'last' is the last feed position handed out; every
-- transaction that records events takes its positions from it as its last
-- statement, so the row lock orders them by commit. 'purged' is the last
-- position purged.
CREATE TABLE event_feed (
    name  TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
--bun:split
INSERT INTO event_feed (name, value) VALUES ('last', 0), ('purged', 0);
--bun:split

-- id is the feed position.
CREATE TABLE events (
    id         BIGINT PRIMARY KEY,
    type       TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    data       TEXT NOT NULL
);
--bun:split
CREATE INDEX events_created_at ON events (created_at);
--bun:split

CREATE TABLE webhooks (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    url         TEXT NOT NULL,
    events      TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    enabled     BOOLEAN NOT NULL,
    secret      TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);
--bun:split

CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id       BIGINT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id         BIGINT NOT NULL,
    type             TEXT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'pending',
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_status_code INTEGER,
    last_error       TEXT NOT NULL DEFAULT '',
    next_attempt_at  TIMESTAMP,
    first_attempt_at TIMESTAMP,
    locked_until     TIMESTAMP,
    delivered_at     TIMESTAMP,
    created_at       TIMESTAMP NOT NULL
);
--bun:split
CREATE UNIQUE INDEX webhook_deliveries_event ON webhook_deliveries (webhook_id, event_id);
--bun:split
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, event_id) WHERE status = 'pending';
--bun:split

-- The mail outbox shares the lease queue with webhook deliveries.
ALTER TABLE mail_outbox ADD COLUMN first_attempt_at TIMESTAMP;
