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
	// LockedBy is the open count that locks the bin (0: none): nothing
	// moves stock on it but that count's own booking (locks.go).
	LockedBy int64
}

// Location is where an operation acts, resolved by a working set.
// BinLocationID 0 means the warehouse itself: the default strategy picks the
// bins. Label names the location in messages, for example
// `bin location "A-01" in warehouse "WH1"` or `warehouse "WH1"`.
type Location struct {
	WarehouseID   int64
	BinLocationID int64
	Label         string
}

// IsWarehouse reports whether the default strategy chooses the bins.
func (l Location) IsWarehouse() bool { return l.BinLocationID == 0 }

func (l Location) String() string {
	switch {
	case l.Label != "":
		return l.Label
	case l.IsWarehouse():
		return fmt.Sprintf("warehouse %d", l.WarehouseID)
	default:
		return fmt.Sprintf("bin location %d in warehouse %d", l.BinLocationID, l.WarehouseID)
	}
}

// warehouseLabel is `warehouse "WH1"`, quoted as fmt's %q quotes. A batch
// labels a thousand locations: each label is one allocation.
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
