-- Nothing in the service takes positions from this sequence: the feed
-- test's variant that hands them out at insert time brings its own
-- (test/feed_order_test.go).
DROP SEQUENCE IF EXISTS events_insert_positions;
