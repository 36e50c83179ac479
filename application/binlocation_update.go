package application

import (
	"context"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

// UpdateBinLocation renames a bin location. A warehouse id may be sent
// along, but only the one the bin location already belongs to.
func (a *App) UpdateBinLocation(ctx context.Context, id int64, code *string, warehouseID *int64) error {
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		b, err := s.BinLocations().Get(ctx, id)
		if err != nil {
			return err
		}
		if warehouseID != nil && *warehouseID != b.WarehouseID() {
			return errs.InvalidFields(errs.FieldError{Property: "warehouseId", Message: "a bin location cannot be moved to another warehouse"})
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
