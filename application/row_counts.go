package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// FoldRowCounts compacts the kept row counts that unfiltered lists take
// their totals from, so that reading them stays one small read.
func (a *App) FoldRowCounts(ctx context.Context) error {
	if err := permit(ctx, access.Maintain); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		return s.RowCounts().Fold(ctx)
	})
}
