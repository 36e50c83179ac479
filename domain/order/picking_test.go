package order_test

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

// Two warehouses: WH1 (unknown bin 10, shelves 11 "B-01" and 12 "A-01"),
// WH2 (unknown bin 20, shelf 21 "C-01"). Article details 7 and 9.
const (
	null1, shelfB, shelfA = 10, 11, 12
	null2, shelfC         = 20, 21
)

var (
	pickBins = []stock.Bin{
		{ID: null1, WarehouseID: 1, Code: "erp_null_bin_location", IsNull: true},
		{ID: shelfB, WarehouseID: 1, Code: "B-01"},
		{ID: shelfA, WarehouseID: 1, Code: "A-01"},
		{ID: null2, WarehouseID: 2, Code: "erp_null_bin_location", IsNull: true},
		{ID: shelfC, WarehouseID: 2, Code: "C-01"},
	}
	wh1 = stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: 1}}
	wh2 = stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: 2}}
)

func binSpec(id int64) stock.LocationSpec {
	return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
}

// shelf is a stored mapping: article on bin with stock and reserved pieces.
type shelf struct {
	article, bin    int64
	stock, reserved int
}

func warehouseOf(bin int64) int64 {
	if bin >= 20 {
		return 2
	}
	return 1
}

// pickingSet loads a working set for ops with every mapping of shelves.
func pickingSet(t *testing.T, shelves []shelf, ops ...stock.Operation) *stock.WorkingSet {
	t.Helper()
	ws := stock.NewWorkingSet(stock.ScopeOf(ops...), time.Now(),
		[]stock.KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: null1}, {ID: 2, Code: "WH2", NullBinLocationID: null2}},
		pickBins, []int64{7, 9})
	var ms []*stock.Mapping
	for i, s := range shelves {
		m, err := stock.UnmarshalMappingFromDatabase(int64(100+i), s.bin, warehouseOf(s.bin), s.article, s.stock, s.reserved, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	ws.Loaded(ws.MappingNeeds(), ms, pickBins)
	return ws
}

// shelves is the state of the working set as shelf values, by article and
// bin.
func shelves(ws *stock.WorkingSet) []shelf {
	var out []shelf
	for _, m := range ws.Mappings() {
		out = append(out, shelf{m.ArticleDetailID(), m.BinLocationID(), m.Stock(), m.ReservedStock()})
	}
	return sorted(out)
}

func sorted(s []shelf) []shelf {
	s = slices.Clone(s)
	slices.SortFunc(s, func(a, b shelf) int { return cmp.Or(cmp.Compare(a.article, b.article), cmp.Compare(a.bin, b.bin)) })
	return s
}

func holds(d *order.Detail) []stock.Hold { return d.Reservations() }

func detail(t *testing.T, o *order.Order, id int64) *order.Detail {
	t.Helper()
	d, ok := o.Detail(id)
	if !ok {
		t.Fatalf("no detail %d", id)
	}
	return d
}

func TestAPickingListReservesWhatEachPositionStillNeedsByTheStrategy(t *testing.T) {
	o := stored(t, "Open",
		order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 5, Shipped: 1},
		order.DetailRecord{ID: 2, ArticleDetailID: 9, Quantity: 2},
		order.DetailRecord{ID: 3, ArticleDetailID: 9, Quantity: 4, Status: "Cancelled"},
	)
	op := order.PickingList{Order: o, At: wh1}
	// Article 7: A-01 holds 1 (smallest first), B-01 has 5 of which 2 are
	// reserved for someone else.
	ws := pickingSet(t, []shelf{{7, shelfB, 5, 2}, {7, shelfA, 1, 0}, {9, null1, 3, 0}}, op)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if want := []stock.Hold{{WarehouseID: 1, BinLocationID: shelfA, Quantity: 1}, {WarehouseID: 1, BinLocationID: shelfB, Quantity: 3}}; !reflect.DeepEqual(holds(detail(t, o, 1)), want) {
		t.Errorf("detail 1 holds %+v, want %+v", holds(detail(t, o, 1)), want)
	}
	if want := []stock.Hold{{WarehouseID: 1, BinLocationID: null1, Quantity: 2}}; !reflect.DeepEqual(holds(detail(t, o, 2)), want) {
		t.Errorf("detail 2 holds %+v", holds(detail(t, o, 2)))
	}
	if len(holds(detail(t, o, 3))) != 0 {
		t.Errorf("a cancelled position reserved %+v", holds(detail(t, o, 3)))
	}
	if want := []shelf{{7, shelfB, 5, 5}, {7, shelfA, 1, 1}, {9, null1, 3, 2}}; !reflect.DeepEqual(shelves(ws), sorted(want)) {
		t.Errorf("mappings %+v, want %+v", shelves(ws), want)
	}
	if o.Status() != order.StatusInProcess {
		t.Errorf("status %s, want In process", o.Status())
	}
	picks := o.Picks(ws.BinCode)
	var codes []string
	for _, p := range picks {
		codes = append(codes, p.BinLocationCode)
	}
	if got := strings.Join(codes, ","); got != "A-01,B-01,erp_null_bin_location" {
		t.Errorf("picks walk %s", got)
	}

	t.Run("a second picking list reserves only what is still missing", func(t *testing.T) {
		op := order.PickingList{Order: o, At: wh1}
		ws := pickingSet(t, []shelf{{7, shelfB, 9, 5}, {7, shelfA, 1, 1}, {9, null1, 3, 2}}, op)
		if err := ws.Apply(op, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
		if detail(t, o, 1).Reserved() != 4 || detail(t, o, 2).Reserved() != 2 {
			t.Errorf("reserved %d and %d", detail(t, o, 1).Reserved(), detail(t, o, 2).Reserved())
		}
	})
}

func TestAPickingListIsAllOrNothingAndNamesEveryShortfall(t *testing.T) {
	o := stored(t, "Open",
		order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 3},
		order.DetailRecord{ID: 2, ArticleDetailID: 9, Quantity: 4},
	)
	op := order.PickingList{Order: o, At: wh1}
	// Article 7 is there; 9 has 4 on stock but 2 of them are reserved.
	before := []shelf{{7, shelfA, 3, 0}, {9, shelfB, 4, 2}}
	ws := pickingSet(t, before, op)
	err := ws.Apply(op, stock.Reference{})
	requireInvalid(t, err, `order 10001 cannot be reserved, nothing was reserved: order detail 2: insufficient stock of article detail 9 at warehouse "WH1": requested 4, available 2`)
	if e, _ := errs.As(err); len(e.Fields) != 1 || e.Fields[0].Property != "details[1]" {
		t.Errorf("fields %+v", e.Fields)
	}
	if !reflect.DeepEqual(shelves(ws), sorted(before)) {
		t.Errorf("mappings changed: %+v", shelves(ws))
	}
	if o.Status() != order.StatusOpen || detail(t, o, 1).Reserved() != 0 {
		t.Errorf("order changed: %s, reserved %d", o.Status(), detail(t, o, 1).Reserved())
	}
}

