package stock

import (
	"fmt"

	"github.com/shopstock/inventory/domain/errs"
)

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
// something. property prefixes messages (`source`, `destination`).
func (s LocationSpec) Validate(property string) error {
	prefix := ""
	if property != "" {
		prefix = property + "."
	}
	switch {
	case s.Warehouse == nil && s.BinLocation == nil:
		return errs.Invalidf("%swarehouse or %sbinLocation is required", prefix, prefix)
	case s.Warehouse != nil && s.BinLocation != nil:
		return errs.Invalidf("give either %swarehouse or %sbinLocation, not both", prefix, prefix)
	case s.Warehouse != nil:
		if s.Warehouse.ID == 0 && s.Warehouse.Code == "" {
			return errs.Invalidf("%swarehouse needs an id or a code", prefix)
		}
	default:
		b := s.BinLocation
		if b.ID == 0 && (b.Code == "" || (b.WarehouseID == 0 && b.WarehouseCode == "")) {
			return errs.Invalidf("%sbinLocation needs an id, or a code with a warehouseId or warehouseCode", prefix)
		}
	}
	return nil
}

// KnownWarehouse is what resolution needs to know of a warehouse.
type KnownWarehouse struct {
	ID                int64
	Code              string
	NullBinLocationID int64
}

// Directory resolves location specs against the warehouses and bins a batch
// loaded in bulk.
type Directory struct {
	warehouses map[int64]KnownWarehouse
	byCode     map[string]KnownWarehouse
	bins       map[int64]Bin
	binsByCode map[binCode]Bin
}

type binCode struct {
	warehouse int64
	code      string
}

// NewDirectory indexes the loaded warehouses and bins.
func NewDirectory(warehouses []KnownWarehouse, bins []Bin) *Directory {
	d := &Directory{
		warehouses: make(map[int64]KnownWarehouse, len(warehouses)),
		byCode:     make(map[string]KnownWarehouse, len(warehouses)),
		bins:       make(map[int64]Bin, len(bins)),
		binsByCode: make(map[binCode]Bin, len(bins)),
	}
	for _, w := range warehouses {
		d.warehouses[w.ID], d.byCode[w.Code] = w, w
	}
	for _, b := range bins {
		d.bins[b.ID], d.binsByCode[binCode{b.WarehouseID, b.Code}] = b, b
	}
	return d
}

// Warehouse finds a warehouse by spec; id and code, when both given, must agree.
func (d *Directory) Warehouse(s WarehouseSpec) (KnownWarehouse, error) {
	var w KnownWarehouse
	var ok bool
	if s.ID != 0 {
		if w, ok = d.warehouses[s.ID]; !ok {
			return w, errs.Invalidf("warehouse %d does not exist", s.ID)
		}
		if s.Code != "" && s.Code != w.Code {
			return w, errs.Invalidf("warehouse id %d and code %q name different warehouses", s.ID, s.Code)
		}
		return w, nil
	}
	if w, ok = d.byCode[s.Code]; !ok {
		return w, errs.Invalidf("warehouse with code %q does not exist", s.Code)
	}
	return w, nil
}

// Resolve turns a validated spec into a location.
func (d *Directory) Resolve(s LocationSpec) (Location, error) {
	if s.Warehouse != nil {
		w, err := d.Warehouse(*s.Warehouse)
		if err != nil {
			return Location{}, err
		}
		return Location{WarehouseID: w.ID, Label: fmt.Sprintf("warehouse %q", w.Code)}, nil
	}
	spec := *s.BinLocation
	var warehouse *KnownWarehouse
	if spec.WarehouseID != 0 || spec.WarehouseCode != "" {
		w, err := d.Warehouse(WarehouseSpec{ID: spec.WarehouseID, Code: spec.WarehouseCode})
		if err != nil {
			return Location{}, err
		}
		warehouse = &w
	}
	var b Bin
	if spec.ID != 0 {
		var ok bool
		if b, ok = d.bins[spec.ID]; !ok {
			return Location{}, errs.Invalidf("bin location %d does not exist", spec.ID)
		}
		if spec.Code != "" && spec.Code != b.Code {
			return Location{}, errs.Invalidf("bin location id %d and code %q name different bin locations", spec.ID, spec.Code)
		}
		if warehouse != nil && warehouse.ID != b.WarehouseID {
			return Location{}, errs.Invalidf("bin location %d is not in warehouse %q", spec.ID, warehouse.Code)
		}
	} else {
		var ok bool
		if b, ok = d.binsByCode[binCode{warehouse.ID, spec.Code}]; !ok {
			return Location{}, errs.Invalidf("bin location with code %q does not exist in warehouse %q", spec.Code, warehouse.Code)
		}
	}
	label := fmt.Sprintf("bin location %q", b.Code)
	if w, ok := d.warehouses[b.WarehouseID]; ok {
		label += fmt.Sprintf(" in warehouse %q", w.Code)
	}
	return Location{WarehouseID: b.WarehouseID, BinLocationID: b.ID, Label: label}, nil
}

// NullBin is the unknown bin location of a loaded warehouse.
func (d *Directory) NullBin(warehouseID int64) (Bin, bool) {
	w, ok := d.warehouses[warehouseID]
	if !ok || w.NullBinLocationID == 0 {
		return Bin{}, false
	}
	return Bin{ID: w.NullBinLocationID, WarehouseID: w.ID, Code: NullBinLocationCode, IsNull: true}, true
}
