-- A product's stock per warehouse (stock_totals) and what its positions
-- still have to ship (stock_snapshots.outstanding) are kept by the
-- transactions that change them, as the domain computes them
-- (stock.ApplyTotals, order.Order.Demand), no longer by triggers.
DROP TRIGGER stock_totals_insert;
--bun:split
DROP TRIGGER stock_totals_update;
--bun:split
DROP TRIGGER stock_totals_delete;
--bun:split
DELETE FROM stock_totals WHERE mappings = 0;
--bun:split
ALTER TABLE stock_snapshots ADD COLUMN outstanding BIGINT NOT NULL DEFAULT 0;
--bun:split

-- Existing data, once: every product gets a snapshot, holding what its
-- positions still have to ship.
INSERT OR IGNORE INTO stock_snapshots (article_detail_id) SELECT id FROM article_details;
--bun:split
UPDATE stock_snapshots SET outstanding = (SELECT SUM(od.outstanding) FROM order_details AS od
    WHERE od.article_detail_id = stock_snapshots.article_detail_id AND od.outstanding > 0)
WHERE article_detail_id IN (SELECT article_detail_id FROM order_details WHERE outstanding > 0);
