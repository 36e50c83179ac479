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

// ShipTransfer sends pieces of a transfer on the road, all its lines or
// none: they leave the source through the stock engine
// (transfer.Shipping), the lines and the status move on, and the shipment
// is stored. lines nil ships what every line has left. The transfer's row
// is locked first and the products after it, so two shipments of one
// transfer run one after the other and the second sees what the first
// shipped. With an idempotency key in meta (optional), the rules of the
// batches apply.
func (a *App) ShipTransfer(ctx context.Context, meta BatchMeta, id int64, lines []transfer.ShipmentLine, render RenderCreated) (BatchOutcome, error) {
	if err := permit(ctx, access.ManageTransfers); err != nil {
		return BatchOutcome{}, err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CauseTransfersShip, IdempotencyKey: meta.Key})
	return a.idempotent(ctx, meta, writesItself(func(ctx context.Context, s ports.Store, now time.Time) ([]byte, error) {
		t, err := s.Transfers().Get(ctx, id)
		if err != nil {
			return nil, err
		}
		op := &transfer.Shipping{Transfer: t, Lines: lines, Now: now, User: meta.User}
		if err := applyOne(ctx, s, now, op, stock.Reference{IdempotencyKey: meta.Key, User: meta.User}); err != nil {
			return nil, err
		}
		if err := s.Transfers().Save(ctx, t); err != nil {
			return nil, err
		}
		if err := s.Transfers().AddMovement(ctx, ports.TransferShipment, op.Result); err != nil {
			return nil, err
		}
		return render(op.Result.ID)
	}))
}
