package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// OpenCountForBin puts a bin up for a count, inside the caller's write
// transaction: it answers the open count that covers the bin, or creates
// a count of that bin (not blind, not locking). The counts feature
// provides it; this stand-in opens no count and answers 0.
func (a *App) OpenCountForBin(ctx context.Context, s ports.Store, warehouseID, binID int64) (countID int64, err error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return 0, err
	}
	return 0, nil
}
