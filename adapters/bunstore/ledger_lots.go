package bunstore

import (
	"context"

	"github.com/uptrace/bun"
)

func (r ledger) ShippedLots(ctx context.Context, orderDetailIDs []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(orderDetailIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		OrderDetailID int64  `bun:"order_detail_id"`
		LotNumber     string `bun:"lot_number"`
	}
	err := r.s.idb.NewSelect().TableExpr("stock_ledger_entries").
		ColumnExpr("DISTINCT order_detail_id, lot_number").
		Where("order_detail_id IN (?)", bun.In(orderDetailIDs)).
		Where("type = 'shipment' AND lot_number IS NOT NULL").
		OrderExpr("order_detail_id, lot_number").
		Scan(ctx, &rows)
	for _, row := range rows {
		out[row.OrderDetailID] = append(out[row.OrderDetailID], row.LotNumber)
	}
	return out, err
}
