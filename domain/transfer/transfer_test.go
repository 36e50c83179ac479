package transfer_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
)

var now = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// Warehouse 1 is the source (unknown bin 10, shelves 11 and 12),
// warehouse 2 the destination (unknown bin 20, shelf 21). Article 7 is
// not lot-tracked and has its default bin 12 in warehouse 1 and 21 in
// warehouse 2; article 9 is lot-tracked: lot OLD expired on 2026-02-28,
// SOON and LATER are good.
var (
	bins = []stock.Bin{
		{ID: 10, WarehouseID: 1, Code: "erp_null_bin_location", IsNull: true},
		{ID: 11, WarehouseID: 1, Code: "A-01"},
		{ID: 12, WarehouseID: 1, Code: "A-02"},
		{ID: 20, WarehouseID: 2, Code: "erp_null_bin_location", IsNull: true},
		{ID: 21, WarehouseID: 2, Code: "B-01"},
	}
	old   = stock.Lot{ArticleDetailID: 9, Number: "OLD", BestBefore: date("2026-02-28"), ExpiryCounted: true}
	soon  = stock.Lot{ArticleDetailID: 9, Number: "SOON", BestBefore: date("2026-03-10")}
	later = stock.Lot{ArticleDetailID: 9, Number: "LATER", BestBefore: date("2026-12-31")}
)

func date(s string) *time.Time {
	d, err := stock.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return &d
}

func bin(id int64) *stock.LocationSpec {
	return &stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
}

// shelf is a mapping as storage would load it.
type shelf struct {
	article, bin int64
	stock, held  int
	isDefault    bool
	lots         []stock.LotStock
}

func warehouseOf(b int64) int64 { return b / 10 }

func workingSet(t *testing.T, op stock.Operation, shelves ...shelf) *stock.WorkingSet {
	t.Helper()
	ws := stock.NewWorkingSet(stock.ScopeOf(op), now,
		[]stock.KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: 10}, {ID: 2, Code: "WH2", NullBinLocationID: 20}},
		bins, []int64{7, 9})
	ws.KnowLots([]int64{9}, []stock.Lot{old, soon, later})
	var ms []*stock.Mapping
	for i, s := range shelves {
		m, err := stock.UnmarshalMappingFromDatabase(int64(100+i), s.bin, warehouseOf(s.bin), s.article, s.stock, s.held, s.isDefault, nil)
		if err == nil && s.lots != nil {
			err = m.RestoreLots(s.lots)
		}
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	ws.Loaded(ws.MappingNeeds(), ms, bins)
	return ws
}

// stock7 is article 7's stock: 4 on its default bin 12, 6 on 11, and 2
// on 21 in the destination (its default there).
var stock7 = []shelf{{7, 12, 4, 0, true, nil}, {7, 11, 6, 1, false, nil}, {7, 21, 2, 0, true, nil}}

// stock9 is article 9's stock on bin 11: 5 expired, 3 SOON, 10 LATER.
var stock9 = []shelf{{9, 11, 18, 0, false, []stock.LotStock{{Number: "OLD", Stock: 5}, {Number: "SOON", Stock: 3}, {Number: "LATER", Stock: 10}}}}

