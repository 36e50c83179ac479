package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// UpdateBinLocation renames a bin location. A warehouse id may be sent
// along, but only the one the bin location already belongs to.
func (a *App) UpdateBinLocation(ctx context.Context, id int64, code *string, warehouseID *int64) error {
	if err := permit(ctx, access.ManageWarehouses); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		b, err := s.BinLocations().Get(ctx, id)
		if err != nil {
			return err
		}
		if warehouseID != nil {
			if err := b.StayIn(*warehouseID); err != nil {
				return err
			}
		}
		if code == nil {
			return nil
		}
		if err := b.Rename(*code); err != nil {
			return err
		}
		if err := checkBinLocationCode(ctx, s.BinLocations(), b, b.ID()); err != nil {
			return err
		}
		return s.BinLocations().Save(ctx, b)
	})
}
