package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
)

// ReceiveTransfer books pieces of a transfer that arrived at its
// destination, all lines or none (transfer.Receiving), and stores the
// receipt. The transfer's row is locked first, so two receipts never
// receive more than was shipped. With an idempotency key in meta
// (optional), the rules of the batches apply.
func (a *App) ReceiveTransfer(ctx context.Context, meta BatchMeta, id int64, lines []transfer.ReceiptLine, render RenderCreated) (BatchOutcome, error) {
	if err := permit(ctx, access.ManageTransfers); err != nil {
		return BatchOutcome{}, err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CauseTransfersReceive, IdempotencyKey: meta.Key})
	return a.idempotent(ctx, meta, writesItself(func(ctx context.Context, s ports.Store, now time.Time) ([]byte, error) {
		t, err := s.Transfers().Get(ctx, id)
		if err != nil {
			return nil, err
		}
		op := &transfer.Receiving{Transfer: t, Lines: lines, Now: now, User: meta.User}
		if err := applyOne(ctx, s, now, op, stock.Reference{IdempotencyKey: meta.Key, User: meta.User}); err != nil {
			return nil, err
		}
		if err := s.Transfers().Save(ctx, t); err != nil {
			return nil, err
		}
		if err := s.Transfers().AddMovement(ctx, ports.TransferReceipt, op.Result); err != nil {
			return nil, err
		}
		return render(op.Result.ID)
	}))
}
