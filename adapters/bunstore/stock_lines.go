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
	var lots map[binArticle][]ports.MappingLot
	if len(rows) > 0 {
		var err error
		if lots, err = r.lotsOfLines(ctx, f); err != nil {
			return nil, err
		}
	}
	out := make([]ports.StockLine, len(rows))
	for i, row := range rows {
		out[i] = ports.StockLine{
			WarehouseID: row.WarehouseID, WarehouseCode: row.WarehouseCode,
			BinLocationID: row.BinLocationID, BinLocationCode: row.BinLocationCode,
			ArticleDetailID: row.ArticleDetailID, ArticleDetailNumber: row.ArticleDetailNumber,
			ArticleDetailName: row.ArticleDetailName, Stock: row.Stock, ReservedStock: row.ReservedStock,
			DefaultMapping: row.IsDefault, Lots: lots[binArticle{row.BinLocationID, row.ArticleDetailID}],
		}
		if row.LastStockTake != nil {
			t := row.LastStockTake.UTC()
			out[i].LastStockTake = &t
		}
	}
	return out, nil
}

type binArticle struct{ bin, article int64 }

type lineLotRow struct {
	ArticleDetailID int64      `bun:"article_detail_id"`
	BinLocationID   int64      `bun:"bin_location_id"`
	LotNumber       string     `bun:"lot_number"`
	BestBefore      dateColumn `bun:"best_before"`
	Stock           int        `bun:"stock"`
	ReservedStock   int        `bun:"reserved_stock"`
}

// lotsOfLines reads what each lot holds on the mappings the filter picks,
// per bin location and article detail, in FEFO order (best-before
// ascending, none last, then number in byte order).
func (r stockMappings) lotsOfLines(ctx context.Context, f ports.StockLineFilter) (map[binArticle][]ports.MappingLot, error) {
	var rows []lineLotRow
	q := r.s.idb.NewSelect().TableExpr("lot_stock AS ls").
		ColumnExpr("ls.article_detail_id, ls.bin_location_id, ls.lot_number, l.best_before, ls.stock, ls.reserved_stock").
		Join("JOIN lots AS l ON l.article_detail_id = ls.article_detail_id AND l.number = ls.lot_number").
		Where("ls.stock <> 0 OR ls.reserved_stock <> 0")
	if f.ArticleDetailID != 0 {
		q = q.Where("ls.article_detail_id = ?", f.ArticleDetailID)
	}
	if f.BinLocationID != 0 {
		q = q.Where("ls.bin_location_id = ?", f.BinLocationID)
	}
	q = q.OrderExpr("l.best_before IS NULL, l.best_before, ls.lot_number" + r.s.db.dialect.byteOrder())
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := map[binArticle][]ports.MappingLot{}
	for _, row := range rows {
		k := binArticle{row.BinLocationID, row.ArticleDetailID}
		out[k] = append(out[k], ports.MappingLot{Number: row.LotNumber, BestBefore: row.BestBefore.t,
			Stock: row.Stock, ReservedStock: row.ReservedStock})
	}
	return out, nil
}
