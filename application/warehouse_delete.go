package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// DeleteWarehouse removes a warehouse that is no default and holds nothing.
func (a *App) DeleteWarehouse(ctx context.Context, id int64) error {
	if err := permit(ctx, access.ManageWarehouses); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		w, err := s.Warehouses().Get(ctx, id)
		if err != nil {
			return err
		}
		hasBins, err := s.Warehouses().HasBinLocations(ctx, id)
		if err != nil {
			return err
		}
		hasStock, err := s.Stock().WarehouseHasStock(ctx, id)
		if err != nil {
			return err
		}
		if err := w.CheckDeletable(hasBins, hasStock); err != nil {
			return err
		}
		return s.Warehouses().Delete(ctx, id)
	})
}
