package stock

import (
	"fmt"
	"strconv"
)

// Bin is a bin location as the default strategy sees it.
type Bin struct {
	ID          int64
	WarehouseID int64
	Code        string
	IsNull      bool
}

// Location is where an operation acts, resolved by a working set.
// BinLocationID 0 means the warehouse itself: the default strategy picks the
// bins. Label names the location in messages, for example
// `bin location "A-01" in warehouse "WH1"` or `warehouse "WH1"`.
type Location struct {
	WarehouseID   int64
	BinLocationID int64
	Label         string

	// namedBy, when Label is empty, is the working set that resolved the
	// location and names it the way Label would: a batch resolves every
	// location but names almost none in a message, so the operations it
	// runs get locations whose label is built only when printed.
	namedBy *WorkingSet
}

// IsWarehouse reports whether the default strategy chooses the bins.
func (l Location) IsWarehouse() bool { return l.BinLocationID == 0 }

func (l Location) String() string {
	switch {
	case l.Label != "":
		return l.Label
	case l.namedBy != nil:
		return l.namedBy.label(l.WarehouseID, l.BinLocationID)
	case l.IsWarehouse():
		return fmt.Sprintf("warehouse %d", l.WarehouseID)
	default:
		return fmt.Sprintf("bin location %d in warehouse %d", l.BinLocationID, l.WarehouseID)
	}
}

// labelled is l with its Label built, as callers outside the package see
// a location.
func (l Location) labelled() Location {
	if l.namedBy != nil {
		l.Label, l.namedBy = l.namedBy.label(l.WarehouseID, l.BinLocationID), nil
	}
	return l
}

// label names a resolved warehouse (bin 0) or bin as the working set knows
// it.
func (ws *WorkingSet) label(warehouseID, binID int64) string {
	if binID == 0 {
		return warehouseLabel(ws.warehouses[warehouseID].Code)
	}
	b, _ := ws.bin(binID)
	w, ok := ws.warehouses[b.WarehouseID]
	return binLabel(b.Code, w.Code, ok)
}

// warehouseLabel is `warehouse "WH1"`; the quoting is fmt's %q.
func warehouseLabel(code string) string {
	var buf [64]byte
	return string(strconv.AppendQuote(append(buf[:0], "warehouse "...), code))
}

// binLabel is `bin location "A-01" in warehouse "WH1"`, without the
// warehouse when it is not known.
func binLabel(code, warehouse string, inWarehouse bool) string {
	var buf [96]byte
	b := strconv.AppendQuote(append(buf[:0], "bin location "...), code)
	if inWarehouse {
		b = strconv.AppendQuote(append(b, " in warehouse "...), warehouse)
	}
	return string(b)
}
