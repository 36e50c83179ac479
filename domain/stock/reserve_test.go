package stock

import (
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

func TestReservingFollowsTheStockOutStrategyAndTakesOnlyUnreservedStock(t *testing.T) {
	// Default B-01 first, then by stock ascending (C-01 before A-01), the
	// unknown bin last; A-01's reserved pieces are not there to take.
	ws := load(t, row{bin: shelfB, stock: 2, def: true}, row{bin: shelfA, stock: 5, reserved: 4}, row{bin: shelfC, stock: 3}, row{bin: null1, stock: 9})
	holds, err := ws.Reserve(article, inWH1, 7)
	mustNot(t, err)
	eq(t, "holds", holds, []Hold{{wh1, shelfB, 2, ""}, {wh1, shelfC, 3, ""}, {wh1, shelfA, 1, ""}, {wh1, null1, 1, ""}})
	eq(t, "state", state(ws), want(row{bin: shelfB, stock: 2, reserved: 2, def: true}, row{bin: shelfA, stock: 5, reserved: 5},
		row{bin: shelfC, stock: 3, reserved: 3}, row{bin: null1, stock: 9, reserved: 1}))
	eq(t, "ledger", moves(ws), []move{})

	before := snap(ws)
	_, err = ws.Reserve(article, inWH1, 9)
	assertInvalid(t, err, `insufficient stock of article detail 7 at warehouse "WH1": requested 9, available 8`)
	assertUnchanged(t, ws, before)
}

func TestShippingForAHolderTakesItsHoldsAtTheLocationFirst(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 3, reserved: 3}, row{bin: shelfB, stock: 4, reserved: 1}, row{bin: shelfD, stock: 2, reserved: 2})
	mine := []Hold{{wh1, shelfA, 2, ""}, {wh2, shelfD, 2, ""}} // one piece of A-01 is someone else's
	used, err := ws.ShipHolding(article, inWH1, 4, mine, nil, ref)
	mustNot(t, err)
	eq(t, "used", used, []int{2, 0})
	eq(t, "state", state(ws), want(row{bin: shelfA, stock: 1, reserved: 1}, row{bin: shelfB, stock: 2, reserved: 1}, row{bin: shelfD, stock: 2, reserved: 2}))
	eq(t, "ledger", moves(ws), []move{{shelfA, -2}, {shelfB, -2}})
	if entries(ws)[0].Type != EntryShipment {
		t.Errorf("type %s", entries(ws)[0].Type)
	}

	t.Run("holds elsewhere do not count", func(t *testing.T) {
		ws := load(t, row{bin: shelfA, stock: 3, reserved: 3}, row{bin: shelfD, stock: 2, reserved: 2})
		before := snap(ws)
		_, err := ws.ShipHolding(article, atA, 3, []Hold{{wh2, shelfD, 2, ""}}, nil, ref)
		assertInvalid(t, err, `insufficient stock of article detail 7 at bin location "A-01" in warehouse "WH1": requested 3, available 0`)
		assertUnchanged(t, ws, before)
	})
	t.Run("a hold the mapping does not carry is the service's fault", func(t *testing.T) {
		ws := load(t, row{bin: shelfA, stock: 3, reserved: 1})
		_, err := ws.ShipHolding(article, atA, 2, []Hold{{wh1, shelfA, 2, ""}}, nil, ref)
		if errs.KindOf(err) != errs.Internal {
			t.Errorf("want internal, got %v", err)
		}
	})
}

func TestReleasingAndRestocking(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 3, reserved: 3})
	mustNot(t, ws.Release(article, Hold{wh1, shelfA, 2, ""}))
	eq(t, "state", state(ws), want(row{bin: shelfA, stock: 3, reserved: 1}))
	if err := ws.Release(article, Hold{wh1, shelfA, 2, ""}); errs.KindOf(err) != errs.Internal {
		t.Errorf("releasing more than is reserved: %v", err)
	}

	// Returned pieces go to the default bin of the warehouse, else its unknown bin.
	ws = load(t, row{bin: shelfB, def: true})
	at, err := ws.Restock(article, inWH1, 2, nil, ref)
	mustNot(t, err)
	eq(t, "bin", at.BinLocationID, int64(shelfB))
	at, err = ws.Restock(article, inWH2, 1, nil, ref)
	mustNot(t, err)
	eq(t, "bin", at.BinLocationID, int64(null2))
	eq(t, "ledger", moves(ws), []move{{shelfB, 2}, {null2, 1}})
	if entries(ws)[0].Type != EntryReturn {
		t.Errorf("type %s", entries(ws)[0].Type)
	}
}
