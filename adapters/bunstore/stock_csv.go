package bunstore

import (
	"context"
	"slices"
	"time"

	"github.com/shopstock/inventory/ports"
)

type exportRow struct {
	WarehouseCode       string     `bun:"warehouse_code"`
	BinLocationCode     string     `bun:"bin_code"`
	ArticleDetailNumber string     `bun:"article_number"`
	ArticleDetailID     int64      `bun:"article_detail_id"`
	Stock               int        `bun:"stock"`
	ReservedStock       int        `bun:"reserved_stock"`
	IsDefault           bool       `bun:"is_default"`
	LastStockTake       *time.Time `bun:"last_stock_take"`
}

// EachMapping runs one statement and hands its rows on as they arrive: one
// statement is one snapshot on both databases. Codes sort byte by byte on
// both (PostgreSQL's "C" collation, SQLite's BINARY), so that the order
// does not depend on the server's locale.
func (r stockMappings) EachMapping(ctx context.Context, warehouseID int64, fn func(ports.StockExportRow) error) error {
	collate := r.s.db.dialect.byteOrder()
	query := `SELECT w.code AS warehouse_code, b.code AS bin_code, a.number AS article_number,
  m.article_detail_id, m.stock, m.reserved_stock, m.is_default, m.last_stock_take
FROM stock_mappings AS m
JOIN warehouses AS w ON w.id = m.warehouse_id
JOIN bin_locations AS b ON b.id = m.bin_location_id
JOIN article_details AS a ON a.id = m.article_detail_id`
	var args []any
	if warehouseID != 0 {
		query += "\nWHERE m.warehouse_id = ?"
		args = append(args, warehouseID)
	}
	query += "\nORDER BY w.code" + collate + ", b.code" + collate + ", a.number" + collate
	rows, err := r.s.idb.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var row exportRow
		if err := r.s.db.bun.ScanRow(ctx, rows, &row); err != nil {
			return err
		}
		out := ports.StockExportRow{
			WarehouseCode: row.WarehouseCode, BinLocationCode: row.BinLocationCode, ArticleDetailNumber: row.ArticleDetailNumber,
			ArticleDetailID: row.ArticleDetailID, Stock: row.Stock, ReservedStock: row.ReservedStock, DefaultMapping: row.IsDefault,
		}
		if row.LastStockTake != nil {
			t := row.LastStockTake.UTC()
			out.LastStockTake = &t
		}
		if err := fn(out); err != nil {
			return err
		}
	}
	return rows.Err()
}

// IDsByNumber looks all numbers up in one statement through the unique
// index on number.
func (r articles) IDsByNumber(ctx context.Context, numbers []string) (map[string]int64, error) {
	found := make(map[string]int64, len(numbers))
	numbers = slices.Compact(slices.Sorted(slices.Values(numbers)))
	if len(numbers) == 0 {
		return found, nil
	}
	rows, err := r.s.db.dialect.articleIDsByNumber(ctx, r.s, numbers)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		found[row.Number] = row.ID
	}
	return found, nil
}
