package bunstore

import (
	"context"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type figures struct{ s *store }

func (s *store) Figures() ports.FigureReader { return figures{s} }

// stockOfSQL reads what the figures of products are made of, as the
// transactions that changed them kept it (events.Record): kind 'w' rows
// are the stock per warehouse (stock_totals), kind 'o' rows what orders
// still have to ship (the snapshots' outstanding).
const stockOfSQL = `SELECT 'w' AS kind, t.article_detail_id, t.warehouse_id, w.code AS warehouse_code,
    w.stock_available_for_sale, t.stock, t.reserved_stock, t.expired_stock, t.mappings
FROM stock_totals AS t JOIN warehouses AS w ON w.id = t.warehouse_id
WHERE t.article_detail_id ` + inIDsMarker + `
UNION ALL
SELECT 'o', ss.article_detail_id, 0, '', FALSE, ss.outstanding, 0, 0, 0
FROM stock_snapshots AS ss
WHERE ss.article_detail_id ` + inIDsMarker + ` AND ss.outstanding <> 0
ORDER BY 2, 3`

// stockOf collects the rows of stockOfSQL.
type stockOf struct {
	stocks      map[int64][]stock.WarehouseStock
	outstanding map[int64]int
	// warehouses are those asked for by id (ports.LockedSnapshots).
	warehouses map[int64]stock.WarehouseStock
}

func newStockOf(n int) stockOf {
	return stockOf{make(map[int64][]stock.WarehouseStock, n), make(map[int64]int, n), map[int64]stock.WarehouseStock{}}
}

func (s stockOf) add(kind string, article, warehouseID int64, code string, forSale bool, total, reserved, expired, mappings int64) {
	if kind == "o" {
		s.outstanding[article] = int(total)
		return
	}
	s.stocks[article] = append(s.stocks[article], stock.WarehouseStock{
		WarehouseID: warehouseID, WarehouseCode: code, StockAvailableForSale: forSale,
		Stock: int(total), ReservedStock: int(reserved), Expired: int(expired), Mappings: int(mappings),
	})
}

// StockOf reads stockOfSQL in one round trip.
func (r figures) StockOf(ctx context.Context, ids []int64) (map[int64][]stock.WarehouseStock, map[int64]int, error) {
	out := newStockOf(len(ids))
	if len(ids) == 0 {
		return out.stocks, out.outstanding, nil
	}
	// Scanned column by column: a batch reads a few hundred of these.
	rows, done, err := r.s.queryIDs(ctx, stockOfSQL, ids)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	defer rows.Close()
	for rows.Next() {
		var kind, code string
		var article, warehouseID, total, reserved, expired, mappings int64
		var forSale bool
		if err := rows.Scan(&kind, &article, &warehouseID, &code, &forSale, &total, &reserved, &expired, &mappings); err != nil {
			return nil, nil, err
		}
		out.add(kind, article, warehouseID, code, forSale, total, reserved, expired, mappings)
	}
	return out.stocks, out.outstanding, rows.Err()
}

func (r figures) ArticlesInWarehouse(ctx context.Context, warehouseID int64) ([]int64, error) {
	if r.s.held != nil {
		return nil, errHeld
	}
	var ids []int64
	err := r.s.idb.NewSelect().TableExpr("stock_mappings").ColumnExpr("DISTINCT article_detail_id").
		Where("warehouse_id = ?", warehouseID).Scan(ctx, &ids)
	return ids, err
}
