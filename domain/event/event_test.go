package event_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/stock"
)

func figures(physical, outstanding int) stock.Figures {
	return stock.FiguresOf([]stock.WarehouseStock{{WarehouseID: 1, StockAvailableForSale: true, Stock: physical}}, outstanding)
}

func TestAProductNewToTheFeedChangesOnlyWhenItHoldsSomething(t *testing.T) {
	if changed, _ := event.Compare(event.Snapshot{}, event.SnapshotOf(stock.FiguresOf(nil, 0), false)); changed {
		t.Fatal("a new product holding nothing fired stock.changed")
	}
	if changed, _ := event.Compare(event.Snapshot{}, event.SnapshotOf(figures(3, 0), false)); !changed {
		t.Fatal("a new product with 3 pieces fired no stock.changed")
	}
}

func TestStockChangedFiresWhenAnyWatchedFigureDiffers(t *testing.T) {
	before := event.SnapshotOf(figures(5, 1), false)
	for name, f := range map[string]stock.Figures{
		"physical":    figures(6, 1),
		"outstanding": figures(5, 2),
		"reserved":    stock.FiguresOf([]stock.WarehouseStock{{WarehouseID: 1, StockAvailableForSale: true, Stock: 5, ReservedStock: 1}}, 1),
		"for sale":    stock.FiguresOf([]stock.WarehouseStock{{WarehouseID: 1, Stock: 5}}, 1),
		"warehouse":   stock.FiguresOf([]stock.WarehouseStock{{WarehouseID: 2, StockAvailableForSale: true, Stock: 5}}, 1),
	} {
		if changed, _ := event.Compare(before, event.SnapshotOf(f, false)); !changed {
			t.Errorf("%s changed and stock.changed did not fire", name)
		}
	}
	if changed, _ := event.Compare(before, event.SnapshotOf(figures(5, 1), false)); changed {
		t.Error("equal figures fired stock.changed")
	}
	empty := stock.FiguresOf([]stock.WarehouseStock{{WarehouseID: 1, StockAvailableForSale: true}, {WarehouseID: 2}}, 1)
	if changed, _ := event.Compare(event.SnapshotOf(stock.FiguresOf(nil, 1), false), event.SnapshotOf(empty, false)); changed {
		t.Error("a default mapping of 0 pieces fired stock.changed")
	}
}

func TestStockLowFiresWhenTheProductFallsBelowNotWhileItStaysThere(t *testing.T) {
	cases := []struct {
		before, now bool
		low         bool
	}{{false, true, true}, {true, true, false}, {true, false, false}, {false, false, false}}
	for _, c := range cases {
		_, low := event.Compare(event.SnapshotOf(figures(5, 0), c.before), event.SnapshotOf(figures(4, 0), c.now))
		if low != c.low {
			t.Errorf("below %v -> %v: stock.low %v, want %v", c.before, c.now, low, c.low)
		}
	}
	if _, low := event.Compare(event.Snapshot{}, event.SnapshotOf(figures(0, 0), true)); !low {
		t.Error("a new product below its reorder point fired no stock.low")
	}
}

func TestCauseIsTheNamedOneElseTheBatchElseWhatTheWritesTell(t *testing.T) {
	named := &event.Cause{Type: event.CauseOrdersShip}
	batch := &event.Cause{Type: event.CauseStockChange, IdempotencyKey: "k"}
	cases := []struct {
		w    event.Writes
		want event.Cause
	}{
		{event.Writes{Named: named, Batch: batch, OrdersCreated: true}, event.Cause{Type: event.CauseOrdersShip}},
		{event.Writes{Batch: batch, OrdersCreated: true}, *batch},
		{event.Writes{OrdersCreated: true, ForSaleChanged: true}, event.Cause{Type: event.CauseOrdersCreate}},
		{event.Writes{ForSaleChanged: true}, event.Cause{Type: event.CauseWarehousesUpdate}},
		{event.Writes{}, event.Cause{Type: event.CauseOrdersUpdate}},
		{event.Writes{Orders: []int64{7, 7}}, event.Cause{Type: event.CauseOrdersUpdate, OrderID: 7}},
		{event.Writes{Orders: []int64{7, 8}}, event.Cause{Type: event.CauseOrdersUpdate}},
		{event.Writes{Named: &event.Cause{Type: event.CauseReturns, OrderID: 3}, Orders: []int64{9}}, event.Cause{Type: event.CauseReturns, OrderID: 3}},
	}
	for i, c := range cases {
		if got := event.CauseOf(c.w); got != c.want {
			t.Errorf("case %d: %+v, want %+v", i, got, c.want)
		}
	}
}

