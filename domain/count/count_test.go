package count

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

const (
	wh      = 1
	nullBin = 10
	binA    = 11
	binB    = 12
	binC    = 13
	mug     = 7
	cup     = 8
	milk    = 9 // lot-tracked
)

var now = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func holdings() []Holding {
	return []Holding{
		{BinLocationID: binA, BinCode: "A", ArticleDetailID: mug, Stock: 5},
		{BinLocationID: binA, BinCode: "A", ArticleDetailID: cup, Stock: 2},
		{BinLocationID: binB, BinCode: "B", ArticleDetailID: cup, Stock: 0}, // a default mapping holding nothing
		{BinLocationID: nullBin, BinCode: "erp_null_bin_location", ArticleDetailID: mug, Stock: 1},
		{BinLocationID: binC, BinCode: "C", ArticleDetailID: milk, Lot: "L1", Tracked: true, Stock: 4},
	}
}

func known(article int64) (bool, bool) {
	switch article {
	case mug, cup:
		return true, false
	case milk:
		return true, true
	}
	return false, false
}

func binIDs(c *Count) []int64 { return c.BinIDs() }

func mustNew(t *testing.T, req Request) *Count {
	t.Helper()
	req.WarehouseID = wh
	c, err := New(req, map[int64]string{binA: "A", binB: "B", binC: "C", nullBin: "erp_null_bin_location"}, holdings(), 100, now, "admin")
	if err != nil {
		t.Fatal(err)
	}
	c.Assign(50)
	return c
}

func TestNamedBinsCoverEveryProductOnThem(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA, binB, binA}})
	if got := binIDs(c); len(got) != 2 || got[0] != binA || got[1] != binB {
		t.Fatalf("bins %v, want A and B once each", got)
	}
	a := c.Bins()[0]
	if a.Position != 100 || len(a.Snapshot) != 2 || a.Snapshot[0] != (Entry{mug, "", 5}) || a.Snapshot[1] != (Entry{cup, "", 2}) {
		t.Fatalf("snapshot of A: %+v", a)
	}
}

func TestProductsCoverTheBinsHoldingAMappingOfThemAndOnlyThem(t *testing.T) {
	c := mustNew(t, Request{ArticleDetailIDs: []int64{cup}})
	if got := binIDs(c); len(got) != 2 || got[0] != binA || got[1] != binB {
		t.Fatalf("bins %v, want A and B (B holds an empty mapping of cup)", got)
	}
	for _, b := range c.Bins() {
		for _, e := range b.Snapshot {
			if e.ArticleDetailID != cup {
				t.Fatalf("the snapshot of %s holds %d, not a product counted", b.Code, e.ArticleDetailID)
			}
		}
	}
	if c.Covers(mug) || !c.Covers(cup) {
		t.Fatal("a count by products covers those products only")
	}
	if err := c.CountBin(binA, []Line{{ArticleDetailID: mug, Quantity: 1}}, known); errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), "not counted") {
		t.Fatalf("counting a product the count does not cover: %v", err)
	}
}

func TestTheWholeWarehouseIsEveryBinWithStockTheUnknownBinIncluded(t *testing.T) {
	c := mustNew(t, Request{})
	got := binIDs(c)
	want := []int64{nullBin, binA, binC}
	if len(got) != len(want) {
		t.Fatalf("bins %v, want %v (B holds nothing)", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("bins %v, want %v", got, want)
		}
	}
}

func TestBinsAndProductsTogetherAreAnErrorNamingArticleDetailIds(t *testing.T) {
	_, err := New(Request{WarehouseID: wh, BinLocationIDs: []int64{binA}, ArticleDetailIDs: []int64{mug}}, map[int64]string{binA: "A"}, holdings(), 1, now, "")
	if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || e.Property != "articleDetailIds" {
		t.Fatalf("got %v, want an invalid error on articleDetailIds", err)
	}
}

func TestAtMostMaxBins(t *testing.T) {
	var hs []Holding
	for i := range MaxBins + 1 {
		hs = append(hs, Holding{BinLocationID: int64(100 + i), BinCode: "X", ArticleDetailID: mug, Stock: 1})
	}
	if _, err := New(Request{WarehouseID: wh}, nil, hs, 1, now, ""); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("%d bins: %v, want invalid", MaxBins+1, err)
	}
	if _, err := New(Request{WarehouseID: wh}, nil, hs[:MaxBins], 1, now, ""); err != nil {
		t.Fatalf("%d bins: %v", MaxBins, err)
	}
	if _, err := New(Request{WarehouseID: wh}, nil, nil, 1, now, ""); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("no bins: %v, want invalid", err)
	}
}

