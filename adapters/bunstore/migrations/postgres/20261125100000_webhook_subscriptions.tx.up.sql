-- The event types each webhook is to be sent, as the domain decided them
-- (webhook.Webhook.Receives: its types while enabled, none while disabled).
-- Recording events looks its webhooks up here by type instead of matching
-- the webhooks' own lists.
CREATE TABLE webhook_subscriptions (
    event_type TEXT NOT NULL,
    webhook_id BIGINT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    PRIMARY KEY (event_type, webhook_id)
);
--bun:split

-- Existing webhooks: their types while enabled, as Receives has it.
INSERT INTO webhook_subscriptions (event_type, webhook_id)
SELECT DISTINCT t, w.id FROM webhooks AS w, string_to_table(w.events, ',') AS t
WHERE w.enabled;
--bun:split

-- Recording events sends its statements as they are (adapters/bunstore/events.go).
DROP FUNCTION inventory_record_events(BIGINT[], TEXT[], BOOLEAN[], INTEGER, TIMESTAMPTZ, TEXT, TEXT);
--bun:split
DROP FUNCTION inventory_lock_snapshots(BIGINT[]);
--bun:split
DROP FUNCTION inventory_stock_of(BIGINT[]);
