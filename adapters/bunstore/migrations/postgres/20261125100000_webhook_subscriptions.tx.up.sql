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

CREATE OR REPLACE FUNCTION inventory_record_events(p_ids BIGINT[], p_figures TEXT[], p_below BOOLEAN[],
                                                   p_n INTEGER, p_at TIMESTAMPTZ, p_types TEXT, p_data TEXT)
RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
    v_last BIGINT;
BEGIN
    UPDATE stock_snapshots AS s SET figures = v.figures, below = v.below
    FROM unnest(p_ids, p_figures, p_below) AS v(id, figures, below)
    WHERE s.article_detail_id = v.id;
    IF p_n = 0 THEN
        RETURN;
    END IF;
    UPDATE event_feed SET value = value + p_n WHERE name = 'last' RETURNING value INTO v_last;
    INSERT INTO events (id, n, type, created_at, data) VALUES (v_last - p_n + 1, p_n, p_types, p_at, p_data);
    -- This statement starts after the feed lock was granted: it sees every
    -- webhook change committed before.
    INSERT INTO webhook_deliveries (webhook_id, event_id, type, status, next_attempt_at, created_at)
    SELECT s.webhook_id, v_last - p_n + e.ord, e.type, 'pending', clock_timestamp(), clock_timestamp()
    FROM string_to_table(p_types, ',') WITH ORDINALITY AS e(type, ord)
    JOIN webhook_subscriptions AS s ON s.event_type = e.type
    ORDER BY s.webhook_id, e.ord;
END $$;
