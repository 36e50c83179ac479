package ports

import (
	"context"
	"time"
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
}
