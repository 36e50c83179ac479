package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// StockLines reads the stock of one article detail on every bin location,
// or of every article detail on one bin location.
func (a *App) StockLines(ctx context.Context, f ports.StockLineFilter) (lines []ports.StockLine, err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return lines, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		lines, err = s.Stock().StockLines(ctx, f)
		return err
	})
	return lines, err
}
