package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/ports"
)

// OrderRef names an order by its database id or, when Number is set, by
// its order number.
type OrderRef struct {
	ID     int64
	Number string
}

func (r OrderRef) load(ctx context.Context, repo ports.OrderRepository) (*order.Order, error) {
	if r.Number != "" {
		return repo.GetByNumber(ctx, r.Number)
	}
	return repo.Get(ctx, r.ID)
}

// Order reads one order with its positions.
func (a *App) Order(ctx context.Context, ref OrderRef) (o *order.Order, err error) {
	if err := permit(ctx, access.ReadOrders); err != nil {
		return o, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		o, err = ref.load(ctx, s.Orders())
		return err
	})
	return o, err
}

// Orders reads one page of orders.
func (a *App) Orders(ctx context.Context, q ports.ListQuery) (p ports.Page[*order.Order], err error) {
	if err := permit(ctx, access.ReadOrders); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.Orders().List(ctx, q)
		return err
	})
	return p, err
}
