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
}
