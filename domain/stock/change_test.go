package stock

import "testing"

func TestChangeOnABinAddsAndTakesThere(t *testing.T) {
	tests := []struct {
		name     string
		rows     []row
		at       Location
		quantity int
		entry    EntryType
		after    []row
	}{
		{"incoming on a new bin", nil, atA, 3, EntryIncoming, want(row{bin: shelfA, stock: 3})},
		{"incoming on the unknown bin location", nil, atN1, 3, EntryIncoming, want(row{bin: null1, stock: 3})},
		{"outgoing ignores the default bin", []row{{bin: shelfA, stock: 3}, {bin: shelfB, stock: 3, def: true}}, atA, -2, EntryOutgoing,
			want(row{bin: shelfA, stock: 1}, row{bin: shelfB, stock: 3, def: true})},
		{"outgoing down to the reserved stock", []row{{bin: shelfA, stock: 3, reserved: 1}}, atA, -2, EntryOutgoing,
			want(row{bin: shelfA, stock: 1, reserved: 1})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, tt.rows...)
			mustNot(t, inv.change(article, tt.at, tt.quantity, nil, ref))
			eq(t, "state", state(inv), tt.after)
			got := entries(inv)
			if len(got) != 1 || got[0].Type != tt.entry || got[0].Quantity != tt.quantity || got[0].BinLocationID != tt.at.BinLocationID {
				t.Errorf("want one %s entry of %+d on bin %d, got %+v", tt.entry, tt.quantity, tt.at.BinLocationID, got)
			}
		})
	}
}

// Every failing operation names the article, the location and the numbers,
// and leaves the inventory (state and pending changes) exactly as it was.
func TestAFailingOperationChangesNothing(t *testing.T) {
	tests := []struct {
		name    string
		rows    []row
		op      func(inv *WorkingSet) error
		message string
	}{
		{
			name:    "change with quantity 0",
			rows:    []row{{bin: shelfA, stock: 3}},
			op:      func(inv *WorkingSet) error { return inv.change(article, inWH1, 0, nil, ref) },
			message: `change quantity of article detail 7 at warehouse "WH1" must not be 0`,
		},
		{
			name:    "change takes more than the unreserved stock of a warehouse",
			rows:    []row{{bin: shelfA, stock: 3, reserved: 2, def: true}, {bin: shelfB, stock: 1}, {bin: null1, stock: 1}},
			op:      func(inv *WorkingSet) error { return inv.change(article, inWH1, -5, nil, ref) },
			message: `insufficient stock of article detail 7 at warehouse "WH1": requested 5, available 3`,
		},
		{
			name:    "change takes from a bin without a mapping",
			rows:    []row{{bin: shelfB, stock: 4}},
			op:      func(inv *WorkingSet) error { return inv.change(article, atA, -1, nil, ref) },
			message: `insufficient stock of article detail 7 at bin location "A-01" in warehouse "WH1": requested 1, available 0`,
		},
		{
			name:    "ship more than a bin has unreserved",
			rows:    []row{{bin: shelfA, stock: 4, reserved: 1}},
			op:      func(inv *WorkingSet) error { _, err := inv.ShipHolding(article, atA, 4, nil, nil, ref); return err },
			message: `insufficient stock of article detail 7 at bin location "A-01" in warehouse "WH1": requested 4, available 3`,
		},
		{
			name:    "ship nothing",
			rows:    []row{{bin: shelfA, stock: 4}},
			op:      func(inv *WorkingSet) error { _, err := inv.ShipHolding(article, atA, 0, nil, nil, ref); return err },
			message: `shipped quantity of article detail 7 from bin location "A-01" in warehouse "WH1" must be positive, got 0`,
		},
		{
			name:    "set a negative quantity",
			rows:    []row{{bin: shelfA, stock: 4}},
			op:      func(inv *WorkingSet) error { return inv.set(article, inWH1, -1, nil, false, ref) },
			message: `stocktake quantity of article detail 7 at warehouse "WH1" must not be negative, got -1`,
		},
		{
			name:    "set a bin below its reserved stock",
			rows:    []row{{bin: shelfA, stock: 4, reserved: 3}},
			op:      func(inv *WorkingSet) error { return inv.set(article, atA, 2, nil, false, ref) },
			message: `cannot set stock of article detail 7 at bin location "A-01" in warehouse "WH1" to 2: 3 are reserved`,
		},
		{
			name:    "set a warehouse below its reserved stock",
			rows:    []row{{bin: shelfA, stock: 4, reserved: 3}, {bin: shelfB, stock: 2, reserved: 1}},
			op:      func(inv *WorkingSet) error { return inv.set(article, inWH1, 3, nil, false, ref) },
			message: `cannot set stock of article detail 7 at warehouse "WH1" to 3: 4 are reserved`,
		},
		{
			name: "relocate more than the source has",
			rows: []row{{bin: shelfA, stock: 2}, {bin: null1, stock: 1}},
			op: func(inv *WorkingSet) error {
				_, err := inv.relocate(article, inWH1, inWH2, 4, false, nil, ref)
				return err
			},
			message: `insufficient stock of article detail 7 at warehouse "WH1": requested 4, available 3`,
		},
		{
			name: "relocate from a warehouse whose only stock is on the destination bin",
			rows: []row{{bin: shelfA, stock: 5, def: true}},
			op: func(inv *WorkingSet) error {
				_, err := inv.relocate(article, inWH1, atA, 1, false, nil, ref)
				return err
			},
			message: `insufficient stock of article detail 7 at warehouse "WH1": requested 1, available 0`,
		},
		{
			name:    "make the unknown bin location the default",
			rows:    []row{{bin: shelfA, stock: 5, def: true}},
			op:      func(inv *WorkingSet) error { return inv.setDefault(article, binOf(null1), true) },
			message: `the unknown bin location of warehouse 1 cannot be the default bin location of article detail 7`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, tt.rows...)
			// Earlier work in the same batch must survive the failure too.
			mustNot(t, inv.change(article, atD, 1, nil, ref))
			before := snap(inv)
			assertInvalid(t, tt.op(inv), tt.message)
			assertUnchanged(t, inv, before)
		})
	}
}
