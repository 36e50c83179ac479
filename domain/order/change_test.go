package order_test

import (
	"reflect"
	"testing"

	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

func ptr(s string) *string { return &s }

func TestCancellingReleasesReservationsAndStopsCounting(t *testing.T) {
	t.Run("the order", func(t *testing.T) {
		o, before := reservedOrder(t)
		op := order.Change{Order: o, Changes: order.Changes{Status: ptr("Cancelled")}}
		ws := pickingSet(t, before, op)
		if err := ws.Apply(op, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
		for _, s := range shelves(ws) {
			if s.reserved != 0 {
				t.Errorf("still reserved: %+v", s)
			}
		}
		d := detail(t, o, 1)
		if o.Status() != order.StatusCancelled || d.Reserved() != 0 || o.Outstanding(d) != 0 {
			t.Errorf("status %s, reserved %d, outstanding %d", o.Status(), d.Reserved(), o.Outstanding(d))
		}
	})
	t.Run("a position", func(t *testing.T) {
		o, before := reservedOrder(t)
		op := order.Change{Order: o, Changes: order.Changes{Details: []order.DetailChange{{ID: 1, Status: "Cancelled"}}}}
		ws := pickingSet(t, before, op)
		if err := ws.Apply(op, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
		d := detail(t, o, 1)
		if d.Status() != order.DetailCancelled || d.Reserved() != 0 || o.Outstanding(d) != 0 || ws.Mappings()[0].ReservedStock() != 0 {
			t.Errorf("status %s, reserved %d", d.Status(), d.Reserved())
		}
	})
}

func TestImpossibleStatusChangesSayWhyAndChangeNothing(t *testing.T) {
	details := []order.DetailRecord{
		{ID: 1, ArticleDetailID: 7, Quantity: 3, Shipped: 3, Status: "Completed"},
		{ID: 2, ArticleDetailID: 9, Quantity: 2, Shipped: 1},
	}
	cases := []struct {
		name    string
		status  string
		changes order.Changes
		want    string
	}{
		{"completely delivered while pieces are unshipped", "Partially delivered", order.Changes{Status: ptr("Completely delivered")},
			`status: the order cannot be "Completely delivered" while pieces are unshipped: order detail 2 has 1 of 2 shipped`},
		{"a fully shipped position cannot be cancelled", "Partially delivered", order.Changes{Details: []order.DetailChange{{ID: 1, Status: "Cancelled"}}},
			"details[0].status: order detail 1: the position is completed, and a completed position cannot be cancelled"},
		{"a cancelled order stays cancelled", "Cancelled", order.Changes{Status: ptr("Open")},
			`the order is cancelled, and a cancelled order cannot become "Open"`},
		{"a fully shipped order cannot be cancelled", "Completely delivered", order.Changes{Status: ptr("Cancelled")},
			"the order is completely delivered, and a fully shipped order cannot be cancelled"},
		{"the table says where an order can go", "Partially delivered", order.Changes{Status: ptr("Open")},
			`an order cannot go from "Partially delivered" to "Open"; from "Partially delivered" it can become "In process"`},
		{"unknown status", "Open", order.Changes{Status: ptr("Shipped")}, `unknown order status "Shipped"`},
		{"unknown position", "Open", order.Changes{Details: []order.DetailChange{{ID: 99, Status: "Cancelled"}}},
			"details[0].id: order 10001 has no order detail 99"},
		{"completing a position by hand", "Open", order.Changes{Details: []order.DetailChange{{ID: 2, Status: "Completed"}}},
			"1 of 2 pieces are shipped; a position is completed by shipping it"},
		{"a bad address", "Open", order.Changes{CustomerEmail: ptr("not an address")}, "customerEmail"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := stored(t, c.status, details...)
			before := snap(o)
			requireInvalid(t, o.Change(c.changes), c.want)
			if !reflect.DeepEqual(snap(o), before) {
				t.Errorf("changed: %+v", snap(o))
			}
		})
	}
}

func TestPossibleStatusChanges(t *testing.T) {
	details := []order.DetailRecord{
		{ID: 1, ArticleDetailID: 7, Quantity: 3, Shipped: 3, Status: "Completed"},
		{ID: 2, ArticleDetailID: 9, Quantity: 2, Shipped: 1},
	}
	t.Run("cancel the rest and complete the order in one request", func(t *testing.T) {
		o := stored(t, "Partially delivered", details...)
		err := o.Change(order.Changes{Status: ptr("Completely delivered"), Details: []order.DetailChange{{ID: 2, Status: "Cancelled"}}})
		if err != nil {
			t.Fatal(err)
		}
		if o.Status() != order.StatusCompletelyDelivered {
			t.Errorf("status %s", o.Status())
		}
	})
	t.Run("cancel a partly delivered order", func(t *testing.T) {
		o := stored(t, "Partially delivered", details...)
		if err := o.Change(order.Changes{Status: ptr("Cancelled"), CustomerEmail: ptr("new@example.com")}); err != nil {
			t.Fatal(err)
		}
		if o.CustomerEmail() != "new@example.com" || o.Outstanding(detail(t, o, 2)) != 0 {
			t.Errorf("email %s", o.CustomerEmail())
		}
	})
	t.Run("clarification and back", func(t *testing.T) {
		o := stored(t, "Open", details[1])
		for _, s := range []string{"Clarification required", "In process", "Ready for delivery", "Open"} {
			if err := o.Change(order.Changes{Status: ptr(s)}); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	})
}

func TestReturnsAreLimitedToWhatWasShippedAndNotReturned(t *testing.T) {
	o := stored(t, "Partially delivered",
		order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 3, Shipped: 3, Returned: 1, Status: "Completed"},
		order.DetailRecord{ID: 2, ArticleDetailID: 9, Quantity: 2},
	)
	requireInvalid(t, o.CheckReturn([]order.ReturnLine{{OrderDetailID: 1, Quantity: 3}}),
		"details[0].quantity: order detail 1 has 3 shipped and 1 returned: at most 2 more can come back, not 3")
	requireInvalid(t, o.CheckReturn([]order.ReturnLine{{OrderDetailID: 1, Quantity: 2}, {OrderDetailID: 1, Quantity: 1}}),
		"details[1].quantity: order detail 1 has 3 shipped and 3 returned: at most 0 more can come back, not 1")
	requireInvalid(t, o.CheckReturn([]order.ReturnLine{{OrderDetailID: 2, Quantity: 1}}), "at most 0 more")
	requireInvalid(t, o.CheckReturn([]order.ReturnLine{{OrderDetailID: 1, Quantity: 0}}), "details[0].quantity: must be at least 1")
	requireInvalid(t, o.CheckReturn(nil), "details: must contain at least one")
	requireInvalid(t, o.CheckReturn([]order.ReturnLine{{OrderDetailID: 5, Quantity: 1}}), "order 10001 has no order detail 5")

	t.Run("restocked into the default bin of the return warehouse, with a return entry", func(t *testing.T) {
		o := stored(t, "Completely delivered", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 3, Shipped: 3, Status: "Completed"})
		op := &order.ReturnShipment{Order: o, Lines: []order.ReturnLine{{OrderDetailID: 1, Quantity: 2}}, To: &wh2, User: "api"}
		ws := pickingSet(t, nil, op)
		if err := ws.Apply(op, stock.Reference{User: "api"}); err != nil {
			t.Fatal(err)
		}
		if want := []shelf{{7, null2, 2, 0}}; !reflect.DeepEqual(shelves(ws), want) {
			t.Errorf("mappings %+v", shelves(ws))
		}
		_, _, entries := ws.Changes()
		if len(entries) != 1 || entries[0].Type != stock.EntryReturn || entries[0].Ref.OrderID != 1 || entries[0].Ref.OrderDetailID != 1 {
			t.Errorf("entries %+v", entries)
		}
		if detail(t, o, 1).Returned() != 2 || op.Result.Lines[0].BinLocationID != null2 || op.Result.Lines[0].WarehouseID != 2 {
			t.Errorf("returned %d, result %+v", detail(t, o, 1).Returned(), op.Result)
		}
	})
	t.Run("not restocked: no stock moves", func(t *testing.T) {
		o := stored(t, "Completely delivered", order.DetailRecord{ID: 1, ArticleDetailID: 7, Quantity: 3, Shipped: 3, Status: "Completed"})
		op := &order.ReturnShipment{Order: o, Lines: []order.ReturnLine{{OrderDetailID: 1, Quantity: 3}}}
		ws := pickingSet(t, nil, op)
		if err := ws.Apply(op, stock.Reference{}); err != nil {
			t.Fatal(err)
		}
		if _, _, entries := ws.Changes(); len(entries) != 0 || len(ws.Mappings()) != 0 {
			t.Errorf("stock moved: %+v", entries)
		}
		if detail(t, o, 1).Returned() != 3 || op.Result.Restock || op.Result.Lines[0].BinLocationID != 0 {
			t.Errorf("result %+v", op.Result)
		}
	})
}