func TestCountingABinReplacesItsEarlierCount(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA}})
	if err := c.CountBin(binA, []Line{{ArticleDetailID: mug, Quantity: 3}, {ArticleDetailID: cup, Quantity: 2}}, known); err != nil {
		t.Fatal(err)
	}
	if err := c.CountBin(binA, []Line{{ArticleDetailID: mug, Quantity: 4}}, known); err != nil {
		t.Fatal(err)
	}
	lines := c.Bins()[0].View()
	if len(lines) != 2 || *lines[0].Counted != 4 || lines[0].Expected != 5 || *lines[1].Counted != 0 || lines[1].Expected != 2 {
		t.Fatalf("view %+v: mug counted 4 of 5, cup not named counts 0 of 2", lines)
	}
}

func TestNotNamedSnapshotEntriesCountZeroAndNewOnesAppear(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA}})
	if v := c.Bins()[0].View(); v[0].Counted != nil {
		t.Fatal("counted is nil until the bin is counted")
	}
	if err := c.CountBin(binA, []Line{{ArticleDetailID: milk, Lot: " L2 ", Quantity: 3}}, known); err != nil {
		t.Fatal(err)
	}
	ds := c.Differences()
	want := []Difference{{binA, mug, nil, -5}, {binA, cup, nil, -2}, {binA, milk, &stock.LotSpec{Number: "L2"}, 3}}
	if len(ds) != 3 {
		t.Fatalf("differences %+v", ds)
	}
	for _, w := range want {
		found := false
		for _, d := range ds {
			if d.ArticleDetailID == w.ArticleDetailID && d.Delta == w.Delta && (d.Lot == nil) == (w.Lot == nil) && (d.Lot == nil || d.Lot.Number == w.Lot.Number) {
				found = true
			}
		}
		if !found {
			t.Fatalf("differences %+v lack %+v", ds, w)
		}
	}
}

func TestCountingChecksEveryLine(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA}})
	err := c.CountBin(binA, []Line{
		{ArticleDetailID: 999, Quantity: 1},
		{ArticleDetailID: mug, Quantity: -1},
		{ArticleDetailID: milk, Quantity: 1},
		{ArticleDetailID: cup, Lot: "X", Quantity: 1},
		{ArticleDetailID: mug, Quantity: 1},
	}, known)
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || len(e.Fields) != 5 {
		t.Fatalf("got %v, want five problems", err)
	}
	if err := c.CountBin(binB, nil, known); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a bin the count does not cover: %v, want not found", err)
	}
}

func TestApplyAndCancelOnlyWhenOpen(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA}})
	if err := c.Cancel(); err != nil {
		t.Fatal(err)
	}
	if err := c.Cancel(); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("cancelling twice: %v", err)
	}
	if err := c.CountBin(binA, nil, known); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("counting a cancelled count: %v", err)
	}
	ws := workingSet(t, nil)
	if err := ws.Apply(&Applying{Count: c}, stock.Reference{}); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("applying a cancelled count: %v", err)
	}
}

func TestBlindHidesTheBooksOnlyWhileOpen(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA}, Blind: true})
	if c.ShowsBooks() {
		t.Fatal("an open blind count shows the books")
	}
	_ = c.Cancel()
	if !c.ShowsBooks() {
		t.Fatal("a cancelled blind count hides the books")
	}
}

// workingSet is the stock of bin A as a batch would load it: mug 5 (3
// reserved, 2 by order 1 and 1 by order 2 after moves since), cup 2.
func workingSet(t *testing.T, mappings []*stock.Mapping) *stock.WorkingSet {
	t.Helper()
	ops := []stock.Operation{&Applying{Count: mustNew(t, Request{BinLocationIDs: []int64{binA}})}}
	sc := stock.ScopeOf(ops...)
	for _, a := range []int64{mug, cup} {
		sc.Add(a, binSpec(binA))
	}
	ws := stock.NewWorkingSet(sc, now,
		[]stock.KnownWarehouse{{ID: wh, Code: "WH1", NullBinLocationID: nullBin}},
		[]stock.Bin{{ID: binA, WarehouseID: wh, Code: "A", LockedBy: 50}, {ID: binB, WarehouseID: wh, Code: "B"}},
		[]int64{mug, cup, milk})
	ws.Loaded(ws.MappingNeeds(), mappings, nil)
	return ws
}

