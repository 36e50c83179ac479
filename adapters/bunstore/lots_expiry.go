package bunstore

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/calendar"
	domorder "github.com/shopstock/inventory/domain/order"
)

func (r stockMappings) UncountedExpiry(ctx context.Context, cutoff time.Time) ([]int64, error) {
	ids := []int64{}
	// best_before is a DATE (PostgreSQL) or its ISO text (SQLite): the
	// day as text compares right with both.
	err := r.s.idb.NewSelect().TableExpr("lots").ColumnExpr("DISTINCT article_detail_id").
		Where("NOT expiry_counted AND best_before < ?", calendar.Format(cutoff)).
		OrderExpr("article_detail_id").Scan(ctx, &ids)
	return ids, err
}

func (r orders) HoldingLotsOf(ctx context.Context, articleDetailID int64) ([]*domorder.Order, error) {
	var rows []orderRow
	sub := r.s.idb.NewSelect().TableExpr("reservations AS r").Join("JOIN order_details AS d ON d.id = r.order_detail_id").
		ColumnExpr("d.order_id").Where("r.article_detail_id = ? AND r.lot_number <> ''", articleDetailID)
	sel := r.s.idb.NewSelect().Model(&rows).Where("o.id IN (?)", sub).OrderExpr("o.id")
	if err := r.s.forUpdate(sel).Scan(ctx); err != nil {
		return nil, err
	}
	return r.withDetails(ctx, rows)
}