func TestACancelledOrderCannotBePicked(t *testing.T) {
	o := stored(t, "Cancelled", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 3})
	op := order.PickingList{Order: o, At: wh1}
	ws := pickingSet(t, []shelf{{7, shelfA, 3, 0}}, op)
	requireInvalid(t, ws.Apply(op, stock.Reference{}), "order 10001 is cancelled: there is nothing to pick")
}

func TestStoredReservationsNeverExceedWhatAPositionStillHasToShip(t *testing.T) {
	_, err := order.UnmarshalOrderFromDatabase(1, "10001", "", "Open", []order.DetailRecord{
		{ID: 1, ArticleDetailID: 7, Quantity: 3, Shipped: 2, Reservations: []stock.Hold{{WarehouseID: 1, BinLocationID: shelfA, Quantity: 2}}},
	})
	if errs.KindOf(err) != errs.Internal {
		t.Fatalf("want an internal error, got %v", err)
	}
}

// reservedOrder is an order whose position 1 (article 7, 6 ordered) holds
// 2 on A-01 and 2 on B-01 in WH1 and 1 on C-01 in WH2.
func reservedOrder(t *testing.T) (*order.Order, []shelf) {
	o := stored(t, "In process", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 6, Reservations: []stock.Hold{
		{WarehouseID: 1, BinLocationID: shelfA, Quantity: 2},
		{WarehouseID: 1, BinLocationID: shelfB, Quantity: 2},
		{WarehouseID: 2, BinLocationID: shelfC, Quantity: 1},
	}})
	return o, []shelf{{7, shelfB, 4, 2}, {7, shelfA, 2, 2}, {7, null1, 5, 0}, {7, shelfC, 1, 1}}
}

