package wave_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/wave"
)

var today = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func item(bin int64, code string, article int64, number, ean string) wave.Item {
	return wave.Item{BinLocationID: bin, BinLocationCode: code, ArticleDetailID: article, ArticleNumber: number, EAN: ean}
}

func pick(it wave.Item, orderID, detailID int64, quantity int) wave.Pick {
	return wave.Pick{Item: it, OrderID: orderID, OrderDetailID: detailID, Quantity: quantity}
}

// stored is the wave as storage hands it back: ids for its tasks.
func stored(t *testing.T, w *wave.Wave) *wave.Wave {
	t.Helper()
	w.AssignID(1)
	w.Saved()
	return w
}

func codes(w *wave.Wave) []string {
	var out []string
	for _, t := range w.Tasks() {
		out = append(out, t.Item().BinLocationCode+" "+t.Item().ArticleNumber)
	}
	return out
}

func TestBinCodesCompareAsAPersonReadsThem(t *testing.T) {
	in := []string{"A-10", "B-1", "A-2", "A-02-3", "A-02", "a-1", "A-1-10", "A-1-9", "A"}
	slices.SortFunc(in, wave.CompareBinCodes)
	want := []string{"A", "A-1-9", "A-1-10", "A-02", "A-2", "A-02-3", "A-10", "B-1", "a-1"}
	if !slices.Equal(in, want) {
		t.Fatalf("sorted %v, want %v", in, want)
	}
}

