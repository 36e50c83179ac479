package ports

import (
	"context"
	"time"
)

// Leased is a job that one dispatcher has claimed until its lease runs out.
type Leased[J any] struct {
	ID int64
	// Attempt counts the attempts including this one. It also names the
	// lease: the outcome of an attempt whose lease ran out (and which
	// another dispatcher may have claimed again) is not recorded.
	Attempt int
	// SinceFirst is how long before this claim the first attempt was
	// claimed, on the database's clock (0 for the first attempt).
	SinceFirst time.Duration
	Job        J
}

// LeaseQueue is the storage side of the one dispatcher design that the
// mail outbox and webhook deliveries share: jobs are claimed with a lease
// on the database's clock (so that instances whose clocks disagree never
// claim one job at once), worked outside any transaction, and their outcome
// is recorded afterwards. On PostgreSQL claims skip rows another dispatcher
// is claiming (FOR UPDATE SKIP LOCKED).
type LeaseQueue[J any] interface {
	// AnyDue tells, without locking anything, whether a claim would find jobs.
	AnyDue(ctx context.Context) (bool, error)
	// Claim leases up to limit due jobs for the given time.
	Claim(ctx context.Context, lease time.Duration, limit int) ([]Leased[J], error)
	// Succeeded records a successful attempt.
	Succeeded(ctx context.Context, id int64, attempt int, statusCode int) error
	// Failed records a failed attempt: the job is due again retryAfter
	// from now on the database's clock, or given up when retryAfter is 0.
	Failed(ctx context.Context, id int64, attempt int, statusCode int, lastError string, retryAfter time.Duration) error
}

// QueueStats describes the jobs of a queue that are not finished yet.
type QueueStats struct {
	Pending int
	// OldestAge is how long the oldest pending job has waited (0 when none).
	OldestAge time.Duration
}
