package ports

import (
	"context"

	"github.com/shopstock/inventory/domain/order"
)

// ReturnRepository stores the return shipments of orders.
type ReturnRepository interface {
	// Add stores r with its lines and assigns its id.
	Add(ctx context.Context, r *order.Return) error
	Get(ctx context.Context, id int64) (*order.Return, error)
	List(ctx context.Context, q ListQuery) (Page[*order.Return], error)
}
