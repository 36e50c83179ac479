package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ReceivePurchaseOrder books a goods receipt of a purchase order, all its
// lines or none: the pieces come into stock through the stock engine
// (purchase.Receiving), the order's lines and status move on, and the
// receipt is stored. The order's row is locked first, so two receipts of
// one order run one after the other and the second sees what the first
// received. With an idempotency key in meta (optional), the rules of the
// batches apply.
func (a *App) ReceivePurchaseOrder(ctx context.Context, meta BatchMeta, id int64, lines []purchase.ReceiptLine, render RenderCreated) (BatchOutcome, error) {
	if err := permit(ctx, access.ReceiveGoods); err != nil {
		return BatchOutcome{}, err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CausePurchaseOrdersReceive, IdempotencyKey: meta.Key})
	return a.idempotent(ctx, meta, writesItself(func(ctx context.Context, s ports.Store, now time.Time) ([]byte, error) {
		o, err := s.PurchaseOrders().Get(ctx, id)
		if err != nil {
			return nil, err
		}
		op := &purchase.Receiving{Order: o, Lines: lines, Now: now, User: meta.User}
		if err := applyOne(ctx, s, now, op, stock.Reference{IdempotencyKey: meta.Key, User: meta.User}); err != nil {
			return nil, err
		}
		if err := s.PurchaseOrders().Save(ctx, o); err != nil {
			return nil, err
		}
		if err := s.PurchaseOrders().AddReceipt(ctx, op.Result); err != nil {
			return nil, err
		}
		return render(op.Result.ID)
	}))
}
