-- The event types each webhook is to be sent, as the domain decided them
-- (webhook.Webhook.Receives: its types while enabled, none while disabled).
CREATE TABLE webhook_subscriptions (
    event_type TEXT NOT NULL,
    webhook_id BIGINT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    PRIMARY KEY (event_type, webhook_id)
);
--bun:split

-- Existing webhooks: their types while enabled, as Receives has it.
WITH RECURSIVE split (webhook_id, type, rest) AS (
    SELECT id, '', events || ',' FROM webhooks WHERE enabled
    UNION ALL
    SELECT webhook_id, substr(rest, 1, instr(rest, ',') - 1), substr(rest, instr(rest, ',') + 1)
    FROM split WHERE rest <> ''
)
INSERT OR IGNORE INTO webhook_subscriptions (event_type, webhook_id)
SELECT type, webhook_id FROM split WHERE type <> '';
