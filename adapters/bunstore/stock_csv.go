package bunstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shopstock/inventory/domain/stock"

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
	LotNumber           *string    `bun:"lot_number"`
	BestBefore          dateColumn `bun:"best_before"`
}

// dateColumn reads a best-before date as either database hands it over:
// PostgreSQL's DATE as a time, SQLite's TEXT as `YYYY-MM-DD`.
type dateColumn struct{ t *time.Time }

func (d *dateColumn) Scan(v any) error {
	d.t = nil
	switch v := v.(type) {
	case nil:
		return nil
	case time.Time:
		t := time.Date(v.Year(), v.Month(), v.Day(), 0, 0, 0, 0, time.UTC)
		d.t = &t
		return nil
	case []byte:
		return d.parse(string(v))
	case string:
		return d.parse(v)
	}
	return fmt.Errorf("a best-before date cannot be read from %T", v)
}

func (d *dateColumn) parse(s string) error {
	t, err := stock.ParseDate(s)
	if err != nil {
		return fmt.Errorf("stored best-before date %w", err)
	}
	d.t = &t
	return nil
}

// EachMapping runs one statement and hands its rows on as they arrive: one
// statement is one snapshot on both databases. Codes sort byte by byte on
// both (PostgreSQL's "C" collation, SQLite's BINARY), so that the order
// does not depend on the server's locale. A mapping of a lot-tracked
// product is one row per lot it holds (stock or reservations), in FEFO
// order (stock.CompareFEFO: best-before ascending, none last, then number),
// with the lot's figures; one that holds no lot (a default mapping holding
// nothing) and a mapping of any other product are one row with the
// mapping's own.
func (r stockMappings) EachMapping(ctx context.Context, warehouseID int64, fn func(ports.StockExportRow) error) error {
	collate := r.s.db.dialect.byteOrder()
	query := `SELECT w.code AS warehouse_code, b.code AS bin_code, a.number AS article_number,
  m.article_detail_id, COALESCE(ls.stock, m.stock) AS stock, COALESCE(ls.reserved_stock, m.reserved_stock) AS reserved_stock,
  m.is_default, m.last_stock_take, ls.lot_number, l.best_before
FROM stock_mappings AS m
JOIN warehouses AS w ON w.id = m.warehouse_id
JOIN bin_locations AS b ON b.id = m.bin_location_id
JOIN article_details AS a ON a.id = m.article_detail_id
LEFT JOIN lot_stock AS ls ON ls.article_detail_id = m.article_detail_id AND ls.bin_location_id = m.bin_location_id
  AND (ls.stock <> 0 OR ls.reserved_stock <> 0)
LEFT JOIN lots AS l ON l.article_detail_id = ls.article_detail_id AND l.number = ls.lot_number`
	var args []any
	if warehouseID != 0 {
		query += "\nWHERE m.warehouse_id = ?"
		args = append(args, warehouseID)
	}
	query += "\nORDER BY w.code" + collate + ", b.code" + collate + ", a.number" + collate +
		", l.best_before IS NULL, l.best_before, ls.lot_number" + collate
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
		if row.LotNumber != nil {
			out.LotNumber, out.BestBefore = *row.LotNumber, row.BestBefore.t
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
