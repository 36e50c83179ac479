package stock

import (
	"slices"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
)

func day(s string) *time.Time {
	d, err := ParseDate(s)
	if err != nil {
		panic(err)
	}
	return &d
}

// The fixture's day is 2026-03-01: a lot best before 2026-02-28 is
// expired, one best before 2026-03-01 is not (yet).
var (
	expired  = Lot{ArticleDetailID: article, Number: "L-OLD", BestBefore: day("2026-02-28"), ExpiryCounted: true}
	early    = Lot{ArticleDetailID: article, Number: "L-EARLY", BestBefore: day("2026-03-01")}
	late     = Lot{ArticleDetailID: article, Number: "L-LATE", BestBefore: day("2026-09-01")}
	lateToo  = Lot{ArticleDetailID: article, Number: "L-AAA", BestBefore: day("2026-09-01")}
	undated  = Lot{ArticleDetailID: article, Number: "L-NODATE"}
	knownLot = []Lot{expired, early, late, lateToo, undated}
)

// lotRow is a mapping of the lot-tracked article with what each lot holds.
type lotRow struct {
	bin  int64
	def  bool
	lots []LotStock
}

// loadLots builds a working set in which article is lot-tracked, with the
// lots above, and other is not.
func loadLots(t *testing.T, rows ...lotRow) *WorkingSet {
	t.Helper()
	var ms []*Mapping
	for i, r := range rows {
		s, res := 0, 0
		for _, l := range r.lots {
			s += l.Stock
			res += l.ReservedStock
		}
		m, err := UnmarshalMappingFromDatabase(int64(100+i), r.bin, binOf(r.bin).WarehouseID, article, s, res, r.def, nil)
		mustNot(t, err)
		mustNot(t, m.RestoreLots(r.lots))
		ms = append(ms, m)
	}
	ws := fullSet()
	ws.KnowLots([]int64{article}, knownLot)
	ws.Loaded(ws.MappingNeeds(), ms, nil)
	return ws
}

func lots(pairs ...any) []LotStock {
	var out []LotStock
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, LotStock{Number: pairs[i].(Lot).Number, Stock: pairs[i+1].(int)})
	}
	return out
}

// lotMove is a ledger entry reduced to where, which lot and how much.
type lotMove struct {
	bin      int64
	lot      string
	quantity int
}

func lotMoves(ws *WorkingSet) []lotMove {
	out := []lotMove{}
	for _, e := range entries(ws) {
		out = append(out, lotMove{e.BinLocationID, e.LotNumber, e.Quantity})
	}
	return out
}

func onBin(ws *WorkingSet, bin int64) []LotStock {
	m := ws.existing(article, bin)
	if m == nil {
		return nil
	}
	return m.Lots()
}

func lotSpec(l Lot) *LotSpec { return &LotSpec{Number: l.Number} }

func wh(id int64) LocationSpec  { return LocationSpec{Warehouse: &WarehouseSpec{ID: id}} }
func bin(id int64) LocationSpec { return LocationSpec{BinLocation: &BinLocationSpec{ID: id}} }

func assertBreaks(t *testing.T, err error, rule errs.Code, message string) {
	t.Helper()
	assertInvalid(t, err, message)
	if e, ok := errs.As(err); !ok || e.Code != rule {
		t.Errorf("want rule %q, got %v", rule, err)
	}
}

func TestStockComingInOfALotTrackedProductMustNameItsLot(t *testing.T) {
	ws := loadLots(t)
	before := snap(ws)
	assertBreaks(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 5}, ref), LotRequired,
		"lot required: article detail 7 is lot-tracked, so stock coming in must name its lot")
	assertBreaks(t, ws.Apply(Set{ArticleDetailID: article, At: wh(wh1), Quantity: 5}, ref), LotRequired, "")
	assertUnchanged(t, ws, before)
}

func TestALotOnAProductThatIsNotLotTrackedFailsTheOperation(t *testing.T) {
	ws := loadLots(t)
	for _, op := range []Operation{
		Change{ArticleDetailID: other, At: bin(shelfA), Quantity: 5, Lot: lotSpec(late)},
		Change{ArticleDetailID: other, At: bin(shelfA), Quantity: -5, Lot: lotSpec(late)},
		Set{ArticleDetailID: other, At: bin(shelfA), Quantity: 5, Lot: lotSpec(late)},
		Relocate{ArticleDetailID: other, From: bin(shelfA), To: bin(shelfB), All: true, Lot: lotSpec(late)},
	} {
		assertBreaks(t, ws.Apply(op, ref), LotNotTracked, "article detail 8 is not lot-tracked: leave out lot")
	}
}

