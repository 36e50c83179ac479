package bunstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/webhook"
	"github.com/shopstock/inventory/ports"
)

type webhookRow struct {
	bun.BaseModel `bun:"table:webhooks,alias:wh"`

	ID          int64  `bun:"id,pk,autoincrement"`
	URL         string `bun:"url"`
	Events      string `bun:"events"` // comma-separated
	Description string `bun:"description"`
	Enabled     bool   `bun:"enabled"`
	// Secret is a signing secret kept in the clear from before secrets
	// were sealed; empty once the start sealed it into SealedSecret.
	Secret       string         `bun:"secret"`
	SealedSecret sql.NullString `bun:"sealed_secret"`
	CreatedAt    time.Time      `bun:"created_at"`
}

func toWebhookRow(w *webhook.Webhook) *webhookRow {
	row := &webhookRow{
		ID: w.ID(), URL: w.URL(), Events: strings.Join(w.Events(), ","), Description: w.Description(),
		Enabled: w.Enabled(), CreatedAt: w.CreatedAt().UTC(),
	}
	if stored := w.Secret(); strings.HasPrefix(stored, webhook.SecretPrefix) {
		row.Secret = stored
	} else {
		row.SealedSecret = sql.NullString{String: stored, Valid: true}
	}
	return row
}

// storedSecret is the secret as the webhook keeps it: sealed, or in the
// clear until the next start seals it.
func (row *webhookRow) storedSecret() string {
	if row.SealedSecret.Valid && row.SealedSecret.String != "" {
		return row.SealedSecret.String
	}
	return row.Secret
}

func (row *webhookRow) webhook() *webhook.Webhook {
	return webhook.UnmarshalWebhookFromDatabase(row.ID, row.URL, strings.Split(row.Events, ","), row.Description, row.Enabled, row.storedSecret(), row.CreatedAt.UTC())
}

// subscriptionRow is one event type a webhook is to be sent.
type subscriptionRow struct {
	bun.BaseModel `bun:"table:webhook_subscriptions"`

	EventType string `bun:"event_type"`
	WebhookID int64  `bun:"webhook_id"`
}

type deliveryRow struct {
	bun.BaseModel `bun:"table:webhook_deliveries,alias:d"`

	ID             int64      `bun:"id,pk,autoincrement"`
	WebhookID      int64      `bun:"webhook_id"`
	EventID        int64      `bun:"event_id"`
	Type           string     `bun:"type"`
	Status         string     `bun:"status"`
	Attempts       int        `bun:"attempts"`
	LastStatusCode *int       `bun:"last_status_code"`
	LastError      string     `bun:"last_error"`
	NextAttemptAt  *time.Time `bun:"next_attempt_at"`
	FirstAttemptAt *time.Time `bun:"first_attempt_at"`
	LockedUntil    *time.Time `bun:"locked_until"`
	DeliveredAt    *time.Time `bun:"delivered_at"`
	CreatedAt      time.Time  `bun:"created_at"`
}

var webhookColumns = columns{
	"webhook.id": "wh.id", "webhook.url": "wh.url", "webhook.description": "wh.description",
	"webhook.enabled": "wh.enabled", "webhook.createdAt": "wh.created_at",
}

var deliveryColumns = columns{
	"delivery.eventId": "d.event_id", "delivery.type": "d.type", "delivery.status": "d.status",
	"delivery.attempts": "d.attempts", "delivery.lastStatusCode": "d.last_status_code",
	"delivery.lastError": "d.last_error", "delivery.nextAttemptAt": "d.next_attempt_at",
	"delivery.deliveredAt": "d.delivered_at",
}

// deliveryClaimable: a pending delivery of an enabled webhook with no
// earlier pending delivery of the same webhook. Only the head of each
// webhook's line can be claimed, so events go out in feed order and one
// dispatcher at a time works on a webhook.
const deliveryClaimable = `q.status = 'pending'
AND EXISTS (SELECT 1 FROM webhooks AS w WHERE w.id = q.webhook_id AND w.enabled)
AND NOT EXISTS (SELECT 1 FROM webhook_deliveries AS e WHERE e.webhook_id = q.webhook_id AND e.status = 'pending' AND e.event_id < q.event_id)`

