package purchase_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
)

var now = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// stored is a purchase order for warehouse 1 as storage would rebuild it.
func stored(t *testing.T, status string, lines ...purchase.LineRecord) *purchase.Order {
	t.Helper()
	o, err := purchase.UnmarshalOrderFromDatabase(5, "PO-5", "ACME", 1, status, "", now, lines)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func line(t *testing.T, o *purchase.Order, id int64) *purchase.Line {
	t.Helper()
	l, ok := o.Line(id)
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

func TestANewPurchaseOrderIsOpenWithNothingReceived(t *testing.T) {
	o, err := purchase.New(purchase.NewOrder{Number: " PO-1 ", WarehouseID: 1, ExpectedAt: ptr("2026-12-01"),
		Lines: []purchase.NewLine{{ArticleDetailID: 7, Quantity: 5}, {ID: 3, ArticleDetailID: 9, Quantity: 2}}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if o.Status() != purchase.Open || o.Number() != "PO-1" || o.Supplier() != "" || o.ExpectedAt() != "2026-12-01" {
		t.Fatalf("got %s %q %q %q", o.Status(), o.Number(), o.Supplier(), o.ExpectedAt())
	}
	if got := o.Incoming(); !reflect.DeepEqual(got, map[int64]int{7: 5, 9: 2}) {
		t.Fatalf("incoming %v", got)
	}
}

func TestANewPurchaseOrderReportsEveryBrokenRuleUnderItsProperty(t *testing.T) {
	_, err := purchase.New(purchase.NewOrder{ID: -1, Number: "", Supplier: "a\x00b", ExpectedAt: ptr("2026-13-01"),
		Lines: []purchase.NewLine{
			{ID: 4, ArticleDetailID: 7, Quantity: 0},
			{ID: 4, ArticleDetailID: 7, Quantity: stock.MaxQuantity + 1},
			{ID: -2, ArticleDetailID: 0, Quantity: 1},
		}}, now)
	want := []string{"id", "number", "supplier", "warehouse", "expectedAt",
		"lines[0].quantity", "lines[1].id", "lines[1].articleDetailId", "lines[1].quantity", "lines[2].id", "lines[2].articleDetailId"}
	if got := properties(err); !reflect.DeepEqual(got, want) {
		t.Fatalf("properties %v, want %v (%v)", got, want, err)
	}
	if errs.KindOf(err) != errs.Invalid {
		t.Fatalf("kind %v", errs.KindOf(err))
	}
}

func TestAPurchaseOrderHasOneToAThousandLines(t *testing.T) {
	_, err := purchase.New(purchase.NewOrder{Number: "PO", WarehouseID: 1}, now)
	if got := properties(err); !reflect.DeepEqual(got, []string{"lines"}) {
		t.Fatalf("no lines: %v", err)
	}
	many := make([]purchase.NewLine, purchase.MaxLines+1)
	for i := range many {
		many[i] = purchase.NewLine{ArticleDetailID: int64(i + 1), Quantity: 1}
	}
	_, err = purchase.New(purchase.NewOrder{Number: "PO", WarehouseID: 1, Lines: many}, now)
	if got := properties(err); !reflect.DeepEqual(got, []string{"lines"}) {
		t.Fatalf("1001 lines: %v", err)
	}
	_, err = purchase.New(purchase.NewOrder{Number: "PO", WarehouseID: 1, Lines: many[:purchase.MaxLines]}, now)
	if err != nil {
		t.Fatalf("1000 lines: %v", err)
	}
}

func TestWhatMayStillBeReceivedIsOrderedLessReceivedWhileTheOrderIsOpen(t *testing.T) {
	o := stored(t, "Partially received", purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5, Received: 2},
		purchase.LineRecord{ID: 2, ArticleDetailID: 9, Quantity: 3, Received: 3})
	if got := o.Outstanding(line(t, o, 1)); got != 3 {
		t.Fatalf("outstanding %d", got)
	}
	if got := o.Incoming(); !reflect.DeepEqual(got, map[int64]int{7: 3}) {
		t.Fatalf("incoming %v", got)
	}
	for _, status := range []string{"Received", "Cancelled"} {
		done := stored(t, status, purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5, Received: 2})
		if got := done.Outstanding(line(t, done, 1)); got != 0 || len(done.Incoming()) != 0 {
			t.Fatalf("%s: outstanding %d, incoming %v", status, got, done.Incoming())
		}
	}
}

func TestIncomingChangesByWhatChangedPerProduct(t *testing.T) {
	got := purchase.Difference(map[int64]int{7: 5, 9: 2}, map[int64]int{7: 3, 8: 1})
	if want := map[int64]int{7: -2, 8: 1, 9: -2}; !reflect.DeepEqual(got, want) {
		t.Fatalf("difference %v, want %v", got, want)
	}
	kept := purchase.ApplyIncoming(map[int64]int{7: 10, 9: 2}, got)
	if want := map[int64]int{7: 8, 8: 1, 9: 0}; !reflect.DeepEqual(kept, want) {
		t.Fatalf("kept %v, want %v", kept, want)
	}
}

func TestCancellingEndsWhatIsOutstanding(t *testing.T) {
	o := stored(t, "Partially received", purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5, Received: 2})
	if err := o.Apply(purchase.Change{Status: ptr("Cancelled")}); err != nil {
		t.Fatal(err)
	}
	if o.Status() != purchase.Cancelled {
		t.Fatalf("status %s", o.Status())
	}
	incoming, status := o.Changes()
	if !reflect.DeepEqual(incoming, map[int64]int{7: -3}) {
		t.Fatalf("incoming change %v", incoming)
	}
	if status == nil || status.Previous != "Partially received" || status.Status != purchase.Cancelled {
		t.Fatalf("status event %+v", status)
	}
}

func TestADeletedOrderTakesAllItBroughtAwayAndANewOneBringsIt(t *testing.T) {
	o := stored(t, "Open", purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5}, purchase.LineRecord{ID: 2, ArticleDetailID: 8, Quantity: 2})
	if incoming, status := o.Changes(); len(incoming) != 0 || status != nil {
		t.Fatalf("an order as loaded changed: %v, %+v", incoming, status)
	}
	if err := o.Delete(); err != nil {
		t.Fatal(err)
	}
	if incoming, status := o.Changes(); !reflect.DeepEqual(incoming, map[int64]int{7: -5, 8: -2}) || status != nil || !o.Deleted() {
		t.Fatalf("a deleted order: %v, %+v", incoming, status)
	}
	received := stored(t, "Partially received", purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5, Received: 1})
	if err := received.Delete(); err == nil || received.Deleted() {
		t.Fatal("an order with pieces received was deleted")
	}
	fresh, err := purchase.New(purchase.NewOrder{Number: "PO-9", Supplier: "ACME", WarehouseID: 1,
		Lines: []purchase.NewLine{{ArticleDetailID: 7, Quantity: 4}}}, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if incoming, status := fresh.Changes(); !reflect.DeepEqual(incoming, map[int64]int{7: 4}) || status != nil {
		t.Fatalf("a new order: %v, %+v", incoming, status)
	}
}

