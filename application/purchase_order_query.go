package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/ports"
)

// PurchaseOrder reads one purchase order with its lines.
func (a *App) PurchaseOrder(ctx context.Context, id int64) (o *purchase.Order, err error) {
	if err := permit(ctx, access.ReadPurchaseOrders); err != nil {
		return o, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		o, err = s.PurchaseOrders().Get(ctx, id)
		return err
	})
	return o, err
}

// PurchaseOrders reads one page of purchase orders.
func (a *App) PurchaseOrders(ctx context.Context, q ports.ListQuery) (p ports.Page[*purchase.Order], err error) {
	if err := permit(ctx, access.ReadPurchaseOrders); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.PurchaseOrders().List(ctx, q)
		return err
	})
	return p, err
}

// PurchaseReceipt reads one receipt of a purchase order; one of another
// order is not found.
func (a *App) PurchaseReceipt(ctx context.Context, purchaseOrderID, id int64) (r *purchase.Receipt, err error) {
	if err := permit(ctx, access.ReadPurchaseOrders); err != nil {
		return r, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		r, err = s.PurchaseOrders().Receipt(ctx, purchaseOrderID, id)
		return err
	})
	return r, err
}

// PurchaseReceipts reads one page of a purchase order's receipts.
func (a *App) PurchaseReceipts(ctx context.Context, purchaseOrderID int64, q ports.ListQuery) (p ports.Page[*purchase.Receipt], err error) {
	if err := permit(ctx, access.ReadPurchaseOrders); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.PurchaseOrders().Receipts(ctx, purchaseOrderID, q)
		return err
	})
	return p, err
}
