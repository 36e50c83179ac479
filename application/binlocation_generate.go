package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// GenerateBinLocations creates every code the warehouse's format spells
// that the warehouse does not have yet, and tells how many it created.
func (a *App) GenerateBinLocations(ctx context.Context, warehouseID int64) (created int, err error) {
	if err := permit(ctx, access.ManageWarehouses); err != nil {
		return created, err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		w, err := s.Warehouses().Get(ctx, warehouseID)
		if err != nil {
			return err
		}
		codes, err := w.BinLocationCodes()
		if err != nil {
			return err
		}
		created, err = s.BinLocations().AddMissing(ctx, w.ID(), codes)
		return err
	})
	return created, err
}
