-- Each product's stock per warehouse, kept by the database itself on every
-- write to stock_mappings (statement triggers over transition tables: one
-- aggregate per statement, whatever the writer). The stock figures of
-- products (GET /api/articleDetails, list items, stock.changed events, the
-- belowReorderPoint filter) read these few rows instead of summing every
-- mapping: a product stored on 1000 bins costs one row, not 1000.
-- mappings counts the product's mappings in the warehouse: a warehouse is
-- listed in warehouseStocks while it holds any.
CREATE TABLE stock_totals (
    article_detail_id BIGINT NOT NULL,
    warehouse_id      BIGINT NOT NULL,
    stock             BIGINT NOT NULL DEFAULT 0,
    reserved_stock    BIGINT NOT NULL DEFAULT 0,
    mappings          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (article_detail_id, warehouse_id)
);
--bun:split
INSERT INTO stock_totals (article_detail_id, warehouse_id, stock, reserved_stock, mappings)
SELECT article_detail_id, warehouse_id, SUM(stock), SUM(reserved_stock), COUNT(*)
FROM stock_mappings GROUP BY article_detail_id, warehouse_id;
--bun:split
CREATE FUNCTION stock_totals_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Rows in key order, so that two statements never wait on each other crosswise.
    INSERT INTO stock_totals AS t (article_detail_id, warehouse_id, stock, reserved_stock, mappings)
    SELECT article_detail_id, warehouse_id, SUM(stock), SUM(reserved_stock), SUM(n)
    FROM (SELECT article_detail_id, warehouse_id, stock, reserved_stock, 1 AS n FROM new_rows) AS d
    GROUP BY article_detail_id, warehouse_id
    ORDER BY article_detail_id, warehouse_id
    ON CONFLICT (article_detail_id, warehouse_id) DO UPDATE SET
        stock = t.stock + EXCLUDED.stock,
        reserved_stock = t.reserved_stock + EXCLUDED.reserved_stock,
        mappings = t.mappings + EXCLUDED.mappings;
    RETURN NULL;
END $$;
--bun:split
CREATE FUNCTION stock_totals_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Rows in key order, so that two statements never wait on each other crosswise.
    INSERT INTO stock_totals AS t (article_detail_id, warehouse_id, stock, reserved_stock, mappings)
    SELECT article_detail_id, warehouse_id, SUM(stock), SUM(reserved_stock), SUM(n)
    FROM (SELECT article_detail_id, warehouse_id, stock, reserved_stock, 1 AS n FROM new_rows
          UNION ALL SELECT article_detail_id, warehouse_id, -stock, -reserved_stock, -1 FROM old_rows) AS d
    GROUP BY article_detail_id, warehouse_id
    ORDER BY article_detail_id, warehouse_id
    ON CONFLICT (article_detail_id, warehouse_id) DO UPDATE SET
        stock = t.stock + EXCLUDED.stock,
        reserved_stock = t.reserved_stock + EXCLUDED.reserved_stock,
        mappings = t.mappings + EXCLUDED.mappings;
    RETURN NULL;
END $$;
--bun:split
CREATE FUNCTION stock_totals_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Rows in key order, so that two statements never wait on each other crosswise.
    INSERT INTO stock_totals AS t (article_detail_id, warehouse_id, stock, reserved_stock, mappings)
    SELECT article_detail_id, warehouse_id, SUM(stock), SUM(reserved_stock), SUM(n)
    FROM (SELECT article_detail_id, warehouse_id, -stock AS stock, -reserved_stock AS reserved_stock, -1 AS n FROM old_rows) AS d
    GROUP BY article_detail_id, warehouse_id
    ORDER BY article_detail_id, warehouse_id
    ON CONFLICT (article_detail_id, warehouse_id) DO UPDATE SET
        stock = t.stock + EXCLUDED.stock,
        reserved_stock = t.reserved_stock + EXCLUDED.reserved_stock,
        mappings = t.mappings + EXCLUDED.mappings;
    RETURN NULL;
END $$;
--bun:split
CREATE TRIGGER stock_totals_insert AFTER INSERT ON stock_mappings
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_totals_after_insert();
--bun:split
CREATE TRIGGER stock_totals_update AFTER UPDATE ON stock_mappings
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_totals_after_update();
--bun:split
CREATE TRIGGER stock_totals_delete AFTER DELETE ON stock_mappings
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_totals_after_delete();