type webhooks struct {
	s *store
	leaseQueue
}

func (s *store) Webhooks() ports.WebhookRepository {
	return webhooks{s, leaseQueue{
		s: s, table: "webhook_deliveries", claimable: deliveryClaimable, recordStatus: true,
		succeed: func(q *bun.UpdateQuery, now time.Time, statusCode int) *bun.UpdateQuery {
			return q.Set("status = ?", ports.DeliveryDelivered).Set("delivered_at = ?", now).
				Set("next_attempt_at = NULL").Set("last_status_code = ?", statusCode)
		},
		giveUp: func(q *bun.UpdateQuery, _ time.Time) *bun.UpdateQuery {
			return q.Set("status = ?", ports.DeliveryFailed).Set("next_attempt_at = NULL")
		},
	}}
}

// Add, Save and Delete take the feed lock first (see takePositions), so
// that they fall before or after every transaction that records events.
func (r webhooks) Add(ctx context.Context, w *webhook.Webhook) error {
	if err := r.s.lockFeed(ctx); err != nil {
		return err
	}
	row := toWebhookRow(w)
	if _, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return err
	}
	w.Assign(row.ID)
	return r.saveReceives(ctx, w)
}

func (r webhooks) Get(ctx context.Context, id int64) (*webhook.Webhook, error) {
	row := new(webhookRow)
	if err := r.s.forUpdate(r.s.idb.NewSelect().Model(row).Where("id = ?", id)).Scan(ctx); err != nil {
		return nil, notFound(err, "webhook %d not found", id)
	}
	return row.webhook(), nil
}

func (r webhooks) Save(ctx context.Context, w *webhook.Webhook) error {
	if err := r.s.lockFeed(ctx); err != nil {
		return err
	}
	if _, err := r.s.idb.NewUpdate().Model(toWebhookRow(w)).WherePK().ExcludeColumn("id", "created_at").Exec(ctx); err != nil {
		return err
	}
	return r.saveReceives(ctx, w)
}

// saveReceives stores the event types the webhook is to be sent
// (webhook.Webhook.Receives), which recording events looks up by type.
func (r webhooks) saveReceives(ctx context.Context, w *webhook.Webhook) error {
	if _, err := r.s.idb.NewDelete().TableExpr("webhook_subscriptions").Where("webhook_id = ?", w.ID()).Exec(ctx); err != nil {
		return err
	}
	types := w.Receives()
	if len(types) == 0 {
		return nil
	}
	rows := make([]subscriptionRow, len(types))
	for i, t := range types {
		rows[i] = subscriptionRow{EventType: t, WebhookID: w.ID()}
	}
	_, err := r.s.idb.NewInsert().Model(&rows).Exec(ctx)
	return err
}

func (r webhooks) Delete(ctx context.Context, id int64) error {
	if err := r.s.lockFeed(ctx); err != nil {
		return err
	}
	// Deliveries go explicitly too: SQLite enforces the cascade only with
	// foreign keys switched on, which a connection may not have.
	for _, table := range []string{"webhook_deliveries", "webhook_subscriptions"} {
		if _, err := r.s.idb.NewDelete().TableExpr(table).Where("webhook_id = ?", id).Exec(ctx); err != nil {
			return err
		}
	}
	_, err := r.s.idb.NewDelete().TableExpr("webhooks").Where("id = ?", id).Exec(ctx)
	return err
}

