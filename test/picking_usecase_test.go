package test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// Picking lists, order changes and returns through the use cases, on SQLite
// and PostgreSQL.

func (f *ordFixture) figures(article int64) stock.Figures {
	f.t.Helper()
	v, err := f.app.ArticleDetail(f.ctx, article)
	if err != nil {
		f.t.Fatalf("article %d: %v", article, err)
	}
	return v.Figures
}

func (f *ordFixture) reservedOnBin(article, bin int64) int {
	f.t.Helper()
	v, err := f.app.BinLocation(f.ctx, bin)
	if err != nil {
		f.t.Fatalf("bin location %d: %v", bin, err)
	}
	for _, m := range v.Mappings {
		if m.ArticleDetailID == article {
			return m.ReservedStock
		}
	}
	return 0
}

func pickSummary(p application.PickingList) string {
	s := ""
	for _, pk := range p.Picks {
		s += fmt.Sprintf("[%s %d×%d]", pk.BinLocationCode, pk.OrderDetailID, pk.Quantity)
	}
	return s
}

func TestPickingAndReturnsUseCases(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		binB, err := f.app.CreateBinLocation(f.ctx, f.main, "B-01")
		if err != nil {
			t.Fatal(err)
		}
		// art1: 2 on A-01, 4 on B-01 (the default bin), 3 in SECOND.
		if err := f.app.SetDefaultBinLocation(f.ctx, binB, f.art1, true); err != nil {
			t.Fatal(err)
		}
		f.put(f.art1, ordOnBin(f.binA), 2)
		f.put(f.art1, ordOnBin(binB), 4)
		f.put(f.art1, ordInWarehouse(f.second), 3)
		o := f.createOrder(order.NewOrder{ID: 800, Number: "U-1", Details: []order.NewDetail{
			{ID: 801, ArticleDetailID: f.art1, Quantity: 5},
			{ID: 802, ArticleDetailID: f.art1, Quantity: 1},
		}})
		ref := application.OrderRef{ID: o.ID()}

		// The default bin gives first, then the others: 801 takes B-01's 4
		// and 1 of A-01, 802 the other piece of A-01.
		p, err := f.app.ReservePickingList(f.ctx, application.OrderRef{Number: "U-1"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := pickSummary(p); got != "[A-01 801×1][A-01 802×1][B-01 801×4]" {
			t.Errorf("picks %s", got)
		}
		if fig := f.figures(f.art1); fig.ReservedStock != 6 || fig.AvailableStock != 3 || fig.PhysicalStock != 9 {
			t.Errorf("figures %+v", fig)
		}
		if got := f.order(o.ID()).Status(); got != order.StatusInProcess {
			t.Errorf("status %s", got)
		}

		// Shipping 801 from SECOND (no reservation there): 3 unreserved
		// pieces go, and its reservations shrink to the 2 it still needs.
		out, err := f.app.ShipOrderDetails(f.ctx, f.meta("orderDetails/ship"), []application.DetailShipment{
			{OrderDetailID: 801, Quantity: 3, From: ordInWarehouse(f.second)}}, ordRender)
		if err != nil || !ordResult(t, out).Success {
			t.Fatalf("ship: %v %s", err, out.Body)
		}
		d, _ := f.order(o.ID()).Detail(801)
		if d.Reserved() != 2 || d.Shipped() != 3 {
			t.Errorf("801: reserved %d shipped %d", d.Reserved(), d.Shipped())
		}
		if f.reservedOnBin(f.art1, binB)+f.reservedOnBin(f.art1, f.binA) != 3 || f.stockIn(f.art1, f.second) != 0 {
			t.Errorf("reserved B-01 %d, A-01 %d; SECOND %d", f.reservedOnBin(f.art1, binB), f.reservedOnBin(f.art1, f.binA), f.stockIn(f.art1, f.second))
		}

		// The whole order from MAIN: exactly the reserved pieces.
		if err := f.app.ShipOrder(f.ctx, ref, nil, true, "tester"); err != nil {
			t.Fatal(err)
		}
		if fig := f.figures(f.art1); fig.ReservedStock != 0 || fig.PhysicalStock != 3 {
			t.Errorf("after shipping: %+v", fig)
		}
		if p, _ := f.app.PickingListOf(f.ctx, ref); len(p.Picks) != 0 {
			t.Errorf("picks left %s", pickSummary(p))
		}

		// Returns: one into SECOND by code, one damaged.
		render := func(id int64) ([]byte, error) { return json.Marshal(id) }
		to := stock.LocationSpec{Warehouse: &stock.WarehouseSpec{Code: "SECOND"}}
		out, err = f.app.ReturnOrder(f.ctx, application.BatchMeta{User: "tester"}, ref, application.ReturnRequest{
			Restock: true, To: &to, Lines: []order.ReturnLine{{OrderDetailID: 801, Quantity: 2}}}, render)
		if err != nil {
			t.Fatal(err)
		}
		var retID int64
		_ = json.Unmarshal(out.Body, &retID)
		if f.stockIn(f.art1, f.second) != 2 {
			t.Errorf("SECOND after the return: %d", f.stockIn(f.art1, f.second))
		}
		ret, err := f.app.Return(f.ctx, retID)
		if err != nil || !ret.Restock || ret.User != "tester" || ret.Lines[0].WarehouseID != f.second || ret.Lines[0].Quantity != 2 {
			t.Errorf("return %+v, %v", ret, err)
		}
		_, err = f.app.ReturnOrder(f.ctx, application.BatchMeta{User: "tester"}, ref, application.ReturnRequest{
			Lines: []order.ReturnLine{{OrderDetailID: 801, Quantity: 3}, {OrderDetailID: 802, Quantity: 1}}}, render)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.app.ReturnOrder(f.ctx, application.BatchMeta{User: "tester"}, ref, application.ReturnRequest{
			Lines: []order.ReturnLine{{OrderDetailID: 801, Quantity: 1}}}, render)
		ordRequireKind(t, err, errs.Invalid, "at most 0 more")
		page, err := f.app.Returns(f.ctx, ports.ListQuery{Limit: 10, Filters: []ports.Filter{{Property: "return.orderId", Expression: "=", Values: []any{o.ID()}}}})
		if err != nil || page.Total != 2 || page.Items[1].Restock || page.Items[1].Lines[1].BinLocationID != 0 {
			t.Errorf("returns %+v %v", page, err)
		}
		entries, err := f.app.StockLedgerEntries(f.ctx, ports.ListQuery{Limit: 10, Filters: []ports.Filter{
			{Property: "stockLedgerEntry.type", Expression: "=", Values: []any{"return"}}}})
		if err != nil || entries.Total != 1 || entries.Items[0].Quantity != 2 {
			t.Errorf("return ledger entries %+v %v", entries, err)
		}
		if d, _ := f.order(o.ID()).Detail(801); d.Returned() != 5 {
			t.Errorf("returned %d", d.Returned())
		}

		// All or nothing: a shortfall reserves nothing at all.
		f.put(f.art2, ordInWarehouse(f.main), 1)
		o2 := f.createOrder(order.NewOrder{Number: "U-2", Details: []order.NewDetail{
			{ArticleDetailID: f.art2, Quantity: 1}, {ArticleDetailID: f.art1, Quantity: 9}}})
		_, err = f.app.ReservePickingList(f.ctx, application.OrderRef{ID: o2.ID()}, nil)
		ordRequireKind(t, err, errs.Invalid, "nothing was reserved", "requested 9")
		if fig := f.figures(f.art2); fig.ReservedStock != 0 {
			t.Errorf("reserved after a refused picking list: %d", fig.ReservedStock)
		}
		// Cancelling gives the reservations back.
		if _, err := f.app.ReservePickingList(f.ctx, application.OrderRef{ID: o2.ID()}, &stock.WarehouseSpec{ID: f.second}); err == nil {
			t.Error("reserved in a warehouse without article 2")
		}
		cancelled := "Cancelled"
		d2 := o2.Details()[1].ID()
		if _, err := f.app.ChangeOrder(f.ctx, application.OrderRef{ID: o2.ID()}, order.Changes{Details: []order.DetailChange{{ID: d2, Status: "Cancelled"}}}, "tester"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.ReservePickingList(f.ctx, application.OrderRef{ID: o2.ID()}, nil); err != nil {
			t.Fatal(err)
		}
		if fig := f.figures(f.art2); fig.ReservedStock != 1 || fig.AvailableStock != 0 {
			t.Errorf("figures %+v", fig)
		}
		if _, err := f.app.ChangeOrder(f.ctx, application.OrderRef{ID: o2.ID()}, order.Changes{Status: &cancelled}, "tester"); err != nil {
			t.Fatal(err)
		}
		if fig := f.figures(f.art2); fig.ReservedStock != 0 || fig.AvailableStock != 1 {
			t.Errorf("after cancelling: %+v", fig)
		}
	})
}