func TestBothImportModesAreTheImportCause(t *testing.T) {
	for endpoint, want := range map[string]string{
		"stock/import/set": event.CauseImport, "stock/import/change": event.CauseImport,
		"stock/change": event.CauseStockChange, "orderDetails/ship": event.CauseOrderDetailsShip,
	} {
		if got := event.CauseOfEndpoint(endpoint); got != want {
			t.Errorf("%s: %q, want %q", endpoint, got, want)
		}
	}
}

// TestSnapshotSpelling: snapshots already stored were spelt with fmt's
// verbs; the spelling must stay, or every product would fire one
// stock.changed after an upgrade.
func TestSnapshotSpelling(t *testing.T) {
	spelt := func(f stock.Figures) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%d,%d,%d,%d|", f.PhysicalStock, f.PhysicalStockForSale, f.ReservedStock, f.AvailableStock)
		for _, w := range []int{1, 0} { // the warehouses in id order
			if ws := f.Warehouses[w]; ws.Stock != 0 || ws.ReservedStock != 0 {
				fmt.Fprintf(&b, "%d:%d:%d;", ws.WarehouseID, ws.Stock, ws.ReservedStock)
			}
		}
		return b.String()
	}
	for _, n := range []int{0, 1, 2, 3, 4, 5, 17, -9, 1 << 40} {
		warehouses := []stock.WarehouseStock{
			{WarehouseID: 9, StockAvailableForSale: n%2 == 0, Stock: n, ReservedStock: n / 2},
			{WarehouseID: 3, StockAvailableForSale: true, Stock: n % 4, ReservedStock: 0},
		}
		f := stock.FiguresOf(warehouses, n%3)
		if got, want := event.SnapshotOf(f, false).Figures, spelt(f); got != want {
			t.Fatalf("n=%d: got %q, want %q", n, got, want)
		}
	}
}

func TestStockChangedFiresWhenIncomingStockChangesAndOnlyThen(t *testing.T) {
	incoming := func(f stock.Figures, n int) stock.Figures { f.IncomingStock = n; return f }
	before := event.SnapshotOf(figures(5, 0), false)
	if changed, _ := event.Compare(before, event.SnapshotOf(incoming(figures(5, 0), 3), false)); !changed {
		t.Fatal("incoming stock came and stock.changed did not fire")
	}
	if changed, _ := event.Compare(event.SnapshotOf(incoming(figures(5, 0), 3), false), event.SnapshotOf(incoming(figures(5, 0), 3), false)); changed {
		t.Fatal("equal incoming stock fired stock.changed")
	}
	// A product that never had anything incoming is spelt as before
	// purchase orders existed, so that its stored snapshot still matches.
	if got := event.SnapshotOf(figures(5, 0), false).Figures; got != "5,5,0,5|1:5:0;" {
		t.Fatalf("spelt %q", got)
	}
	if changed, _ := event.Compare(event.Snapshot{}, event.SnapshotOf(incoming(stock.FiguresOf(nil, 0), 4), false)); !changed {
		t.Fatal("a new product with pieces incoming fired no stock.changed")
	}
}

func TestStockChangedFiresWhenExpiredStockChangesAndOnlyThen(t *testing.T) {
	expired := func(forSale bool, n int) stock.Figures {
		return stock.FiguresOf([]stock.WarehouseStock{{WarehouseID: 1, StockAvailableForSale: forSale, Stock: 5, Expired: n}}, 0)
	}
	// In a warehouse not for sale, a lot expiring changes no other figure:
	// expiredStock alone must fire stock.changed.
	if changed, _ := event.Compare(event.SnapshotOf(expired(false, 0), false), event.SnapshotOf(expired(false, 2), false)); !changed {
		t.Fatal("pieces expired and stock.changed did not fire")
	}
	if changed, _ := event.Compare(event.SnapshotOf(expired(true, 2), false), event.SnapshotOf(expired(true, 2), false)); changed {
		t.Fatal("equal expired stock fired stock.changed")
	}
	// A product that never held an expired piece is spelt as before lots
	// existed, so that its stored snapshot still matches.
	if got := event.SnapshotOf(expired(true, 0), false).Figures; got != "5,5,0,5|1:5:0;" {
		t.Fatalf("spelt %q", got)
	}
	if got := event.SnapshotOf(expired(true, 2), false).Figures; got != "5,3,0,3|1:5:0;|ex:2" {
		t.Fatalf("spelt %q", got)
	}
}
