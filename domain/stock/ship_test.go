package stock

import "testing"

func TestShipTakesByTheOutStrategyAndWritesShipmentEntries(t *testing.T) {
	inv := load(t, row{bin: shelfA, stock: 2, def: true}, row{bin: shelfB, stock: 5}, row{bin: null1, stock: 1})
	order := Reference{IdempotencyKey: "ship-1", OrderID: 40, OrderDetailID: 41, User: "api"}
	_, err := inv.ShipHolding(article, inWH1, 4, nil, nil, order)
	mustNot(t, err)

	eq(t, "state", state(inv), want(row{bin: shelfA, stock: 0, def: true}, row{bin: shelfB, stock: 3}, row{bin: null1, stock: 1}))
	eq(t, "ledger", moves(inv), []move{{shelfA, -2}, {shelfB, -2}})
	for _, e := range entries(inv) {
		if e.Type != EntryShipment || e.Ref != order || !e.CreatedAt.Equal(now) {
			t.Errorf("want a shipment entry for order detail 41 at %v, got %+v", now, e)
		}
	}
}
