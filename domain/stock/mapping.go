// Package stock keeps the stock of article details on bin locations and every
// rule of changing it: the invariants of a mapping, the default strategy that
// picks bins when only a warehouse is named, and the ledger entry that every
// change of a mapping writes.
package stock

import (
	"time"

	"github.com/shopstock/inventory/domain/errs"
)

// Mapping is the stock of one article detail on one bin location.
type Mapping struct {
	id              int64
	binLocationID   int64
	warehouseID     int64
	articleDetailID int64
	stock           int
	reservedStock   int
	defaultMapping  bool
	lastStockTake   *time.Time
	// lots: what each lot holds here, for a lot-tracked product; stock and
	// reservedStock are their sums.
	lots []LotStock

	// touched: changed by the working set that holds the mapping, so that
	// Changes writes it back.
	touched bool
	// loadedStock and loadedReserved are what storage held when the
	// mapping was loaded (TotalsChanges).
	loadedStock, loadedReserved int
	// loadedExpired is what of loadedStock belonged to lots whose expiry
	// is counted.
	loadedExpired int
}

// NewMapping is an empty, not yet persisted mapping (ID 0).
func NewMapping(binLocationID, warehouseID, articleDetailID int64) *Mapping {
	return &Mapping{binLocationID: binLocationID, warehouseID: warehouseID, articleDetailID: articleDetailID}
}

// UnmarshalMappingFromDatabase rebuilds a stored mapping. Only adapters call
// it. A stored row that breaks an invariant is a fault of the service, not of
// a request, so the error is Internal.
func UnmarshalMappingFromDatabase(
	id, binLocationID, warehouseID, articleDetailID int64,
	stock, reserved int,
	isDefault bool,
	lastStockTake *time.Time,
) (*Mapping, error) {
	if id <= 0 || binLocationID <= 0 || warehouseID <= 0 || articleDetailID <= 0 {
		return nil, errs.E(errs.Internal,
			"stored mapping %d has an invalid reference: bin location %d, warehouse %d, article detail %d",
			id, binLocationID, warehouseID, articleDetailID)
	}
	if stock < 0 || reserved < 0 || reserved > stock {
		return nil, errs.E(errs.Internal,
			"stored mapping %d of article detail %d on bin location %d breaks 0 ≤ reserved ≤ stock: stock %d, reserved %d",
			id, articleDetailID, binLocationID, stock, reserved)
	}
	m := &Mapping{
		id:              id,
		binLocationID:   binLocationID,
		warehouseID:     warehouseID,
		articleDetailID: articleDetailID,
		stock:           stock,
		reservedStock:   reserved,
		defaultMapping:  isDefault,
		loadedStock:     stock,
		loadedReserved:  reserved,
	}
	if lastStockTake != nil {
		t := *lastStockTake
		m.lastStockTake = &t
	}
	return m, nil
}

func (m *Mapping) ID() int64              { return m.id }
func (m *Mapping) BinLocationID() int64   { return m.binLocationID }
func (m *Mapping) WarehouseID() int64     { return m.warehouseID }
func (m *Mapping) ArticleDetailID() int64 { return m.articleDetailID }
func (m *Mapping) Stock() int             { return m.stock }
func (m *Mapping) ReservedStock() int     { return m.reservedStock }
func (m *Mapping) IsDefault() bool        { return m.defaultMapping }

// Available is the stock that is not reserved for picking: the only stock an
// operation may take away.
func (m *Mapping) Available() int { return Unreserved(m.stock, m.reservedStock) }

// Unreserved is what of a bin's stock is not reserved for picking: what an
// operation may take away or move elsewhere, and so what an interface may
// offer to take or move.
func Unreserved(stock, reserved int) int { return stock - reserved }

// LastStockTake is a copy, so that callers cannot move the stamp.
func (m *Mapping) LastStockTake() *time.Time {
	if m.lastStockTake == nil {
		return nil
	}
	t := *m.lastStockTake
	return &t
}

// Removable mappings hold nothing worth keeping; the state drops them.
func (m *Mapping) Removable() bool {
	return m.stock == 0 && m.reservedStock == 0 && !m.defaultMapping
}
