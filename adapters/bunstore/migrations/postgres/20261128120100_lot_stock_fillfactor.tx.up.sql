-- lot_stock's rows are updated in place when a lot's stock changes (stock
-- and reserved_stock are in no index): the free space per page keeps those
-- updates heap-only, as for stock_mappings.
ALTER TABLE lot_stock SET (fillfactor = 70);
