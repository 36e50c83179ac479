package order_test

import (
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

// Article 7 is lot-tracked. On 2026-03-01, lot OLD (best before
// 2026-02-28) is expired; SOON and LATER are not.
var (
	lotDay = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	old    = stock.Lot{ArticleDetailID: 7, Number: "OLD", BestBefore: date("2026-02-28"), ExpiryCounted: true}
	soon   = stock.Lot{ArticleDetailID: 7, Number: "SOON", BestBefore: date("2026-03-10")}
	later  = stock.Lot{ArticleDetailID: 7, Number: "LATER", BestBefore: date("2026-12-31")}
)

func date(s string) *time.Time {
	d, err := stock.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return &d
}

// lotShelf is a mapping of article 7 with what each lot holds there.
type lotShelf struct {
	bin  int64
	lots []stock.LotStock
}

func lotSet(t *testing.T, day time.Time, shelves []lotShelf, ops ...stock.Operation) *stock.WorkingSet {
	t.Helper()
	ws := stock.NewWorkingSet(stock.ScopeOf(ops...), day,
		[]stock.KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: null1}, {ID: 2, Code: "WH2", NullBinLocationID: null2}},
		pickBins, []int64{7, 9})
	ws.KnowLots([]int64{7}, []stock.Lot{old, soon, later})
	var ms []*stock.Mapping
	for i, s := range shelves {
		total, reserved := 0, 0
		for _, l := range s.lots {
			total, reserved = total+l.Stock, reserved+l.ReservedStock
		}
		m, err := stock.UnmarshalMappingFromDatabase(int64(100+i), s.bin, warehouseOf(s.bin), 7, total, reserved, false, nil)
		if err == nil {
			err = m.RestoreLots(s.lots)
		}
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	ws.Loaded(ws.MappingNeeds(), ms, pickBins)
	return ws
}

func TestAPickingListHoldsLotsFirstExpiringFirstAndNamesThemInItsPicks(t *testing.T) {
	o := stored(t, "Open", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 4})
	op := order.PickingList{Order: o, At: wh1}
	ws := lotSet(t, lotDay, []lotShelf{
		{shelfA, []stock.LotStock{{Number: "OLD", Stock: 10}, {Number: "LATER", Stock: 5}}},
		{shelfB, []stock.LotStock{{Number: "SOON", Stock: 3}}},
	}, op)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	picks := o.Picks(ws.BinCode)
	want := []order.Pick{
		{OrderDetailID: 1, ArticleDetailID: 7, WarehouseID: 1, BinLocationID: shelfA, BinLocationCode: "A-01", Quantity: 1, LotNumber: "LATER"},
		{OrderDetailID: 1, ArticleDetailID: 7, WarehouseID: 1, BinLocationID: shelfB, BinLocationCode: "B-01", Quantity: 3, LotNumber: "SOON"},
	}
	if !equalPicks(picks, want) {
		t.Errorf("picks\n got %+v\nwant %+v", picks, want)
	}
}

func equalPicks(a, b []order.Pick) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAPickingListThatOnlyExpiredPiecesCouldFillIsAShortfall(t *testing.T) {
	o := stored(t, "Open", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 2})
	op := order.PickingList{Order: o, At: wh1}
	ws := lotSet(t, lotDay, []lotShelf{{shelfA, []stock.LotStock{{Number: "OLD", Stock: 10}, {Number: "SOON", Stock: 1}}}}, op)
	err := ws.Apply(op, stock.Reference{})
	requireRule(t, err, "", order.NotReservable)
	if len(detail(t, o, 1).Reservations()) != 0 {
		t.Errorf("reserved %v", detail(t, o, 1).Reservations())
	}
}

func TestWhenALotExpiresItsHoldsAreReleased(t *testing.T) {
	o := stored(t, "In process", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 5, Reservations: []stock.Hold{
		{WarehouseID: 1, BinLocationID: shelfA, Quantity: 2, Lot: "SOON"},
		{WarehouseID: 1, BinLocationID: shelfA, Quantity: 3, Lot: "LATER"},
	}})
	op := order.ReleaseExpired{Order: o}
	shelvesNow := []lotShelf{{shelfA, []stock.LotStock{{Number: "SOON", Stock: 2, ReservedStock: 2}, {Number: "LATER", Stock: 3, ReservedStock: 3}}}}
	// On 2026-03-11 SOON has expired.
	ws := lotSet(t, time.Date(2026, 3, 11, 0, 0, 30, 0, time.UTC), shelvesNow, op)
	if !o.HoldsExpired(ws) {
		t.Fatal("the order holds an expired lot")
	}
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if got := detail(t, o, 1).Reservations(); len(got) != 1 || got[0].Lot != "LATER" {
		t.Errorf("reservations left: %+v", got)
	}
	if got := ws.Mappings()[0].Lots(); got[0] != (stock.LotStock{Number: "SOON", Stock: 2}) {
		t.Errorf("SOON on A-01: %+v", got)
	}
}

