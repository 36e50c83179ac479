package test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance scenarios of orders and shipping (order and position
// statuses, whole-order and per-position shipping, the status mail),
// driven through the use cases, on SQLite and PostgreSQL.

// ordFixture is a service with two warehouses (MAIN is the default), a bin
// location A-01 in MAIN and two products.
type ordFixture struct {
	t        *testing.T
	ctx      context.Context
	env      *apitest.Env
	app      *application.App
	main     int64
	second   int64
	binA     int64
	art1     int64
	art2     int64
	batchSeq atomic.Int64
}

func ordSetup(t *testing.T, databaseURL string) *ordFixture {
	t.Helper()
	env := apitest.New(t, databaseURL)
	f := &ordFixture{t: t, ctx: apitest.Admin(), env: env, app: env.App}
	var err error
	if f.main, err = f.app.CreateWarehouse(f.ctx, warehouse.Details{Code: "MAIN", Name: "Main", StockAvailableForSale: true}); err != nil {
		t.Fatalf("create warehouse MAIN: %v", err)
	}
	if f.second, err = f.app.CreateWarehouse(f.ctx, warehouse.Details{Code: "SECOND", Name: "Second", StockAvailableForSale: true}); err != nil {
		t.Fatalf("create warehouse SECOND: %v", err)
	}
	if f.binA, err = f.app.CreateBinLocation(f.ctx, f.main, "A-01"); err != nil {
		t.Fatalf("create bin location: %v", err)
	}
	if f.art1, err = f.app.CreateArticleDetail(f.ctx, 0, "SKU-1", "First", 0); err != nil {
		t.Fatalf("create article: %v", err)
	}
	if f.art2, err = f.app.CreateArticleDetail(f.ctx, 0, "SKU-2", "Second", 0); err != nil {
		t.Fatalf("create article: %v", err)
	}
	return f
}

func ordRender(r application.BatchResult) ([]byte, error) { return json.Marshal(r) }

func ordResult(t testing.TB, out application.BatchOutcome) application.BatchResult {
	t.Helper()
	var r application.BatchResult
	if err := json.Unmarshal(out.Body, &r); err != nil {
		t.Fatalf("batch result: %v", err)
	}
	return r
}

func (f *ordFixture) meta(endpoint string) application.BatchMeta {
	n := f.batchSeq.Add(1)
	return application.BatchMeta{Key: fmt.Sprintf("%s-%d", endpoint, n), Endpoint: endpoint, Fingerprint: fmt.Sprint(n), User: "tester"}
}

// put adds stock with a change batch.
func (f *ordFixture) put(article int64, at stock.LocationSpec, quantity int) {
	f.t.Helper()
	out, err := f.app.StockBatch(f.ctx, f.meta("stock/change"), []application.BatchOperation{{Op: stock.Change{ArticleDetailID: article, Quantity: quantity, At: at}}}, ordRender)
	if err != nil {
		f.t.Fatalf("change stock: %v", err)
	}
	if r := ordResult(f.t, out); !r.Success {
		f.t.Fatalf("change stock failed: %+v", r)
	}
}

func ordInWarehouse(id int64) stock.LocationSpec {
	return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: id}}
}

func ordOnBin(id int64) stock.LocationSpec {
	return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
}

// stockIn is a product's stock in a warehouse.
func (f *ordFixture) stockIn(article, warehouseID int64) int {
	f.t.Helper()
	v, err := f.app.ArticleDetail(f.ctx, article)
	if err != nil {
		f.t.Fatalf("article %d: %v", article, err)
	}
	for _, w := range v.Warehouses {
		if w.WarehouseID == warehouseID {
			return w.Stock
		}
	}
	return 0
}

func (f *ordFixture) stockOnBin(article, bin int64) int {
	f.t.Helper()
	v, err := f.app.BinLocation(f.ctx, bin)
	if err != nil {
		f.t.Fatalf("bin location %d: %v", bin, err)
	}
	for _, m := range v.Mappings {
		if m.ArticleDetailID == article {
			return m.Stock
		}
	}
	return 0
}