func TestTheFirstStockOfALotCreatesItWithItsBestBeforeWhichStaysFixed(t *testing.T) {
	ws := loadLots(t)
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 5,
		Lot: &LotSpec{Number: "N-1", BestBefore: day("2026-06-30"), BestBeforeGiven: true}}, ref))
	eq(t, "new lots", ws.LotChanges(), []Lot{{ArticleDetailID: article, Number: "N-1", BestBefore: day("2026-06-30")}})

	// Named without a date: that lot.
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfB), Quantity: 1, Lot: &LotSpec{Number: "N-1"}}, ref))
	// Another date, or null for a dated lot, fails and names the date it has.
	assertBreaks(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 1,
		Lot: &LotSpec{Number: "N-1", BestBefore: day("2026-07-01"), BestBeforeGiven: true}}, ref), LotBestBeforeMismatch,
		`lot "N-1" of article detail 7 has best-before 2026-06-30, not best-before 2026-07-01`)
	assertBreaks(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 1,
		Lot: &LotSpec{Number: "N-1", BestBeforeGiven: true}}, ref), LotBestBeforeMismatch,
		`lot "N-1" of article detail 7 has best-before 2026-06-30, not no best-before date`)
	// A lot created without a date has none: a date is another date.
	assertBreaks(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 1,
		Lot: &LotSpec{Number: undated.Number, BestBefore: day("2026-07-01"), BestBeforeGiven: true}}, ref), LotBestBeforeMismatch,
		`lot "L-NODATE" of article detail 7 has no best-before date, not best-before 2026-07-01`)
	eq(t, "N-1 on A-01", onBin(ws, shelfA), lots(Lot{Number: "N-1"}, 5))
}

func TestALotNumberKeepsTheTextRules(t *testing.T) {
	ws := loadLots(t)
	for _, n := range []string{"", "   ", string(make([]byte, 65)), "bad\x01"} {
		err := ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 1, Lot: &LotSpec{Number: n}}, ref)
		if e, ok := errs.As(err); !ok || e.Code != InvalidLot || e.Property != "lot.number" {
			t.Errorf("lot number %q: got %v", n, err)
		}
	}
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 1, Lot: &LotSpec{Number: "  L 7  "}}, ref))
	eq(t, "trimmed", onBin(ws, shelfA), lots(Lot{Number: "L 7"}, 1))
}

func TestStockOutWithoutALotTakesLotsFirstExpiringFirstOutAndNeverExpiredOnes(t *testing.T) {
	ws := loadLots(t,
		lotRow{bin: shelfA, lots: lots(expired, 4, late, 2)},
		lotRow{bin: shelfB, lots: lots(undated, 3, lateToo, 1)},
		lotRow{bin: shelfC, lots: lots(early, 2)},
	)
	// 12 pieces lie in WH1, 4 of them expired: 8 can go.
	assertBreaks(t, ws.Apply(Change{ArticleDetailID: article, At: wh(wh1), Quantity: -9}, ref), InsufficientStock,
		`insufficient stock of article detail 7 at warehouse "WH1": requested 9, available 8`)
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: wh(wh1), Quantity: -7}, ref))
	// By best-before, then number (L-AAA before L-LATE on the same day),
	// lots without a date last.
	eq(t, "ledger", lotMoves(ws), []lotMove{{shelfC, "L-EARLY", -2}, {shelfB, "L-AAA", -1}, {shelfA, "L-LATE", -2}, {shelfB, "L-NODATE", -2}})
	eq(t, "A-01", onBin(ws, shelfA), lots(expired, 4))
	eq(t, "B-01", onBin(ws, shelfB), lots(undated, 1))
}

func TestWithinALotBinsGoByTheDefaultStrategyAppliedToThatLotsPieces(t *testing.T) {
	// B-01 holds most of the product but least of the lot.
	ws := loadLots(t,
		lotRow{bin: shelfA, lots: lots(late, 3)},
		lotRow{bin: shelfB, lots: lots(late, 1, undated, 9)},
		lotRow{bin: null1, lots: lots(late, 1)},
	)
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: wh(wh1), Quantity: -5, Lot: lotSpec(late)}, ref))
	eq(t, "ledger", lotMoves(ws), []lotMove{{shelfB, "L-LATE", -1}, {shelfA, "L-LATE", -3}, {null1, "L-LATE", -1}})
}

