package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	domorder "github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/ports"
)

type figures struct{ s *store }

func (s *store) Figures() ports.FigureReader { return figures{s} }

func (r figures) WarehouseStocks(ctx context.Context, ids []int64) (map[int64][]ports.WarehouseStock, error) {
	out := make(map[int64][]ports.WarehouseStock, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ArticleDetailID       int64  `bun:"article_detail_id"`
		WarehouseID           int64  `bun:"warehouse_id"`
		WarehouseCode         string `bun:"warehouse_code"`
		StockAvailableForSale bool   `bun:"stock_available_for_sale"`
		Stock                 int    `bun:"stock"`
		ReservedStock         int    `bun:"reserved_stock"`
	}
	// stock_totals is kept by triggers on stock_mappings (see its migration).
	err := r.s.idb.NewSelect().TableExpr("stock_totals AS t").Join("JOIN warehouses AS w ON w.id = t.warehouse_id").
		ColumnExpr("t.article_detail_id, t.warehouse_id, w.code AS warehouse_code, w.stock_available_for_sale, t.stock, t.reserved_stock").
		Where("t.article_detail_id IN (?) AND t.mappings > 0", bun.List(ids)).
		OrderExpr("t.article_detail_id, t.warehouse_id").Scan(ctx, &rows)
	for _, row := range rows {
		out[row.ArticleDetailID] = append(out[row.ArticleDetailID], ports.WarehouseStock{
			WarehouseID: row.WarehouseID, WarehouseCode: row.WarehouseCode, StockAvailableForSale: row.StockAvailableForSale,
			Stock: row.Stock, ReservedStock: row.ReservedStock,
		})
	}
	return out, err
}

// outstandingSQL is what a product's positions still have to ship, as a
// correlated subquery over the product in a.id (see orders.Outstanding).
const outstandingSQL = `COALESCE((SELECT SUM(od.quantity - od.shipped) FROM order_details AS od
JOIN orders AS o ON o.id = od.order_id
WHERE od.article_detail_id = a.id AND od.status <> 'Cancelled' AND o.status <> 'Cancelled' AND od.quantity > od.shipped), 0)`

func (r figures) Outstanding(ctx context.Context, ids []int64) (map[int64]int, error) {
	out := make(map[int64]int, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ArticleDetailID int64 `bun:"article_detail_id"`
		Outstanding     int   `bun:"outstanding"`
	}
	err := r.s.idb.NewSelect().TableExpr("order_details AS od").
		Join("JOIN orders AS o ON o.id = od.order_id").
		ColumnExpr("od.article_detail_id, SUM(od.quantity - od.shipped) AS outstanding").
		Where("od.article_detail_id IN (?)", bun.List(ids)).
		Where("od.status <> ?", string(domorder.DetailCancelled)).
		Where("o.status <> ?", string(domorder.StatusCancelled)).
		Where("od.quantity > od.shipped").
		GroupExpr("od.article_detail_id").Scan(ctx, &rows)
	for _, row := range rows {
		out[row.ArticleDetailID] = row.Outstanding
	}
	return out, err
}

func (r figures) ArticlesInWarehouse(ctx context.Context, warehouseID int64) ([]int64, error) {
	var ids []int64
	err := r.s.idb.NewSelect().TableExpr("stock_mappings").ColumnExpr("DISTINCT article_detail_id").
		Where("warehouse_id = ?", warehouseID).Scan(ctx, &ids)
	return ids, err
}
