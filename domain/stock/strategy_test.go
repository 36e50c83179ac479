package stock

import "testing"

func TestStockOutOfAWarehouse(t *testing.T) {
	tests := []struct {
		name  string
		rows  []row
		take  int
		moves []move
		after []row
	}{
		{
			name:  "the default bin gives first",
			rows:  []row{{bin: shelfC, stock: 5, def: true}, {bin: shelfA, stock: 1}, {bin: null1, stock: 1}},
			take:  3,
			moves: []move{{shelfC, -3}},
			after: want(row{bin: shelfC, stock: 2, def: true}, row{bin: shelfA, stock: 1}, row{bin: null1, stock: 1}),
		},
		{
			name:  "then the other bins by stock ascending",
			rows:  []row{{bin: shelfA, stock: 5}, {bin: shelfC, stock: 2}},
			take:  4,
			moves: []move{{shelfC, -2}, {shelfA, -2}},
			after: want(row{bin: shelfA, stock: 3}),
		},
		{
			name:  "equal stock goes by code, not by id",
			rows:  []row{{bin: shelfC, stock: 3}, {bin: shelfB, stock: 3}, {bin: shelfA, stock: 3}},
			take:  4,
			moves: []move{{shelfA, -3}, {shelfB, -1}},
			after: want(row{bin: shelfB, stock: 2}, row{bin: shelfC, stock: 3}),
		},
		{
			name:  "the unknown bin location gives last even with the least stock",
			rows:  []row{{bin: null1, stock: 1}, {bin: shelfA, stock: 5}},
			take:  2,
			moves: []move{{shelfA, -2}},
			after: want(row{bin: null1, stock: 1}, row{bin: shelfA, stock: 3}),
		},
		{
			name:  "reserved stock is never taken",
			rows:  []row{{bin: shelfA, stock: 5, reserved: 4, def: true}, {bin: shelfB, stock: 3}},
			take:  3,
			moves: []move{{shelfA, -1}, {shelfB, -2}},
			after: want(row{bin: shelfA, stock: 4, reserved: 4, def: true}, row{bin: shelfB, stock: 1}),
		},
		{
			name:  "a fully reserved bin is passed over",
			rows:  []row{{bin: shelfA, stock: 1, reserved: 1}, {bin: shelfB, stock: 4}},
			take:  2,
			moves: []move{{shelfB, -2}},
			after: want(row{bin: shelfA, stock: 1, reserved: 1}, row{bin: shelfB, stock: 2}),
		},
		{
			name:  "one operation spans every bin, one entry per bin",
			rows:  []row{{bin: null1, stock: 3}, {bin: shelfB, stock: 1}, {bin: shelfC, stock: 2, def: true}},
			take:  6,
			moves: []move{{shelfC, -2}, {shelfB, -1}, {null1, -3}},
			after: want(row{bin: shelfC, stock: 0, def: true}),
		},
		{
			name:  "other warehouses and other articles are not touched",
			rows:  []row{{bin: shelfD, stock: 9}, {bin: shelfA, stock: 9, article: other}, {bin: shelfB, stock: 2}},
			take:  2,
			moves: []move{{shelfB, -2}},
			after: want(row{bin: shelfD, stock: 9}, row{bin: shelfA, stock: 9, article: other}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, tt.rows...)
			mustNot(t, inv.change(article, inWH1, -tt.take, nil, ref))
			eq(t, "ledger", moves(inv), tt.moves)
			eq(t, "state", state(inv), tt.after)
		})
	}
}

func TestStockIntoAWarehouse(t *testing.T) {
	tests := []struct {
		name  string
		rows  []row
		moves []move
		after []row
	}{
		{
			name:  "goes to the article's default bin",
			rows:  []row{{bin: shelfB, stock: 1, def: true}, {bin: shelfA, stock: 1}, {bin: null1, stock: 1}},
			moves: []move{{shelfB, 4}},
			after: want(row{bin: shelfB, stock: 5, def: true}, row{bin: shelfA, stock: 1}, row{bin: null1, stock: 1}),
		},
		{
			name:  "an empty default bin still receives",
			rows:  []row{{bin: shelfB, def: true}},
			moves: []move{{shelfB, 4}},
			after: want(row{bin: shelfB, stock: 4, def: true}),
		},
		{
			name:  "without a default it goes to the unknown bin location",
			rows:  []row{{bin: shelfA, stock: 1}},
			moves: []move{{null1, 4}},
			after: want(row{bin: shelfA, stock: 1}, row{bin: null1, stock: 4}),
		},
		{
			name:  "a default in another warehouse does not count",
			rows:  []row{{bin: shelfD, stock: 1, def: true}},
			moves: []move{{null1, 4}},
			after: want(row{bin: shelfD, stock: 1, def: true}, row{bin: null1, stock: 4}),
		},
		{
			name:  "another article's default does not count",
			rows:  []row{{bin: shelfA, stock: 1, def: true, article: other}},
			moves: []move{{null1, 4}},
			after: want(row{bin: shelfA, stock: 1, def: true, article: other}, row{bin: null1, stock: 4}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, tt.rows...)
			mustNot(t, inv.change(article, inWH1, 4, nil, ref))
			eq(t, "ledger", moves(inv), tt.moves)
			eq(t, "state", state(inv), tt.after)
		})
	}
}