func TestANamedLotGivesOnlyItsPiecesAndMayBeWrittenOffWhenExpired(t *testing.T) {
	ws := loadLots(t, lotRow{bin: shelfA, lots: lots(expired, 4, late, 2)})
	assertBreaks(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: -3, Lot: lotSpec(late)}, ref), InsufficientStock, "")
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: -4, Lot: lotSpec(expired)}, ref))
	eq(t, "A-01", onBin(ws, shelfA), lots(late, 2))
	assertBreaks(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: -1, Lot: &LotSpec{Number: "NOPE"}}, ref),
		InsufficientStock, `article detail 7 has no lot "NOPE"`)
}

func TestEveryInvariantHoldsPerLot(t *testing.T) {
	// 5 pieces on A-01, 2 of L-LATE reserved: a stocktake of L-LATE may
	// not go below 2, whatever the other lot holds.
	ws := loadLots(t, lotRow{bin: shelfA, lots: []LotStock{{Number: late.Number, Stock: 2, ReservedStock: 2}, {Number: undated.Number, Stock: 3}}})
	assertBreaks(t, ws.Apply(Set{ArticleDetailID: article, At: bin(shelfA), Quantity: 1, Lot: lotSpec(late)}, ref), BelowReserved, "")
	assertBreaks(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: -1, Lot: lotSpec(late)}, ref), InsufficientStock, "")
	mustNot(t, ws.Apply(Set{ArticleDetailID: article, At: bin(shelfA), Quantity: 1, Lot: lotSpec(undated)}, ref))
	m := ws.existing(article, shelfA)
	eq(t, "mapping", []int{m.Stock(), m.ReservedStock()}, []int{3, 2})
	eq(t, "lots", m.Lots(), []LotStock{{Number: late.Number, Stock: 2, ReservedStock: 2}, {Number: undated.Number, Stock: 1}})

	// Stored lots that do not add up are the store's fault.
	broken, _ := UnmarshalMappingFromDatabase(1, shelfA, wh1, article, 5, 0, false, nil)
	if err := broken.RestoreLots(lots(late, 4)); errs.KindOf(err) != errs.Internal {
		t.Errorf("lots that do not add up: got %v", err)
	}
	if err := broken.RestoreLots([]LotStock{{Number: late.Number, Stock: 5, ReservedStock: 6}}); errs.KindOf(err) != errs.Internal {
		t.Errorf("reserved over stock in a lot: got %v", err)
	}
}

func TestASetOnAWarehouseSetsTheLotsTotalThere(t *testing.T) {
	ws := loadLots(t,
		lotRow{bin: shelfA, def: true, lots: lots(late, 2)},
		lotRow{bin: shelfB, lots: lots(late, 3, undated, 4)},
	)
	mustNot(t, ws.Apply(Set{ArticleDetailID: article, At: wh(wh1), Quantity: 1, Lot: lotSpec(late)}, ref))
	// Off by the default strategy on the lot's pieces: the default bin first.
	eq(t, "ledger", lotMoves(ws), []lotMove{{shelfA, "L-LATE", -2}, {shelfB, "L-LATE", -2}})
	mustNot(t, ws.Apply(Set{ArticleDetailID: article, At: wh(wh1), Quantity: 6, Lot: lotSpec(late)}, ref))
	eq(t, "A-01", onBin(ws, shelfA), lots(late, 5))
	eq(t, "B-01", onBin(ws, shelfB), lots(late, 1, undated, 4))
	for m := range ws.inWarehouse(article, wh1) {
		if m.LastStockTake() == nil {
			t.Errorf("mapping on bin %d not stamped", m.BinLocationID())
		}
	}
}

func TestRelocationMovesPiecesWithTheirLots(t *testing.T) {
	ws := loadLots(t, lotRow{bin: shelfA, lots: []LotStock{{Number: expired.Number, Stock: 2}, {Number: late.Number, Stock: 3, ReservedStock: 1}, {Number: early.Number, Stock: 1}}})
	// Without a lot: first expiring first, never the expired one.
	mustNot(t, ws.Apply(Relocate{ArticleDetailID: article, From: bin(shelfA), To: bin(shelfB), Quantity: 2}, ref))
	eq(t, "B-01", onBin(ws, shelfB), lots(early, 1, late, 1))
	// "all": every unreserved piece of every lot, the expired ones too
	// (quarantine).
	mustNot(t, ws.Apply(Relocate{ArticleDetailID: article, From: bin(shelfA), To: bin(shelfC), All: true}, ref))
	eq(t, "C-01", onBin(ws, shelfC), lots(expired, 2, late, 1))
	eq(t, "A-01 keeps the reserved piece", ws.existing(article, shelfA).Lots(), []LotStock{{Number: late.Number, Stock: 1, ReservedStock: 1}})
	// A named expired lot moves too.
	mustNot(t, ws.Apply(Relocate{ArticleDetailID: article, From: bin(shelfC), To: bin(shelfD), Quantity: 2, Lot: lotSpec(expired)}, ref))
	eq(t, "D-01", onBin(ws, shelfD), lots(expired, 2))
}

