package ports

import "time"

// StockExportRow is one mapping as the stock export lists it: with the codes
// and the number that people read instead of ids.
type StockExportRow struct {
	WarehouseCode       string
	BinLocationCode     string
	ArticleDetailNumber string
	ArticleDetailID     int64
	Stock               int
	ReservedStock       int
	DefaultMapping      bool
	LastStockTake       *time.Time
	// LotNumber and BestBefore name the lot of a row of a lot-tracked
	// product ("" and nil otherwise): the export has one row per mapping
	// and lot, whose Stock and ReservedStock are the lot's.
	LotNumber  string
	BestBefore *time.Time
}
