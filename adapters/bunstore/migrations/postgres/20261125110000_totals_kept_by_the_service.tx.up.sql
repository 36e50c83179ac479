-- A product's stock per warehouse (stock_totals) and what its positions
-- still have to ship (stock_snapshots.outstanding) are kept by the
-- transactions that change them, as the domain computes them
-- (stock.ApplyTotals, order.Order.Demand), no longer by triggers.
DROP TRIGGER stock_totals_insert ON stock_mappings;
--bun:split
DROP TRIGGER stock_totals_update ON stock_mappings;
--bun:split
DROP TRIGGER stock_totals_delete ON stock_mappings;
--bun:split
DROP FUNCTION stock_totals_after_insert();
--bun:split
DROP FUNCTION stock_totals_after_update();
--bun:split
DROP FUNCTION stock_totals_after_delete();
--bun:split
DELETE FROM stock_totals WHERE mappings = 0;
--bun:split
ALTER TABLE stock_snapshots ADD COLUMN outstanding BIGINT NOT NULL DEFAULT 0;
--bun:split

-- Existing data, once: every product gets a snapshot, holding what its
-- positions still have to ship.
INSERT INTO stock_snapshots (article_detail_id) SELECT id FROM article_details
ON CONFLICT (article_detail_id) DO NOTHING;
--bun:split
UPDATE stock_snapshots AS ss SET outstanding = d.outstanding
FROM (SELECT article_detail_id, SUM(outstanding) AS outstanding FROM order_details
      WHERE outstanding > 0 GROUP BY article_detail_id) AS d
WHERE d.article_detail_id = ss.article_detail_id;