func stored(t *testing.T, status string, lines ...transfer.LineRecord) *transfer.Transfer {
	t.Helper()
	tr, err := transfer.UnmarshalTransferFromDatabase(5, "T-5", 1, 2, status, now, lines)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func line(t *testing.T, tr *transfer.Transfer, id int64) *transfer.Line {
	t.Helper()
	l, ok := tr.Line(id)
	if !ok {
		t.Fatalf("no line %d", id)
	}
	return l
}

func properties(err error) []string {
	e, ok := errs.As(err)
	if !ok {
		return nil
	}
	var out []string
	for _, f := range e.Fields {
		out = append(out, f.Property)
	}
	return out
}

type booked struct {
	article, bin int64
	quantity     int
	typ          stock.EntryType
	lot          string
	transfer     int64
}

func ledger(ws *stock.WorkingSet) []booked {
	_, _, entries := ws.Changes()
	var out []booked
	for _, e := range entries {
		out = append(out, booked{e.ArticleDetailID, e.BinLocationID, e.Quantity, e.Type, e.LotNumber, e.Ref.TransferID})
	}
	return out
}

// checkBooks is the rule nothing on the road may break: for every line
// and lot, shipped = received + returned + lost + in transit, in transit
// never below 0, and shipped never above the line's quantity.
func checkBooks(t *testing.T, tr *transfer.Transfer) {
	t.Helper()
	for _, l := range tr.Lines() {
		if l.Shipped() != l.Received()+l.Returned()+l.Lost()+l.InTransit() || l.InTransit() < 0 || l.Shipped() > l.Quantity() {
			t.Fatalf("line %d: quantity %d shipped %d received %d returned %d lost %d in transit %d",
				l.ID(), l.Quantity(), l.Shipped(), l.Received(), l.Returned(), l.Lost(), l.InTransit())
		}
	}
}

func TestANewTransferIsOpenAndMovesNothing(t *testing.T) {
	tr, err := transfer.New(transfer.NewTransfer{Number: " T-1 ", SourceWarehouseID: 1, DestinationWarehouseID: 2,
		Lines: []transfer.NewLine{{ArticleDetailID: 7, Quantity: 5}, {ID: 3, ArticleDetailID: 9, Quantity: 2, Lot: "SOON"}}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status() != transfer.Open || tr.Number() != "T-1" || len(tr.InTransit()) != 0 {
		t.Fatalf("got %s %q %v", tr.Status(), tr.Number(), tr.InTransit())
	}
	if in, status := tr.Changes(); len(in) != 0 || status != nil {
		t.Fatalf("a new transfer changes %v, %v", in, status)
	}
	if l := tr.Lines()[1]; l.Lot() != "SOON" || l.Shipped() != 0 || l.InTransit() != 0 {
		t.Fatalf("line %+v", l)
	}
}

func TestANewTransferReportsEveryBrokenRule(t *testing.T) {
	_, err := transfer.New(transfer.NewTransfer{ID: -1, Number: "", SourceWarehouseID: 1, DestinationWarehouseID: 1,
		Lines: []transfer.NewLine{
			{ID: 4, ArticleDetailID: 7, Quantity: 0},
			{ID: 4, ArticleDetailID: 7, Quantity: stock.MaxQuantity + 1},
			{ArticleDetailID: 9, Quantity: 1, Lot: "A"},
			{ArticleDetailID: 9, Quantity: 1, Lot: "B"},
			{ArticleDetailID: 9, Quantity: 1, Lot: "A"},
			{ArticleDetailID: 0, Quantity: 1, Lot: "bad\x01"},
		}}, now)
	want := []string{"id", "number", "destination", "lines[0].quantity", "lines[1].id", "lines[1].articleDetailId", "lines[1].quantity",
		"lines[4].articleDetailId", "lines[5].lot.number", "lines[5].articleDetailId"}
	if got := properties(err); !reflect.DeepEqual(got, want) {
		t.Fatalf("properties\n got %v\nwant %v", got, want)
	}
	if _, err := transfer.New(transfer.NewTransfer{Number: "T", SourceWarehouseID: 1, DestinationWarehouseID: 2}, now); !reflect.DeepEqual(properties(err), []string{"lines"}) {
		t.Fatalf("no lines: %v", err)
	}
	many := make([]transfer.NewLine, transfer.MaxLines+1)
	for i := range many {
		many[i] = transfer.NewLine{ArticleDetailID: int64(i + 1), Quantity: 1}
	}
	if _, err := transfer.New(transfer.NewTransfer{Number: "T", SourceWarehouseID: 1, DestinationWarehouseID: 2, Lines: many}, now); !reflect.DeepEqual(properties(err), []string{"lines"}) {
		t.Fatalf("too many lines: %v", err)
	}
}

func TestAShipmentTakesByTheStrategyFromTheSourceAndPutsThePiecesInTransit(t *testing.T) {
	tr := stored(t, "Open", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 8})
	op := &transfer.Shipping{Transfer: tr, Lines: []transfer.ShipmentLine{{LineID: 1, Quantity: 6}}, Now: now, User: "dock"}
	ws := workingSet(t, op, stock7...)
	if err := ws.Apply(op, stock.Reference{IdempotencyKey: "k", User: "dock"}); err != nil {
		t.Fatal(err)
	}
	// The default bin first, then bin 11's unreserved pieces.
	want := []booked{{7, 12, -4, stock.EntryTransferOut, "", 5}, {7, 11, -2, stock.EntryTransferOut, "", 5}}
	if got := ledger(ws); !reflect.DeepEqual(got, want) {
		t.Fatalf("ledger %v, want %v", got, want)
	}
	l := line(t, tr, 1)
	if tr.Status() != transfer.InTransit || l.Shipped() != 6 || l.InTransit() != 6 || tr.LeftToShip(l) != 2 {
		t.Fatalf("status %s, shipped %d, in transit %d", tr.Status(), l.Shipped(), l.InTransit())
	}
	if op.Result == nil || len(op.Result.Lines) != 2 || op.Result.Lines[0].BinLocationID != 12 || op.Result.User != "dock" {
		t.Fatalf("result %+v", op.Result)
	}
	in, status := tr.Changes()
	if !reflect.DeepEqual(in, map[int64]int{7: 6}) || status == nil || status.Status != transfer.InTransit || status.Previous != transfer.Open {
		t.Fatalf("changes %v %+v", in, status)
	}
	checkBooks(t, tr)
}

func TestAShipmentWithoutLinesShipsWhatEveryLineHasLeftAndThenNothingIsLeft(t *testing.T) {
	tr := stored(t, "In transit", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 8, Lots: []transfer.LotRecord{{Shipped: 3}}})
	op := &transfer.Shipping{Transfer: tr}
	ws := workingSet(t, op, stock7...)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if l := line(t, tr, 1); l.Shipped() != 8 || l.InTransit() != 8 {
		t.Fatalf("shipped %d", l.Shipped())
	}
	again := &transfer.Shipping{Transfer: tr}
	err := workingSet(t, again, stock7...).Apply(again, stock.Reference{})
	if e, ok := errs.As(err); !ok || e.Code != transfer.NothingToShip || e.Property != "lines" {
		t.Fatalf("nothing left: %v", err)
	}
}

func TestAShipmentIsAllLinesOrNoneAndNamesEveryLineThatFails(t *testing.T) {
	tr := stored(t, "Open", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 20},
		transfer.LineRecord{ID: 2, ArticleDetailID: 9, Quantity: 50}, transfer.LineRecord{ID: 3, ArticleDetailID: 9, Quantity: 2, Lot: "SOON"})
	// Over-asking is found before any stock is looked at.
	over := &transfer.Shipping{Transfer: tr, Lines: []transfer.ShipmentLine{{LineID: 3, Quantity: 2}, {LineID: 3, Quantity: 1}, {LineID: 1, Quantity: 21}, {LineID: 8, Quantity: 1}}}
	err := workingSet(t, over, append(stock7, stock9...)...).Apply(over, stock.Reference{})
	if got := properties(err); !reflect.DeepEqual(got, []string{"lines[1].quantity", "lines[2].quantity", "lines[3].lineId"}) {
		t.Fatalf("properties %v (%v)", got, err)
	}
	// A shortfall on two lines: both named, nothing moves.
	op := &transfer.Shipping{Transfer: tr, Lines: []transfer.ShipmentLine{{LineID: 1, Quantity: 12}, {LineID: 3, Quantity: 1}, {LineID: 2, Quantity: 14}}}
	ws := workingSet(t, op, append(stock7, stock9...)...)
	err = ws.Apply(op, stock.Reference{})
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || !reflect.DeepEqual(properties(err), []string{"lines[0].quantity", "lines[2].quantity"}) {
		t.Fatalf("error %v, properties %v", err, properties(err))
	}
	if !strings.Contains(e.Fields[0].Message, "line 1") || !strings.Contains(e.Fields[1].Message, "line 2") || !strings.Contains(e.Fields[1].Message, "insufficient stock") {
		t.Fatalf("messages %+v", e.Fields)
	}
	if len(ledger(ws)) != 0 || tr.Status() != transfer.Open || line(t, tr, 1).Shipped() != 0 || op.Result != nil {
		t.Fatal("something shipped")
	}
}

