package stock

import (
	"strconv"

	"github.com/shopstock/inventory/domain/barcode"
)

// A quantity box on a handheld scanner's page also catches codes: the
// worker scans while the box has the focus, and the scanner types the code
// and Enter into it. A code is booked as a quantity unless what landed in
// the box is told apart from a number a person types.

// PlausibleFloor is the largest quantity that is plausible anywhere: below
// it a person may well have typed it.
const PlausibleFloor = 10_000

// plausibleFactor is how many times what a place holds (or a line
// expects) a typed quantity plausibly reaches.
const plausibleFactor = 10

// PlausibleQuantity tells whether q is a quantity a person plausibly
// means for a place that holds, or a line that expects, held pieces: at
// most PlausibleFloor, or at most ten times held. A quantity beyond both is
// more likely a code or a slip of the finger, and is booked only once the
// worker confirms it.
func PlausibleQuantity(q, held int) bool {
	return q <= max(PlausibleFloor, plausibleFactor*held)
}

// EntryKind is what landed in a quantity box.
type EntryKind int

const (
	// EntryQuantity is a whole number that plausibly is a quantity.
	EntryQuantity EntryKind = iota
	// EntryMaybeCode is text that may be a code scanned into the box: it
	// is no whole number, or it is a GTIN (8, 12, 13 or 14 digits with the
	// right check digit), or a number beyond a plausible quantity. Only
	// what it names tells: a code, else no quantity or one to confirm.
	EntryMaybeCode
)

// ReadEntry reads what landed in a quantity box for a place that holds
// held pieces: the number when it is one, and whether it must be looked
// up as a code before it counts as a quantity.
func ReadEntry(raw string, held int) (q int64, number bool, kind EntryKind) {
	n, err := strconv.ParseInt(raw, 10, 64)
	number = err == nil
	if !number {
		return 0, false, EntryMaybeCode
	}
	if _, err := barcode.ParseGTIN(raw); err == nil {
		return n, true, EntryMaybeCode
	}
	if n > MaxQuantity || !PlausibleQuantity(int(n), held) {
		return n, true, EntryMaybeCode
	}
	return n, true, EntryQuantity
}