func TestPickingNeverHoldsExpiredPiecesAndHoldsNameTheirLots(t *testing.T) {
	ws := loadLots(t, lotRow{bin: shelfA, lots: lots(expired, 5, late, 1)}, lotRow{bin: shelfB, lots: lots(early, 1)})
	before := snap(ws)
	_, err := ws.Reserve(article, inWH1, 3)
	assertBreaks(t, err, InsufficientStock, `insufficient stock of article detail 7 at warehouse "WH1": requested 3, available 2`)
	assertUnchanged(t, ws, before)
	holds, err := ws.Reserve(article, inWH1, 2)
	mustNot(t, err)
	eq(t, "holds", holds, []Hold{{wh1, shelfB, 1, early.Number}, {wh1, shelfA, 1, late.Number}})
	eq(t, "A-01", ws.existing(article, shelfA).Lots(), []LotStock{{Number: expired.Number, Stock: 5}, {Number: late.Number, Stock: 1, ReservedStock: 1}})
}

func TestShippingTakesReservedLotsFirstAndNeverAnExpiredPiece(t *testing.T) {
	ws := loadLots(t, lotRow{bin: shelfA, lots: []LotStock{{Number: early.Number, Stock: 3}, {Number: late.Number, Stock: 2, ReservedStock: 2}, {Number: expired.Number, Stock: 9}}})
	held := []Hold{{wh1, shelfA, 2, late.Number}}
	used, err := ws.ShipHolding(article, inWH1, 3, held, nil, ref)
	mustNot(t, err)
	eq(t, "used", used, []int{2})
	eq(t, "ledger", lotMoves(ws), []lotMove{{shelfA, "L-LATE", -2}, {shelfA, "L-EARLY", -1}})

	_, err = ws.ShipHolding(article, inWH1, 1, nil, lotSpec(expired), ref)
	assertBreaks(t, err, LotExpired, `lot "L-OLD" of article detail 7 expired on 2026-03-01`)
	_, err = ws.ShipHolding(article, inWH1, 3, nil, nil, ref)
	assertBreaks(t, err, InsufficientStock, "")
}

func TestStockMayBeReceivedIntoAnExpiredLotAndCountsAsExpired(t *testing.T) {
	ws := loadLots(t, lotRow{bin: shelfA, lots: lots(late, 2)})
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 3, Lot: lotSpec(expired)}, ref))
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 4,
		Lot: &LotSpec{Number: "GONE", BestBefore: day("2025-12-31"), BestBeforeGiven: true}}, ref))
	eq(t, "totals", ws.TotalsChanges(), []WarehouseTotal{{ArticleDetailID: article, WarehouseID: wh1, Stock: 7, Expired: 7}})
	eq(t, "new lot counted from the start", ws.LotChanges(),
		[]Lot{{ArticleDetailID: article, Number: "GONE", BestBefore: day("2025-12-31"), ExpiryCounted: true}})
}

func TestRecordingExpiryCountsTheLotsThatExpiredOnce(t *testing.T) {
	// On 2026-03-02, L-EARLY (best before 2026-03-01) has expired.
	ws := loadLots(t, lotRow{bin: shelfA, lots: lots(early, 2, late, 1)}, lotRow{bin: shelfD, lots: lots(early, 3)})
	ws.now = now.Add(24 * time.Hour)
	got := ws.RecordExpiry(article)
	eq(t, "counted", got, []Lot{{ArticleDetailID: article, Number: early.Number, BestBefore: early.BestBefore, ExpiryCounted: true}})
	eq(t, "totals", ws.TotalsChanges(), []WarehouseTotal{{ArticleDetailID: article, WarehouseID: wh1, Expired: 2}, {ArticleDetailID: article, WarehouseID: wh2, Expired: 3}})
	if again := ws.RecordExpiry(article); again != nil {
		t.Errorf("counted twice: %v", again)
	}
}