func TestAShipmentTakesLotsFirstExpiringFirstNeverExpiredAndANamedLotOnly(t *testing.T) {
	tr := stored(t, "Open", transfer.LineRecord{ID: 1, ArticleDetailID: 9, Quantity: 5}, transfer.LineRecord{ID: 2, ArticleDetailID: 9, Quantity: 2, Lot: "LATER"})
	op := &transfer.Shipping{Transfer: tr}
	ws := workingSet(t, op, stock9...)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	want := []booked{{9, 11, -3, stock.EntryTransferOut, "SOON", 5}, {9, 11, -2, stock.EntryTransferOut, "LATER", 5}, {9, 11, -2, stock.EntryTransferOut, "LATER", 5}}
	if got := ledger(ws); !reflect.DeepEqual(got, want) {
		t.Fatalf("ledger %v", got)
	}
	if got := line(t, tr, 1).Lots(); !reflect.DeepEqual(got, []transfer.LotRecord{{Number: "SOON", Shipped: 3}, {Number: "LATER", Shipped: 2}}) {
		t.Fatalf("lots %+v", got)
	}
	expired := stored(t, "Open", transfer.LineRecord{ID: 1, ArticleDetailID: 9, Quantity: 1, Lot: "OLD"})
	op = &transfer.Shipping{Transfer: expired}
	err := workingSet(t, op, stock9...).Apply(op, stock.Reference{})
	if e, ok := errs.As(err); !ok || e.Code != stock.LotExpired || e.Property != "lines[0].lot" {
		t.Fatalf("expired lot: %v", err)
	}
}

