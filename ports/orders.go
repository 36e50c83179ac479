package ports

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/order"
)

// OrderRepository stores orders with their positions. Inside Write, the
// getters lock the orders they return (in id order when several).
type OrderRepository interface {
	// Add stores o and assigns the ids it lacks.
	Add(ctx context.Context, o *order.Order) error
	Get(ctx context.Context, id int64) (*order.Order, error)
	GetByNumber(ctx context.Context, number string) (*order.Order, error)
	// Save writes the statuses, customer addresses, shipped and returned
	// quantities and the reservations of the orders, in bulk.
	Save(ctx context.Context, orders ...*order.Order) error
	List(ctx context.Context, q ListQuery) (Page[*order.Order], error)
	IDTaken(ctx context.Context, id int64) (bool, error)
	NumberTaken(ctx context.Context, number string) (bool, error)
	// DetailIDsTaken returns which of ids are used by existing positions.
	DetailIDsTaken(ctx context.Context, ids []int64) ([]int64, error)
	// ByDetailIDs returns the orders that hold any of these positions.
	ByDetailIDs(ctx context.Context, detailIDs []int64) ([]*order.Order, error)
	// Outstanding is the sum of what the product's positions still have to
	// ship (order.Order.Outstanding, which Add and Save store per position).
	Outstanding(ctx context.Context, articleDetailID int64) (int, error)
}

// OutboxMail is a queued mail with its delivery state.
type OutboxMail struct {
	ID       int64
	Mail     Mail
	Attempts int
}

// OutboxRepository queues mails in the transaction that causes them, so a
// mail is sent if and only if its cause committed.
type OutboxRepository interface {
	Enqueue(ctx context.Context, m Mail, at time.Time) error
	// AnyDue tells, without locking anything, whether mails are due.
	AnyDue(ctx context.Context, now time.Time) (bool, error)
	// Claim leases up to limit due mails to the caller until now+lease, so
	// that no other dispatcher sends them meanwhile.
	Claim(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]OutboxMail, error)
	MarkSent(ctx context.Context, id int64, at time.Time) error
	// MarkFailed records a failed attempt; retryAt zero means give up.
	MarkFailed(ctx context.Context, id int64, lastError string, retryAt time.Time, at time.Time) error
}
