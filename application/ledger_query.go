package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// StockLedgerEntries reads one page of the stock ledger.
func (a *App) StockLedgerEntries(ctx context.Context, q ports.ListQuery) (p ports.Page[ports.LedgerRecord], err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.Ledger().List(ctx, q)
		return err
	})
	return p, err
}
