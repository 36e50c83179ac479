package application

import (
	"context"

	"github.com/shopstock/inventory/ports"
)

// OpenCountForBin puts a bin up for a count: the open count that covers
// the bin, or a new count of that bin (not blind, not locking), inside
// the caller's write transaction. The counts feature provides it; until
// it is merged, no count is opened and the answer is 0.
func (a *App) OpenCountForBin(ctx context.Context, s ports.Store, warehouseID, binID int64) (countID int64, err error) {
	return 0, nil
}
