package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"

	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ChangeOrder changes the statuses of an order and its positions, and its
// customer address, by the order's transition rules. A cancelled order or
// position releases its reservations in the same transaction.
func (a *App) ChangeOrder(ctx context.Context, ref OrderRef, changes order.Changes, user string) (*order.Order, error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return nil, err
	}
	var out *order.Order
	ctx = WithCause(ctx, event.Cause{Type: event.CauseOrdersUpdate})
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		o, err := ref.load(ctx, s.Orders())
		if err != nil {
			return err
		}
		if err := applyLast(ctx, s, a.clock.Now(), order.Change{Order: o, Changes: changes}, stock.Reference{User: user}, o); err != nil {
			return err
		}
		out = o
		return nil
	})
	return out, err
}
