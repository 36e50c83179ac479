package test

import (
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/test/testdb"
)

// TestShortPickOrderUseCase: a bin of an order's picking list found short
// keeps what was picked there, reserves the rest on another bin as far as
// one holds it, and is put up for a count; a bin that holds no more than
// was picked is not short. On SQLite and PostgreSQL.
func TestShortPickOrderUseCase(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		binB, err := f.app.CreateBinLocation(f.ctx, f.main, "B-01")
		if err != nil {
			t.Fatal(err)
		}
		f.put(f.art1, ordOnBin(f.binA), 4)
		o := f.createOrder(order.NewOrder{ID: 900, Number: "S-1", Details: []order.NewDetail{{ID: 901, ArticleDetailID: f.art1, Quantity: 4}}})
		ref := application.OrderRef{ID: o.ID()}
		if _, err := f.app.ReservePickingList(f.ctx, ref, nil); err != nil {
			t.Fatal(err)
		}
		f.put(f.art1, ordOnBin(binB), 1)

		// One of four picked on A-01: B-01 takes one, two are found
		// nowhere.
		out, err := f.app.ShortPickOrder(f.ctx, ref, application.OrderShort{OrderDetailID: 901, BinLocationID: f.binA, Picked: 1})
		if err != nil {
			t.Fatal(err)
		}
		if out.BinCode != "A-01" || out.Released != 3 || out.Moved != 1 || out.Missing != 2 {
			t.Errorf("short pick: %+v", out)
		}
		if got := pickSummary(out.List); got != "[A-01 901×1][B-01 901×1]" {
			t.Errorf("the list after the short pick: %s", got)
		}
		if p, _ := f.app.PickingListOf(f.ctx, ref); pickSummary(p) != "[A-01 901×1][B-01 901×1]" {
			t.Errorf("the stored list: %s", pickSummary(p))
		}
		if a, b := f.reservedOnBin(f.art1, f.binA), f.reservedOnBin(f.art1, binB); a != 1 || b != 1 {
			t.Errorf("reserved on A-01 %d, B-01 %d; want 1 and 1", a, b)
		}
		if id, err := f.app.OpenCountOn(f.ctx, f.binA); err != nil || id != out.CountID || id == 0 {
			t.Errorf("the count of A-01: %d (%v), the short pick said %d", id, err, out.CountID)
		}

		_, err = f.app.ShortPickOrder(f.ctx, ref, application.OrderShort{OrderDetailID: 901, BinLocationID: f.binA, Picked: 1})
		if e, ok := errs.As(err); !ok || e.Code != order.NothingShort {
			t.Errorf("a bin that holds only what was picked: %v", err)
		}
	})
}
