-- The ids of new orders, purchase orders and their positions and lines
-- that the shop does not choose come from a sequence per table, which
-- concurrent creators share without waiting for each other; each starts
-- above the ids stored so far.
CREATE SEQUENCE orders_assigned_id;
--bun:split
SELECT setval('orders_assigned_id', COALESCE(MAX(id), 0) + 1, false) FROM orders;
--bun:split
CREATE SEQUENCE order_details_assigned_id;
--bun:split
SELECT setval('order_details_assigned_id', COALESCE(MAX(id), 0) + 1, false) FROM order_details;
--bun:split
CREATE SEQUENCE purchase_orders_assigned_id;
--bun:split
SELECT setval('purchase_orders_assigned_id', COALESCE(MAX(id), 0) + 1, false) FROM purchase_orders;
--bun:split
CREATE SEQUENCE purchase_order_lines_assigned_id;
--bun:split
SELECT setval('purchase_order_lines_assigned_id', COALESCE(MAX(id), 0) + 1, false) FROM purchase_order_lines;
