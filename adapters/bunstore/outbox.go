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

// mailPending is the condition of mails still to send.
const mailPending = "q.sent_at IS NULL AND q.failed_at IS NULL"

type outbox struct {
	s *store
	leaseQueue
}

func (s *store) Outbox() ports.OutboxRepository {
	return outbox{s, leaseQueue{
		s: s, table: "mail_outbox", claimable: mailPending,
		succeed: func(q *bun.UpdateQuery, now time.Time, _ int) *bun.UpdateQuery {
			return q.Set("sent_at = ?", now)
		},
		giveUp: func(q *bun.UpdateQuery, now time.Time) *bun.UpdateQuery {
			return q.Set("failed_at = ?", now)
		},
	}}
}

// Enqueue queues the mail, due at once on the database's clock.
func (r outbox) Enqueue(ctx context.Context, m ports.Mail, at time.Time) error {
	return r.s.exec(ctx, `INSERT INTO mail_outbox (recipient, subject, body, attempts, last_error, next_attempt_at, created_at)
VALUES (?, ?, ?, 0, '', ?, ?)`, m.To, m.Subject, m.Body, r.s.db.dialect.nowValue(), at.UTC())
}

func (r outbox) AnyDue(ctx context.Context) (bool, error) { return r.anyDue(ctx) }

func (r outbox) Claim(ctx context.Context, lease time.Duration, limit int) ([]ports.Leased[ports.Mail], error) {
	leased, err := r.claim(ctx, lease, limit)
	if err != nil || len(leased) == 0 {
		return nil, err
	}
	ids := make([]int64, len(leased))
	for i, l := range leased {
		ids[i] = l.ID
	}
	var rows []outboxRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	byID := make(map[int64]outboxRow, len(rows))
	for _, row := range rows {
		byID[row.ID] = row
	}
	out := make([]ports.Leased[ports.Mail], len(leased))
	for i, l := range leased {
		row := byID[l.ID]
		out[i] = ports.Leased[ports.Mail]{ID: l.ID, Attempt: l.Attempt, SinceFirst: l.SinceFirst,
			Job: ports.Mail{To: row.Recipient, Subject: row.Subject, Body: row.Body}}
	}
	return out, nil
}

func (r outbox) Succeeded(ctx context.Context, id int64, attempt, statusCode int) error {
	return r.succeeded(ctx, id, attempt, statusCode)
}

func (r outbox) Failed(ctx context.Context, id int64, attempt, statusCode int, lastError string, retryAfter time.Duration) error {
	return r.failed(ctx, id, attempt, statusCode, lastError, retryAfter)
}

// PurgeFinished removes the mails sent or given up before the retention,
// one chunk of the oldest at a time, so that its locks and its share of the
// write-ahead log stay small.
func (r outbox) PurgeFinished(ctx context.Context, olderThan time.Duration, limit int) (int, error) {
	now, err := r.s.dbNow(ctx)
	if err != nil {
		return 0, err
	}
	cutoff := now.Add(-olderThan)
	// A mail is sent or given up, never both: the index on whichever it
	// was (mail_outbox_finished) finds the oldest.
	oldest := r.s.idb.NewSelect().TableExpr("mail_outbox").Column("id").
		Where("COALESCE(sent_at, failed_at) < ?", cutoff).OrderExpr("COALESCE(sent_at, failed_at)").Limit(int64(limit))
	res, err := r.s.idb.NewDelete().TableExpr("mail_outbox").Where("id IN (?)", oldest).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

func (r outbox) Stats(ctx context.Context) (ports.QueueStats, error) {
	n, age, err := r.stats(ctx, mailPending)
	return ports.QueueStats{Pending: n, OldestAge: age}, err
}
