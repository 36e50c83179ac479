package test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// The order repository's contract, on both databases: positions keep their
// order and fields, Save writes statuses, shipped quantities and what each
// position still has to ship.
func TestOrderRepositoryContract(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := contractDB(t, databaseURL)
		place := newStockPlace(t, db) // articles 1 and 2
		add := func(p order.NewOrder) *order.Order {
			t.Helper()
			o, err := order.New(p)
			if err != nil {
				t.Fatal(err)
			}
			write(t, db, func(ctx context.Context, s ports.Store) error { return s.Orders().Add(ctx, o) })
			return o
		}
		outstanding := func(article int64) int {
			t.Helper()
			var n int
			if err := db.Bun().NewSelect().TableExpr("order_details").ColumnExpr("COALESCE(SUM(outstanding), 0)").
				Where("article_detail_id = ? AND outstanding > 0", article).Scan(context.Background(), &n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		open := add(order.NewOrder{Number: "10001", Details: []order.NewDetail{
			{ArticleDetailID: 1, Quantity: 3, Shipped: 1},
			{ID: 900, ArticleDetailID: 2, Quantity: 4},
			{ArticleDetailID: 1, Quantity: 2, Status: "Cancelled"},
		}})
		add(order.NewOrder{ID: 77, Number: "10002", Status: "Cancelled", Details: []order.NewDetail{{ArticleDetailID: 1, Quantity: 5}}})

		t.Run("add assigns ids and keeps the positions as pushed", func(t *testing.T) {
			if open.ID() <= 0 || open.Details()[1].ID() != 900 || open.Details()[0].ID() == 0 || open.Details()[2].ID() == 0 {
				t.Fatalf("ids: order %d, details %d %d %d", open.ID(), open.Details()[0].ID(), open.Details()[1].ID(), open.Details()[2].ID())
			}
			var got *order.Order
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				got, err = s.Orders().GetByNumber(ctx, "10001")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if !sameOrder(got, open) {
				t.Errorf("read back\n got %+v\nwant %+v", got, open)
			}
		})

		t.Run("a taken id or number is refused with the domain's message", func(t *testing.T) {
			o, err := order.New(order.NewOrder{Number: "10001", Details: []order.NewDetail{{ArticleDetailID: 1, Quantity: 1}}})
			if err != nil {
				t.Fatal(err)
			}
			err = db.Write(context.Background(), func(ctx context.Context, s ports.Store) error { return s.Orders().Add(ctx, o) })
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields) != 1 || e.Fields[0].Property != "number" ||
				e.Fields[0].Message != `an order with number "10001" already exists` {
				t.Errorf("got %v", err)
			}
		})

		t.Run("get many finds orders by id or number, in id order, and leaves out what does not exist", func(t *testing.T) {
			var got []*order.Order
			write(t, db, func(ctx context.Context, s ports.Store) (err error) {
				got, err = s.Orders().GetMany(ctx, []int64{77, 123456}, []string{"10001", "nope"})
				return err
			})
			var ids []int64
			for _, o := range got {
				ids = append(ids, o.ID())
			}
			if want := []int64{min(open.ID(), 77), max(open.ID(), 77)}; !reflect.DeepEqual(ids, want) {
				t.Fatalf("ids %v, want %v", ids, want)
			}
			if o := got[slices.IndexFunc(got, func(o *order.Order) bool { return o.ID() == open.ID() })]; !sameOrder(o, open) {
				t.Errorf("read back\n got %+v\nwant %+v", o, open)
			}
			write(t, db, func(ctx context.Context, s ports.Store) (err error) {
				got, err = s.Orders().GetMany(ctx, nil, nil)
				return err
			})
			if len(got) != 0 {
				t.Errorf("nothing asked, got %d orders", len(got))
			}
		})

		t.Run("outstanding sums what positions still have to ship, as the domain says", func(t *testing.T) {
			// 10001: 2 of article 1 (3 - 1 shipped; the cancelled position holds
			// nothing) and 4 of article 2; the cancelled order 10002 holds nothing.
			if a, b := outstanding(1), outstanding(2); a != 2 || b != 4 {
				t.Errorf("outstanding %d and %d, want 2 and 4", a, b)
			}
		})

		t.Run("save writes shipments and what is left to ship", func(t *testing.T) {
			write(t, db, func(ctx context.Context, s ports.Store) error {
				found, err := s.Orders().ByDetailIDs(ctx, []int64{900, 900})
				if err != nil {
					return err
				}
				if len(found) != 1 || found[0].ID() != open.ID() {
					t.Errorf("by detail ids: %+v", found)
				}
				if err := found[0].ShipDetail(900, 3); err != nil {
					return err
				}
				return s.Orders().Save(ctx, found...)
			})
			if a, b := outstanding(1), outstanding(2); a != 2 || b != 1 {
				t.Errorf("outstanding %d and %d, want 2 and 1", a, b)
			}
			var got *order.Order
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				got, err = s.Orders().Get(ctx, open.ID())
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if d, _ := got.Detail(900); d.Shipped() != 3 || got.Status() != order.StatusPartiallyDelivered {
				t.Errorf("shipped %d, status %s", d.Shipped(), got.Status())
			}
		})

		t.Run("save writes reservations, returns and the address; a cancel releases them from storage too", func(t *testing.T) {
			stored, err := order.UnmarshalOrderFromDatabase(400, "10400", "", "In process", []order.DetailRecord{
				// Two lots held on one bin are two reservations; every read
				// (Get, GetMany) gives their lots back.
				{ID: 401, ArticleDetailID: 1, Quantity: 5, Shipped: 2, Returned: 1, Reservations: []stock.Hold{
					{WarehouseID: place.wh1, BinLocationID: place.a, Quantity: 1, Lot: "L-1"}, {WarehouseID: place.wh1, BinLocationID: place.a, Quantity: 1, Lot: "L-2"},
					{WarehouseID: place.wh2, BinLocationID: place.null2, Quantity: 1}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := order.New(order.NewOrder{ID: 400, Number: "10400", Status: "In process", Details: []order.NewDetail{{ID: 401, ArticleDetailID: 1, Quantity: 5, Shipped: 2}}})
			if err != nil {
				t.Fatal(err)
			}
			write(t, db, func(ctx context.Context, s ports.Store) error {
				if err := s.Orders().Add(ctx, fresh); err != nil {
					return err
				}
				return s.Orders().Save(ctx, stored)
			})
			get := func() *order.Order {
				var got *order.Order
				err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
					got, err = s.Orders().Get(ctx, 400)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			got := get()
			if !reflect.DeepEqual(got, stored) {
				t.Errorf("read back\n got %+v\nwant %+v", got.Details()[0], stored.Details()[0])
			}
			var many []*order.Order
			write(t, db, func(ctx context.Context, s ports.Store) (err error) {
				many, err = s.Orders().GetMany(ctx, nil, []string{"10400"})
				return err
			})
			if len(many) != 1 || !reflect.DeepEqual(many[0], stored) {
				t.Errorf("get many read back %+v", many)
			}
			cancelled, address := "Cancelled", "new@example.com"
			if err := got.Change(order.Changes{Status: &cancelled, CustomerEmail: &address}); err != nil {
				t.Fatal(err)
			}
			// Storage keeps what the order says; releasing the mappings is the
			// working set's part (order.Change as an operation).
			d := got.Details()[0]
			stripped, err := order.UnmarshalOrderFromDatabase(400, "10400", address, "Cancelled", []order.DetailRecord{
				{ID: 401, ArticleDetailID: 1, Quantity: 5, Shipped: 2, Returned: d.Returned()}})
			if err != nil {
				t.Fatal(err)
			}
			write(t, db, func(ctx context.Context, s ports.Store) error { return s.Orders().Save(ctx, stripped) })
			if got := get(); !reflect.DeepEqual(got, stripped) || got.CustomerEmail() != address || got.Details()[0].Reserved() != 0 {
				t.Errorf("after cancelling: %+v", got)
			}
			if a := outstanding(1); a != 2 {
				t.Errorf("outstanding %d: a cancelled order still counts", a)
			}
		})
	})
}

// sameOrder tells whether two orders hold the same: an order read back
// equals the one added, but for what it remembers of its loading.
func sameOrder(a, b *order.Order) bool {
	return a.ID() == b.ID() && a.Number() == b.Number() && a.Status() == b.Status() &&
		a.CustomerEmail() == b.CustomerEmail() && reflect.DeepEqual(a.Details(), b.Details())
}
