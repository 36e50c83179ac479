package purchase_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
)

// Warehouse 1 (unknown bin 10, shelves 11 and 12), warehouse 2 (unknown
// bin 20, shelf 21). Article 7 has its default bin 12 in warehouse 1;
// article 9 has none.
var bins = []stock.Bin{
	{ID: 10, WarehouseID: 1, Code: "erp_null_bin_location", IsNull: true},
	{ID: 11, WarehouseID: 1, Code: "A-01"},
	{ID: 12, WarehouseID: 1, Code: "A-02"},
	{ID: 20, WarehouseID: 2, Code: "erp_null_bin_location", IsNull: true},
	{ID: 21, WarehouseID: 2, Code: "B-01"},
}

func bin(id int64) *stock.LocationSpec {
	return &stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
}

func receivingSet(t *testing.T, op stock.Operation) *stock.WorkingSet {
	t.Helper()
	ws := stock.NewWorkingSet(stock.ScopeOf(op), now,
		[]stock.KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: 10}, {ID: 2, Code: "WH2", NullBinLocationID: 20}},
		bins, []int64{7, 9})
	def, err := stock.UnmarshalMappingFromDatabase(100, 12, 1, 7, 4, 0, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.Loaded(ws.MappingNeeds(), []*stock.Mapping{def}, bins)
	return ws
}

type booked struct {
	article, bin int64
	quantity     int
	typ          stock.EntryType
	purchase     int64
}

func ledger(ws *stock.WorkingSet) []booked {
	_, _, entries := ws.Changes()
	var out []booked
	for _, e := range entries {
		out = append(out, booked{e.ArticleDetailID, e.BinLocationID, e.Quantity, e.Type, e.Ref.PurchaseOrderID})
	}
	return out
}

