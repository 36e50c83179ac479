package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// UpdateWarehouse changes the fields the patch names.
func (a *App) UpdateWarehouse(ctx context.Context, id int64, p warehouse.Patch) error {
	if err := permit(ctx, access.ManageWarehouses); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		repo := s.Warehouses()
		w, err := repo.Get(ctx, id)
		if err != nil {
			return err
		}
		if err := w.Apply(p); err != nil {
			return err
		}
		if err := checkWarehouseCode(ctx, repo, w.Code(), w.ID()); err != nil {
			return err
		}
		return repo.Save(ctx, w)
	})
}