func TestTasksGroupPerBinProductAndLotInWalkingOrder(t *testing.T) {
	a10, a2 := item(1, "A-10", 7, "SKU-B", ""), item(2, "A-2", 7, "SKU-B", "")
	a2other := item(2, "A-2", 8, "SKU-A", "")
	lotX, lotY := item(3, "C-1", 9, "SKU-L", ""), item(3, "C-1", 9, "SKU-L", "")
	lotX.Lot, lotY.Lot = "X", "Y"
	w, err := wave.New(1, today, "picker", []wave.Pick{
		pick(a10, 5, 51, 2), pick(a2, 5, 51, 1), pick(a2, 3, 31, 4), pick(a2other, 3, 32, 1),
		pick(lotY, 3, 33, 1), pick(lotX, 5, 52, 2),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"A-2 SKU-A", "A-2 SKU-B", "A-10 SKU-B", "C-1 SKU-L", "C-1 SKU-L"}
	if got := codes(w); !slices.Equal(got, want) {
		t.Fatalf("walk %v, want %v", got, want)
	}
	shared := w.Tasks()[1]
	if shared.Quantity() != 5 || !slices.Equal(shared.Orders(), []wave.Allocation{{OrderID: 3, OrderDetailID: 31, Quantity: 4}, {OrderID: 5, OrderDetailID: 51, Quantity: 1}}) {
		t.Fatalf("shared task: %d pieces for %+v", shared.Quantity(), shared.Orders())
	}
	if l := w.Tasks()[3].Item().Lot; l != "X" {
		t.Fatalf("first lot task is lot %q, want X", l)
	}
	for i, task := range w.Tasks() {
		if task.ID() != int64(i+1) || !task.New() {
			t.Fatalf("task %d in walking order has id %d (new %v)", i, task.ID(), task.New())
		}
	}
	if p := w.Progress(); p != (wave.Progress{Tasks: 5}) {
		t.Fatalf("progress %+v", p)
	}
}

func newWave(t *testing.T) *wave.Wave {
	t.Helper()
	w, err := wave.New(1, today, "picker", []wave.Pick{
		pick(item(2, "A-2", 7, "SKU-7", "4006381333931"), 5, 51, 2),
		pick(item(2, "A-2", 7, "SKU-7", "4006381333931"), 3, 31, 1),
		pick(item(4, "B-1", 9, "SKU-9", ""), 3, 32, 2),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return stored(t, w)
}

func ptr(n int) *int { return &n }

func kindAndProperty(t *testing.T, err error, kind errs.Kind, property string) {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != kind || e.Property != property {
		t.Fatalf("error %v, want %s on %q", err, kind, property)
	}
}

func TestAScanOfTheWrongBinProductOrLotIsAConflictThatChangesNothing(t *testing.T) {
	w := newWave(t)
	first := w.Tasks()[0]
	for _, c := range []struct {
		name     string
		conf     wave.Confirmation
		property string
	}{
		{"wrong bin", wave.Confirmation{BinLocationCode: "B-1", Scan: "SKU-7"}, "binLocationCode"},
		{"wrong product", wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-9"}, "scan"},
		{"wrong product's GTIN", wave.Confirmation{BinLocationCode: "A-2", Scan: "96385074"}, "scan"},
		{"a short with the wrong product", wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-9", Short: true}, "scan"},
	} {
		_, err := w.Confirm(first.ID(), c.conf, today)
		kindAndProperty(t, err, errs.Conflict, c.property)
		if e, _ := errs.As(err); !contains(e.Message, "scanned ") || !contains(e.Message, ", expected ") {
			t.Errorf("%s: message %q", c.name, e.Message)
		}
	}
	if first.Picked() != 0 || first.Status() != wave.StatusOpen || first.Changed() {
		t.Fatalf("a refused scan changed the task: %d picked, %s", first.Picked(), first.Status())
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestALotScannedMustBeTheTasks(t *testing.T) {
	it := item(2, "A-2", 7, "SKU-7", "4006381333931")
	it.Lot = "L1"
	w := stored(t, must(wave.New(1, today, "", []wave.Pick{pick(it, 3, 31, 2)}, nil)))
	id := w.Tasks()[0].ID()
	_, err := w.Confirm(id, wave.Confirmation{BinLocationCode: "A-2", Scan: "(01)04006381333931(10)L2"}, today)
	kindAndProperty(t, err, errs.Conflict, "scan")
	if _, err := w.Confirm(id, wave.Confirmation{BinLocationCode: "A-2", Scan: "0104006381333931\x1d10L1"}, today); err != nil {
		t.Fatalf("the task's lot in a raw GS1 scan: %v", err)
	}
	if _, err := w.Confirm(id, wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-7"}, today); err != nil {
		t.Fatalf("the number of a lot-tracked product: %v", err)
	}
	if s := w.Tasks()[0].Status(); s != wave.StatusPicked {
		t.Fatalf("status %s", s)
	}
}

func must(w *wave.Wave, err error) *wave.Wave {
	if err != nil {
		panic(err)
	}
	return w
}

func TestMoreThanTheTaskHasLeftIsRefusedNamingQuantity(t *testing.T) {
	w := newWave(t)
	id := w.Tasks()[0].ID()
	for _, q := range []int{4, 0, -1} {
		_, err := w.Confirm(id, wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-7", Quantity: ptr(q)}, today)
		kindAndProperty(t, err, errs.Invalid, "quantity")
	}
	if w.Tasks()[0].Picked() != 0 {
		t.Fatal("a refused quantity was picked")
	}
}

func TestPickedPiecesGoToTheOrdersByAscendingOrderID(t *testing.T) {
	w := newWave(t)
	task := w.Tasks()[0]
	if _, err := w.Confirm(task.ID(), wave.Confirmation{BinLocationCode: "A-2", Scan: "04006381333931"}, today); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Confirm(task.ID(), wave.Confirmation{BinLocationCode: " A-2 ", Scan: "]C1(01)04006381333931"}, today); err != nil {
		t.Fatal(err)
	}
	want := []wave.Allocation{{OrderID: 3, OrderDetailID: 31, Quantity: 1, Picked: 1}, {OrderID: 5, OrderDetailID: 51, Quantity: 2, Picked: 1}}
	if got := task.Orders(); !slices.Equal(got, want) || task.Status() != wave.StatusOpen || !task.Changed() {
		t.Fatalf("after two scans %+v (%s), want %+v", got, task.Status(), want)
	}
	if _, err := w.Confirm(task.ID(), wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-7"}, today); err != nil {
		t.Fatal(err)
	}
	if task.Status() != wave.StatusPicked || w.PickedFor(51) != 2 {
		t.Fatalf("status %s, picked for 51: %d", task.Status(), w.PickedFor(51))
	}
	if p := w.Progress(); p != (wave.Progress{Tasks: 2, Picked: 1}) {
		t.Fatalf("progress %+v", p)
	}
	_, err := w.Confirm(task.ID(), wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-7"}, today)
	kindAndProperty(t, err, errs.Invalid, "quantity")
	if next := w.NextTask(); next == nil || next.Item().BinLocationCode != "B-1" {
		t.Fatalf("next task %v", next)
	}
}

func TestAShortTaskReleasesWhatWasNotFound(t *testing.T) {
	w := newWave(t)
	task := w.Tasks()[0]
	releases, err := w.Confirm(task.ID(), wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-7", Quantity: ptr(1), Short: true}, today)
	if err != nil {
		t.Fatal(err)
	}
	want := []wave.Release{{Item: task.Item(), OrderID: 5, OrderDetailID: 51, Quantity: 2}}
	if !slices.Equal(releases, want) || task.Status() != wave.StatusShort || task.Picked() != 1 || task.Quantity() != 3 {
		t.Fatalf("releases %+v, task %s %d/%d", releases, task.Status(), task.Picked(), task.Quantity())
	}
	// Found nothing: nothing to scan but the bin.
	releases, err = w.Confirm(w.Tasks()[1].ID(), wave.Confirmation{BinLocationCode: "B-1", Short: true}, today)
	if err != nil || len(releases) != 1 || releases[0].Quantity != 2 {
		t.Fatalf("short of everything: %+v, %v", releases, err)
	}
	if p := w.Progress(); p != (wave.Progress{Tasks: 2, Short: 2}) {
		t.Fatalf("progress %+v", p)
	}
	_, err = w.Confirm(task.ID(), wave.Confirmation{BinLocationCode: "A-2", Short: true}, today)
	kindAndProperty(t, err, errs.Invalid, "quantity")
}

func TestAnOrderIsReadyToShipWhenEveryPieceWasPicked(t *testing.T) {
	o, err := order.New(order.NewOrder{ID: 3, Number: "O3", Details: []order.NewDetail{{ID: 31, ArticleDetailID: 7, Quantity: 1}, {ID: 32, ArticleDetailID: 9, Quantity: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	w := newWave(t)
	if ok, why := w.ReadyToShip(o); ok || !contains(why, "order detail 31: 0 of 1") {
		t.Fatalf("ready %v: %s", ok, why)
	}
	mustConfirm(t, w, w.Tasks()[0].ID(), wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-7"})
	mustConfirm(t, w, w.Tasks()[1].ID(), wave.Confirmation{BinLocationCode: "B-1", Scan: "SKU-9", Quantity: ptr(2)})
	if ok, why := w.ReadyToShip(o); !ok {
		t.Fatalf("not ready: %s", why)
	}
}

func mustConfirm(t *testing.T, w *wave.Wave, id int64, c wave.Confirmation) {
	t.Helper()
	if _, err := w.Confirm(id, c, today); err != nil {
		t.Fatal(err)
	}
}

// shortPickWorld is warehouse 1 with bins 2 "A-2" (the default bin, 7
// pieces of article 7), 4 "B-1" and 6 "C-1" (1 each); orders 3 (3 pieces)
// and 5 (4 pieces) reserved on A-2 and made a wave of one task. load
// makes a working set as storage loads it, A-2 reserving as given.
func shortPickWorld(t *testing.T) (w *wave.Wave, o3, o5 *order.Order, wh stock.LocationSpec, load func(int, ...stock.Operation) *stock.WorkingSet) {
	t.Helper()
	bins := []stock.Bin{{ID: 1, WarehouseID: 1, Code: "erp_null_bin_location", IsNull: true},
		{ID: 2, WarehouseID: 1, Code: "A-2"}, {ID: 4, WarehouseID: 1, Code: "B-1"}, {ID: 6, WarehouseID: 1, Code: "C-1"}}
	wh = stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: 1}}
	o3 = must2(order.New(order.NewOrder{ID: 3, Number: "O3", Details: []order.NewDetail{{ID: 31, ArticleDetailID: 7, Quantity: 3}}}))
	o5 = must2(order.New(order.NewOrder{ID: 5, Number: "O5", Details: []order.NewDetail{{ID: 51, ArticleDetailID: 7, Quantity: 4}}}))
	load = func(reservedOnA2 int, ops ...stock.Operation) *stock.WorkingSet {
		ws := stock.NewWorkingSet(stock.ScopeOf(ops...), today, []stock.KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: 1}}, bins, []int64{7})
		var ms []*stock.Mapping
		for i, s := range []struct{ bin, stock, reserved int }{{2, 7, reservedOnA2}, {4, 1, 0}, {6, 1, 0}} {
			m, err := stock.UnmarshalMappingFromDatabase(int64(10+i), int64(s.bin), 1, 7, s.stock, s.reserved, s.bin == 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, m)
		}
		ws.Loaded(ws.MappingNeeds(), ms, bins)
		return ws
	}
	reserve := []stock.Operation{order.PickingList{Order: o3, At: wh}, order.PickingList{Order: o5, At: wh}}
	ws := load(0, reserve...)
	for _, op := range reserve {
		if err := ws.Apply(op, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
	}
	var picks []wave.Pick
	for _, o := range []*order.Order{o3, o5} {
		picks = append(picks, wave.PicksOf(o, 1, ws.BinCode, func(int64) (string, string) { return "SKU-7", "" })...)
	}
	w = stored(t, must(wave.New(1, today, "", picks, nil)))
	if got := codes(w); !slices.Equal(got, []string{"A-2 SKU-7"}) {
		t.Fatalf("tasks %v", got)
	}
	return w, o3, o5, wh, load
}

// The short pick on a working set (shortPickWorld).
func TestAShortPickReservesTheShortfallOnOtherBinsAndListsWhatIsLeft(t *testing.T) {
	w, o3, o5, wh, load := shortPickWorld(t)
	task := w.Tasks()[0]
	// 2 of 7 found: order 3 gets both, 1 of its 3 and all 4 of order 5 go.
	releases, err := w.Confirm(task.ID(), wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-7", Quantity: ptr(2), Short: true}, today)
	if err != nil {
		t.Fatal(err)
	}
	op := wave.ShortPick{Wave: w, Warehouse: wh, Releases: releases, Orders: map[int64]*order.Order{3: o3, 5: o5}}
	ws := load(7, op)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if got := codes(w); !slices.Equal(got, []string{"A-2 SKU-7", "B-1 SKU-7", "C-1 SKU-7"}) {
		t.Fatalf("tasks after the short pick %v", got)
	}
	if ids := []int64{w.Tasks()[1].ID(), w.Tasks()[2].ID()}; !slices.Equal(ids, []int64{2, 3}) || !w.Tasks()[1].New() || w.Tasks()[0].New() {
		t.Fatalf("added tasks have ids %v", ids)
	}
	if got := w.Tasks()[1].Orders(); !slices.Equal(got, []wave.Allocation{{OrderID: 3, OrderDetailID: 31, Quantity: 1}}) {
		t.Fatalf("B-1 goes to %+v", got)
	}
	if got := w.Short(); !slices.Equal(got, []wave.Short{{OrderID: 5, OrderDetailID: 51, Quantity: 3}}) {
		t.Fatalf("short %+v", got)
	}
	for _, m := range ws.Mappings() {
		want := map[int64]int{2: 2, 4: 1, 6: 1}[m.BinLocationID()]
		if m.ReservedStock() != want {
			t.Errorf("bin %d reserves %d, want %d", m.BinLocationID(), m.ReservedStock(), want)
		}
	}
	holds := func(o *order.Order) (n int) {
		for _, d := range o.Details() {
			n += d.Reserved()
		}
		return n
	}
	if holds(o3) != 3 || holds(o5) != 1 {
		t.Fatalf("order 3 holds %d, order 5 %d", holds(o3), holds(o5))
	}
}

// A position cancelled between the scan and the short pick needs nothing
// more: nothing of it is reserved elsewhere or listed as short.
func TestAShortPickNeedsNothingForAPositionCancelledSince(t *testing.T) {
	w, o3, o5, wh, load := shortPickWorld(t)
	releases, err := w.Confirm(w.Tasks()[0].ID(), wave.Confirmation{BinLocationCode: "A-2", Short: true}, today)
	if err != nil {
		t.Fatal(err)
	}
	cancelled := "Cancelled"
	cancel := order.Change{Order: o5, Changes: order.Changes{Status: &cancelled}}
	op := wave.ShortPick{Wave: w, Warehouse: wh, Releases: releases, Orders: map[int64]*order.Order{3: o3, 5: o5}}
	ws := load(7, cancel, op)
	for _, step := range []stock.Operation{cancel, op} {
		if err := ws.Apply(step, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
	}
	// Order 3's 3 pieces: B-1 and C-1 hold one each; 1 is short.
	if got := w.Short(); !slices.Equal(got, []wave.Short{{OrderID: 3, OrderDetailID: 31, Quantity: 1}}) {
		t.Fatalf("short %+v", got)
	}
	for _, m := range ws.Mappings() {
		want := map[int64]int{2: 0, 4: 1, 6: 1}[m.BinLocationID()]
		if m.ReservedStock() != want {
			t.Errorf("bin %d reserves %d, want %d", m.BinLocationID(), m.ReservedStock(), want)
		}
	}
}

func must2(o *order.Order, err error) *order.Order {
	if err != nil {
		panic(err)
	}
	return o
}

func TestAConfirmationMadeOnAnOlderViewCountsNothing(t *testing.T) {
	w := newWave(t)
	id := w.Tasks()[0].ID()
	seen := 0
	c := wave.Confirmation{BinLocationCode: "A-2", Scan: "SKU-7", Seen: &seen}
	mustConfirm(t, w, id, c)
	_, err := w.Confirm(id, c, today)
	kindAndProperty(t, err, errs.Conflict, "")
	if picked := w.Tasks()[0].Picked(); picked != 1 {
		t.Fatalf("the same form twice picked %d", picked)
	}
}