func (f *ordFixture) createOrder(p order.NewOrder) *order.Order {
	f.t.Helper()
	id, err := f.app.CreateOrder(f.ctx, p)
	if err != nil {
		f.t.Fatalf("create order %q: %v", p.Number, err)
	}
	return f.order(id)
}

func (f *ordFixture) order(id int64) *order.Order {
	f.t.Helper()
	o, err := f.app.Order(f.ctx, application.OrderRef{ID: id})
	if err != nil {
		f.t.Fatalf("order %d: %v", id, err)
	}
	return o
}

// ordState is what an order looks like, for comparisons.
func ordState(o *order.Order) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", o.Status())
	for _, d := range o.Details() {
		fmt.Fprintf(&b, " [%d %d/%d %s]", d.ID(), d.Shipped(), d.Quantity(), d.Status())
	}
	return b.String()
}

func (f *ordFixture) outbox() []ports.Mail {
	f.t.Helper()
	var rows []struct {
		Recipient string `bun:"recipient"`
		Subject   string `bun:"subject"`
		Body      string `bun:"body"`
	}
	if err := f.env.DB.Bun().NewSelect().Table("mail_outbox").Column("recipient", "subject", "body").OrderExpr("id").Scan(f.ctx, &rows); err != nil {
		f.t.Fatalf("read outbox: %v", err)
	}
	out := make([]ports.Mail, len(rows))
	for i, r := range rows {
		out[i] = ports.Mail{To: r.Recipient, Subject: r.Subject, Body: r.Body}
	}
	return out
}

func (f *ordFixture) shipments() []ports.LedgerRecord {
	f.t.Helper()
	p, err := f.app.StockLedgerEntries(f.ctx, ports.ListQuery{Limit: 1000, Filters: []ports.Filter{
		{Property: "stockLedgerEntry.type", Expression: "=", Values: []any{"shipment"}},
	}})
	if err != nil {
		f.t.Fatalf("ledger: %v", err)
	}
	return p.Items
}

func ordRequireKind(t testing.TB, err error, kind errs.Kind, mentions ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want a %v error, got none", kind)
	}
	if errs.KindOf(err) != kind {
		t.Fatalf("want a %v error, got %v: %v", kind, errs.KindOf(err), err)
	}
	for _, m := range mentions {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("error %q does not mention %q", err.Error(), m)
		}
	}
}

