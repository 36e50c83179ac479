package order_test

import (
	"testing"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

func requireRule(t *testing.T, err error, property string, code errs.Code) *errs.Error {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid {
		t.Fatalf("want an invalid error, got %v", err)
	}
	if e.Property != property || e.Code != code {
		t.Errorf("%q: property %q, code %q; want %q, %q", e.Message, e.Property, e.Code, property, code)
	}
	return e
}

func TestShippingMoreThanAPositionStillHasToShipIsAboutTheQuantity(t *testing.T) {
	o := stored(t, "Open",
		order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3, Shipped: 1},
		order.DetailRecord{ID: 12, ArticleDetailID: 9, Quantity: 2, Status: "Cancelled"})
	e := requireRule(t, o.CanShipDetail(11, 3), "quantity", order.ExceedsOutstanding)
	if e.Subject != (errs.Subject{OrderDetail: 11, ArticleDetail: 7}) {
		t.Errorf("subject %+v", e.Subject)
	}
	requireRule(t, o.CanShipDetail(11, 0), "quantity", stock.QuantityOutOfRange)
	requireRule(t, o.CanShipDetail(12, 1), "orderDetailId", order.CancelledDetail)
	requireRule(t, o.CanShipDetail(99, 1), "orderDetailId", order.UnknownDetail)
	requireRule(t, stored(t, "Cancelled", order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3}).CanShipDetail(11, 1),
		"", order.CancelledOrder)
}

func TestADetailShipmentOfNoPositionIsAboutTheOrderDetailId(t *testing.T) {
	op := order.DetailShipment{DetailID: 5, Quantity: 1, From: inWarehouse}
	ws := workingSet(t, op, nil)
	requireRule(t, ws.Apply(op, stock.Reference{}), "orderDetailId", order.UnknownDetail)
}

func TestAShipmentShortOfStockBreaksOneRuleForTheWholeOrder(t *testing.T) {
	o := stored(t, "Open", order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3})
	op := order.Shipment{Order: o, From: inWarehouse}
	ws := workingSet(t, op, map[int64]int{7: 1})
	e := requireRule(t, ws.Apply(op, stock.Reference{}), "", order.NotShippable)
	if len(e.Fields) != 1 || e.Fields[0].Property != "details[0]" {
		t.Errorf("fields %+v", e.Fields)
	}
}

func TestReturningMoreThanWasShippedAndNotReturnedIsAboutThatQuantity(t *testing.T) {
	o := stored(t, "Partially delivered",
		order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 3, Shipped: 3, Returned: 1, Status: "Completed"})
	if got := detail(t, o, 1).Returnable(); got != 2 {
		t.Errorf("returnable %d, want 3 shipped − 1 returned", got)
	}
	requireRule(t, o.CheckReturn([]order.ReturnLine{{OrderDetailID: 1, Quantity: 3}}), "details[0].quantity", order.ExceedsReturnable)
	// Two rules broken at once: the fields name each, the error no rule.
	requireRule(t, o.CheckReturn([]order.ReturnLine{{OrderDetailID: 1, Quantity: 0}, {OrderDetailID: 1, Quantity: 9}}), "", "")
}

func TestRestockedPiecesGoWhereTheReturnSaysElseToTheDefaultReturnWarehouse(t *testing.T) {
	bin := stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: 11}}
	t.Run("a location given is where they go", func(t *testing.T) {
		var r order.ReturnShipment
		if err := r.RestockTo(true, &bin, 2); err != nil || r.To != &bin {
			t.Errorf("to %v, err %v", r.To, err)
		}
	})
	t.Run("no location: the default return-shipment warehouse", func(t *testing.T) {
		var r order.ReturnShipment
		if err := r.RestockTo(true, nil, 2); err != nil || r.To == nil || r.To.Warehouse == nil || r.To.Warehouse.ID != 2 {
			t.Errorf("to %+v, err %v", r.To, err)
		}
	})
	t.Run("no location and no default return-shipment warehouse: nowhere to go", func(t *testing.T) {
		var r order.ReturnShipment
		requireRule(t, r.RestockTo(true, nil, 0), "restock", order.NoReturnWarehouse)
	})
	t.Run("not restocked: they go nowhere", func(t *testing.T) {
		r := order.ReturnShipment{To: &bin}
		if err := r.RestockTo(false, nil, 2); err != nil || r.To != nil {
			t.Errorf("to %v, err %v", r.To, err)
		}
	})
	t.Run("not restocked, yet a location is named: refused", func(t *testing.T) {
		var r order.ReturnShipment
		requireRule(t, r.RestockTo(false, &bin, 2), "restock", order.RestockElsewhere)
	})
	t.Run("a location given must name something", func(t *testing.T) {
		var r order.ReturnShipment
		requireRule(t, r.RestockTo(true, &stock.LocationSpec{}, 2), "binLocation", stock.LocationMissing)
	})
}

func TestAShipmentTakesStockFromTheWarehouseGivenElseTheDefault(t *testing.T) {
	given := &stock.WarehouseSpec{Code: "WH2"}
	if spec, err := order.ShipFrom(given, 1); err != nil || spec.Warehouse != given {
		t.Errorf("spec %+v, err %v", spec, err)
	}
	if spec, err := order.ShipFrom(nil, 1); err != nil || spec.Warehouse == nil || spec.Warehouse.ID != 1 {
		t.Errorf("spec %+v, err %v", spec, err)
	}
	requireRule(t, func() error { _, err := order.ShipFrom(nil, 0); return err }(), "warehouse", order.NoDefaultWarehouse)
	requireRule(t, func() error { _, err := order.ShipFrom(&stock.WarehouseSpec{}, 1); return err }(), "warehouse", stock.LocationMissing)
}

func TestTheStatusMailGoesToEveryCustomerWithAnAddressUnlessSuppressed(t *testing.T) {
	withAddress := stored(t, "Open", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 1})
	without, err := order.UnmarshalOrderFromDatabase(2, "10002", "", "Open", []order.DetailRecord{{ID: 2, ArticleDetailID: 7, Quantity: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o          *order.Order
		suppressed bool
		want       bool
	}{
		{withAddress, false, true},
		{withAddress, true, false},
		{without, false, false},
		{without, true, false},
	} {
		if got := c.o.SendsStatusMail(c.suppressed); got != c.want {
			t.Errorf("address %q, suppressed %v: sends %v, want %v", c.o.CustomerEmail(), c.suppressed, got, c.want)
		}
	}
}
