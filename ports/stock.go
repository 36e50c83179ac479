package ports

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/stock"
)

// MappingView is a product's stock on one bin location, as reads show it.
type MappingView struct {
	ID              int64
	BinLocationID   int64
	WarehouseID     int64
	ArticleDetailID int64
	Stock           int
	ReservedStock   int
	DefaultMapping  bool
	LastStockTake   *time.Time
	// Lots are what each lot holds here, in FEFO order (stock.CompareFEFO);
	// empty for a product that is not lot-tracked.
	Lots []MappingLot
}

// StockRepository stores the stock of products on bin locations.
type StockRepository interface {
	// Load builds the working set of one batch for scope: it looks up the
	// locations the scope names, locks the scope's article details in id
	// order, then loads the mappings the working set asks for
	// (stock.WorkingSet.MappingNeeds). The product lock is what keeps other
	// writers off those mappings until the transaction ends: every writer
	// of mappings takes it before reading them.
	Load(ctx context.Context, scope stock.Scope, now time.Time) (*stock.WorkingSet, error)
	// Save writes what the working set changed: mappings and ledger entries,
	// in bulk.
	Save(ctx context.Context, ws *stock.WorkingSet) error

	// EachMapping calls fn for every mapping (of one warehouse when
	// warehouseID is not 0) in the order warehouse code, bin location code,
	// article detail number, all from one consistent read, and stops at the
	// first error fn returns. It streams: the rows are never all in memory.
	EachMapping(ctx context.Context, warehouseID int64, fn func(StockExportRow) error) error

	WarehouseHasStock(ctx context.Context, warehouseID int64) (bool, error)
	// BinLocationUsage tells what keeps a bin location from being deleted.
	BinLocationUsage(ctx context.Context, binLocationID int64) (hasStock, isDefault bool, err error)
	MappingsOfBinLocation(ctx context.Context, binLocationID int64) ([]MappingView, error)
	// StockLines lists the mappings the filter picks, by warehouse code, bin
	// location code and article detail number.
	StockLines(ctx context.Context, f StockLineFilter) ([]StockLine, error)
	// ArticleHasStock tells whether any mapping of the product holds stock.
	ArticleHasStock(ctx context.Context, articleDetailID int64) (bool, error)
	// RemoveEmpty deletes the product's mappings that hold no stock
	// (default mappings), before the product itself goes.
	RemoveEmpty(ctx context.Context, articleDetailID int64) error
	// UncountedExpiry lists the article details with lots whose best-before
	// date lies before cutoff (stock.ExpiryCutoff: expired) but whose
	// expiry is not counted yet (stock.Lot.ExpiryCounted), in id order.
	UncountedExpiry(ctx context.Context, cutoff time.Time) ([]int64, error)
}