func TestCreateAndReadOrders(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)

		o := f.createOrder(order.NewOrder{ID: 500, Number: "10001", CustomerEmail: "jane@example.com", Details: []order.NewDetail{
			{ID: 900, ArticleDetailID: f.art1, Quantity: 3},
			{ArticleDetailID: f.art2, Quantity: 2, Shipped: 1, Status: "In progress"},
		}})
		ds := o.Details()
		if o.ID() != 500 || ds[0].ID() != 900 || ds[1].ID() <= 0 || ds[1].ID() == 900 {
			t.Fatalf("ids: order %d, details %d %d", o.ID(), ds[0].ID(), ds[1].ID())
		}
		if got, want := ordState(o), fmt.Sprintf("Open: [900 0/3 Open] [%d 1/2 In progress]", ds[1].ID()); got != want {
			t.Errorf("order = %s, want %s", got, want)
		}
		if ds[0].ArticleDetailID() != f.art1 || o.CustomerEmail() != "jane@example.com" {
			t.Errorf("order fields wrong: %d %q", ds[0].ArticleDetailID(), o.CustomerEmail())
		}

		auto := f.createOrder(order.NewOrder{Number: "10002", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 1}}})
		if auto.ID() != 501 {
			t.Errorf("assigned order id = %d, want 501 (max + 1)", auto.ID())
		}

		byNumber, err := f.app.Order(f.ctx, application.OrderRef{Number: "10002"})
		if err != nil || byNumber.ID() != auto.ID() {
			t.Fatalf("order by number: %v %v", byNumber, err)
		}
		_, err = f.app.Order(f.ctx, application.OrderRef{ID: 999})
		ordRequireKind(t, err, errs.NotFound)
		_, err = f.app.Order(f.ctx, application.OrderRef{Number: "nope"})
		ordRequireKind(t, err, errs.NotFound)

		p, err := f.app.Orders(f.ctx, ports.ListQuery{Limit: 10, Filters: []ports.Filter{{Property: "order.number", Values: []any{"10002"}}}})
		if err != nil || p.Total != 1 || len(p.Items) != 1 || p.Items[0].ID() != auto.ID() || len(p.Items[0].Details()) != 1 {
			t.Fatalf("list by number: %+v %v", p, err)
		}
		p, err = f.app.Orders(f.ctx, ports.ListQuery{Limit: 10, Sorts: []ports.Sort{{Property: "order.id", Descending: true}}})
		if err != nil || p.Total != 2 || p.Items[0].ID() != 501 || len(p.Items[1].Details()) != 2 {
			t.Fatalf("list: %+v %v", p, err)
		}

		refused := []struct {
			name      string
			p         order.NewOrder
			mentioned []string
		}{
			{"an unknown article detail, named", order.NewOrder{Number: "X1", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 1}, {ArticleDetailID: 777, Quantity: 1}}},
				[]string{"details[1].articleDetailId", "article detail 777 does not exist"}},
			{"a used order id", order.NewOrder{ID: 500, Number: "X2", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 1}}}, []string{"id", "500"}},
			{"a used number", order.NewOrder{Number: "10001", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 1}}}, []string{"number", "10001"}},
			{"a used detail id", order.NewOrder{Number: "X3", Details: []order.NewDetail{{ID: 900, ArticleDetailID: f.art1, Quantity: 1}}}, []string{"details[0].id", "900"}},
			{"a negative id", order.NewOrder{ID: -1, Number: "X4", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 1}}}, []string{"id"}},
		}
		for _, tt := range refused {
			t.Run("refuses "+tt.name, func(t *testing.T) {
				_, err := f.app.CreateOrder(f.ctx, tt.p)
				ordRequireKind(t, err, errs.Invalid)
				e, _ := errs.As(err)
				all := e.Message
				for _, fe := range e.Fields {
					all += " | " + fe.Property + ": " + fe.Message
				}
				for _, m := range tt.mentioned {
					if !strings.Contains(all, m) {
						t.Errorf("error %q does not mention %q", all, m)
					}
				}
			})
		}
		p, _ = f.app.Orders(f.ctx, ports.ListQuery{Limit: 10})
		if p.Total != 2 {
			t.Errorf("refused orders were stored: %d orders", p.Total)
		}
	})
}

