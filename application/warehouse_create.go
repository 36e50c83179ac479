package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// CreateWarehouse stores a new warehouse with its unknown bin location; the
// first warehouse becomes the default and the default return warehouse.
func (a *App) CreateWarehouse(ctx context.Context, d warehouse.Details) (id int64, err error) {
	if err := permit(ctx, access.ManageWarehouses); err != nil {
		return id, err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		repo := s.Warehouses()
		if err := repo.LockDefaults(ctx); err != nil {
			return err
		}
		def, ret, err := repo.Defaults(ctx)
		if err != nil {
			return err
		}
		w, unknown, err := warehouse.Holders{Default: def, Return: ret}.Create(d)
		if err != nil {
			return err
		}
		if err := checkWarehouseCode(ctx, repo, w.Code(), 0); err != nil {
			return err
		}
		if err := repo.Add(ctx, w, unknown); err != nil {
			return err
		}
		id = w.ID()
		return nil
	})
	return id, err
}

func checkWarehouseCode(ctx context.Context, repo ports.WarehouseRepository, code string, exceptID int64) error {
	taken, err := repo.CodeTaken(ctx, code, exceptID)
	if err != nil {
		return err
	}
	if taken {
		return warehouse.ErrCodeTaken(code)
	}
	return nil
}
