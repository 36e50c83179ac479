package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
)

// ChangeTransfer cancels a transfer (transfer.Cancelling): pieces in
// transit go back into the source or are written off as lost, as the
// change says.
func (a *App) ChangeTransfer(ctx context.Context, id int64, c transfer.Change) error {
	if err := permit(ctx, access.ManageTransfers); err != nil {
		return err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CauseTransfersUpdate})
	user := ""
	if p, ok := PrincipalFrom(ctx); ok {
		user = p.Name
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		t, err := s.Transfers().Get(ctx, id)
		if err != nil {
			return err
		}
		if err := t.CheckCancel(c); err != nil {
			return err
		}
		op := &transfer.Cancelling{Transfer: t, Change: c}
		if err := applyOne(ctx, s, a.clock.Now(), op, stock.Reference{User: user}); err != nil {
			return err
		}
		return s.Transfers().Save(ctx, t)
	})
}
