package ports

import (
	"cmp"
	"context"
	"slices"
	"strings"
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
}

// StockRepository stores the stock of products on bin locations.
type StockRepository interface {
	WarehouseHasStock(ctx context.Context, warehouseID int64) (bool, error)
	// BinLocationUsage tells what keeps a bin location from being deleted.
	BinLocationUsage(ctx context.Context, binLocationID int64) (hasStock, isDefault bool, err error)
	MappingsOfBinLocation(ctx context.Context, binLocationID int64) ([]MappingView, error)
	BatchStockRepository
}

// LocationWants lists every warehouse and bin location a batch names, so
// that storage can look them all up in a couple of queries.
type LocationWants struct {
	WarehouseIDs   []int64
	WarehouseCodes []string
	BinIDs         []int64
	BinCodes       []BinCodeWant
}

// BinCodeWant is a bin location named by code inside a warehouse given by
// id or by code.
type BinCodeWant struct {
	WarehouseID   int64
	WarehouseCode string
	Code          string
}

// Add records what spec names.
func (w *LocationWants) Add(spec stock.LocationSpec) {
	if s := spec.Warehouse; s != nil {
		if s.ID != 0 {
			w.WarehouseIDs = append(w.WarehouseIDs, s.ID)
		}
		if s.Code != "" {
			w.WarehouseCodes = append(w.WarehouseCodes, s.Code)
		}
	}
	if s := spec.BinLocation; s != nil {
		if s.ID != 0 {
			w.BinIDs = append(w.BinIDs, s.ID)
		}
		if s.WarehouseID != 0 {
			w.WarehouseIDs = append(w.WarehouseIDs, s.WarehouseID)
		}
		if s.WarehouseCode != "" {
			w.WarehouseCodes = append(w.WarehouseCodes, s.WarehouseCode)
		}
		if s.Code != "" && (s.WarehouseID != 0 || s.WarehouseCode != "") {
			w.BinCodes = append(w.BinCodes, BinCodeWant{WarehouseID: s.WarehouseID, WarehouseCode: s.WarehouseCode, Code: s.Code})
		}
	}
}

// MappingWants names the mappings a batch works on: every mapping of a
// product in a warehouse, or the one mapping of a product on a bin.
type MappingWants struct {
	InWarehouse []ArticleWarehouse
	OnBin       []ArticleBin
}

// ArticleWarehouse is a product in a warehouse.
type ArticleWarehouse struct{ ArticleDetailID, WarehouseID int64 }

// ArticleBin is a product on a bin location.
type ArticleBin struct{ ArticleDetailID, BinLocationID int64 }

// WarehouseStock is a product's stock in one warehouse.
type WarehouseStock struct {
	WarehouseID           int64
	WarehouseCode         string
	StockAvailableForSale bool
	Stock                 int
	ReservedStock         int
}

// BatchStockRepository is the set-based side of StockRepository that batches use.
type BatchStockRepository interface {
	// Locations looks up what wants names (bins with their warehouses).
	Locations(ctx context.Context, wants LocationWants) ([]stock.KnownWarehouse, []stock.Bin, error)
	// LockMappings loads and, in a write transaction, locks the wanted
	// mappings in id order, with the bins of those found by warehouse (a
	// bin named directly comes with Locations already).
	LockMappings(ctx context.Context, wants MappingWants) ([]*stock.Mapping, []stock.Bin, error)
	// Apply writes a batch's changed mappings back in bulk.
	Apply(ctx context.Context, upserted, removed []*stock.Mapping) error
	// ArticleStock is a product's stock per warehouse, for warehouses that have any.
	ArticleStock(ctx context.Context, articleDetailID int64) ([]WarehouseStock, error)
	// ArticleHasStock tells whether any mapping of the product holds stock.
	ArticleHasStock(ctx context.Context, articleDetailID int64) (bool, error)
	// RemoveEmpty deletes the product's mappings that hold no stock
	// (default mappings), before the product itself goes.
	RemoveEmpty(ctx context.Context, articleDetailID int64) error
}

// Compact sorts the wants and drops repeats, so that a batch naming the same
// warehouse a thousand times asks for it once.
func (w *LocationWants) Compact() {
	w.WarehouseIDs = sortedUnique(w.WarehouseIDs, cmp.Compare[int64])
	w.WarehouseCodes = sortedUnique(w.WarehouseCodes, strings.Compare)
	w.BinIDs = sortedUnique(w.BinIDs, cmp.Compare[int64])
	w.BinCodes = sortedUnique(w.BinCodes, func(a, b BinCodeWant) int {
		return cmp.Or(cmp.Compare(a.WarehouseID, b.WarehouseID), strings.Compare(a.WarehouseCode, b.WarehouseCode), strings.Compare(a.Code, b.Code))
	})
}

// Compact sorts the wants (the order rows are locked in) and drops repeats.
func (w *MappingWants) Compact() {
	w.InWarehouse = sortedUnique(w.InWarehouse, func(a, b ArticleWarehouse) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), cmp.Compare(a.WarehouseID, b.WarehouseID))
	})
	w.OnBin = sortedUnique(w.OnBin, func(a, b ArticleBin) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), cmp.Compare(a.BinLocationID, b.BinLocationID))
	})
}

func sortedUnique[T comparable](s []T, compare func(a, b T) int) []T {
	slices.SortFunc(s, compare)
	return slices.Compact(s)
}