func (r webhooks) List(ctx context.Context, q ports.ListQuery) (ports.Page[*webhook.Webhook], error) {
	var rows []webhookRow
	total, err := page(ctx, r.s.idb, &rows, q, webhookColumns, ports.WebhookFields, "wh.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	out := ports.Page[*webhook.Webhook]{Total: total, Items: make([]*webhook.Webhook, len(rows))}
	for i := range rows {
		out.Items[i] = rows[i].webhook()
	}
	return out, err
}

func (r webhooks) Deliveries(ctx context.Context, webhookID int64, q ports.ListQuery) (ports.Page[ports.WebhookDelivery], error) {
	var rows []deliveryRow
	total, err := page(ctx, r.s.idb, &rows, q, deliveryColumns, ports.DeliveryFields, "d.event_id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s.Where("d.webhook_id = ?", webhookID) })
	out := ports.Page[ports.WebhookDelivery]{Total: total, Items: make([]ports.WebhookDelivery, len(rows))}
	for i, row := range rows {
		d := ports.WebhookDelivery{
			EventID: row.EventID, Type: row.Type, Status: row.Status, Attempts: row.Attempts,
			LastError: row.LastError, NextAttemptAt: utcPtr(row.NextAttemptAt), DeliveredAt: utcPtr(row.DeliveredAt),
		}
		if row.LastStatusCode != nil {
			d.LastStatusCode = *row.LastStatusCode
		}
		out.Items[i] = d
	}
	return out, err
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func (r webhooks) AnyDue(ctx context.Context) (bool, error) { return r.anyDue(ctx) }

// Claim leases the due heads of the webhooks' lines and reads what their
// attempts send: the webhook's current URL and secret, and the event.
func (r webhooks) Claim(ctx context.Context, lease time.Duration, limit int) ([]ports.Leased[ports.WebhookAttempt], error) {
	leased, err := r.claim(ctx, lease, limit)
	if err != nil || len(leased) == 0 {
		return nil, err
	}
	ids := make([]int64, len(leased))
	for i, l := range leased {
		ids[i] = l.ID
	}
	var rows []struct {
		ID        int64     `bun:"id"`
		WebhookID int64     `bun:"webhook_id"`
		URL       string    `bun:"url"`
		Secret    string    `bun:"secret"`
		EventID   int64     `bun:"event_id"`
		RowID     int64     `bun:"row_id"`
		N         int       `bun:"n"`
		Type      string    `bun:"type"`
		CreatedAt time.Time `bun:"created_at"`
		Data      string    `bun:"data"`
	}
	// The event is in the last row of events that starts at or before it.
	err = r.s.idb.NewSelect().TableExpr("webhook_deliveries AS d").
		Join("JOIN webhooks AS w ON w.id = d.webhook_id").
		Join("JOIN events AS e ON e.id = (SELECT MAX(id) FROM events WHERE id <= d.event_id)").
		ColumnExpr("d.id, d.webhook_id, w.url, COALESCE(w.sealed_secret, w.secret) AS secret, d.event_id, e.id AS row_id, e.n, e.type, e.created_at, e.data").
		Where("d.id IN (?)", bun.List(ids)).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]int, len(leased))
	for i, l := range leased {
		byID[l.ID] = i
	}
	out := make([]ports.Leased[ports.WebhookAttempt], 0, len(rows))
	for _, row := range rows {
		l := leased[byID[row.ID]]
		evs, err := eventRow{ID: row.RowID, N: row.N, Type: row.Type, CreatedAt: row.CreatedAt, Data: row.Data}.events()
		if err != nil {
			return nil, err
		}
		i := row.EventID - row.RowID
		if i < 0 || i >= int64(len(evs)) {
			return nil, fmt.Errorf("delivery %d: event %d is not in the row from %d", row.ID, row.EventID, row.RowID)
		}
		out = append(out, ports.Leased[ports.WebhookAttempt]{ID: l.ID, Attempt: l.Attempt, SinceFirst: l.SinceFirst,
			Job: ports.WebhookAttempt{WebhookID: row.WebhookID, URL: row.URL, Secret: row.Secret, Event: evs[i]}})
	}
	return out, nil
}

func (r webhooks) Succeeded(ctx context.Context, id int64, attempt, statusCode int) error {
	return r.succeeded(ctx, id, attempt, statusCode)
}

func (r webhooks) Failed(ctx context.Context, id int64, attempt, statusCode int, lastError string, retryAfter time.Duration) error {
	return r.failed(ctx, id, attempt, statusCode, lastError, retryAfter)
}

func (r webhooks) Stats(ctx context.Context) (ports.QueueStats, error) {
	// Deliveries of a disabled webhook wait for it to be enabled again:
	// they are not counted as late.
	n, age, err := r.stats(ctx, "q.status = 'pending' AND EXISTS (SELECT 1 FROM webhooks AS w WHERE w.id = q.webhook_id AND w.enabled)")
	return ports.QueueStats{Pending: n, OldestAge: age}, err
}
