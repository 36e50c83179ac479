package bunstore

import (
	"context"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type figures struct{ s *store }

func (s *store) Figures() ports.FigureReader { return figures{s} }

// StockOf reads the stock per warehouse from stock_totals, which triggers
// on stock_mappings keep (see its migration), and what orders still have to
// ship, in one round trip: kind 'w' rows are warehouses, kind 'o' rows the
// outstanding quantity.
func (r figures) StockOf(ctx context.Context, ids []int64) (map[int64][]stock.WarehouseStock, map[int64]int, error) {
	stocks, outstanding := make(map[int64][]stock.WarehouseStock, len(ids)), make(map[int64]int, len(ids))
	if len(ids) == 0 {
		return stocks, outstanding, nil
	}
	var rows []struct {
		Kind                  string `bun:"kind"`
		ArticleDetailID       int64  `bun:"article_detail_id"`
		WarehouseID           int64  `bun:"warehouse_id"`
		WarehouseCode         string `bun:"warehouse_code"`
		StockAvailableForSale bool   `bun:"stock_available_for_sale"`
		Stock                 int    `bun:"stock"`
		ReservedStock         int    `bun:"reserved_stock"`
	}
	err := r.s.idb.NewRaw(`SELECT 'w' AS kind, t.article_detail_id, t.warehouse_id, w.code AS warehouse_code,
    w.stock_available_for_sale, t.stock, t.reserved_stock
FROM stock_totals AS t JOIN warehouses AS w ON w.id = t.warehouse_id
WHERE t.article_detail_id ?0 AND t.mappings > 0
UNION ALL
SELECT 'o', od.article_detail_id, 0, '', ?1, SUM(od.outstanding), 0
FROM order_details AS od
WHERE od.article_detail_id ?0 AND od.outstanding > 0
GROUP BY od.article_detail_id
ORDER BY 2, 3`, r.s.inIDs(ids), false).Scan(ctx, &rows)
	for _, row := range rows {
		if row.Kind == "o" {
			outstanding[row.ArticleDetailID] = row.Stock
			continue
		}
		stocks[row.ArticleDetailID] = append(stocks[row.ArticleDetailID], stock.WarehouseStock{
			WarehouseID: row.WarehouseID, WarehouseCode: row.WarehouseCode, StockAvailableForSale: row.StockAvailableForSale,
			Stock: row.Stock, ReservedStock: row.ReservedStock,
		})
	}
	return stocks, outstanding, err
}

// outstandingSQL is what a product's positions still have to ship, as a
// correlated subquery over the product in a.id: the sum of what the domain
// stored per position (order.Order.Outstanding).
const outstandingSQL = `COALESCE((SELECT SUM(od.outstanding) FROM order_details AS od
WHERE od.article_detail_id = a.id AND od.outstanding > 0), 0)`

func (r figures) ArticlesInWarehouse(ctx context.Context, warehouseID int64) ([]int64, error) {
	var ids []int64
	err := r.s.idb.NewSelect().TableExpr("stock_mappings").ColumnExpr("DISTINCT article_detail_id").
		Where("warehouse_id = ?", warehouseID).Scan(ctx, &ids)
	return ids, err
}
