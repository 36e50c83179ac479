package order_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

// One warehouse (id 1, unknown bin 10) with shelf 11; articles 7 and 9.
var inWarehouse = stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: 1}}

func workingSet(t *testing.T, op stock.Operation, stockOf map[int64]int) *stock.WorkingSet {
	t.Helper()
	ws := stock.NewWorkingSet(stock.ScopeOf(op), time.Now(),
		[]stock.KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: 10}},
		[]stock.Bin{{ID: 11, WarehouseID: 1, Code: "A-01"}}, []int64{7, 9})
	var ms []*stock.Mapping
	id := int64(100)
	for article, n := range stockOf {
		m, err := stock.UnmarshalMappingFromDatabase(id, 11, 1, article, n, 0, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		ms, id = append(ms, m), id+1
	}
	needs := ws.MappingNeeds()
	ws.Loaded(needs, ms, []stock.Bin{{ID: 11, WarehouseID: 1, Code: "A-01"}})
	return ws
}

func stockLeft(ws *stock.WorkingSet) map[int64]int {
	out := map[int64]int{}
	for _, m := range ws.Mappings() {
		out[m.ArticleDetailID()] += m.Stock()
	}
	return out
}

func TestAShipmentShipsEveryPositionOrNone(t *testing.T) {
	details := []order.DetailRecord{
		{ID: 11, ArticleDetailID: 7, Quantity: 3, Shipped: 1},
		{ID: 12, ArticleDetailID: 9, Quantity: 4},
		{ID: 13, ArticleDetailID: 9, Quantity: 5, Status: "Cancelled"},
	}
	t.Run("enough stock: every position ships what it still has to", func(t *testing.T) {
		o := stored(t, "Open", details...)
		op := order.Shipment{Order: o, From: inWarehouse}
		ws := workingSet(t, op, map[int64]int{7: 2, 9: 6})
		if err := ws.Apply(op, stock.Reference{User: "u"}); err != nil {
			t.Fatal(err)
		}
		if got := stockLeft(ws); got[7] != 0 || got[9] != 2 {
			t.Errorf("stock left %v", got)
		}
		if o.Status() != order.StatusCompletelyDelivered {
			t.Errorf("status %s", o.Status())
		}
		_, _, entries := ws.Changes()
		for _, e := range entries {
			if e.Type != stock.EntryShipment || e.Ref.OrderID != o.ID() || e.Ref.OrderDetailID == 0 {
				t.Errorf("entry %+v", e)
			}
		}
	})
	t.Run("a shortfall anywhere ships nothing and names every shortfall", func(t *testing.T) {
		o := stored(t, "Open", details...)
		before := snap(o)
		op := order.Shipment{Order: o, From: inWarehouse}
		ws := workingSet(t, op, map[int64]int{7: 2, 9: 3})
		err := ws.Apply(op, stock.Reference{})
		requireInvalid(t, err, "order 10001 cannot be shipped, nothing was changed: order detail 12: insufficient stock of article detail 9")
		if e, _ := errs.As(err); len(e.Fields) != 1 || e.Fields[0].Property != "details[1]" {
			t.Errorf("fields %+v", e.Fields)
		}
		if got := stockLeft(ws); got[7] != 2 || got[9] != 3 {
			t.Errorf("the position that had stock shipped anyway: %v", got)
		}
		if _, _, entries := ws.Changes(); len(entries) != 0 {
			t.Errorf("ledger entries %+v", entries)
		}
		if got := snap(o); !equal(got, before) {
			t.Errorf("order changed: %+v", got)
		}
	})
}

func TestADetailShipmentChecksTheOrderBeforeStockMoves(t *testing.T) {
	o := stored(t, "Open", order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3})
	for _, tc := range []struct {
		name string
		op   order.DetailShipment
		want string
	}{
		{"no such position", order.DetailShipment{DetailID: 99, Quantity: 1, From: inWarehouse}, "order detail 99 does not exist"},
		{"a non-positive id", order.DetailShipment{DetailID: 0, Quantity: 1, From: inWarehouse}, "orderDetailId must be a positive integer"},
		{"more than is left", order.DetailShipment{Order: o, DetailID: 11, Quantity: 4, From: inWarehouse}, "exceeds the remaining quantity 3"},
		{"more than the stock", order.DetailShipment{Order: o, DetailID: 11, Quantity: 3, From: inWarehouse}, "insufficient stock of article detail 7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snap(o)
			ws := workingSet(t, tc.op, map[int64]int{7: 2})
			requireInvalid(t, ws.Apply(tc.op, stock.Reference{}), tc.want)
			if got := stockLeft(ws); got[7] != 2 {
				t.Errorf("stock moved: %v", got)
			}
			if !equal(snap(o), before) {
				t.Error("the order changed")
			}
		})
	}
	op := order.DetailShipment{Order: o, DetailID: 11, Quantity: 2, From: inWarehouse}
	ws := workingSet(t, op, map[int64]int{7: 2})
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if d, _ := o.Detail(11); d.Shipped() != 2 || o.Status() != order.StatusPartiallyDelivered || stockLeft(ws)[7] != 0 {
		t.Errorf("shipped %d, status %s, stock %v", d.Shipped(), o.Status(), stockLeft(ws))
	}
}

func equal(a, b snapshot) bool { return reflect.DeepEqual(a, b) }
