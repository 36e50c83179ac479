-- What a position still has to ship is decided by the domain
-- (order.Order.Outstanding) and stored with the position, so that
-- availableStock sums it through an index instead of restating the rule.
-- The update fills it in once for the positions stored before, by the same rule.
ALTER TABLE order_details ADD COLUMN outstanding integer NOT NULL DEFAULT 0 CHECK (outstanding >= 0);
--bun:split

UPDATE order_details AS d
SET outstanding = CASE
    WHEN d.status <> 'Cancelled' AND o.status <> 'Cancelled' AND d.quantity > d.shipped THEN d.quantity - d.shipped
    ELSE 0 END
FROM orders AS o
WHERE o.id = d.order_id;
--bun:split

CREATE INDEX order_details_outstanding ON order_details (article_detail_id) INCLUDE (outstanding) WHERE outstanding > 0;
