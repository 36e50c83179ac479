package stock

import "testing"

func TestAQuantityFarBeyondWhatAPlaceHoldsIsNotPlausible(t *testing.T) {
	for _, c := range []struct {
		q, held int
		want    bool
	}{
		{12, 0, true},
		{PlausibleFloor, 0, true},
		{PlausibleFloor + 1, 0, false},
		{30_000, 5_000, true},
		{50_001, 5_000, false},
		{96_385_074, 40, false},
		{1_000_000_000, 0, false},
	} {
		if got := PlausibleQuantity(c.q, c.held); got != c.want {
			t.Errorf("PlausibleQuantity(%d, %d) = %v, want %v", c.q, c.held, got, c.want)
		}
	}
}

func TestWhatLandsInAQuantityBoxIsReadAsAQuantityOrAPossibleCode(t *testing.T) {
	for _, c := range []struct {
		raw    string
		held   int
		number bool
		want   EntryKind
	}{
		{"12", 0, true, EntryQuantity},
		{"0", 0, true, EntryQuantity},
		{"9000", 0, true, EntryQuantity},
		// An EAN-8 with its check digit right is a code whatever the bin holds.
		{"96385074", 100_000_000, true, EntryMaybeCode},
		{"4006381333931", 0, true, EntryMaybeCode},
		// Eight digits with a wrong check digit: a number, far too large.
		{"96385075", 40, true, EntryMaybeCode},
		{"96385075", 100_000_000, true, EntryQuantity},
		{"1000000000", 0, true, EntryMaybeCode},
		{"99999999999999999999", 0, false, EntryMaybeCode},
		{"A-01", 0, false, EntryMaybeCode},
		{"SKU-100", 0, false, EntryMaybeCode},
	} {
		_, number, kind := ReadEntry(c.raw, c.held)
		if number != c.number || kind != c.want {
			t.Errorf("ReadEntry(%q, %d) = number %v, kind %v; want %v, %v", c.raw, c.held, number, kind, c.number, c.want)
		}
	}
}
