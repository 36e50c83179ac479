package test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// OpenCountForBin runs inside a caller's write transaction (a picking wave
// that found a bin short): it returns the Open count that covers the bin,
// else opens a count of that bin alone, not blind and not locking, with its
// snapshot.
func TestOpenCountForBin(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, _ := e.newWarehouse("OW", true)
		other, _ := e.newWarehouse("OX", true)
		a1, a2 := e.newBin(wh, "A-1"), e.newBin(wh, "A-2")
		elsewhere := e.newBin(other, "X-1")
		art := e.newArticle(1)
		e.mustSucceed("change", stockChangeOp(art, 5, stockBin(a1)), stockChangeOp(art, 2, stockBin(a2)))
		uow := application.Committing(e.DB, utcNow{})
		openFor := func(warehouseID, bin int64) (int64, error) {
			var id int64
			err := uow.Write(e.ctx, func(ctx context.Context, s ports.Store) (err error) {
				id, err = e.App.OpenCountForBin(ctx, s, warehouseID, bin)
				return err
			})
			return id, err
		}

		id, err := openFor(wh, a1)
		if err != nil {
			t.Fatal(err)
		}
		c, err := e.App.Count(e.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		bins := c.Bins()
		if c.Blind() || c.LockBins() || c.Status() != "Open" || len(bins) != 1 || bins[0].BinLocationID != a1 ||
			len(bins[0].Snapshot) != 1 || bins[0].Snapshot[0].Stock != 5 {
			t.Fatalf("count %d: blind %v, lockBins %v, %s, bins %+v", id, c.Blind(), c.LockBins(), c.Status(), bins)
		}
		if again, err := openFor(wh, a1); err != nil || again != id {
			t.Fatalf("the bin again: %d, %v; want %d", again, err, id)
		}
		// A bin that an open count of the whole warehouse covers.
		whole, err := e.App.CreateCount(e.ctx, application.CountRequest{Warehouse: stock.WarehouseSpec{ID: other}})
		if err == nil || errs.KindOf(err) != errs.Invalid {
			t.Fatalf("a warehouse holding nothing: %d, %v", whole, err)
		}
		e.mustSucceed("change", stockChangeOp(art, 1, stockBin(elsewhere)))
		whole, err = e.App.CreateCount(e.ctx, application.CountRequest{Warehouse: stock.WarehouseSpec{ID: other}})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := openFor(other, elsewhere); err != nil || got != whole {
			t.Fatalf("a bin of an open count: %d, %v; want %d", got, err, whole)
		}
		// The stock still moves: the count neither locks nor hides.
		e.mustSucceed("change", stockChangeOp(art, -1, stockBin(a1)))
		// A bin of another warehouse is the caller's mistake.
		if _, err := openFor(wh, elsewhere); errs.KindOf(err) != errs.Invalid {
			t.Fatalf("a bin of another warehouse: %v", err)
		}
		// Once the count is applied, the bin gets a new one.
		if _, err := e.App.ApplyCount(e.ctx, application.BatchMeta{User: "tester"}, id, func(application.CountApplied) ([]byte, error) { return nil, nil }); err != nil {
			t.Fatal(err)
		}
		if next, err := openFor(wh, a1); err != nil || next == id || next == 0 {
			t.Fatalf("after the apply: %d, %v", next, err)
		}
	})
}

// TestACountWaitsForAStockInOfAProductNewToItsBin: a stock-in of a product
// that lies on no counted bin yet, still open while the count is created,
// is in the count's snapshot once it commits: the count waits for it
// instead of snapshotting the bin without it.
func TestACountWaitsForAStockInOfAProductNewToItsBin(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, _ := e.newWarehouse("RW", true)
		bin := e.newBin(wh, "R-1")
		held, fresh := e.newArticle(1), e.newArticle(2)
		e.mustSucceed("change", stockChangeOp(held, 3, stockBin(bin)))
		uow := application.Committing(e.DB, utcNow{})
		inside, release := make(chan struct{}), make(chan struct{})
		var once sync.Once
		stocked := make(chan error, 1)
		go func() {
			stocked <- uow.Write(e.ctx, func(ctx context.Context, s ports.Store) error {
				op := stockChangeOp(fresh, 5, stockBin(bin)).Op
				ws, err := s.Stock().Load(ctx, stock.ScopeOf(op), time.Now())
				if err != nil {
					return err
				}
				if err := ws.Apply(op, stock.Reference{User: "racer"}); err != nil {
					return err
				}
				if err := s.Stock().Save(ctx, ws); err != nil {
					return err
				}
				once.Do(func() { close(inside) })
				<-release
				return nil
			})
		}()
		<-inside
		var id int64
		created := make(chan error, 1)
		go func() {
			var err error
			id, err = e.App.CreateCount(e.ctx, application.CountRequest{Warehouse: stock.WarehouseSpec{ID: wh},
				BinLocations: []stock.BinLocationSpec{{ID: bin}}, BinsGiven: true})
			created <- err
		}()
		// Time for the count to snapshot the bin, had nothing held it.
		time.Sleep(500 * time.Millisecond)
		close(release)
		if err := <-stocked; err != nil {
			t.Fatal(err)
		}
		if err := <-created; err != nil {
			t.Fatal(err)
		}
		c, err := e.App.Count(e.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]int{}
		for _, entry := range c.Bins()[0].Snapshot {
			got[entry.ArticleDetailID] = entry.Stock
		}
		if got[held] != 3 || got[fresh] != 5 {
			t.Errorf("the count's snapshot of the bin: %v, want %d: 3 and %d: 5", got, held, fresh)
		}
	})
}