func TestShipOrder(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)

		t.Run("a whole order ships from the named warehouse, with ledger entries and a queued mail", func(t *testing.T) {
			f.put(f.art1, ordInWarehouse(f.second), 10)
			f.put(f.art2, ordInWarehouse(f.second), 5)
			o := f.createOrder(order.NewOrder{Number: "S1", CustomerEmail: "jane@example.com", Details: []order.NewDetail{
				{ArticleDetailID: f.art1, Quantity: 3},
				{ArticleDetailID: f.art2, Quantity: 2, Shipped: 1},
				{ArticleDetailID: f.art2, Quantity: 4, Status: "Cancelled"},
			}})
			err := f.app.ShipOrder(f.ctx, application.OrderRef{ID: o.ID()}, &stock.WarehouseSpec{Code: "SECOND"}, false, "tester")
			if err != nil {
				t.Fatalf("ship: %v", err)
			}
			if a, b := f.stockIn(f.art1, f.second), f.stockIn(f.art2, f.second); a != 7 || b != 4 {
				t.Errorf("stock after = %d, %d; want 7, 4", a, b)
			}
			ds := o.Details()
			want := fmt.Sprintf("Completely delivered: [%d 3/3 Completed] [%d 2/2 Completed] [%d 0/4 Cancelled]", ds[0].ID(), ds[1].ID(), ds[2].ID())
			if got := ordState(f.order(o.ID())); got != want {
				t.Errorf("order = %s, want %s", got, want)
			}
			entries := f.shipments()
			if len(entries) != 2 {
				t.Fatalf("shipment entries = %d, want 2", len(entries))
			}
			for i, e := range entries {
				if e.Ref.User != "tester" || e.WarehouseID != f.second || e.Quantity >= 0 {
					t.Errorf("entry %d = %+v", i, e)
				}
			}
			mails := f.outbox()
			if len(mails) != 1 || mails[0].To != "jane@example.com" || !strings.Contains(mails[0].Subject, "Completely delivered") || !strings.Contains(mails[0].Body, "S1") {
				t.Fatalf("outbox = %+v", mails)
			}

			t.Run("shipping it again changes nothing and sends no mail", func(t *testing.T) {
				if err := f.app.ShipOrder(f.ctx, application.OrderRef{ID: o.ID()}, &stock.WarehouseSpec{Code: "SECOND"}, false, "tester"); err != nil {
					t.Fatalf("ship again: %v", err)
				}
				if f.stockIn(f.art1, f.second) != 7 || len(f.outbox()) != 1 || len(f.shipments()) != 2 {
					t.Errorf("a second shipment had an effect")
				}
			})
		})

		t.Run("by number from the default warehouse; suppressStatusMail queues nothing", func(t *testing.T) {
			f.put(f.art1, ordInWarehouse(f.main), 4)
			before := len(f.outbox())
			o := f.createOrder(order.NewOrder{Number: "S2", CustomerEmail: "joe@example.com", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 4}}})
			if err := f.app.ShipOrder(f.ctx, application.OrderRef{Number: "S2"}, nil, true, "tester"); err != nil {
				t.Fatalf("ship: %v", err)
			}
			if got := f.stockIn(f.art1, f.main); got != 0 {
				t.Errorf("MAIN stock = %d, want 0", got)
			}
			if f.order(o.ID()).Status() != order.StatusCompletelyDelivered {
				t.Errorf("status = %s", f.order(o.ID()).Status())
			}
			if len(f.outbox()) != before {
				t.Errorf("a suppressed mail was queued")
			}
		})

		t.Run("an order without customer email queues no mail", func(t *testing.T) {
			f.put(f.art2, ordInWarehouse(f.main), 1)
			before := len(f.outbox())
			o := f.createOrder(order.NewOrder{Number: "S3", Details: []order.NewDetail{{ArticleDetailID: f.art2, Quantity: 1}}})
			if err := f.app.ShipOrder(f.ctx, application.OrderRef{ID: o.ID()}, nil, false, "tester"); err != nil {
				t.Fatalf("ship: %v", err)
			}
			if len(f.outbox()) != before {
				t.Errorf("a mail without address was queued")
			}
		})

		t.Run("insufficient stock leaves stock, order, ledger and outbox untouched and names every shortfall", func(t *testing.T) {
			f.put(f.art1, ordInWarehouse(f.main), 2)
			f.put(f.art2, ordInWarehouse(f.main), 1)
			o := f.createOrder(order.NewOrder{Number: "S4", CustomerEmail: "jane@example.com", Details: []order.NewDetail{
				{ArticleDetailID: f.art1, Quantity: 5},
				{ArticleDetailID: f.art2, Quantity: 1},
				{ArticleDetailID: f.art2, Quantity: 3},
			}})
			stateBefore, mails, ledger := ordState(o), len(f.outbox()), len(f.shipments())
			err := f.app.ShipOrder(f.ctx, application.OrderRef{ID: o.ID()}, &stock.WarehouseSpec{ID: f.main}, false, "tester")
			ordRequireKind(t, err, errs.Invalid, "S4", fmt.Sprintf("article detail %d", f.art1), "requested 5, available 2",
				fmt.Sprintf("order detail %d", o.Details()[2].ID()), "requested 3, available 0")
			if a, b := f.stockIn(f.art1, f.main), f.stockIn(f.art2, f.main); a != 2 || b != 1 {
				t.Errorf("stock = %d, %d; want 2, 1", a, b)
			}
			if got := ordState(f.order(o.ID())); got != stateBefore {
				t.Errorf("order = %s, want %s", got, stateBefore)
			}
			if len(f.outbox()) != mails || len(f.shipments()) != ledger {
				t.Errorf("outbox or ledger changed")
			}
		})

		t.Run("a cancelled order is refused", func(t *testing.T) {
			o := f.createOrder(order.NewOrder{Number: "S5", Status: "Cancelled", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 1}}})
			err := f.app.ShipOrder(f.ctx, application.OrderRef{ID: o.ID()}, nil, false, "tester")
			ordRequireKind(t, err, errs.Invalid, "cancelled")
		})

		t.Run("an unknown warehouse is invalid, an unknown order not found", func(t *testing.T) {
			o := f.createOrder(order.NewOrder{Number: "S6", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 1}}})
			err := f.app.ShipOrder(f.ctx, application.OrderRef{ID: o.ID()}, &stock.WarehouseSpec{ID: 9999}, false, "tester")
			ordRequireKind(t, err, errs.Invalid, "9999")
			err = f.app.ShipOrder(f.ctx, application.OrderRef{ID: o.ID()}, &stock.WarehouseSpec{Code: "NOPE"}, false, "tester")
			ordRequireKind(t, err, errs.Invalid, "NOPE")
			err = f.app.ShipOrder(f.ctx, application.OrderRef{ID: 12345}, nil, false, "tester")
			ordRequireKind(t, err, errs.NotFound)
		})
	})
}

