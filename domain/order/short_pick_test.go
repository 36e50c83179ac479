package order_test

import (
	"reflect"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

func TestAShortBinKeepsWhatWasPickedAndReservesTheRestElsewhere(t *testing.T) {
	o := stored(t, "Open", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 3})
	reserve := order.PickingList{Order: o, At: wh1}
	if err := pickingSet(t, []shelf{{7, shelfA, 3, 0}}, reserve).Apply(reserve, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	// One piece was picked on A-01, which holds no more; B-01 has one
	// free piece, and the third is found nowhere.
	short := &order.ShortPick{Order: o, Warehouse: wh1, DetailID: 1, BinLocationID: shelfA, Picked: 1}
	ws := pickingSet(t, []shelf{{7, shelfA, 3, 3}, {7, shelfB, 1, 0}}, short)
	if err := ws.Apply(short, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if short.Released != 2 || short.Missing != 1 {
		t.Errorf("released %d, missing %d; want 2 and 1", short.Released, short.Missing)
	}
	want := []stock.Hold{{WarehouseID: 1, BinLocationID: shelfA, Quantity: 1}, {WarehouseID: 1, BinLocationID: shelfB, Quantity: 1}}
	if got := holds(detail(t, o, 1)); !reflect.DeepEqual(got, want) {
		t.Errorf("the position holds %+v, want %+v", got, want)
	}
	if want := []shelf{{7, shelfA, 3, 1}, {7, shelfB, 1, 1}}; !reflect.DeepEqual(shelves(ws), sorted(want)) {
		t.Errorf("mappings %+v, want %+v", shelves(ws), want)
	}

	t.Run("a bin that holds no more than was picked is not short", func(t *testing.T) {
		again := &order.ShortPick{Order: o, Warehouse: wh1, DetailID: 1, BinLocationID: shelfA, Picked: 1}
		ws := pickingSet(t, []shelf{{7, shelfA, 3, 1}, {7, shelfB, 1, 1}}, again)
		err := ws.Apply(again, stock.Reference{})
		if e, ok := errs.As(err); !ok || e.Code != order.NothingShort {
			t.Errorf("a bin with nothing short: %v", err)
		}
	})
}
