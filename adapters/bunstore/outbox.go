package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/ports"
)

type outboxRow struct {
	bun.BaseModel `bun:"table:mail_outbox,alias:mo"`

	ID            int64      `bun:"id,pk,autoincrement"`
	Recipient     string     `bun:"recipient"`
	Subject       string     `bun:"subject"`
	Body          string     `bun:"body"`
	Attempts      int        `bun:"attempts"`
	LastError     string     `bun:"last_error"`
	NextAttemptAt time.Time  `bun:"next_attempt_at"`
	LockedUntil   *time.Time `bun:"locked_until"`
	SentAt        *time.Time `bun:"sent_at"`
	FailedAt      *time.Time `bun:"failed_at"`
	CreatedAt     time.Time  `bun:"created_at"`
}

type outbox struct{ s *store }

func (s *store) Outbox() ports.OutboxRepository { return outbox{s} }

func (r outbox) Enqueue(ctx context.Context, m ports.Mail, at time.Time) error {
	row := &outboxRow{Recipient: m.To, Subject: m.Subject, Body: m.Body, NextAttemptAt: at.UTC(), CreatedAt: at.UTC()}
	_, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").Exec(ctx)
	return err
}

// due selects the mails that may be sent at now.
func due(sel *bun.SelectQuery, now time.Time) *bun.SelectQuery {
	return sel.Where("sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ?", now).
		Where("(locked_until IS NULL OR locked_until < ?)", now)
}

// AnyDue looks without locking whether a claim would find anything.
func (r outbox) AnyDue(ctx context.Context, now time.Time) (bool, error) {
	return due(r.s.idb.NewSelect().Table("mail_outbox"), now.UTC()).Exists(ctx)
}

// Claim picks the due mails and leases them. On PostgreSQL SKIP LOCKED lets
// concurrent dispatchers pass over the rows another one is claiming right
// now; SQLite's write transaction holds the whole database anyway.
func (r outbox) Claim(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]ports.OutboxMail, error) {
	now = now.UTC()
	var rows []outboxRow
	sel := due(r.s.idb.NewSelect().Model(&rows), now).OrderExpr("next_attempt_at, id").Limit(int64(limit))
	if r.s.db.postgres {
		sel = sel.For("UPDATE SKIP LOCKED")
	}
	if err := sel.Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	if _, err := r.s.idb.NewUpdate().Table("mail_outbox").
		Set("locked_until = ?", now.Add(lease)).Set("attempts = attempts + 1").
		Where("id IN (?)", bun.List(ids)).Exec(ctx); err != nil {
		return nil, err
	}
	out := make([]ports.OutboxMail, len(rows))
	for i, row := range rows {
		out[i] = ports.OutboxMail{
			ID:       row.ID,
			Mail:     ports.Mail{To: row.Recipient, Subject: row.Subject, Body: row.Body},
			Attempts: row.Attempts + 1,
		}
	}
	return out, nil
}

func (r outbox) MarkSent(ctx context.Context, id int64, at time.Time) error {
	_, err := r.s.idb.NewUpdate().Table("mail_outbox").
		Set("sent_at = ?", at.UTC()).Set("locked_until = NULL").Set("last_error = ''").
		Where("id = ?", id).Exec(ctx)
	return err
}

func (r outbox) MarkFailed(ctx context.Context, id int64, lastError string, retryAt time.Time, at time.Time) error {
	q := r.s.idb.NewUpdate().Table("mail_outbox").
		Set("last_error = ?", lastError).Set("locked_until = NULL").Where("id = ?", id)
	if retryAt.IsZero() {
		q = q.Set("failed_at = ?", at.UTC())
	} else {
		q = q.Set("next_attempt_at = ?", retryAt.UTC())
	}
	_, err := q.Exec(ctx)
	return err
}