func TestAShipmentFromANamedBinTakesItThereAndTheBinMustLieInTheSource(t *testing.T) {
	tr := stored(t, "Open", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 8})
	op := &transfer.Shipping{Transfer: tr, Lines: []transfer.ShipmentLine{{LineID: 1, Quantity: 6, From: bin(11)}}}
	err := workingSet(t, op, stock7...).Apply(op, stock.Reference{})
	// Bin 11 holds 6, one of them reserved.
	if e, ok := errs.As(err); !ok || e.Code != stock.InsufficientStock || e.Property != "lines[0].quantity" {
		t.Fatalf("reserved pieces: %v", err)
	}
	op = &transfer.Shipping{Transfer: tr, Lines: []transfer.ShipmentLine{{LineID: 1, Quantity: 1, From: bin(21)}}}
	err = workingSet(t, op, stock7...).Apply(op, stock.Reference{})
	if e, ok := errs.As(err); !ok || e.Code != transfer.WrongWarehouse || e.Property != "lines[0].binLocation" {
		t.Fatalf("bin of the destination: %v", err)
	}
	op = &transfer.Shipping{Transfer: tr, Lines: []transfer.ShipmentLine{{LineID: 1, Quantity: 5, From: bin(11)}}}
	ws := workingSet(t, op, shelf{7, 11, 6, 0, false, nil})
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if got := ledger(ws); !reflect.DeepEqual(got, []booked{{7, 11, -5, stock.EntryTransferOut, "", 5}}) {
		t.Fatalf("ledger %v", got)
	}
}

