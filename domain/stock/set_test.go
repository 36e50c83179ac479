package stock

import (
	"slices"
	"testing"
)

func TestSetIsAStocktake(t *testing.T) {
	tests := []struct {
		name     string
		rows     []row
		at       Location
		quantity int
		moves    []move
		after    []row
		stamped  []int64 // bins whose mapping carries the stocktake
	}{
		{
			name: "on a bin upwards", rows: []row{{bin: shelfA, stock: 2}}, at: atA, quantity: 5,
			moves: []move{{shelfA, 3}}, after: want(row{bin: shelfA, stock: 5}), stamped: []int64{shelfA},
		},
		{
			name: "on a bin downwards to its reserved stock", rows: []row{{bin: shelfA, stock: 5, reserved: 1}}, at: atA, quantity: 1,
			moves: []move{{shelfA, -4}}, after: want(row{bin: shelfA, stock: 1, reserved: 1}), stamped: []int64{shelfA},
		},
		{
			name: "on a bin unchanged stamps without an entry", rows: []row{{bin: shelfA, stock: 5}, {bin: shelfB, stock: 1}}, at: atA, quantity: 5,
			moves: []move{}, after: want(row{bin: shelfA, stock: 5}, row{bin: shelfB, stock: 1}), stamped: []int64{shelfA},
		},
		{
			name: "on a bin without a mapping creates it", at: atB, quantity: 4,
			moves: []move{{shelfB, 4}}, after: want(row{bin: shelfB, stock: 4}), stamped: []int64{shelfB},
		},
		{
			name: "on a bin to zero removes the mapping", rows: []row{{bin: shelfA, stock: 5}}, at: atA, quantity: 0,
			moves: []move{{shelfA, -5}}, after: want(),
		},
		{
			name: "on a bin to zero keeps a default mapping", rows: []row{{bin: shelfA, stock: 5, def: true}}, at: atA, quantity: 0,
			moves: []move{{shelfA, -5}}, after: want(row{bin: shelfA, def: true}), stamped: []int64{shelfA},
		},
		{
			name: "on a warehouse upwards fills the default bin", rows: []row{{bin: shelfA, stock: 2, def: true}, {bin: shelfB, stock: 3}}, at: inWH1, quantity: 8,
			moves: []move{{shelfA, 3}}, after: want(row{bin: shelfA, stock: 5, def: true}, row{bin: shelfB, stock: 3}), stamped: []int64{shelfA, shelfB},
		},
		{
			name: "on a warehouse upwards without a default fills the unknown bin location", rows: []row{{bin: shelfB, stock: 3}}, at: inWH1, quantity: 5,
			moves: []move{{null1, 2}}, after: want(row{bin: null1, stock: 2}, row{bin: shelfB, stock: 3}), stamped: []int64{null1, shelfB},
		},
		{
			name: "on a warehouse downwards takes by the out strategy",
			rows: []row{{bin: shelfA, stock: 2, def: true}, {bin: shelfB, stock: 3}, {bin: null1, stock: 1}}, at: inWH1, quantity: 1,
			moves: []move{{shelfA, -2}, {shelfB, -3}}, after: want(row{bin: null1, stock: 1}, row{bin: shelfA, def: true}), stamped: []int64{null1, shelfA},
		},
		{
			name: "on a warehouse downwards leaves reserved stock",
			rows: []row{{bin: shelfA, stock: 4, reserved: 2}, {bin: shelfB, stock: 3}}, at: inWH1, quantity: 2,
			moves: []move{{shelfB, -3}, {shelfA, -2}}, after: want(row{bin: shelfA, stock: 2, reserved: 2}), stamped: []int64{shelfA},
		},
		{
			name: "on a warehouse unchanged stamps every mapping there without an entry",
			rows: []row{{bin: shelfA, stock: 2}, {bin: shelfB, stock: 3}, {bin: shelfD, stock: 1}, {bin: shelfC, stock: 1, article: other}}, at: inWH1, quantity: 5,
			moves: []move{}, after: want(row{bin: shelfA, stock: 2}, row{bin: shelfB, stock: 3}, row{bin: shelfD, stock: 1}, row{bin: shelfC, stock: 1, article: other}),
			stamped: []int64{shelfA, shelfB},
		},
		{
			name: "on an empty warehouse to zero does nothing", at: inWH1, quantity: 0, moves: []move{}, after: want(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, tt.rows...)
			mustNot(t, inv.set(article, tt.at, tt.quantity, nil, false, ref))
			eq(t, "ledger", moves(inv), tt.moves)
			eq(t, "state", state(inv), tt.after)
			for _, m := range inv.Mappings() {
				stamped := m.LastStockTake() != nil && m.LastStockTake().Equal(now)
				if expected := m.ArticleDetailID() == article && slices.Contains(tt.stamped, m.BinLocationID()); stamped != expected {
					t.Errorf("bin %s of article detail %d: stamped %v, want %v", binOf(m.BinLocationID()).Code, m.ArticleDetailID(), stamped, expected)
				}
			}
			for _, e := range entries(inv) {
				if e.Type != EntryStocktake {
					t.Errorf("want stocktake entries, got %s", e.Type)
				}
			}
		})
	}
}

func TestSetWithoutAChangeIsStillSavedForItsStamp(t *testing.T) {
	inv := load(t, row{bin: shelfA, stock: 2})
	mustNot(t, inv.set(article, atA, 2, nil, false, ref))
	upserted, removed, entries := inv.Changes()
	eq(t, "upserted", rowsOf(upserted), want(row{bin: shelfA, stock: 2}))
	eq(t, "removed", len(removed), 0)
	eq(t, "entries", len(entries), 0)
}

func TestASetThatRestoresWhatWasReadStampsOnlyWhereItChangesTheStock(t *testing.T) {
	inv := load(t, row{bin: shelfA, stock: 2}, row{bin: shelfB, stock: 5})
	mustNot(t, Set{ArticleDetailID: article, At: LocationSpec{BinLocation: &BinLocationSpec{ID: shelfA}}, Quantity: 2, Restore: true}.Run(inv, ref))
	mustNot(t, Set{ArticleDetailID: article, At: LocationSpec{BinLocation: &BinLocationSpec{ID: shelfB}}, Quantity: 4, Restore: true}.Run(inv, ref))
	upserted, _, entries := inv.Changes()
	eq(t, "upserted", rowsOf(upserted), want(row{bin: shelfB, stock: 4}))
	eq(t, "entries", len(entries), 1)
	for _, m := range upserted {
		if m.LastStockTake() == nil {
			t.Errorf("the changed mapping on bin %d is not stamped", m.BinLocationID())
		}
	}
}
