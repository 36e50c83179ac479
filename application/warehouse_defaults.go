package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// MakeDefaultWarehouse moves the default flag to the warehouse.
func (a *App) MakeDefaultWarehouse(ctx context.Context, id int64) error {
	if err := permit(ctx, access.ManageWarehouses); err != nil {
		return err
	}
	return a.moveDefault(ctx, id, warehouse.Holders.MoveDefault)
}

// MakeDefaultReturnWarehouse moves the default return shipment flag to the warehouse.
func (a *App) MakeDefaultReturnWarehouse(ctx context.Context, id int64) error {
	if err := permit(ctx, access.ManageWarehouses); err != nil {
		return err
	}
	return a.moveDefault(ctx, id, warehouse.Holders.MoveDefaultReturn)
}

func (a *App) moveDefault(ctx context.Context, id int64, move func(warehouse.Holders, *warehouse.Warehouse) []*warehouse.Warehouse) error {
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		repo := s.Warehouses()
		if err := repo.LockDefaults(ctx); err != nil {
			return err
		}
		w, err := repo.Get(ctx, id)
		if err != nil {
			return err
		}
		def, ret, err := repo.Defaults(ctx)
		if err != nil {
			return err
		}
		for _, changed := range move(warehouse.Holders{Default: def, Return: ret}, w) {
			if err := repo.Save(ctx, changed); err != nil {
				return err
			}
		}
		return nil
	})
}
