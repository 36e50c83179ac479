package application

import (
	"context"
	"fmt"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// CreateBinLocation stores a new bin location in an existing warehouse.
func (a *App) CreateBinLocation(ctx context.Context, warehouseID int64, code string) (int64, error) {
	if err := permit(ctx, access.ManageWarehouses); err != nil {
		return 0, err
	}
	b, err := warehouse.NewBinLocation(warehouseID, code)
	if err != nil {
		return 0, err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		if _, err := s.Warehouses().Get(ctx, warehouseID); err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return errs.InvalidFields(errs.FieldError{Property: "warehouseId", Message: fmt.Sprintf("warehouse %d does not exist", warehouseID)})
			}
			return err
		}
		if err := checkBinLocationCode(ctx, s.BinLocations(), b, 0); err != nil {
			return err
		}
		return s.BinLocations().Add(ctx, b)
	})
	return b.ID(), err
}

func checkBinLocationCode(ctx context.Context, repo ports.BinLocationRepository, b *warehouse.BinLocation, exceptID int64) error {
	taken, err := repo.CodeTaken(ctx, b.WarehouseID(), b.Code(), exceptID)
	if err != nil {
		return err
	}
	if taken {
		return warehouse.ErrBinCodeTaken(b.Code())
	}
	return nil
}
