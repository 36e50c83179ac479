package warehouse

import (
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
)

// NullBinLocationCode is the code of every warehouse's unknown bin location,
// where stock goes when nobody said which bin it is on.
const NullBinLocationCode = "erp_null_bin_location"

// BinLocation is an identifiable shelf space or box inside a warehouse.
type BinLocation struct {
	id          int64
	warehouseID int64
	code        string
}

// NewBinLocation validates code and returns a bin location not yet stored.
func NewBinLocation(warehouseID int64, code string) (*BinLocation, error) {
	code, err := checkCode(code)
	if err != nil {
		return nil, err
	}
	return &BinLocation{warehouseID: warehouseID, code: code}, nil
}

// UnmarshalBinLocationFromDatabase rebuilds a stored bin location.
func UnmarshalBinLocationFromDatabase(id, warehouseID int64, code string) *BinLocation {
	return &BinLocation{id: id, warehouseID: warehouseID, code: code}
}

// ErrNullBinLocationProtected and its siblings are the bin location rules.
var (
	ErrNullBinLocationProtected = errs.Invalidf("the unknown bin location %q cannot be changed or deleted", NullBinLocationCode).Breaks("null_bin_location_protected")
	ErrBinHasStock              = errs.Invalidf("the bin location still has stock").Breaks("bin_location_has_stock")
	ErrBinIsDefault             = errs.Invalidf("the bin location is the default bin location of a product").Breaks("bin_location_is_default")
)

func checkCode(raw string) (string, error) {
	c, err := code.Parse(raw)
	switch {
	case err != nil:
		return "", errs.InvalidFields(errs.FieldError{Property: "code", Message: err.Error()})
	case c == NullBinLocationCode:
		return "", errs.InvalidFields(errs.FieldError{Property: "code", Message: "\"" + NullBinLocationCode + "\" is reserved for the unknown bin location"})
	}
	return c, nil
}

// Rename gives the bin location a new code; the unknown bin keeps its own.
func (b *BinLocation) Rename(code string) error {
	if b.IsNull() {
		return ErrNullBinLocationProtected
	}
	code, err := checkCode(code)
	if err != nil {
		return err
	}
	b.code = code
	return nil
}

// StayIn accepts a warehouse id sent along with an update only when it is
// the bin location's own: bin locations do not move between warehouses.
func (b *BinLocation) StayIn(warehouseID int64) error {
	if warehouseID != b.warehouseID {
		return errs.InvalidFields(errs.FieldError{Property: "warehouseId", Message: "a bin location cannot be moved to another warehouse"})
	}
	return nil
}

// CheckDeletable tells whether the bin location may go, given what it holds.
func (b *BinLocation) CheckDeletable(hasStock, isDefault bool) error {
	switch {
	case b.IsNull():
		return ErrNullBinLocationProtected
	case hasStock:
		return ErrBinHasStock
	case isDefault:
		return ErrBinIsDefault
	}
	return nil
}

// Assign records the id storage gave the bin location.
func (b *BinLocation) Assign(id int64) { b.id = id }

func (b *BinLocation) ID() int64          { return b.id }
func (b *BinLocation) WarehouseID() int64 { return b.warehouseID }
func (b *BinLocation) Code() string       { return b.code }
func (b *BinLocation) IsNull() bool       { return b.code == NullBinLocationCode }