func (f *ordFixture) shipDetails(key string, ops ...application.DetailShipment) (application.BatchOutcome, application.BatchResult) {
	f.t.Helper()
	fingerprint, _ := json.Marshal(ops)
	meta := application.BatchMeta{Key: key, Endpoint: "orderDetails/ship", Fingerprint: string(fingerprint), User: "tester"}
	out, err := f.app.ShipOrderDetails(f.ctx, meta, ops, ordRender)
	if err != nil {
		f.t.Fatalf("ship order details: %v", err)
	}
	return out, ordResult(f.t, out)
}

func TestShipOrderDetails(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		f.put(f.art1, ordOnBin(f.binA), 10)
		f.put(f.art2, ordInWarehouse(f.second), 10)
		o := f.createOrder(order.NewOrder{Number: "D1", CustomerEmail: "jane@example.com", Details: []order.NewDetail{
			{ArticleDetailID: f.art1, Quantity: 3},
			{ArticleDetailID: f.art2, Quantity: 2},
		}})
		d1, d2 := o.Details()[0].ID(), o.Details()[1].ID()

		t.Run("partial shipment from a bin location", func(t *testing.T) {
			_, r := f.shipDetails("d-1", application.DetailShipment{OperationID: []byte(`"a"`), OrderDetailID: d1, Quantity: 1, From: ordOnBin(f.binA)})
			if !r.Success || len(r.Results) != 1 || !r.Results[0].Success || string(r.Results[0].OperationID) != `"a"` {
				t.Fatalf("result = %+v", r)
			}
			if got := f.stockOnBin(f.art1, f.binA); got != 9 {
				t.Errorf("bin stock = %d, want 9", got)
			}
			want := fmt.Sprintf("Partially delivered: [%d 1/3 Open] [%d 0/2 Open]", d1, d2)
			if got := ordState(f.order(o.ID())); got != want {
				t.Errorf("order = %s, want %s", got, want)
			}
			e := f.shipments()
			if len(e) != 1 || e[0].Ref.OrderID != o.ID() || e[0].Ref.OrderDetailID != d1 || e[0].Ref.IdempotencyKey != "d-1" || e[0].BinLocationID != f.binA {
				t.Errorf("ledger = %+v", e)
			}
		})

		t.Run("over-shipping, unknown details, bad locations and missing stock fail alone", func(t *testing.T) {
			binBefore, whBefore, stateBefore := f.stockOnBin(f.art1, f.binA), f.stockIn(f.art2, f.second), ordState(f.order(o.ID()))
			_, r := f.shipDetails("d-2",
				application.DetailShipment{OrderDetailID: d1, Quantity: 3, From: ordOnBin(f.binA)},
				application.DetailShipment{OrderDetailID: 424242, Quantity: 1, From: ordOnBin(f.binA)},
				application.DetailShipment{OrderDetailID: d2, Quantity: 1, From: ordInWarehouse(9999)},
				application.DetailShipment{OrderDetailID: d2, Quantity: 2, From: ordInWarehouse(f.main)},
				application.DetailShipment{OrderDetailID: d2, Quantity: 0, From: ordInWarehouse(f.second)},
				application.DetailShipment{Problem: "quantity must be an integer, not \"x\""},
			)
			if r.Success || r.Message != "6 of 6 operations failed" {
				t.Fatalf("result = %+v", r)
			}
			for i, want := range []string{"exceeds the remaining quantity 2", "order detail 424242 does not exist", "9999", "insufficient stock", "at least 1", "must be an integer"} {
				if r.Results[i].Success || !strings.Contains(r.Results[i].Message, want) {
					t.Errorf("result %d = %+v, want a failure mentioning %q", i, r.Results[i], want)
				}
			}
			if f.stockOnBin(f.art1, f.binA) != binBefore || f.stockIn(f.art2, f.second) != whBefore || ordState(f.order(o.ID())) != stateBefore {
				t.Errorf("failed operations changed something")
			}
		})

		t.Run("completing every position completes the order, without mail; a replay ships once", func(t *testing.T) {
			ops := []application.DetailShipment{
				{OrderDetailID: d1, Quantity: 2, From: stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: "A-01", WarehouseCode: "MAIN"}}},
				{OrderDetailID: d2, Quantity: 2, From: ordInWarehouse(f.second)},
			}
			first, r := f.shipDetails("d-3", ops...)
			if !r.Success {
				t.Fatalf("result = %+v", r)
			}
			replay, _ := f.shipDetails("d-3", ops...)
			if !replay.Replayed || string(replay.Body) != string(first.Body) {
				t.Errorf("replay = %v %s, want the stored body", replay.Replayed, replay.Body)
			}
			if a, b := f.stockOnBin(f.art1, f.binA), f.stockIn(f.art2, f.second); a != 7 || b != 8 {
				t.Errorf("stock = %d, %d; want 7, 8 (shipped once)", a, b)
			}
			want := fmt.Sprintf("Completely delivered: [%d 3/3 Completed] [%d 2/2 Completed]", d1, d2)
			if got := ordState(f.order(o.ID())); got != want {
				t.Errorf("order = %s, want %s", got, want)
			}
			if len(f.outbox()) != 0 {
				t.Errorf("the batch queued mail: %+v", f.outbox())
			}
		})

		t.Run("a later operation sees an earlier one's shipment", func(t *testing.T) {
			o2 := f.createOrder(order.NewOrder{Number: "D2", Details: []order.NewDetail{{ArticleDetailID: f.art2, Quantity: 5}}})
			d := o2.Details()[0].ID()
			_, r := f.shipDetails("d-4",
				application.DetailShipment{OrderDetailID: d, Quantity: 4, From: ordInWarehouse(f.second)},
				application.DetailShipment{OrderDetailID: d, Quantity: 2, From: ordInWarehouse(f.second)},
				application.DetailShipment{OrderDetailID: d, Quantity: 1, From: ordInWarehouse(f.second)},
			)
			if !r.Results[0].Success || r.Results[1].Success || !r.Results[2].Success {
				t.Fatalf("results = %+v", r.Results)
			}
			if got := f.order(o2.ID()).Status(); got != order.StatusCompletelyDelivered {
				t.Errorf("status = %s", got)
			}
			if got := f.stockIn(f.art2, f.second); got != 3 {
				t.Errorf("stock = %d, want 3", got)
			}
		})

		t.Run("a cancelled order's positions are refused", func(t *testing.T) {
			o3 := f.createOrder(order.NewOrder{Number: "D3", Status: "Cancelled", Details: []order.NewDetail{{ArticleDetailID: f.art2, Quantity: 1}}})
			_, r := f.shipDetails("d-5", application.DetailShipment{OrderDetailID: o3.Details()[0].ID(), Quantity: 1, From: ordInWarehouse(f.second)})
			if r.Success || !strings.Contains(r.Results[0].Message, "cancelled") {
				t.Fatalf("result = %+v", r)
			}
		})
	})
}

