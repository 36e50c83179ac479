package application

import (
	"context"
	"strings"

	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// labelledBin reads a scan that names nothing as it stands as the label
// of a bin whose code repeats across warehouses (warehouse.ReadLabel):
// the one bin of that code in the warehouse of that code, else none. It
// costs a query for each way the text reads, only for a scan that holds
// the label's separator.
func labelledBin(ctx context.Context, s ports.Store, text string) ([]ports.ScanHit, error) {
	var found []ports.ScanHit
	for _, l := range warehouse.ReadLabel(text) {
		hits, err := s.Scans().Named(ctx, l.BinCode, nil)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			if h.Kind == ports.HitBinLocation && strings.EqualFold(h.ParentCode, l.WarehouseCode) {
				found = append(found, h)
			}
		}
	}
	if len(found) != 1 {
		return nil, nil
	}
	return found, nil
}
