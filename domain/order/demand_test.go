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

func TestDemandChangeIsTheDifferenceSinceBefore(t *testing.T) {
	o := stored(t, "Open",
		order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3},
		order.DetailRecord{ID: 12, ArticleDetailID: 8, Quantity: 2})
	if got, want := o.DemandChange(nil), map[int64]int{7: 3, 8: 2}; !reflect.DeepEqual(got, want) {
		t.Fatalf("a new order: %v, want %v", got, want)
	}
	before := o.Demand()
	if got := o.DemandChange(before); len(got) != 0 {
		t.Fatalf("an unchanged order: %v", got)
	}
	o.ShipFully()
	if got, want := o.DemandChange(before), map[int64]int{7: -3, 8: -2}; !reflect.DeepEqual(got, want) {
		t.Fatalf("a shipped order: %v, want %v", got, want)
	}
}
