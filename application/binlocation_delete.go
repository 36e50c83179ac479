package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// DeleteBinLocation removes a bin location that holds no stock and is no
// product's default.
func (a *App) DeleteBinLocation(ctx context.Context, id int64) error {
	if err := permit(ctx, access.ManageWarehouses); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		b, err := s.BinLocations().Get(ctx, id)
		if err != nil {
			return err
		}
		hasStock, isDefault, err := s.Stock().BinLocationUsage(ctx, id)
		if err != nil {
			return err
		}
		if err := b.CheckDeletable(hasStock, isDefault); err != nil {
			return err
		}
		return s.BinLocations().Delete(ctx, id)
	})
}
