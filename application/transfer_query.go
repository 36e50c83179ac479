package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
)

// Transfer reads one transfer with its lines.
func (a *App) Transfer(ctx context.Context, id int64) (t *transfer.Transfer, err error) {
	if err := permit(ctx, access.ReadTransfers); err != nil {
		return t, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		t, err = s.Transfers().Get(ctx, id)
		return err
	})
	return t, err
}

// Transfers reads one page of transfers.
func (a *App) Transfers(ctx context.Context, q ports.ListQuery) (p ports.Page[*transfer.Transfer], err error) {
	if err := permit(ctx, access.ReadTransfers); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.Transfers().List(ctx, q)
		return err
	})
	return p, err
}

// TransferMovement reads one shipment or receipt of a transfer; one of
// another transfer is not found.
func (a *App) TransferMovement(ctx context.Context, kind ports.TransferMovementKind, transferID, id int64) (m *transfer.Movement, err error) {
	if err := permit(ctx, access.ReadTransfers); err != nil {
		return m, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		m, err = s.Transfers().Movement(ctx, kind, transferID, id)
		return err
	})
	return m, err
}
