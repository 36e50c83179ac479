-- events.created_at only serves the purge, which looks for the last event
-- older than the retention (MAX(id) WHERE created_at < …). A BRIN index
-- answers that as well, since events are appended in time order, and costs
-- an insert almost nothing, where the B-tree cost each of a batch's hundred
-- events an index entry.
DROP INDEX events_created_at;
--bun:split
CREATE INDEX events_created_at ON events USING brin (created_at);