func TestAReceiptPutsThePiecesOnTheDefaultBinElseTheUnknownBinElseWhereItIsTold(t *testing.T) {
	o := stored(t, "Open", purchase.LineRecord{ID: 11, ArticleDetailID: 7, Quantity: 5},
		purchase.LineRecord{ID: 12, ArticleDetailID: 9, Quantity: 4})
	op := &purchase.Receiving{Order: o, Now: now, User: "ramp", Lines: []purchase.ReceiptLine{
		{LineID: 11, Quantity: 2}, {LineID: 12, Quantity: 1}}}
	ws := receivingSet(t, op)
	if err := ws.Apply(op, stock.Reference{IdempotencyKey: "k", User: "ramp"}); err != nil {
		t.Fatal(err)
	}
	want := []booked{{7, 12, 2, stock.EntryReceipt, 5}, {9, 10, 1, stock.EntryReceipt, 5}}
	if got := ledger(ws); !reflect.DeepEqual(got, want) {
		t.Fatalf("ledger %v, want %v", got, want)
	}
	if o.Status() != purchase.PartiallyReceived || line(t, o, 11).Received() != 2 || line(t, o, 12).Received() != 1 {
		t.Fatalf("status %s", o.Status())
	}
	wantLines := []purchase.ReceivedLine{{LineID: 11, ArticleDetailID: 7, Quantity: 2, WarehouseID: 1, BinLocationID: 12},
		{LineID: 12, ArticleDetailID: 9, Quantity: 1, WarehouseID: 1, BinLocationID: 10}}
	if op.Result == nil || op.Result.PurchaseOrderID != 5 || op.Result.User != "ramp" || !reflect.DeepEqual(op.Result.Lines, wantLines) {
		t.Fatalf("result %+v", op.Result)
	}

	rest := &purchase.Receiving{Order: o, Now: now, Lines: []purchase.ReceiptLine{
		{LineID: 11, Quantity: 3, At: bin(11)}, {LineID: 12, Quantity: 3}}}
	ws = receivingSet(t, rest)
	if err := ws.Apply(rest, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if got := ledger(ws); !reflect.DeepEqual(got, []booked{{7, 11, 3, stock.EntryReceipt, 5}, {9, 10, 3, stock.EntryReceipt, 5}}) {
		t.Fatalf("ledger %v", got)
	}
	if o.Status() != purchase.Received || len(o.Incoming()) != 0 {
		t.Fatalf("status %s, incoming %v", o.Status(), o.Incoming())
	}
}

func TestAReceiptOfEverythingAtOnceMakesTheOrderReceived(t *testing.T) {
	o := stored(t, "Open", purchase.LineRecord{ID: 11, ArticleDetailID: 7, Quantity: 5})
	op := &purchase.Receiving{Order: o, Lines: []purchase.ReceiptLine{{LineID: 11, Quantity: 5}}}
	if err := receivingSet(t, op).Apply(op, stock.Reference{}); err != nil {
		t.Fatal(err)
	}
	if o.Status() != purchase.Received {
		t.Fatalf("status %s", o.Status())
	}
}

func TestAReceiptIsAllLinesOrNone(t *testing.T) {
	o := stored(t, "Open", purchase.LineRecord{ID: 11, ArticleDetailID: 7, Quantity: 5},
		purchase.LineRecord{ID: 12, ArticleDetailID: 9, Quantity: 4})
	// The second line names a bin of another warehouse.
	op := &purchase.Receiving{Order: o, Lines: []purchase.ReceiptLine{{LineID: 11, Quantity: 2}, {LineID: 12, Quantity: 1, At: bin(21)}}}
	ws := receivingSet(t, op)
	err := ws.Apply(op, stock.Reference{})
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || e.Property != "lines[1].binLocation" || !strings.Contains(e.Message, "line 12") {
		t.Fatalf("error %v", err)
	}
	if got := ledger(ws); len(got) != 0 {
		t.Fatalf("booked %v", got)
	}
	if o.Status() != purchase.Open || line(t, o, 11).Received() != 0 || op.Result != nil {
		t.Fatalf("the order changed: %s", o.Status())
	}
}

func TestAnOverReceiptFailsTheReceiptAndNamesTheLine(t *testing.T) {
	o := stored(t, "Partially received", purchase.LineRecord{ID: 11, ArticleDetailID: 7, Quantity: 5, Received: 4},
		purchase.LineRecord{ID: 12, ArticleDetailID: 9, Quantity: 4})
	op := &purchase.Receiving{Order: o, Lines: []purchase.ReceiptLine{{LineID: 12, Quantity: 1}, {LineID: 11, Quantity: 2}}}
	ws := receivingSet(t, op)
	err := ws.Apply(op, stock.Reference{})
	if e, ok := errs.As(err); !ok || e.Code != purchase.OverReceipt || e.Property != "lines[1].quantity" || !strings.Contains(e.Message, "line 11") {
		t.Fatalf("error %v", err)
	}
	if len(ledger(ws)) != 0 || line(t, o, 12).Received() != 0 {
		t.Fatal("something was received")
	}
}

func TestAReceiptThatWouldPushABinOverTheStockLimitNamesTheLine(t *testing.T) {
	o := stored(t, "Open", purchase.LineRecord{ID: 11, ArticleDetailID: 9, Quantity: 1},
		purchase.LineRecord{ID: 12, ArticleDetailID: 7, Quantity: stock.MaxQuantity})
	op := &purchase.Receiving{Order: o, Lines: []purchase.ReceiptLine{{LineID: 11, Quantity: 1}, {LineID: 12, Quantity: stock.MaxQuantity}}}
	ws := stock.NewWorkingSet(stock.ScopeOf(op), now,
		[]stock.KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: 10}}, bins[:3], []int64{7, 9})
	full, _ := stock.UnmarshalMappingFromDatabase(100, 12, 1, 7, stock.MaxStock-5, 0, true, nil)
	ws.Loaded(ws.MappingNeeds(), []*stock.Mapping{full}, bins[:3])
	err := ws.Apply(op, stock.Reference{})
	if e, ok := errs.As(err); !ok || e.Property != "lines[1].quantity" || !strings.Contains(e.Message, "line 12") {
		t.Fatalf("error %v", err)
	}
	if len(ledger(ws)) != 0 || o.Status() != purchase.Open {
		t.Fatal("something was received")
	}
}