func TestNoOtherStatusCanBeSetByHandNotEvenTheCurrentOne(t *testing.T) {
	for _, status := range []string{"Open", "Partially received", "Received", "Done"} {
		o := stored(t, "Open", purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5})
		err := o.Apply(purchase.Change{Status: ptr(status), Supplier: ptr("Other")})
		if got := properties(err); !reflect.DeepEqual(got, []string{"status"}) {
			t.Fatalf("%s: %v", status, err)
		}
		if o.Status() != purchase.Open || o.Supplier() != "ACME" {
			t.Fatalf("%s: changed to %s, supplier %q", status, o.Status(), o.Supplier())
		}
	}
}

func TestOnlyAnOpenOrPartiallyReceivedOrderChanges(t *testing.T) {
	for _, status := range []string{"Received", "Cancelled"} {
		o := stored(t, status, purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5, Received: 5})
		err := o.Apply(purchase.Change{ExpectedAt: ptr("2027-01-01")})
		if got := properties(err); !reflect.DeepEqual(got, []string{"status"}) {
			t.Fatalf("%s: %v", status, err)
		}
		if o.ExpectedAt() != "" {
			t.Fatalf("%s: expectedAt changed", status)
		}
	}
	o := stored(t, "Partially received", purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5, Received: 1})
	if err := o.Apply(purchase.Change{ExpectedAt: ptr("2027-01-01"), Supplier: ptr("Other")}); err != nil {
		t.Fatal(err)
	}
	if o.ExpectedAt() != "2027-01-01" || o.Supplier() != "Other" || o.Status() != purchase.PartiallyReceived {
		t.Fatalf("got %q %q %s", o.ExpectedAt(), o.Supplier(), o.Status())
	}
	if err := o.Apply(purchase.Change{ExpectedAt: ptr("")}); err != nil || o.ExpectedAt() != "" {
		t.Fatalf("clearing the date: %v, %q", err, o.ExpectedAt())
	}
	if err := o.Apply(purchase.Change{ExpectedAt: ptr("tomorrow")}); !reflect.DeepEqual(properties(err), []string{"expectedAt"}) {
		t.Fatalf("a bad date: %v", err)
	}
}

