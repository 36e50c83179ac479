package stock

import (
	"testing"

	"github.com/shopstock/inventory/domain/warehouse"
)

func TestSetDefault(t *testing.T) {
	tests := []struct {
		name      string
		rows      []row
		bin       int64
		isDefault bool
		after     []row
	}{
		{
			name: "clears the article's previous default in that warehouse",
			rows: []row{{bin: shelfA, stock: 2, def: true}, {bin: shelfB, stock: 3}}, bin: shelfB, isDefault: true,
			after: want(row{bin: shelfA, stock: 2}, row{bin: shelfB, stock: 3, def: true}),
		},
		{
			name: "an empty previous default disappears",
			rows: []row{{bin: shelfA, def: true}, {bin: shelfB, stock: 3}}, bin: shelfB, isDefault: true,
			after: want(row{bin: shelfB, stock: 3, def: true}),
		},
		{
			name: "creates the mapping with stock 0",
			rows: []row{{bin: shelfA, stock: 2, def: true}}, bin: shelfC, isDefault: true,
			after: want(row{bin: shelfA, stock: 2}, row{bin: shelfC, def: true}),
		},
		{
			name: "leaves other warehouses and other articles alone",
			rows: []row{{bin: shelfD, stock: 1, def: true}, {bin: shelfA, stock: 1, def: true, article: other}}, bin: shelfB, isDefault: true,
			after: want(row{bin: shelfD, stock: 1, def: true}, row{bin: shelfA, stock: 1, def: true, article: other}, row{bin: shelfB, def: true}),
		},
		{
			name: "again on the default changes nothing",
			rows: []row{{bin: shelfA, stock: 2, def: true}}, bin: shelfA, isDefault: true,
			after: want(row{bin: shelfA, stock: 2, def: true}),
		},
		{
			name: "false stops a default",
			rows: []row{{bin: shelfA, stock: 2, def: true}}, bin: shelfA, isDefault: false,
			after: want(row{bin: shelfA, stock: 2}),
		},
		{
			name: "false on an empty default removes the mapping",
			rows: []row{{bin: shelfA, def: true}}, bin: shelfA, isDefault: false,
			after: want(),
		},
		{
			name: "false on the unknown bin location changes nothing",
			rows: []row{{bin: null1, stock: 2}}, bin: null1, isDefault: false,
			after: want(row{bin: null1, stock: 2}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := load(t, tt.rows...)
			mustNot(t, inv.setDefault(article, binOf(tt.bin), tt.isDefault))
			eq(t, "state", state(inv), tt.after)
			eq(t, "ledger", moves(inv), []move{})
			assertInvariants(t, inv)
		})
	}
}

func TestTheUnknownBinLocationIsNeverADefault(t *testing.T) {
	// Recognised by the flag and by being the warehouse's null bin alike.
	for _, bin := range []Bin{binOf(null1), {ID: null1, WarehouseID: wh1, Code: warehouse.NullBinLocationCode}} {
		inv := load(t, row{bin: null1, stock: 2})
		before := snap(inv)
		assertInvalid(t, inv.setDefault(article, bin, true),
			`the unknown bin location of warehouse 1 cannot be the default bin location of article detail 7`)
		assertUnchanged(t, inv, before)
	}
}

func TestANewDefaultReceivesTheNextIncomingStock(t *testing.T) {
	inv := load(t, row{bin: shelfA, stock: 2, def: true})
	mustNot(t, inv.setDefault(article, binOf(shelfC), true))
	mustNot(t, inv.change(article, inWH1, 5, nil, ref))
	eq(t, "state", state(inv), want(row{bin: shelfA, stock: 2}, row{bin: shelfC, stock: 5, def: true}))
}
