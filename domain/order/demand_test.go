package order_test

import (
	"reflect"
	"testing"

	"github.com/shopstock/inventory/domain/order"
)

func TestDemandIsWhatThePositionsStillHaveToShipPerProduct(t *testing.T) {
	details := []order.DetailRecord{
		{ID: 11, ArticleDetailID: 7, Quantity: 3, Shipped: 1},
		{ID: 12, ArticleDetailID: 7, Quantity: 4},
		{ID: 13, ArticleDetailID: 9, Quantity: 2, Shipped: 2, Status: "Completed"},
		{ID: 14, ArticleDetailID: 5, Quantity: 6, Status: "Cancelled"},
	}
	o := stored(t, "Partially delivered", details...)
	if got, want := o.Demand(), map[int64]int{7: 6}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Demand = %v, want %v", got, want)
	}
	if got := stored(t, "Cancelled", details...).Demand(); len(got) != 0 {
		t.Fatalf("a cancelled order demands %v", got)
	}
}

func TestASavedOrderHandsOutWhatChangedSinceItWasLoaded(t *testing.T) {
	o := stored(t, "Open",
		order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3},
		order.DetailRecord{ID: 12, ArticleDetailID: 8, Quantity: 2})
	if demand, status := o.Changes(); len(demand) != 0 || status != nil {
		t.Fatalf("an order as loaded changed: demand %v, status %+v", demand, status)
	}
	o.ShipFully()
	demand, status := o.Changes()
	if want := map[int64]int{7: -3, 8: -2}; !reflect.DeepEqual(demand, want) {
		t.Fatalf("a shipped order's demand changed by %v, want %v", demand, want)
	}
	if status == nil || status.Previous != "Open" || status.Status != o.Status() || status.OrderID != o.ID() {
		t.Fatalf("a shipped order's status event: %+v", status)
	}
	if o.IsNew() {
		t.Fatal("a loaded order is new")
	}
}

func TestANewOrderChangesDemandByAllItHasToShipAndHasNoStatusEvent(t *testing.T) {
	o, err := order.New(order.NewOrder{Number: "10001", Details: []order.NewDetail{
		{ArticleDetailID: 7, Quantity: 3}, {ArticleDetailID: 8, Quantity: 2}, {ArticleDetailID: 7, Quantity: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	demand, status := o.Changes()
	if want := map[int64]int{7: 4, 8: 2}; !reflect.DeepEqual(demand, want) || status != nil || !o.IsNew() {
		t.Fatalf("a new order: demand %v (want %v), status %+v, new %v", demand, want, status, o.IsNew())
	}
}