func TestShippingAPositionNeverTakesAnExpiredLotEvenWhenNamed(t *testing.T) {
	o := stored(t, "Open", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 2})
	op := order.DetailShipment{Order: o, DetailID: 1, Quantity: 1, From: binSpec(shelfA), Lot: &stock.LotSpec{Number: "OLD"}}
	ws := lotSet(t, lotDay, []lotShelf{{shelfA, []stock.LotStock{{Number: "OLD", Stock: 10}}}}, op)
	err := ws.Apply(op, stock.Reference{})
	e := requireRule(t, err, "lot", stock.LotExpired)
	if e.Message != `lot "OLD" of article detail 7 expired on 2026-03-01` {
		t.Errorf("message %q", e.Message)
	}
	if detail(t, o, 1).Shipped() != 0 {
		t.Error("the position shipped")
	}
}

func TestARestockedReturnGoesBackIntoTheLotItsPositionShippedFrom(t *testing.T) {
	o := stored(t, "Completely delivered", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 3, Shipped: 3, Status: "Completed"})
	at := binSpec(shelfA)

	one := &order.ReturnShipment{Order: o, Lines: []order.ReturnLine{{OrderDetailID: 1, Quantity: 1}}, To: &at,
		ShippedLots: map[int64][]string{1: {"SOON"}}}
	ws := lotSet(t, lotDay, nil, one)
	if err := ws.Apply(one, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if got := one.Result.Lines[0].LotNumber; got != "SOON" {
		t.Errorf("restocked into %q", got)
	}

	two := &order.ReturnShipment{Order: o, Lines: []order.ReturnLine{{OrderDetailID: 1, Quantity: 1}}, To: &at,
		ShippedLots: map[int64][]string{1: {"LATER", "SOON"}}}
	ws = lotSet(t, lotDay, nil, two)
	e := requireRule(t, ws.Apply(two, stock.Reference{}), "details[0].lot", stock.LotRequired)
	if e.Kind != errs.Invalid || e.Message != "lot required: order detail 1 shipped from lots LATER, SOON; name the lot the returned pieces go back into" {
		t.Errorf("message %q", e.Message)
	}
	two.Lines[0].Lot = &stock.LotSpec{Number: "LATER"}
	if err := ws.Apply(two, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if got := two.Result.Lines[0].LotNumber; got != "LATER" {
		t.Errorf("restocked into %q", got)
	}
}

func TestARefusedLotOfAReturnLineIsThatLinesLot(t *testing.T) {
	o := stored(t, "Completely delivered",
		order.DetailRecord{ID: 1, ArticleDetailID: 9, Quantity: 2, Shipped: 2, Status: "Completed"},
		order.DetailRecord{ID: 2, ArticleDetailID: 7, Quantity: 2, Shipped: 2, Status: "Completed"})
	at := binSpec(shelfA)
	for _, c := range []struct {
		name     string
		line     order.ReturnLine
		property string
		code     errs.Code
	}{
		{"a lot of a product that is not lot-tracked", order.ReturnLine{OrderDetailID: 1, Quantity: 1, Lot: &stock.LotSpec{Number: "SOON"}},
			"details[1].lot", stock.LotNotTracked},
		{"a lot with another best-before", order.ReturnLine{OrderDetailID: 2, Quantity: 1, Lot: &stock.LotSpec{Number: "SOON", BestBefore: date("2027-01-01"), BestBeforeGiven: true}},
			"details[1].lot.bestBefore", stock.LotBestBeforeMismatch},
	} {
		t.Run(c.name, func(t *testing.T) {
			op := &order.ReturnShipment{Order: o, To: &at, ShippedLots: map[int64][]string{2: {"SOON"}},
				Lines: []order.ReturnLine{{OrderDetailID: 2, Quantity: 1}, c.line}}
			ws := lotSet(t, lotDay, nil, op)
			requireRule(t, ws.Apply(op, stock.Reference{}), c.property, c.code)
		})
	}
}
