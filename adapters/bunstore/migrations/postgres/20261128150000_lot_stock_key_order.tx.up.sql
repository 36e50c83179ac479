-- lot_stock's indexes are laid out so that every index a lookup by the
-- full key (product, bin, lot) could walk narrows it to one mapping's lots
-- at most: the key is (article_detail_id, lot_number, bin_location_id),
-- which also serves the lookups by lot and the foreign key to lots, and
-- lot_stock_mapping serves the reads and deletes by mapping. With the key
-- in the order (product, bin, lot) beside an index on (product, lot), the
-- planner, on statistics taken while the table was small, walked the
-- (product, lot) index for the updates and filtered the bin: every row of
-- the lot on every bin for each row updated.
ALTER TABLE lot_stock DROP CONSTRAINT lot_stock_pkey;
--bun:split
ALTER TABLE lot_stock ADD PRIMARY KEY (article_detail_id, lot_number, bin_location_id);
--bun:split
DROP INDEX lot_stock_lot;
--bun:split
CREATE INDEX lot_stock_mapping ON lot_stock (article_detail_id, bin_location_id);
