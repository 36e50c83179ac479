package stock

import "testing"

func TestRelocate(t *testing.T) {
	tests := []struct {
		name     string
		rows     []row
		from, to Location
		quantity int
		all      bool
		moved    int
		moves    []move
		after    []row
	}{
		{
			name: "bin to bin", rows: []row{{bin: shelfA, stock: 5}}, from: atA, to: atB, quantity: 2,
			moved: 2, moves: []move{{shelfA, -2}, {shelfB, 2}}, after: want(row{bin: shelfA, stock: 3}, row{bin: shelfB, stock: 2}),
		},
		{
			name: "a warehouse source does not take from the destination bin inside it",
			rows: []row{{bin: shelfA, stock: 4, def: true}, {bin: shelfB, stock: 3}}, from: inWH1, to: atA, quantity: 2,
			moved: 2, moves: []move{{shelfB, -2}, {shelfA, 2}}, after: want(row{bin: shelfA, stock: 6, def: true}, row{bin: shelfB, stock: 1}),
		},
		{
			name: "a bin source into its warehouse goes to the default bin",
			rows: []row{{bin: shelfA, stock: 4, def: true}, {bin: shelfB, stock: 3}}, from: atB, to: inWH1, quantity: 3,
			moved: 3, moves: []move{{shelfB, -3}, {shelfA, 3}}, after: want(row{bin: shelfA, stock: 7, def: true}),
		},
		{
			name: "across warehouses", rows: []row{{bin: shelfA, stock: 3, def: true}, {bin: null1, stock: 1}}, from: inWH1, to: inWH2, quantity: 4,
			moved: 4, moves: []move{{shelfA, -3}, {null1, -1}, {null2, 4}}, after: want(row{bin: shelfA, def: true}, row{bin: null2, stock: 4}),
		},
		{
			name: "all moves every unreserved piece",
			rows: []row{{bin: shelfA, stock: 5, reserved: 2}, {bin: shelfB, stock: 1}}, from: inWH1, to: atD, all: true,
			moved: 4, moves: []move{{shelfB, -1}, {shelfA, -3}, {shelfD, 4}}, after: want(row{bin: shelfA, stock: 2, reserved: 2}, row{bin: shelfD, stock: 4}),
		},
		{
			name: "all ignores the quantity", rows: []row{{bin: shelfA, stock: 5}}, from: atA, to: atB, quantity: 1, all: true,
			moved: 5, moves: []move{{shelfA, -5}, {shelfB, 5}}, after: want(row{bin: shelfB, stock: 5}),
		},
		{
			name: "all with nothing available moves nothing and succeeds",
			rows: []row{{bin: shelfA, stock: 2, reserved: 2}}, from: inWH1, to: inWH2, all: true,
			moved: 0, moves: []move{}, after: want(row{bin: shelfA, stock: 2, reserved: 2}),
		},
		{
			name: "all from a warehouse skips the destination bin inside it",
			rows: []row{{bin: shelfA, stock: 3}}, from: inWH1, to: atA, all: true,
			moved: 0, moves: []move{}, after: want(row{bin: shelfA, stock: 3}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, tt.rows...)
			moved, err := inv.relocate(article, tt.from, tt.to, tt.quantity, tt.all, nil, ref)
			mustNot(t, err)
			eq(t, "moved", moved, tt.moved)
			eq(t, "ledger", moves(inv), tt.moves)
			eq(t, "state", state(inv), tt.after)
			for _, e := range entries(inv) {
				if e.Type != EntryRelocation {
					t.Errorf("want relocation entries, got %s", e.Type)
				}
			}
		})
	}
}

func TestRelocateRefuses(t *testing.T) {
	tests := []struct {
		name     string
		rows     []row
		from, to Location
		quantity int
		message  string
	}{
		{
			name: "the same warehouse twice", rows: []row{{bin: shelfA, stock: 3}}, from: inWH1, to: inWH1, quantity: 1,
			message: `cannot relocate article detail 7 from warehouse "WH1" to the same location`,
		},
		{
			name: "the same bin twice, however it was named", rows: []row{{bin: shelfA, stock: 3}},
			from: atA, to: Location{WarehouseID: wh1, BinLocationID: shelfA, Label: `bin location 13`}, quantity: 1,
			message: `cannot relocate article detail 7 from bin location "A-01" in warehouse "WH1" to the same location`,
		},
		{
			name: "a bin into its warehouse when it is the default", rows: []row{{bin: shelfA, stock: 3, def: true}}, from: atA, to: inWH1, quantity: 1,
			message: `cannot relocate article detail 7 from bin location "A-01" in warehouse "WH1" to warehouse "WH1": it would go back to the same bin location`,
		},
		{
			name: "the unknown bin location into its warehouse without a default", rows: []row{{bin: null1, stock: 3}}, from: atN1, to: inWH1, quantity: 1,
			message: `cannot relocate article detail 7 from bin location "erp_null_bin_location" in warehouse "WH1" to warehouse "WH1": it would go back to the same bin location`,
		},
		{
			name: "a quantity of 0", rows: []row{{bin: shelfA, stock: 3}}, from: atA, to: atB, quantity: 0,
			message: `relocation quantity of article detail 7 from bin location "A-01" in warehouse "WH1" to bin location "B-01" in warehouse "WH1" must be positive, got 0`,
		},
		{
			name: "a negative quantity", rows: []row{{bin: shelfA, stock: 3}}, from: atA, to: atB, quantity: -2,
			message: `relocation quantity of article detail 7 from bin location "A-01" in warehouse "WH1" to bin location "B-01" in warehouse "WH1" must be positive, got -2`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, tt.rows...)
			before := snap(inv)
			moved, err := inv.relocate(article, tt.from, tt.to, tt.quantity, false, nil, ref)
			assertInvalid(t, err, tt.message)
			eq(t, "moved", moved, 0)
			assertUnchanged(t, inv, before)
		})
	}
}
