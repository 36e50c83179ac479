package stock

import "github.com/shopstock/inventory/domain/errs"

// WarehouseSpec names a warehouse by id or code (zero values: not given).
type WarehouseSpec struct {
	ID   int64
	Code string
}

// BinLocationSpec names a bin location by id, or by code inside a warehouse
// given by id or code (codes are unique per warehouse).
type BinLocationSpec struct {
	ID            int64
	Code          string
	WarehouseID   int64
	WarehouseCode string
}

// LocationSpec is a location as a client writes it: exactly one of a
// warehouse (the default strategy picks bins) or a bin location.
type LocationSpec struct {
	Warehouse   *WarehouseSpec
	BinLocation *BinLocationSpec
}

// Validate checks the shape of the spec; Resolve checks that it names
// something. property prefixes messages and the errors' property
// (`source`, `destination`).
func (s LocationSpec) Validate(property string) error {
	// The prefix is built only for a message: this runs for every operation.
	prefix := func() string {
		if property == "" {
			return ""
		}
		return property + "."
	}
	switch {
	case s.Warehouse == nil && s.BinLocation == nil:
		p := prefix()
		return errs.Invalidf("%swarehouse or %sbinLocation is required", p, p).On(p + "binLocation").Breaks(LocationMissing)
	case s.Warehouse != nil && s.BinLocation != nil:
		p := prefix()
		return errs.Invalidf("give either %swarehouse or %sbinLocation, not both", p, p).On(p + "binLocation").Breaks(LocationAmbiguous)
	case s.Warehouse != nil:
		if s.Warehouse.ID == 0 && s.Warehouse.Code == "" {
			p := prefix()
			return errs.Invalidf("%swarehouse needs an id or a code", p).On(p + "warehouse").Breaks(LocationMissing)
		}
	default:
		b := s.BinLocation
		if b.ID == 0 && (b.Code == "" || (b.WarehouseID == 0 && b.WarehouseCode == "")) {
			p := prefix()
			return errs.Invalidf("%sbinLocation needs an id, or a code with a warehouseId or warehouseCode", p).On(p + "binLocation").Breaks(LocationMissing)
		}
	}
	return nil
}
