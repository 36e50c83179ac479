-- The statements a write transaction runs to record its events, as
-- functions: PL/pgSQL keeps their plans per connection, so a batch does not
-- plan them again (about 0.7 ms of a 1000-operation batch's events). They
-- do what the statements they replace did, in the same order: each
-- statement in a VOLATILE function reads a snapshot taken when it starts, as
-- separate statements of READ COMMITTED do (adapters/bunstore/events.go).


-- What the products' figures are made of: kind 'w' rows are the stock per
-- warehouse (stock_totals, where the product has mappings), kind 'o' rows
-- what orders still have to ship.
CREATE FUNCTION inventory_stock_of(p_ids BIGINT[])
RETURNS TABLE (kind TEXT, article_detail_id BIGINT, warehouse_id BIGINT, warehouse_code TEXT,
               stock_available_for_sale BOOLEAN, stock BIGINT, reserved_stock BIGINT)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY
    SELECT 'w'::TEXT, t.article_detail_id, t.warehouse_id, w.code, w.stock_available_for_sale, t.stock, t.reserved_stock
    FROM stock_totals AS t JOIN warehouses AS w ON w.id = t.warehouse_id
    WHERE t.article_detail_id = ANY (p_ids) AND t.mappings > 0
    UNION ALL
    SELECT 'o'::TEXT, od.article_detail_id, 0::BIGINT, ''::TEXT, FALSE, SUM(od.outstanding)::BIGINT, 0::BIGINT
    FROM order_details AS od
    WHERE od.article_detail_id = ANY (p_ids) AND od.outstanding > 0
    GROUP BY od.article_detail_id
    ORDER BY 2, 3;
END $$;
--bun:split

-- The snapshots of the given products, locked (FOR UPDATE OF the
-- snapshots) in id order, with the products' columns that the figures need:
-- kind 's' rows (figures, number, name, below, reorder point); then, read
-- by a statement of its own that starts after the lock was granted, what the
-- figures are made of (inventory_stock_of): kind 'w' and 'o' rows (code,
-- stockAvailableForSale, stock or outstanding, reserved). One call, one
-- result.
CREATE FUNCTION inventory_lock_snapshots(p_ids BIGINT[])
RETURNS TABLE (kind TEXT, article_detail_id BIGINT, warehouse_id BIGINT, text1 TEXT, text2 TEXT, text3 TEXT,
               flag BOOLEAN, number1 BIGINT, number2 BIGINT)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY
    SELECT 's'::TEXT, ss.article_detail_id, 0::BIGINT, ss.figures, a.number, a.name, ss.below, a.reorder_point::BIGINT, 0::BIGINT
    FROM stock_snapshots AS ss JOIN article_details AS a ON a.id = ss.article_detail_id
    WHERE ss.article_detail_id = ANY (p_ids)
    ORDER BY ss.article_detail_id
    FOR UPDATE OF ss;
    RETURN QUERY
    SELECT o.kind, o.article_detail_id, o.warehouse_id, o.warehouse_code, ''::TEXT, ''::TEXT,
        o.stock_available_for_sale, o.stock, o.reserved_stock
    FROM inventory_stock_of(p_ids) AS o;
END $$;
--bun:split

-- Records a transaction's snapshots and events, as its last statements:
-- the snapshots first, outside the span that holds the feed lock; then
-- p_n positions from the feed counter, whose row lock orders the recording
-- transactions by commit; then the events as one row from the first of
-- those positions (p_types joined by commas, p_data, their JSON, by the
-- record separator), and a delivery for every enabled webhook that wants
-- one of them.
CREATE FUNCTION inventory_record_events(p_ids BIGINT[], p_figures TEXT[], p_below BOOLEAN[],
                                        p_n INTEGER, p_at TIMESTAMPTZ, p_types TEXT, p_data TEXT)
RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
    v_last BIGINT;
BEGIN
    UPDATE stock_snapshots AS s SET figures = v.figures, below = v.below
    FROM unnest(p_ids, p_figures, p_below) AS v(id, figures, below)
    WHERE s.article_detail_id = v.id;
    IF p_n = 0 THEN
        RETURN;
    END IF;
    UPDATE event_feed SET value = value + p_n WHERE name = 'last' RETURNING value INTO v_last;
    INSERT INTO events (id, n, type, created_at, data) VALUES (v_last - p_n + 1, p_n, p_types, p_at, p_data);
    -- This statement starts after the feed lock was granted: it sees every
    -- webhook change committed before.
    INSERT INTO webhook_deliveries (webhook_id, event_id, type, status, next_attempt_at, created_at)
    SELECT w.id, v_last - p_n + e.ord, e.type, 'pending', clock_timestamp(), clock_timestamp()
    FROM string_to_table(p_types, ',') WITH ORDINALITY AS e(type, ord)
    JOIN webhooks AS w ON w.enabled AND ',' || w.events || ',' LIKE '%,' || e.type || ',%'
    ORDER BY w.id, e.ord;
END $$;
