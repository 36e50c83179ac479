package stock

import "github.com/shopstock/inventory/domain/errs"

// The rules of stock an error can break, as errs.Code: what an interface
// reads to tell a rule in its own words.
const (
	UnknownArticleDetail errs.Code = "unknown_article_detail"
	UnknownWarehouse     errs.Code = "unknown_warehouse"
	UnknownBinLocation   errs.Code = "unknown_bin_location"
	// LocationMismatch: the parts of a location name different places (an
	// id and a code, a bin and a warehouse).
	LocationMismatch errs.Code = "location_mismatch"
	// LocationMissing: a location is missing, or names nothing to look up.
	LocationMissing errs.Code = "location_missing"
	// LocationAmbiguous: a location names both a warehouse and a bin.
	LocationAmbiguous errs.Code = "location_ambiguous"
	// QuantityOutOfRange: a quantity outside what its operation accepts.
	QuantityOutOfRange errs.Code = "quantity_out_of_range"
	InsufficientStock  errs.Code = "insufficient_stock"
	// StockLimit: the stock of a mapping would pass MaxStock.
	StockLimit errs.Code = "stock_limit"
	// BelowReserved: a stocktake below what is reserved there.
	BelowReserved errs.Code = "below_reserved"
	// SameLocation: a relocation that would leave the stock where it is.
	SameLocation errs.Code = "same_location"
	// NullBinLocationNotDefault: the unknown bin location is nobody's
	// default bin location.
	NullBinLocationNotDefault errs.Code = "null_bin_location_not_default"
)

// concerning is the subject of an error about article at a location.
func concerning(article int64, at Location) errs.Subject {
	return errs.Subject{ArticleDetail: article, Warehouse: at.WarehouseID, BinLocation: at.BinLocationID}
}
