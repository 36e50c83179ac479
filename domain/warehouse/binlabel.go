package warehouse

import "strings"

// A bin's code names one shelf only inside its warehouse: where the same
// code is a bin of several warehouses, a label that carries the code alone
// makes a scanner ask which one is meant. Such a label carries the
// warehouse too, as the bin's code, LabelSeparator and the warehouse's
// code ("A-01@MAIN", read "A-01 at MAIN"), which a scan reads back to the
// one bin.

// LabelSeparator stands between the bin's and the warehouse's code on the
// label of a bin whose code repeats across warehouses.
const LabelSeparator = "@"

// LabelText is what the barcode of a bin's label carries: its code, and
// where the code repeats in another warehouse, its warehouse's code after
// LabelSeparator.
func LabelText(binCode, warehouseCode string, repeated bool) string {
	if !repeated {
		return binCode
	}
	return binCode + LabelSeparator + warehouseCode
}

// LabelReading is one way to read a scanned text as a bin's label: the
// bin's code and its warehouse's.
type LabelReading struct {
	BinCode, WarehouseCode string
}

// ReadLabel lists the ways text reads as the label of a bin in a named
// warehouse: one for every LabelSeparator in it with a code on either
// side, since either code may hold the separator itself. None for a text
// without one.
func ReadLabel(text string) []LabelReading {
	var out []LabelReading
	for i := 0; i < len(text); i++ {
		if !strings.HasPrefix(text[i:], LabelSeparator) {
			continue
		}
		bin, wh := strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+len(LabelSeparator):])
		if bin != "" && wh != "" {
			out = append(out, LabelReading{BinCode: bin, WarehouseCode: wh})
		}
	}
	return out
}
