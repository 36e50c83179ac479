package bunstore

import (
	"context"
	"time"

	"github.com/shopstock/inventory/ports"
)

type stockLineRow struct {
	WarehouseID         int64      `bun:"warehouse_id"`
	WarehouseCode       string     `bun:"warehouse_code"`
	BinLocationID       int64      `bun:"bin_location_id"`
	BinLocationCode     string     `bun:"bin_code"`
	ArticleDetailID     int64      `bun:"article_detail_id"`
	ArticleDetailNumber string     `bun:"article_number"`
	ArticleDetailName   string     `bun:"article_name"`
	Stock               int        `bun:"stock"`
	ReservedStock       int        `bun:"reserved_stock"`
	IsDefault           bool       `bun:"is_default"`
	LastStockTake       *time.Time `bun:"last_stock_take"`
}

func (r stockMappings) StockLines(ctx context.Context, f ports.StockLineFilter) ([]ports.StockLine, error) {
	collate := r.s.db.dialect.byteOrder()
	var rows []stockLineRow
	q := r.s.idb.NewSelect().TableExpr("stock_mappings AS m").
		ColumnExpr("m.warehouse_id, w.code AS warehouse_code, m.bin_location_id, b.code AS bin_code").
		ColumnExpr("m.article_detail_id, a.number AS article_number, a.name AS article_name").
		ColumnExpr("m.stock, m.reserved_stock, m.is_default, m.last_stock_take").
		Join("JOIN warehouses AS w ON w.id = m.warehouse_id").
		Join("JOIN bin_locations AS b ON b.id = m.bin_location_id").
		Join("JOIN article_details AS a ON a.id = m.article_detail_id")
	if f.ArticleDetailID != 0 {
		q = q.Where("m.article_detail_id = ?", f.ArticleDetailID)
	}
	if f.BinLocationID != 0 {
		q = q.Where("m.bin_location_id = ?", f.BinLocationID)
	}
	q = q.OrderExpr("w.code" + collate + ", b.code" + collate + ", a.number" + collate)
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := make([]ports.StockLine, len(rows))
	for i, row := range rows {
		out[i] = ports.StockLine{
			WarehouseID: row.WarehouseID, WarehouseCode: row.WarehouseCode,
			BinLocationID: row.BinLocationID, BinLocationCode: row.BinLocationCode,
			ArticleDetailID: row.ArticleDetailID, ArticleDetailNumber: row.ArticleDetailNumber,
			ArticleDetailName: row.ArticleDetailName, Stock: row.Stock, ReservedStock: row.ReservedStock,
			DefaultMapping: row.IsDefault,
		}
		if row.LastStockTake != nil {
			t := row.LastStockTake.UTC()
			out[i].LastStockTake = &t
		}
	}
	return out, nil
}