func mapping(t *testing.T, id, article int64, stockN, reserved int) *stock.Mapping {
	t.Helper()
	m, err := stock.UnmarshalMappingFromDatabase(id, binA, wh, article, stockN, reserved, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func holder(t *testing.T, id, detail int64, reserved int) *order.Order {
	t.Helper()
	o, err := order.UnmarshalOrderFromDatabase(id, "O"+string(rune('0'+id)), "", "In process", []order.DetailRecord{
		{ID: detail, ArticleDetailID: mug, Quantity: 10, Status: "Open",
			Reservations: []stock.Hold{{WarehouseID: wh, BinLocationID: binA, Quantity: reserved}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestApplyMovesTheBooksByTheDifferenceOnTopOfWhatMovedSince(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA}, LockBins: true})
	// Found 4 mugs of the 5 of the snapshot, 2 cups as expected; since the
	// snapshot a shipment took 2 mugs, so the books show 3.
	if err := c.CountBin(binA, []Line{{ArticleDetailID: mug, Quantity: 4}, {ArticleDetailID: cup, Quantity: 2}}, known); err != nil {
		t.Fatal(err)
	}
	ws := workingSet(t, []*stock.Mapping{mapping(t, 1, mug, 3, 0), mapping(t, 2, cup, 2, 0)})
	op := &Applying{Count: c}
	if err := ws.Apply(op, stock.Reference{User: "admin"}); err != nil {
		t.Fatal(err)
	}
	_, _, entries := ws.Changes()
	if len(entries) != 1 {
		t.Fatalf("entries %+v: one for the mug, none where the difference is 0", entries)
	}
	if e := entries[0]; e.Type != stock.EntryCount || e.Quantity != -1 || e.StockAfter != 2 || e.Ref.CountID != 50 {
		t.Fatalf("entry %+v, want count −1 to 2 with countId 50 (its own locked bin)", e)
	}
	if c.Status() != Applied {
		t.Fatalf("status %s", c.Status())
	}
	if err := ws.Apply(&Applying{Count: c}, stock.Reference{}); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("applying twice: %v", err)
	}
}

func TestAResultBelowReservedReleasesTheHighestOrdersFirst(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA}})
	if err := c.CountBin(binA, []Line{{ArticleDetailID: mug, Quantity: 1}, {ArticleDetailID: cup, Quantity: 2}}, known); err != nil {
		t.Fatal(err)
	}
	// The books: 5 mugs, 4 reserved: 2 by order 1, 2 by order 2. Found 1.
	first, second := holder(t, 1, 101, 2), holder(t, 2, 201, 2)
	ws := workingSet(t, []*stock.Mapping{mapping(t, 1, mug, 5, 4), mapping(t, 2, cup, 2, 0)})
	op := &Applying{Count: c, Holders: []*order.Order{first, second}}
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	want := []order.Released{{OrderID: 2, OrderDetailID: 201, BinLocationID: binA, Quantity: 2}, {OrderID: 1, OrderDetailID: 101, BinLocationID: binA, Quantity: 1}}
	if len(op.Released) != 2 || op.Released[0] != want[0] || op.Released[1] != want[1] {
		t.Fatalf("released %+v, want %+v", op.Released, want)
	}
	if first.HeldOn(mug, binA, "") != 1 || second.HeldOn(mug, binA, "") != 0 || len(op.Changed) != 2 {
		t.Fatal("the orders' holds did not shrink")
	}
	ms := ws.Mappings()
	if ms[0].Stock() != 1 || ms[0].ReservedStock() != 1 {
		t.Fatalf("mug %d/%d, want 1 with 1 reserved", ms[0].Stock(), ms[0].ReservedStock())
	}
}

func TestApplyWithHoldersMissingAsksForThemAgain(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA}})
	_ = c.CountBin(binA, []Line{{ArticleDetailID: mug, Quantity: 0}, {ArticleDetailID: cup, Quantity: 2}}, known)
	ws := workingSet(t, []*stock.Mapping{mapping(t, 1, mug, 5, 4), mapping(t, 2, cup, 2, 0)})
	err := ws.Apply(&Applying{Count: c, Holders: []*order.Order{holder(t, 1, 101, 2)}}, stock.Reference{})
	if !errors.Is(err, ErrHoldersChanged) {
		t.Fatalf("got %v", err)
	}
}

func TestTheBooksNeverGoBelowZero(t *testing.T) {
	c := mustNew(t, Request{BinLocationIDs: []int64{binA}})
	_ = c.CountBin(binA, []Line{{ArticleDetailID: mug, Quantity: 1}, {ArticleDetailID: cup, Quantity: 2}}, known)
	// The snapshot said 5, found 1: −4; but 3 left since, so 2 remain.
	ws := workingSet(t, []*stock.Mapping{mapping(t, 1, mug, 2, 0), mapping(t, 2, cup, 2, 0)})
	if err := ws.Apply(&Applying{Count: c}, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	_, _, entries := ws.Changes()
	if len(entries) != 1 || entries[0].Quantity != -2 || entries[0].StockAfter != 0 {
		t.Fatalf("entries %+v, want −2 to 0", entries)
	}
}
