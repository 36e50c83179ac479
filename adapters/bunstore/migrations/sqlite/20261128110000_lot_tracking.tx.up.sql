-- Lots (extensions B): whether a product's stock is kept per lot, and the
-- expired part of each product's stock per warehouse, kept beside its
-- stock by the transactions that change it (the lots whose expiry is
-- counted: domain/stock Lot.ExpiryCounted).
ALTER TABLE article_details ADD COLUMN lot_tracked BOOLEAN NOT NULL DEFAULT FALSE;
--bun:split
ALTER TABLE stock_totals ADD COLUMN expired_stock BIGINT NOT NULL DEFAULT 0;
