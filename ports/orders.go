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
	// GetMany returns the orders that have one of these ids or numbers, in
	// id order (the order of their locks); those that do not exist are
	// left out.
	GetMany(ctx context.Context, ids []int64, numbers []string) ([]*order.Order, error)
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
	// HoldingLotsOf returns, locked in id order, the orders whose
	// positions hold pieces of lots of the article detail.
	HoldingLotsOf(ctx context.Context, articleDetailID int64) ([]*order.Order, error)
}

// OutboxRepository queues mails in the transaction that causes them, so a
// mail is sent if and only if its cause committed. Sending goes through the
// lease queue that webhook deliveries use too.
type OutboxRepository interface {
	// Enqueue queues m; it is due at once (on the database's clock), at
	// is when it was caused.
	Enqueue(ctx context.Context, m Mail, at time.Time) error
	LeaseQueue[Mail]
	// PurgeFinished removes sent and given-up mails finished longer ago
	// than olderThan (on the database's clock): customer addresses are not
	// kept forever. It removes at most limit, the oldest first, and tells
	// how many.
	PurgeFinished(ctx context.Context, olderThan time.Duration, limit int) (int, error)
	// Stats counts the mails still to send.
	Stats(ctx context.Context) (QueueStats, error)
}
