-- Each product's stock per warehouse, kept by the database itself on every
-- write to stock_mappings (see the PostgreSQL migration of the same name;
-- SQLite has row triggers only, which run in process and cost little).
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
CREATE TRIGGER stock_totals_insert AFTER INSERT ON stock_mappings BEGIN
    INSERT INTO stock_totals (article_detail_id, warehouse_id, stock, reserved_stock, mappings)
    VALUES (NEW.article_detail_id, NEW.warehouse_id, NEW.stock, NEW.reserved_stock, 1)
    ON CONFLICT (article_detail_id, warehouse_id) DO UPDATE SET
        stock = stock + excluded.stock, reserved_stock = reserved_stock + excluded.reserved_stock, mappings = mappings + 1;
END;
--bun:split
-- A mapping never changes product or warehouse (its bin is fixed).
CREATE TRIGGER stock_totals_update AFTER UPDATE OF stock, reserved_stock ON stock_mappings BEGIN
    UPDATE stock_totals SET stock = stock + NEW.stock - OLD.stock, reserved_stock = reserved_stock + NEW.reserved_stock - OLD.reserved_stock
    WHERE article_detail_id = NEW.article_detail_id AND warehouse_id = NEW.warehouse_id;
END;
--bun:split
CREATE TRIGGER stock_totals_delete AFTER DELETE ON stock_mappings BEGIN
    UPDATE stock_totals SET stock = stock - OLD.stock, reserved_stock = reserved_stock - OLD.reserved_stock, mappings = mappings - 1
    WHERE article_detail_id = OLD.article_detail_id AND warehouse_id = OLD.warehouse_id;
END;
