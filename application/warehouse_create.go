package application

import (
	"context"
	"fmt"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// CreateWarehouse stores a new warehouse with its unknown bin location; the
// first warehouse becomes the default and the default return warehouse.
func (a *App) CreateWarehouse(ctx context.Context, d warehouse.Details) (int64, error) {
	w, err := warehouse.New(d)
	if err != nil {
		return 0, err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		repo := s.Warehouses()
		if err := repo.LockDefaults(ctx); err != nil {
			return err
		}
		if err := checkWarehouseCode(ctx, repo, w.Code(), 0); err != nil {
			return err
		}
		def, defReturn, err := repo.Defaults(ctx)
		if err != nil {
			return err
		}
		w.SetDefault(def == nil)
		w.SetDefaultReturn(defReturn == nil)
		return repo.Add(ctx, w)
	})
	return w.ID(), err
}

func checkWarehouseCode(ctx context.Context, repo ports.WarehouseRepository, code string, exceptID int64) error {
	taken, err := repo.CodeTaken(ctx, code, exceptID)
	if err != nil {
		return err
	}
	if taken {
		return errs.InvalidFields(errs.FieldError{Property: "code", Message: fmt.Sprintf("a warehouse with code %q already exists", code)})
	}
	return nil
}
