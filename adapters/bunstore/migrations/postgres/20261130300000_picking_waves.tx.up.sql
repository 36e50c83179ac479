-- Picking waves: many orders picked in one walk. The reservations
-- themselves stay the orders' (reservations); a wave's tasks group them
-- per bin, product and lot and count what was picked. What was skipped
-- at creation is written once, as JSON text.
CREATE TABLE picking_waves (
    id           BIGSERIAL PRIMARY KEY,
    warehouse_id BIGINT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    user_name    TEXT NOT NULL DEFAULT '',
    skipped      TEXT NOT NULL DEFAULT '[]'
);
--bun:split
CREATE INDEX picking_waves_warehouse ON picking_waves (warehouse_id, id);
--bun:split
-- Task ids count within their wave.
CREATE TABLE picking_wave_tasks (
    wave_id           BIGINT NOT NULL REFERENCES picking_waves (id) ON DELETE CASCADE,
    id                BIGINT NOT NULL,
    bin_location_id   BIGINT NOT NULL,
    bin_location_code TEXT NOT NULL,
    article_detail_id BIGINT NOT NULL,
    lot_number        TEXT NOT NULL DEFAULT '',
    status            TEXT NOT NULL,
    PRIMARY KEY (wave_id, id)
);
--bun:split
CREATE TABLE picking_wave_task_orders (
    wave_id         BIGINT NOT NULL,
    task_id         BIGINT NOT NULL,
    order_detail_id BIGINT NOT NULL,
    order_id        BIGINT NOT NULL,
    quantity        INTEGER NOT NULL CHECK (quantity >= 0),
    picked          INTEGER NOT NULL CHECK (picked >= 0 AND picked <= quantity),
    PRIMARY KEY (wave_id, task_id, order_detail_id),
    FOREIGN KEY (wave_id, task_id) REFERENCES picking_wave_tasks (wave_id, id) ON DELETE CASCADE
);
--bun:split
CREATE INDEX picking_wave_task_orders_order ON picking_wave_task_orders (order_id, wave_id);
--bun:split
CREATE TABLE picking_wave_shorts (
    wave_id         BIGINT NOT NULL REFERENCES picking_waves (id) ON DELETE CASCADE,
    order_detail_id BIGINT NOT NULL,
    order_id        BIGINT NOT NULL,
    quantity        INTEGER NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (wave_id, order_detail_id)
);
--bun:split
-- The first Open orders by id, for a wave that takes them.
CREATE INDEX orders_status_id ON orders (status, id);
