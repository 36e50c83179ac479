-- What a position still has to ship is decided by the domain
-- (order.Order.Outstanding) and stored with the position, so that
-- availableStock sums it through an index instead of restating the rule.
-- The update fills it in once for the positions stored before, by the same rule.
ALTER TABLE order_details ADD COLUMN outstanding integer NOT NULL DEFAULT 0 CHECK (outstanding >= 0);
--bun:split

UPDATE order_details
SET outstanding = CASE
    WHEN status <> 'Cancelled' AND quantity > shipped
         AND (SELECT status FROM orders WHERE orders.id = order_details.order_id) <> 'Cancelled'
    THEN quantity - shipped
    ELSE 0 END;
--bun:split

CREATE INDEX order_details_outstanding ON order_details (article_detail_id, outstanding) WHERE outstanding > 0;