func TestShippingAPositionTakesItsReservationsFirst(t *testing.T) {
	t.Run("from a warehouse: its reservations there, then unreserved stock; the rest shrinks", func(t *testing.T) {
		o, before := reservedOrder(t)
		op := order.DetailShipment{Order: o, DetailID: 1, Quantity: 5, From: wh1}
		ws := pickingSet(t, before, op)
		if err := ws.Apply(op, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
		// 4 reserved in WH1 and 1 unreserved (B-01 has 2 free, it goes
		// before the unknown bin); 1 left to ship, and the WH2 hold is 1.
		if want := []shelf{{7, shelfB, 1, 0}, {7, null1, 5, 0}, {7, shelfC, 1, 1}}; !reflect.DeepEqual(shelves(ws), sorted(want)) {
			t.Errorf("mappings %+v, want %+v", shelves(ws), want)
		}
		if want := []stock.Hold{{WarehouseID: 2, BinLocationID: shelfC, Quantity: 1}}; !reflect.DeepEqual(holds(detail(t, o, 1)), want) {
			t.Errorf("holds %+v", holds(detail(t, o, 1)))
		}
	})
	t.Run("from another bin: its reservation there, then unreserved; holds elsewhere shrink to what is left", func(t *testing.T) {
		o, before := reservedOrder(t)
		op := order.DetailShipment{Order: o, DetailID: 1, Quantity: 4, From: binSpec(null1)}
		ws := pickingSet(t, before, op)
		if err := ws.Apply(op, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
		// 2 left to ship: the holds made last (C-01, then B-01) release 3.
		if want := []shelf{{7, shelfB, 4, 0}, {7, shelfA, 2, 2}, {7, null1, 1, 0}, {7, shelfC, 1, 0}}; !reflect.DeepEqual(shelves(ws), sorted(want)) {
			t.Errorf("mappings %+v, want %+v", shelves(ws), want)
		}
		d := detail(t, o, 1)
		if d.Reserved() != 2 || d.Reserved() > o.Outstanding(d) {
			t.Errorf("reserved %d, outstanding %d", d.Reserved(), o.Outstanding(d))
		}
	})
	t.Run("short of stock: nothing moves, the reservations stay", func(t *testing.T) {
		o, before := reservedOrder(t)
		op := order.DetailShipment{Order: o, DetailID: 1, Quantity: 6, From: binSpec(shelfA)}
		ws := pickingSet(t, before, op)
		requireInvalid(t, ws.Apply(op, stock.Reference{}),
			`insufficient stock of article detail 7 at bin location "A-01" in warehouse "WH1": requested 6, available 2`)
		if !reflect.DeepEqual(shelves(ws), sorted(before)) || detail(t, o, 1).Reserved() != 5 {
			t.Errorf("changed: %+v, reserved %d", shelves(ws), detail(t, o, 1).Reserved())
		}
	})
	t.Run("the whole order: every reservation is shipped or released", func(t *testing.T) {
		o, before := reservedOrder(t)
		op := order.Shipment{Order: o, From: wh1}
		ws := pickingSet(t, before, op)
		if err := ws.Apply(op, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
		if want := []shelf{{7, null1, 5, 0}, {7, shelfC, 1, 0}}; !reflect.DeepEqual(shelves(ws), sorted(want)) {
			t.Errorf("mappings %+v, want %+v", shelves(ws), want)
		}
		if detail(t, o, 1).Reserved() != 0 || o.Status() != order.StatusCompletelyDelivered {
			t.Errorf("reserved %d, status %s", detail(t, o, 1).Reserved(), o.Status())
		}
	})
	t.Run("a whole order that falls short keeps its reservations", func(t *testing.T) {
		o, before := reservedOrder(t)
		op := order.Shipment{Order: o, From: wh2}
		ws := pickingSet(t, before, op)
		if err := ws.Apply(op, stock.Reference{}); err == nil {
			t.Fatal("shipped 6 from a warehouse with 1")
		}
		if !reflect.DeepEqual(shelves(ws), sorted(before)) || len(holds(detail(t, o, 1))) != 3 {
			t.Errorf("changed: %+v, holds %+v", shelves(ws), holds(detail(t, o, 1)))
		}
	})
}

func TestOtherOperationsNeverTakeReservedPieces(t *testing.T) {
	o, before := reservedOrder(t)
	_ = o
	op := stock.Change{ArticleDetailID: 7, At: binSpec(shelfA), Quantity: -1}
	ws := pickingSet(t, before, op)
	requireInvalid(t, ws.Apply(op, stock.Reference{}),
		`insufficient stock of article detail 7 at bin location "A-01" in warehouse "WH1": requested 1, available 0`)
}

func TestReleasingAPickingListGivesEveryPieceBack(t *testing.T) {
	o, before := reservedOrder(t)
	op := order.ReleasePicking{Order: o}
	ws := pickingSet(t, before, op)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if want := []shelf{{7, shelfB, 4, 0}, {7, shelfA, 2, 0}, {7, null1, 5, 0}, {7, shelfC, 1, 0}}; !reflect.DeepEqual(shelves(ws), sorted(want)) {
		t.Errorf("mappings %+v", shelves(ws))
	}
	if detail(t, o, 1).Reserved() != 0 {
		t.Error("reservations left")
	}
}

func TestAPickingListWithNothingToReserveChangesNothing(t *testing.T) {
	o := stored(t, "Open", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 3, Status: "Cancelled"})
	op := order.PickingList{Order: o, At: wh1}
	ws := pickingSet(t, []shelf{{7, shelfA, 3, 0}}, op)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if o.Status() != order.StatusOpen || len(o.Picks(ws.BinCode)) != 0 {
		t.Errorf("status %s, picks %v", o.Status(), o.Picks(ws.BinCode))
	}
	t.Run("but the warehouse must exist", func(t *testing.T) {
		op := order.PickingList{Order: o, At: stock.LocationSpec{Warehouse: &stock.WarehouseSpec{Code: "NOPE"}}}
		ws := pickingSet(t, nil, op)
		requireInvalid(t, ws.Apply(op, stock.Reference{}), `warehouse with code "NOPE" does not exist`)
	})
}
