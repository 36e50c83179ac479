package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// leaseQueue is the storage of the one dispatcher design (ports.LeaseQueue)
// over a table with the columns attempts, last_error, next_attempt_at,
// first_attempt_at and locked_until. Every time it compares or writes comes
// from the database's clock (dbNow), never from the instance's: instances
// whose clocks disagree by seconds still agree on who holds a lease.
type leaseQueue struct {
	s *store
	// table is the table, with alias q in every query.
	table string
	// claimable is the SQL condition of jobs that may be claimed (apart
	// from being due and not leased).
	claimable string
	// succeed and giveUp add the SET clauses of those outcomes.
	succeed func(q *bun.UpdateQuery, now time.Time, statusCode int) *bun.UpdateQuery
	giveUp  func(q *bun.UpdateQuery, now time.Time) *bun.UpdateQuery
	// recordStatus: the table keeps the last HTTP status code.
	recordStatus bool
}

func (q leaseQueue) due(sel *bun.SelectQuery, now time.Time) *bun.SelectQuery {
	return sel.Where(q.claimable).Where("q.next_attempt_at <= ?", now).
		Where("(q.locked_until IS NULL OR q.locked_until < ?)", now)
}

func (q leaseQueue) anyDue(ctx context.Context) (bool, error) {
	now, err := q.s.dbNow(ctx)
	if err != nil {
		return false, err
	}
	return q.due(q.s.idb.NewSelect().TableExpr(q.table+" AS q"), now).Exists(ctx)
}

// claimed is a leased row: its id, this attempt's number, and the time
// since the first attempt.
type claimed struct {
	ID         int64
	Attempt    int
	SinceFirst time.Duration
}

// claim leases up to limit due rows, oldest due first. On PostgreSQL SKIP
// LOCKED lets concurrent dispatchers pass over the rows another one is
// claiming right now; SQLite's write transaction holds the whole database.
func (q leaseQueue) claim(ctx context.Context, lease time.Duration, limit int) ([]claimed, error) {
	now, err := q.s.dbNow(ctx)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		ID             int64      `bun:"id"`
		Attempts       int        `bun:"attempts"`
		FirstAttemptAt *time.Time `bun:"first_attempt_at"`
	}
	sel := q.due(q.s.idb.NewSelect().TableExpr(q.table+" AS q").Column("q.id", "q.attempts", "q.first_attempt_at"), now).
		OrderExpr("q.next_attempt_at, q.id").Limit(int64(limit))
	sel = q.s.lockRows(sel, "UPDATE OF q SKIP LOCKED")
	if err := sel.Scan(ctx, &rows); err != nil || len(rows) == 0 {
		return nil, err
	}
	ids := make([]int64, len(rows))
	out := make([]claimed, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
		out[i] = claimed{ID: row.ID, Attempt: row.Attempts + 1}
		if row.FirstAttemptAt != nil {
			out[i].SinceFirst = now.Sub(*row.FirstAttemptAt)
		}
	}
	if _, err := q.s.idb.NewUpdate().TableExpr(q.table).
		Set("locked_until = ?", now.Add(lease)).Set("attempts = attempts + 1").
		Set("first_attempt_at = COALESCE(first_attempt_at, ?)", now).
		Where("id IN (?)", bun.List(ids)).Exec(ctx); err != nil {
		return nil, err
	}
	return out, nil
}

// outcome records an attempt's outcome, but only while the attempt still
// holds its lease (attempts unchanged): an attempt that overran its lease,
// and may have been claimed again, is not recorded twice.
func (q leaseQueue) outcome(ctx context.Context, id int64, attempt int, set func(u *bun.UpdateQuery, now time.Time) *bun.UpdateQuery) error {
	now, err := q.s.dbNow(ctx)
	if err != nil {
		return err
	}
	u := q.s.idb.NewUpdate().TableExpr(q.table).Set("locked_until = NULL").
		Where("id = ? AND attempts = ?", id, attempt)
	_, err = set(u, now).Exec(ctx)
	return err
}

func (q leaseQueue) succeeded(ctx context.Context, id int64, attempt, statusCode int) error {
	return q.outcome(ctx, id, attempt, func(u *bun.UpdateQuery, now time.Time) *bun.UpdateQuery {
		return q.succeed(u.Set("last_error = ''"), now, statusCode)
	})
}

func (q leaseQueue) failed(ctx context.Context, id int64, attempt, statusCode int, lastError string, retryAfter time.Duration) error {
	return q.outcome(ctx, id, attempt, func(u *bun.UpdateQuery, now time.Time) *bun.UpdateQuery {
		u = u.Set("last_error = ?", lastError)
		if q.recordStatus {
			var code *int
			if statusCode != 0 {
				code = &statusCode
			}
			u = u.Set("last_status_code = ?", code)
		}
		if retryAfter <= 0 {
			return q.giveUp(u, now)
		}
		return u.Set("next_attempt_at = ?", now.Add(retryAfter))
	})
}

// stats counts the claimable rows and how long the oldest has waited since
// it was created.
func (q leaseQueue) stats(ctx context.Context, pending string) (n int, oldestAge time.Duration, err error) {
	now, err := q.s.dbNow(ctx)
	if err != nil {
		return 0, 0, err
	}
	count, err := q.s.idb.NewSelect().TableExpr(q.table + " AS q").Where(pending).Count(ctx)
	n = int(count)
	if err != nil || n == 0 {
		return n, 0, err
	}
	var oldest time.Time
	err = q.s.idb.NewSelect().TableExpr(q.table+" AS q").Column("q.created_at").Where(pending).
		OrderExpr("q.created_at").Limit(1).Scan(ctx, &oldest)
	return n, max(now.Sub(oldest), 0), err
}
