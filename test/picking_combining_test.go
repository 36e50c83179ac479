package test

import (
	"fmt"
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/test/testdb"
)

// Concurrent ReservePickingList calls reserve together: while one
// reservation's transaction runs, the calls that arrive queue, and the
// next transaction reserves them all. In that group each order is still
// all or nothing with its own answer: one the stock does not cover, one in
// a warehouse that does not exist and one that does not exist fail alone
// and reserve nothing, the others reserve and answer with their own picks;
// an order named twice reserves once.
func TestReservePickingListCombinesConcurrentCalls(t *testing.T) {
	t.Parallel()
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		f.put(f.art1, ordOnBin(f.binA), 4)
		f.put(f.art2, ordOnBin(f.binA), 2)
		one := func(number string, details ...order.NewDetail) *order.Order {
			return f.createOrder(order.NewOrder{Number: number, Details: details})
		}
		first := one("R1", order.NewDetail{ArticleDetailID: f.art1, Quantity: 1})
		both := one("R2", order.NewDetail{ArticleDetailID: f.art1, Quantity: 2}, order.NewDetail{ArticleDetailID: f.art2, Quantity: 2})
		tooMany := one("R3", order.NewDetail{ArticleDetailID: f.art1, Quantity: 1}, order.NewDetail{ArticleDetailID: f.art2, Quantity: 1})
		elsewhere := one("R4", order.NewDetail{ArticleDetailID: f.art1, Quantity: 1})

		app := newHoldingApp(t, f)
		calls := []struct {
			name string
			ref  application.OrderRef
			at   *stock.WarehouseSpec
		}{
			{"first", application.OrderRef{ID: first.ID()}, nil},
			{"both products", application.OrderRef{Number: "R2"}, &stock.WarehouseSpec{ID: f.main}},
			// art2's 2 pieces go to R2, which came first.
			{"too many", application.OrderRef{ID: tooMany.ID()}, nil},
			{"no such warehouse", application.OrderRef{ID: elsewhere.ID()}, &stock.WarehouseSpec{Code: "NOWHERE"}},
			{"missing", application.OrderRef{ID: 999_999}, nil},
			{"first again", application.OrderRef{Number: "R1"}, nil},
		}
		got := make([]error, len(calls))
		lists := make([]application.PickingList, len(calls))
		app.run(t, len(calls), app.PickingListsWaiting, func(i int) {
			lists[i], got[i] = app.ReservePickingList(f.ctx, calls[i].ref, calls[i].at)
		})

		for i, want := range []errs.Kind{0, 0, errs.Invalid, errs.Invalid, errs.NotFound, 0} {
			if want == 0 && got[i] != nil || want != 0 && errs.KindOf(got[i]) != want {
				t.Errorf("%s: got %v, want kind %v", calls[i].name, got[i], want)
			}
		}
		if n := app.transactions.Load(); n != 2 {
			t.Errorf("%d transactions recorded events, want 2: the first reservation's and the group's", n)
		}
		detail := func(o *order.Order, i int) int64 { return o.Details()[i].ID() }
		for i, want := range map[int]string{
			0: fmt.Sprintf("[A-01 %d×1]", detail(first, 0)),
			1: fmt.Sprintf("[A-01 %d×2][A-01 %d×2]", detail(both, 0), detail(both, 1)),
			5: fmt.Sprintf("[A-01 %d×1]", detail(first, 0)),
		} {
			if got := pickSummary(lists[i]); got != want {
				t.Errorf("%s: picks %s, want %s", calls[i].name, got, want)
			}
		}
		if r1, r2 := f.reservedOnBin(f.art1, f.binA), f.reservedOnBin(f.art2, f.binA); r1 != 3 || r2 != 2 {
			t.Errorf("reserved on A-01: %d of the first product, %d of the second; want 3 and 2", r1, r2)
		}
		for _, o := range []*order.Order{tooMany, elsewhere} {
			if s := ordState(f.order(o.ID())); s != ordState(o) {
				t.Errorf("order %s is %s, want it unchanged (%s)", o.Number(), s, ordState(o))
			}
		}
		requireKeptFigures(t, f.env)
	})
}
