package stock

import (
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

// What only a wrong caller produces is a fault of the service (Internal); a
// bad article id is the client's (Invalid). Neither changes anything.
func TestUnresolvedInputIsRefused(t *testing.T) {
	tests := []struct {
		name string
		op   func(inv *WorkingSet) error
		kind errs.Kind
	}{
		{"no article", func(inv *WorkingSet) error { return inv.change(0, atA, 1, nil, ref) }, errs.Invalid},
		{"no article to default", func(inv *WorkingSet) error { return inv.setDefault(0, binOf(shelfA), true) }, errs.Invalid},
		{"no warehouse", func(inv *WorkingSet) error { return inv.change(article, Location{}, 1, nil, ref) }, errs.Internal},
		{"a bin in another warehouse", func(inv *WorkingSet) error {
			return inv.set(article, Location{WarehouseID: wh2, BinLocationID: shelfA}, 1, nil, false, ref)
		}, errs.Internal},
		{"a destination that is not resolved", func(inv *WorkingSet) error {
			_, err := inv.relocate(article, atA, Location{BinLocationID: shelfB}, 1, false, nil, ref)
			return err
		}, errs.Internal},
		{"a warehouse whose unknown bin location is not loaded", func(inv *WorkingSet) error {
			return inv.change(article, Location{WarehouseID: 3}, 1, nil, ref)
		}, errs.Internal},
		{"an unresolved bin to default", func(inv *WorkingSet) error { return inv.setDefault(article, Bin{Code: "X"}, true) }, errs.Internal},
		{"a bin in another warehouse to default", func(inv *WorkingSet) error {
			return inv.setDefault(article, Bin{ID: shelfA, WarehouseID: wh2, Code: "A-01"}, true)
		}, errs.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, row{bin: shelfA, stock: 3})
			before := snap(inv)
			err := tt.op(inv)
			if err == nil || errs.KindOf(err) != tt.kind {
				t.Errorf("want a %v error, got %v", tt.kind, err)
			}
			assertUnchanged(t, inv, before)
		})
	}
}

func TestALocationWithoutLabelStillNamesItself(t *testing.T) {
	eq(t, "warehouse", Location{WarehouseID: 3}.String(), "warehouse 3")
	eq(t, "bin", Location{WarehouseID: 3, BinLocationID: 9}.String(), "bin location 9 in warehouse 3")
}