func TestAFailedOperationCreatesNoLot(t *testing.T) {
	ws := loadLots(t, lotRow{bin: shelfA, lots: lots(late, MaxStock)})
	before := snap(ws)
	err := ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: 1, Lot: &LotSpec{Number: "NEW"}}, ref)
	if e, ok := errs.As(err); !ok || e.Code != StockLimit {
		t.Fatalf("want the stock limit, got %v", err)
	}
	assertUnchanged(t, ws, before)
	eq(t, "lots", ws.LotChanges(), []Lot{})
}

func TestLotsGoByBestBeforeThenNumberWithUndatedLotsLast(t *testing.T) {
	got := []Lot{undated, late, expired, lateToo, early, {Number: "L-ANOTHER"}}
	slices.SortFunc(got, CompareFEFO)
	numbers := []string{}
	for _, l := range got {
		numbers = append(numbers, l.Number)
	}
	eq(t, "order", numbers, []string{"L-OLD", "L-EARLY", "L-AAA", "L-LATE", "L-ANOTHER", "L-NODATE"})
}

// A lot's bins give in the one stock-out order of a product's bins: the
// default bin first, then by the lot's stock there ascending, then by
// code, the unknown bin location last.
func TestALotsBinsGiveInTheOrderOfAProductsBins(t *testing.T) {
	for _, c := range []struct {
		name  string
		rows  []lotRow
		moves []lotMove
	}{
		{"the default bin first, though it holds the most",
			[]lotRow{{bin: shelfA, lots: lots(late, 1)}, {bin: shelfC, def: true, lots: lots(late, 5)}},
			[]lotMove{{shelfC, "L-LATE", -5}, {shelfA, "L-LATE", -1}}},
		{"equal stock by code, not by id",
			[]lotRow{{bin: shelfC, lots: lots(late, 3)}, {bin: shelfA, lots: lots(late, 3)}},
			[]lotMove{{shelfA, "L-LATE", -3}, {shelfC, "L-LATE", -3}}},
		{"the unknown bin location last, though it holds the least",
			[]lotRow{{bin: null1, lots: lots(late, 1)}, {bin: shelfB, lots: lots(late, 5)}},
			[]lotMove{{shelfB, "L-LATE", -5}, {null1, "L-LATE", -1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := loadLots(t, c.rows...)
			mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: wh(wh1), Quantity: -6}, ref))
			eq(t, "ledger", lotMoves(ws), c.moves)
		})
	}
}

// From the day after its best-before a lot gives nothing to a stock-out
// that does not name it, whether or not its expiry has been counted.
func TestAnExpiredLotIsNotTakenBeforeItsExpiryIsCounted(t *testing.T) {
	ws := loadLots(t, lotRow{bin: shelfA, lots: lots(early, 2, late, 1)})
	ws.now = time.Date(2026, 3, 2, 0, 0, 1, 0, time.UTC)
	if l, _ := ws.Lot(article, early.Number); l.ExpiryCounted || !l.ExpiredOn(ws.now) {
		t.Fatalf("L-EARLY on March 2nd: %+v", l)
	}
	assertBreaks(t, ws.Apply(Change{ArticleDetailID: article, At: bin(shelfA), Quantity: -2}, ref), InsufficientStock,
		`insufficient stock of article detail 7 at bin location "A-01" in warehouse "WH1": requested 2, available 1`)
	if _, err := ws.Reserve(article, binAt(shelfA), 2); errs.KindOf(err) != errs.Invalid {
		t.Errorf("reserving 2 with one unexpired piece: %v", err)
	}
}

func TestALotIsExpiredFromTheDayAfterItsBestBeforeUTC(t *testing.T) {
	bestBefore := day("2026-03-01")
	l := Lot{Number: "L", BestBefore: bestBefore}
	plus2 := time.FixedZone("UTC+2", 2*3600)
	for _, c := range []struct {
		now     time.Time
		expired bool
	}{
		{time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), false},
		{time.Date(2026, 3, 1, 23, 59, 59, 0, time.UTC), false},
		{time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), true},
		{time.Date(2026, 3, 2, 1, 0, 0, 0, plus2), false}, // still March 1st in UTC
	} {
		if got := l.ExpiredOn(c.now); got != c.expired {
			t.Errorf("at %v: expired %v, want %v", c.now, got, c.expired)
		}
		if got := bestBefore.Before(ExpiryCutoff(c.now)); got != c.expired {
			t.Errorf("at %v: best-before before the cut-off %v, want %v", c.now, got, c.expired)
		}
	}
	if (Lot{Number: "UNDATED"}).ExpiredOn(time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Error("a lot without a date expired")
	}
}
