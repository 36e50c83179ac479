package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/ports"
)

// ChangePurchaseOrder changes a purchase order's supplier and expected
// date, or cancels it (which ends what it still brings).
func (a *App) ChangePurchaseOrder(ctx context.Context, id int64, c purchase.Change) error {
	if err := permit(ctx, access.ManagePurchaseOrders); err != nil {
		return err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CausePurchaseOrdersUpdate})
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		o, err := s.PurchaseOrders().Get(ctx, id)
		if err != nil {
			return err
		}
		if err := o.Apply(c); err != nil {
			return err
		}
		return s.PurchaseOrders().Save(ctx, o)
	})
}

// DeletePurchaseOrder removes a purchase order that is Open with nothing
// received; what it would have brought leaves incomingStock.
func (a *App) DeletePurchaseOrder(ctx context.Context, id int64) error {
	if err := permit(ctx, access.ManagePurchaseOrders); err != nil {
		return err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CausePurchaseOrdersUpdate})
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		o, err := s.PurchaseOrders().Get(ctx, id)
		if err != nil {
			return err
		}
		if err := o.Delete(); err != nil {
			return err
		}
		return s.PurchaseOrders().Delete(ctx, o)
	})
}