func TestConcurrentShipmentsOfOneOrderClearStockOnce(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		f.put(f.art1, ordInWarehouse(f.main), 20)
		f.put(f.art2, ordInWarehouse(f.main), 20)
		o := f.createOrder(order.NewOrder{Number: "C1", CustomerEmail: "jane@example.com", Details: []order.NewDetail{
			{ArticleDetailID: f.art2, Quantity: 3},
			{ArticleDetailID: f.art1, Quantity: 2},
		}})
		// Another order on the same products, shipped at the same time, in
		// the opposite product order: no deadlock may surface.
		other := f.createOrder(order.NewOrder{Number: "C2", Details: []order.NewDetail{
			{ArticleDetailID: f.art1, Quantity: 1},
			{ArticleDetailID: f.art2, Quantity: 1},
		}})
		var wg sync.WaitGroup
		errors := make(chan error, 10)
		for i := range 10 {
			id := o.ID()
			if i%5 == 4 {
				id = other.ID()
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				errors <- f.app.ShipOrder(f.ctx, application.OrderRef{ID: id}, nil, false, "tester")
			}()
		}
		wg.Wait()
		close(errors)
		for err := range errors {
			if err != nil {
				t.Errorf("ship: %v", err)
			}
		}
		if a, b := f.stockIn(f.art1, f.main), f.stockIn(f.art2, f.main); a != 17 || b != 16 {
			t.Errorf("stock = %d, %d; want 17, 16", a, b)
		}
		if got := len(f.shipments()); got != 4 {
			t.Errorf("shipment entries = %d, want 4", got)
		}
		if got := len(f.outbox()); got != 1 {
			t.Errorf("queued mails = %d, want 1", got)
		}
	})
}

func TestAvailableStockSubtractsOutstanding(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		f.put(f.art1, ordInWarehouse(f.main), 10)
		available := func() int {
			t.Helper()
			v, err := f.app.ArticleDetail(f.ctx, f.art1)
			if err != nil {
				t.Fatalf("article: %v", err)
			}
			return v.AvailableStock
		}
		o := f.createOrder(order.NewOrder{Number: "A1", Details: []order.NewDetail{
			{ArticleDetailID: f.art1, Quantity: 4, Shipped: 1},
			{ArticleDetailID: f.art1, Quantity: 5, Status: "Cancelled"},
			{ArticleDetailID: f.art2, Quantity: 7},
		}})
		f.createOrder(order.NewOrder{Number: "A2", Status: "Cancelled", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 6}}})
		if got := available(); got != 7 {
			t.Errorf("available = %d, want 10 - 3", got)
		}
		_, r := f.shipDetails("a-1", application.DetailShipment{OrderDetailID: o.Details()[0].ID(), Quantity: 2, From: ordInWarehouse(f.main)})
		if !r.Success {
			t.Fatalf("ship: %+v", r)
		}
		if got := available(); got != 7 {
			t.Errorf("available after shipping 2 = %d, want 8 - 1", got)
		}
	})
}
