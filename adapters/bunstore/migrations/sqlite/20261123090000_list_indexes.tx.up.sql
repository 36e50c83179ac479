-- A list filtered by product or by warehouse walks its index in id order
-- (the lists' final sort) and counts its total on the same index, instead of
-- scanning and sorting the whole table.
CREATE INDEX stock_ledger_entries_article ON stock_ledger_entries (article_detail_id, id);
--bun:split
CREATE INDEX bin_locations_warehouse ON bin_locations (warehouse_id, id);
