package application

import (
	"context"

	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// MakeDefaultWarehouse moves the default flag to the warehouse.
func (a *App) MakeDefaultWarehouse(ctx context.Context, id int64) error {
	return a.moveDefault(ctx, id, (*warehouse.Warehouse).SetDefault, func(def, _ *warehouse.Warehouse) *warehouse.Warehouse { return def })
}

// MakeDefaultReturnWarehouse moves the default return shipment flag to the warehouse.
func (a *App) MakeDefaultReturnWarehouse(ctx context.Context, id int64) error {
	return a.moveDefault(ctx, id, (*warehouse.Warehouse).SetDefaultReturn, func(_, ret *warehouse.Warehouse) *warehouse.Warehouse { return ret })
}

func (a *App) moveDefault(ctx context.Context, id int64, set func(*warehouse.Warehouse, bool), holder func(def, ret *warehouse.Warehouse) *warehouse.Warehouse) error {
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
		// Clear the old holder first: a unique index allows one holder only.
		if old := holder(def, ret); old != nil && old.ID() != w.ID() {
			set(old, false)
			if err := repo.Save(ctx, old); err != nil {
				return err
			}
		}
		set(w, true)
		return repo.Save(ctx, w)
	})
}
