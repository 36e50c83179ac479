-- Retention removes the oldest finished mails a chunk at a time: this index
-- finds them (a mail is sent or given up, never both) without walking the
-- mails still waiting or finished within the retention.
CREATE INDEX mail_outbox_finished ON mail_outbox ((COALESCE(sent_at, failed_at)))
    WHERE sent_at IS NOT NULL OR failed_at IS NOT NULL;
--bun:split
-- Purged events take their deliveries along, by event.
CREATE INDEX webhook_deliveries_event_id ON webhook_deliveries (event_id);
--bun:split
-- The lots an order position shipped are read by position: a shipment's
-- entries alone, so that a return does not scan the whole ledger. Entries
-- of stock batches name no position and stay out of it.
CREATE INDEX stock_ledger_entries_order_detail ON stock_ledger_entries (order_detail_id)
    WHERE order_detail_id IS NOT NULL;
