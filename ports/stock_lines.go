package ports

import (
	"time"

	"github.com/shopstock/inventory/domain/stock"
)

// StockLine is a mapping as people read it: with the codes, number and name
// of what it joins.
type StockLine struct {
	WarehouseID         int64
	WarehouseCode       string
	BinLocationID       int64
	BinLocationCode     string
	ArticleDetailID     int64
	ArticleDetailNumber string
	ArticleDetailName   string
	Stock               int
	ReservedStock       int
	DefaultMapping      bool
	LastStockTake       *time.Time
	// Lots are what each lot holds here (stock or reservations), in FEFO
	// order (stock.CompareFEFO); empty for a product that is not
	// lot-tracked.
	Lots []MappingLot
}

// Movable is what of the line's stock may move elsewhere (stock.Unreserved).
func (l StockLine) Movable() int { return stock.Unreserved(l.Stock, l.ReservedStock) }

// StockLineFilter picks the lines of one article detail or of one bin
// location (whichever id is not 0).
type StockLineFilter struct {
	ArticleDetailID int64
	BinLocationID   int64
}