func TestOnlyAnOpenOrderWithNothingReceivedCanBeDeleted(t *testing.T) {
	if err := stored(t, "Open", purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5}).CheckDeletable(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		status   string
		received int
	}{{"Open", 1}, {"Partially received", 1}, {"Received", 5}, {"Cancelled", 0}} {
		err := stored(t, c.status, purchase.LineRecord{ID: 1, ArticleDetailID: 7, Quantity: 5, Received: c.received}).CheckDeletable()
		if errs.KindOf(err) != errs.Invalid || errs.PropertyOf(err) != "status" {
			t.Fatalf("%s: %v", c.status, err)
		}
	}
}

func TestAReceiptMayNotExceedWhatIsOutstandingAndNamesTheLine(t *testing.T) {
	o := stored(t, "Partially received", purchase.LineRecord{ID: 11, ArticleDetailID: 7, Quantity: 5, Received: 3},
		purchase.LineRecord{ID: 12, ArticleDetailID: 9, Quantity: 2})
	err := o.CheckReceipt([]purchase.ReceiptLine{{LineID: 12, Quantity: 2}, {LineID: 11, Quantity: 3}})
	if got := properties(err); !reflect.DeepEqual(got, []string{"lines[1].quantity"}) {
		t.Fatalf("properties %v (%v)", got, err)
	}
	if e, _ := errs.As(err); e.Code != purchase.OverReceipt || !strings.Contains(err.Error(), "line 11") {
		t.Fatalf("error %v, code %s", err, e.Code)
	}
	if err := o.CheckReceipt([]purchase.ReceiptLine{{LineID: 11, Quantity: 2}}); err != nil {
		t.Fatalf("the last outstanding pieces: %v", err)
	}
}

func TestAReceiptNamesEachLineOfTheOrderOnceWithAPositiveQuantity(t *testing.T) {
	o := stored(t, "Open", purchase.LineRecord{ID: 11, ArticleDetailID: 7, Quantity: 5})
	err := o.CheckReceipt([]purchase.ReceiptLine{{LineID: 99, Quantity: 1}, {LineID: 11, Quantity: 0}, {LineID: 11, Quantity: 1}})
	want := []string{"lines[0].lineId", "lines[1].quantity", "lines[2].lineId"}
	if got := properties(err); !reflect.DeepEqual(got, want) {
		t.Fatalf("properties %v, want %v", got, want)
	}
	if err := o.CheckReceipt(nil); !reflect.DeepEqual(properties(err), []string{"lines"}) {
		t.Fatalf("no lines: %v", err)
	}
}

func TestAReceivedOrCancelledOrderTakesNoReceipt(t *testing.T) {
	for _, status := range []string{"Received", "Cancelled"} {
		o := stored(t, status, purchase.LineRecord{ID: 11, ArticleDetailID: 7, Quantity: 5, Received: 1})
		err := o.CheckReceipt([]purchase.ReceiptLine{{LineID: 11, Quantity: 1}})
		if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || e.Code != purchase.NotReceivable {
			t.Fatalf("%s: %v", status, err)
		}
	}
}

func TestStoredRowsThatBreakARuleAreCorruptData(t *testing.T) {
	_, err := purchase.UnmarshalOrderFromDatabase(5, "PO-5", "", 1, "Open", "", now,
		[]purchase.LineRecord{{ID: 1, ArticleDetailID: 7, Quantity: 5, Received: 6}})
	if errs.KindOf(err) != errs.Internal {
		t.Fatalf("over-received line: %v", err)
	}
	_, err = purchase.UnmarshalOrderFromDatabase(5, "PO-5", "", 1, "Shipped", "", now,
		[]purchase.LineRecord{{ID: 1, ArticleDetailID: 7, Quantity: 5}})
	if errs.KindOf(err) != errs.Internal {
		t.Fatalf("unknown status: %v", err)
	}
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatal("not the service's error")
	}
}