func TestACompletedOrCancelledTransferShipsAndReceivesNothing(t *testing.T) {
	for _, status := range []string{"Completed", "Cancelled"} {
		tr := stored(t, status, transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 8, Lots: []transfer.LotRecord{{Shipped: 2, Received: 2}}})
		if err := tr.CheckShipment([]transfer.ShipmentLine{{LineID: 1, Quantity: 1}}, false); errCode(err) != transfer.NotRunning {
			t.Fatalf("%s ships: %v", status, err)
		}
		if err := tr.CheckReceipt([]transfer.ReceiptLine{{LineID: 1, Quantity: 1}}); errCode(err) != transfer.NotRunning {
			t.Fatalf("%s receives: %v", status, err)
		}
		if err := tr.CheckCancel(transfer.Change{Status: ptr("Cancelled")}); errCode(err) != transfer.NotRunning {
			t.Fatalf("%s is cancelled: %v", status, err)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func errCode(err error) errs.Code {
	e, _ := errs.As(err)
	if e == nil {
		return "<nil>"
	}
	return e.Code
}

func TestAReceiptTakesOneUpToWhatIsInTransitAndMovesTheStatusOn(t *testing.T) {
	tr := stored(t, "In transit", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 8, Lots: []transfer.LotRecord{{Shipped: 5}}},
		transfer.LineRecord{ID: 2, ArticleDetailID: 9, Quantity: 1, Lot: "SOON"})
	if err := tr.CheckReceipt([]transfer.ReceiptLine{{LineID: 1, Quantity: 6}, {LineID: 1, Quantity: 0}, {LineID: 2, Quantity: 1}}); !reflect.DeepEqual(properties(err), []string{"lines[0].quantity", "lines[1].quantity", "lines[2].quantity"}) {
		t.Fatalf("over-receipt: %v", err)
	}
	op := &transfer.Receiving{Transfer: tr, Lines: []transfer.ReceiptLine{{LineID: 1, Quantity: 2}}, Now: now, User: "ramp"}
	ws := workingSet(t, op, stock7...)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	// Into the product's default bin in the destination.
	if got := ledger(ws); !reflect.DeepEqual(got, []booked{{7, 21, 2, stock.EntryTransferIn, "", 5}}) {
		t.Fatalf("ledger %v", got)
	}
	if l := line(t, tr, 1); tr.Status() != transfer.PartiallyReceived || l.Received() != 2 || l.InTransit() != 3 {
		t.Fatalf("status %s, received %d", tr.Status(), l.Received())
	}
	in, status := tr.Changes()
	if !reflect.DeepEqual(in, map[int64]int{7: -2}) || status.Previous != transfer.InTransit || status.Status != transfer.PartiallyReceived {
		t.Fatalf("changes %v %+v", in, status)
	}
	// Two racing receipts read the transfer one after the other: the
	// second can no longer take what the first received.
	if err := tr.CheckReceipt([]transfer.ReceiptLine{{LineID: 1, Quantity: 4}}); errCode(err) != transfer.OverReceipt {
		t.Fatalf("more than in transit: %v", err)
	}
	checkBooks(t, tr)
}

func TestATransferIsCompletedOnceEveryLineIsShippedAndNothingIsInTransit(t *testing.T) {
	tr := stored(t, "In transit", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 4, Lots: []transfer.LotRecord{{Shipped: 3}}})
	op := &transfer.Receiving{Transfer: tr, Lines: []transfer.ReceiptLine{{LineID: 1, Quantity: 3, At: bin(20)}}}
	if err := workingSet(t, op, stock7...).Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if tr.Status() != transfer.PartiallyReceived {
		t.Fatalf("one piece not shipped yet: %s", tr.Status())
	}
	ship := &transfer.Shipping{Transfer: tr}
	if err := workingSet(t, ship, stock7...).Apply(ship, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if tr.Status() != transfer.PartiallyReceived {
		t.Fatalf("a shipment after a receipt: %s", tr.Status())
	}
	op = &transfer.Receiving{Transfer: tr, Lines: []transfer.ReceiptLine{{LineID: 1, Quantity: 1}}}
	if err := workingSet(t, op, stock7...).Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if tr.Status() != transfer.Completed || len(tr.InTransit()) != 0 {
		t.Fatalf("status %s", tr.Status())
	}
	checkBooks(t, tr)
}

func TestAReceiptNamesTheBinOfTheDestination(t *testing.T) {
	tr := stored(t, "In transit", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 4, Lots: []transfer.LotRecord{{Shipped: 3}}})
	op := &transfer.Receiving{Transfer: tr, Lines: []transfer.ReceiptLine{{LineID: 1, Quantity: 1, At: bin(11)}}}
	ws := workingSet(t, op, stock7...)
	err := ws.Apply(op, stock.Reference{})
	if e, ok := errs.As(err); !ok || e.Code != transfer.WrongWarehouse || e.Property != "lines[0].binLocation" || !strings.Contains(e.Message, "line 1") {
		t.Fatalf("bin of the source: %v", err)
	}
	if len(ledger(ws)) != 0 || line(t, tr, 1).Received() != 0 {
		t.Fatal("something was received")
	}
}

