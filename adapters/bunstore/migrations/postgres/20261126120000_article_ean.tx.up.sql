-- An article detail's GTIN as the shop wrote it ('' for none). Two products
-- may not have the same GTIN, however many zeros either writes in front of
-- it: the unique index compares the eans right-justified to 14 digits.
ALTER TABLE article_details ADD COLUMN ean TEXT NOT NULL DEFAULT '';
--bun:split
CREATE UNIQUE INDEX article_details_gtin ON article_details (lpad(ean, 14, '0')) WHERE ean <> '';
--bun:split
-- The list filter and a scanned GTIN look eans up as they are stored.
CREATE INDEX article_details_ean ON article_details (ean);
