-- New products, orders, purchase orders, transfers and their positions take
-- their ids from a sequence per table (takeIDs), which no writer waits for;
-- each starts after the largest id stored.
CREATE SEQUENCE article_details_id_seq OWNED BY article_details.id;
--bun:split
SELECT setval('article_details_id_seq', COALESCE((SELECT MAX(id) FROM article_details), 0) + 1, false);
--bun:split
CREATE SEQUENCE orders_id_seq OWNED BY orders.id;
--bun:split
SELECT setval('orders_id_seq', COALESCE((SELECT MAX(id) FROM orders), 0) + 1, false);
--bun:split
CREATE SEQUENCE order_details_id_seq OWNED BY order_details.id;
--bun:split
SELECT setval('order_details_id_seq', COALESCE((SELECT MAX(id) FROM order_details), 0) + 1, false);
--bun:split
CREATE SEQUENCE purchase_orders_id_seq OWNED BY purchase_orders.id;
--bun:split
SELECT setval('purchase_orders_id_seq', COALESCE((SELECT MAX(id) FROM purchase_orders), 0) + 1, false);
--bun:split
CREATE SEQUENCE purchase_order_lines_id_seq OWNED BY purchase_order_lines.id;
--bun:split
SELECT setval('purchase_order_lines_id_seq', COALESCE((SELECT MAX(id) FROM purchase_order_lines), 0) + 1, false);
--bun:split
CREATE SEQUENCE transfers_id_seq OWNED BY transfers.id;
--bun:split
SELECT setval('transfers_id_seq', COALESCE((SELECT MAX(id) FROM transfers), 0) + 1, false);
--bun:split
CREATE SEQUENCE transfer_lines_id_seq OWNED BY transfer_lines.id;
--bun:split
SELECT setval('transfer_lines_id_seq', COALESCE((SELECT MAX(id) FROM transfer_lines), 0) + 1, false);