func TestAReceiptKeepsTheLotAndALineWithSeveralLotsInTransitMustNameIt(t *testing.T) {
	lots := []transfer.LotRecord{{Number: "SOON", Shipped: 3}, {Number: "LATER", Shipped: 2}}
	tr := stored(t, "In transit", transfer.LineRecord{ID: 1, ArticleDetailID: 9, Quantity: 5, Lots: lots})
	err := tr.CheckReceipt([]transfer.ReceiptLine{{LineID: 1, Quantity: 1}})
	if e, ok := errs.As(err); !ok || e.Code != transfer.LotAmbiguous || e.Property != "lines[0].lot" || !strings.Contains(e.Message, "line 1") {
		t.Fatalf("several lots: %v", err)
	}
	err = tr.CheckReceipt([]transfer.ReceiptLine{{LineID: 1, Quantity: 1, Lot: &stock.LotSpec{Number: "OLD"}}})
	if errCode(err) != transfer.LotNotInTransit || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("a lot not shipped: %v", err)
	}
	if err := tr.CheckReceipt([]transfer.ReceiptLine{{LineID: 1, Quantity: 3, Lot: &stock.LotSpec{Number: "LATER"}}}); errCode(err) != transfer.OverReceipt {
		t.Fatalf("more than the lot has in transit: %v", err)
	}
	op := &transfer.Receiving{Transfer: tr, Lines: []transfer.ReceiptLine{{LineID: 1, Quantity: 3, Lot: &stock.LotSpec{Number: "SOON"}}, {LineID: 1, Quantity: 1, Lot: &stock.LotSpec{Number: "LATER"}, At: bin(21)}}}
	ws := workingSet(t, op, stock9...)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	// No default bin of article 9 in the destination: its unknown bin.
	want := []booked{{9, 20, 3, stock.EntryTransferIn, "SOON", 5}, {9, 21, 1, stock.EntryTransferIn, "LATER", 5}}
	if got := ledger(ws); !reflect.DeepEqual(got, want) {
		t.Fatalf("ledger %v", got)
	}
	// One lot is left on the road: it needs no name.
	op = &transfer.Receiving{Transfer: tr, Lines: []transfer.ReceiptLine{{LineID: 1, Quantity: 1}}}
	ws = workingSet(t, op, stock9...)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if got := ledger(ws); !reflect.DeepEqual(got, []booked{{9, 20, 1, stock.EntryTransferIn, "LATER", 5}}) {
		t.Fatalf("ledger %v", got)
	}
	if tr.Status() != transfer.Completed {
		t.Fatalf("status %s", tr.Status())
	}
	checkBooks(t, tr)
}

