package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

// OpenCountForBin puts a bin up for a count, inside the caller's write
// transaction s (a picking wave that found a bin short): the Open count
// that covers the bin, if there is one, else a new count of just that bin,
// not blind and not locking, with its snapshot. It returns the count's
// id. Opening a count is a stock write: the caller must be allowed one.
func (a *App) OpenCountForBin(ctx context.Context, s ports.Store, warehouseID, binID int64) (int64, error) {
	if err := permit(ctx, access.WriteStock); err != nil {
		return 0, err
	}
	bins, _, err := s.Counts().BinsOf(ctx, warehouseID, []int64{binID}, nil)
	if err != nil {
		return 0, err
	}
	if _, ok := bins[binID]; !ok {
		return 0, count.ErrBinNotInWarehouse(binID, warehouseID)
	}
	if id, err := s.Counts().OpenOn(ctx, binID); err != nil || id != 0 {
		return id, err
	}
	c, err := a.openCount(ctx, s, count.Request{WarehouseID: warehouseID, BinLocationIDs: []int64{binID}}, bins)
	if e, ok := errs.As(err); ok && e.Code == count.BinOpenElsewhere {
		// Another transaction opened a count of the bin in between.
		return s.Counts().OpenOn(ctx, binID)
	}
	if err != nil {
		return 0, err
	}
	return c.ID(), nil
}

func userOf(ctx context.Context) string {
	p, _ := PrincipalFrom(ctx)
	return p.Name
}