func TestAnOpenTransferOrOneWithNothingInTransitIsCancelledAsItIs(t *testing.T) {
	for _, tr := range []*transfer.Transfer{
		stored(t, "Open", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 4}),
		stored(t, "Partially received", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 4, Lots: []transfer.LotRecord{{Shipped: 2, Received: 2}}}),
	} {
		before := tr.Status()
		op := &transfer.Cancelling{Transfer: tr, Change: transfer.Change{Status: ptr("Cancelled"), InTransit: "return"}}
		ws := workingSet(t, op)
		if err := ws.Apply(op, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
		in, status := tr.Changes()
		if tr.Status() != transfer.Cancelled || len(ledger(ws)) != 0 || len(in) != 0 || status.Previous != before {
			t.Fatalf("status %s, ledger %v, in %v", tr.Status(), ledger(ws), in)
		}
		if err := tr.CheckShipment(nil, true); errCode(err) != transfer.NotRunning {
			t.Fatalf("a cancelled transfer ships: %v", err)
		}
	}
}

func TestCancellingWithPiecesInTransitSaysWhatBecomesOfThem(t *testing.T) {
	tr := stored(t, "In transit", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 4, Lots: []transfer.LotRecord{{Shipped: 3, Received: 1}}})
	if err := tr.CheckCancel(transfer.Change{Status: ptr("Cancelled")}); errCode(err) != transfer.InTransitOpen || !reflect.DeepEqual(properties(err), []string{"inTransit"}) {
		t.Fatalf("undecided: %v", err)
	}
	if err := tr.CheckCancel(transfer.Change{Status: ptr("Completed"), InTransit: "burn"}); !reflect.DeepEqual(properties(err), []string{"status", "inTransit"}) {
		t.Fatalf("bad change: %v", err)
	}
	if err := tr.CheckCancel(transfer.Change{}); !reflect.DeepEqual(properties(err), []string{"status"}) {
		t.Fatalf("no status: %v", err)
	}
}

func TestCancellingReturnsThePiecesInTransitToTheSourceInTheirLots(t *testing.T) {
	tr := stored(t, "Partially received",
		transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 4, Lots: []transfer.LotRecord{{Shipped: 3, Received: 1}}},
		transfer.LineRecord{ID: 2, ArticleDetailID: 9, Quantity: 9, Lots: []transfer.LotRecord{{Number: "SOON", Shipped: 3}, {Number: "LATER", Shipped: 2, Received: 2}, {Number: "OLD", Shipped: 1}}},
		// Nothing of this line is on the road: its product is not even loaded.
		transfer.LineRecord{ID: 3, ArticleDetailID: 11, Quantity: 9, Lots: []transfer.LotRecord{{Shipped: 2, Received: 2}}})
	op := &transfer.Cancelling{Transfer: tr, Change: transfer.Change{Status: ptr("Cancelled"), InTransit: "return"}}
	ws := workingSet(t, op, append(stock7, stock9...)...)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	want := []booked{{7, 12, 2, stock.EntryTransferReturn, "", 5}, {9, 10, 3, stock.EntryTransferReturn, "SOON", 5}, {9, 10, 1, stock.EntryTransferReturn, "OLD", 5}}
	if got := ledger(ws); !reflect.DeepEqual(got, want) {
		t.Fatalf("ledger %v", got)
	}
	in, status := tr.Changes()
	if !reflect.DeepEqual(in, map[int64]int{7: -2, 9: -4}) || status.Status != transfer.Cancelled {
		t.Fatalf("changes %v %+v", in, status)
	}
	if l := line(t, tr, 2); l.Returned() != 4 || l.InTransit() != 0 || l.Received() != 2 {
		t.Fatalf("line 2 returned %d", l.Returned())
	}
	checkBooks(t, tr)
}

func TestCancellingWritesOffLostPiecesWithoutMovingStock(t *testing.T) {
	tr := stored(t, "In transit", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 4, Lots: []transfer.LotRecord{{Shipped: 3, Received: 1}}})
	op := &transfer.Cancelling{Transfer: tr, Change: transfer.Change{Status: ptr("Cancelled"), InTransit: "lost"}}
	ws := workingSet(t, op)
	if err := ws.Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	in, _ := tr.Changes()
	if l := line(t, tr, 1); len(ledger(ws)) != 0 || l.Lost() != 2 || l.InTransit() != 0 || !reflect.DeepEqual(in, map[int64]int{7: -2}) {
		t.Fatalf("lost %d, ledger %v, in %v", l.Lost(), ledger(ws), in)
	}
	checkBooks(t, tr)
}

func TestStoredRowsThatBreakTheBooksAreCorruptData(t *testing.T) {
	for _, l := range []transfer.LineRecord{
		{ID: 1, ArticleDetailID: 7, Quantity: 4, Lots: []transfer.LotRecord{{Shipped: 5}}},
		{ID: 1, ArticleDetailID: 7, Quantity: 4, Lots: []transfer.LotRecord{{Shipped: 2, Received: 2, Lost: 1}}},
		{ID: 1, ArticleDetailID: 7, Quantity: 4, Lots: []transfer.LotRecord{{Shipped: -1}}},
		{ID: 1, ArticleDetailID: 9, Quantity: 4, Lot: "SOON", Lots: []transfer.LotRecord{{Number: "LATER", Shipped: 1}}},
	} {
		if _, err := transfer.UnmarshalTransferFromDatabase(5, "T-5", 1, 2, "In transit", now, []transfer.LineRecord{l}); errs.KindOf(err) != errs.Internal {
			t.Fatalf("%+v: %v", l, err)
		}
	}
	if _, err := transfer.UnmarshalTransferFromDatabase(5, "T-5", 1, 2, "Shipped", now, []transfer.LineRecord{{ID: 1, ArticleDetailID: 7, Quantity: 1}}); errs.KindOf(err) != errs.Internal {
		t.Fatalf("unknown status: %v", err)
	}
	if _, err := transfer.ParseStatus("In transit"); err != nil {
		t.Fatal(err)
	}
}

func TestARefusedShipmentOrReceiptNamesOverAskedAndShortLinesAlike(t *testing.T) {
	tr := stored(t, "In transit", transfer.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 20, Lots: []transfer.LotRecord{{Shipped: 2}}},
		transfer.LineRecord{ID: 2, ArticleDetailID: 9, Quantity: 3})
	// Line 2 asks for more than it has left; line 1 for more than the
	// source holds (9 unreserved pieces).
	op := &transfer.Shipping{Transfer: tr, Lines: []transfer.ShipmentLine{{LineID: 2, Quantity: 4}, {LineID: 1, Quantity: 10}}}
	ws := workingSet(t, op, append(stock7, stock9...)...)
	err := ws.Apply(op, stock.Reference{})
	if got := properties(err); !reflect.DeepEqual(got, []string{"lines[0].quantity", "lines[1].quantity"}) {
		t.Fatalf("properties %v (%v)", got, err)
	}
	if len(ledger(ws)) != 0 || line(t, tr, 1).Shipped() != 2 {
		t.Fatal("something shipped")
	}
	// Line 1 receives into a bin of the source, and then more than is on
	// the road.
	rcv := &transfer.Receiving{Transfer: tr, Lines: []transfer.ReceiptLine{{LineID: 1, Quantity: 1, At: bin(11)}, {LineID: 1, Quantity: 2}}}
	ws = workingSet(t, rcv, stock7...)
	err = ws.Apply(rcv, stock.Reference{})
	if got := properties(err); !reflect.DeepEqual(got, []string{"lines[0].binLocation", "lines[1].quantity"}) {
		t.Fatalf("properties %v (%v)", got, err)
	}
	if len(ledger(ws)) != 0 || line(t, tr, 1).Received() != 0 {
		t.Fatal("something was received")
	}
}
