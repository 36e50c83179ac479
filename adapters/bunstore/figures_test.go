package bunstore

import (
	"context"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// figuresDB is a migrated database with two warehouses (801 for sale, 802
// not) and a lot-tracked product 801 stored through the repository.
func figuresDB(t *testing.T, databaseURL string) *DB {
	t.Helper()
	db := migratedDB(t, databaseURL)
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO warehouses (id, code, name) VALUES (801, 'FIG-S', 'For sale')`,
		`INSERT INTO warehouses (id, code, name, stock_available_for_sale) VALUES (802, 'FIG-Q', 'Quarantine', FALSE)`,
	} {
		if _, err := db.bun.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
		a, err := catalog.NewArticleDetail(801, "FIG-1", "")
		if err != nil {
			return err
		}
		if err := a.SetLotTracked(true, 0, 0); err != nil {
			return err
		}
		return s.ArticleDetails().Add(ctx, a)
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// The expired part of a product's stock per warehouse is kept beside its
// stock by the transactions that change it (Record), and every read of the
// figures gives it back as WarehouseStock.Expired, which the figures then
// leave out of what is for sale.
func TestExpiredStockIsKeptAndReadWithTheTotals(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := figuresDB(t, databaseURL)
		ctx := context.Background()
		record := func(t *testing.T, totals ...stock.WarehouseTotal) {
			t.Helper()
			if err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
				return s.Events().Record(ctx, nil, totals, nil, time.Now())
			}); err != nil {
				t.Fatal(err)
			}
		}
		stockOf := func() map[int64][]stock.WarehouseStock {
			t.Helper()
			var read map[int64][]stock.WarehouseStock
			if err := db.Read(ctx, func(ctx context.Context, s ports.Store) (err error) {
				read, _, err = s.Figures().StockOf(ctx, []int64{801})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return read
		}
		expiredOf := func(ws []stock.WarehouseStock) map[int64][2]int {
			out := map[int64][2]int{}
			for _, w := range ws {
				out[w.WarehouseID] = [2]int{w.Stock, w.Expired}
			}
			return out
		}

		record(t,
			stock.WarehouseTotal{ArticleDetailID: 801, WarehouseID: 801, Stock: 10, ReservedStock: 2, Expired: 4, Mappings: 1},
			stock.WarehouseTotal{ArticleDetailID: 801, WarehouseID: 802, Stock: 5, Expired: 5, Mappings: 1})

		read := stockOf()
		if got := expiredOf(read[801]); got[801] != [2]int{10, 4} || got[802] != [2]int{5, 5} {
			t.Fatalf("StockOf: %+v", read[801])
		}
		f := stock.FiguresOf(read[801], 1)
		if f.PhysicalStock != 15 || f.ExpiredStock != 9 || f.PhysicalStockForSale != 6 || f.AvailableStock != 5 {
			t.Errorf("figures from StockOf: %+v", f)
		}

		var locked ports.LockedSnapshots
		if err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
			var err error
			locked, err = s.Events().LockSnapshots(ctx, []int64{801}, []int64{801})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got := expiredOf(locked.Stock[801]); got[801] != [2]int{10, 4} || got[802] != [2]int{5, 5} {
			t.Errorf("LockSnapshots: %+v", locked.Stock[801])
		}
		if len(locked.Articles) != 1 || !locked.Articles[0].LotTracked() {
			t.Errorf("LockSnapshots reads the product lot-tracked: %+v", locked.Articles)
		}
		if f := stock.FiguresOf(locked.Stock[801], 0); f.PhysicalStockForSale != 6 || f.ExpiredStock != 9 {
			t.Errorf("figures from LockSnapshots: %+v", f)
		}

		// A total written again keeps what it now says is expired (the
		// upsert sets it), and a warehouse that holds none is 0.
		record(t, stock.WarehouseTotal{ArticleDetailID: 801, WarehouseID: 801, Stock: 7, ReservedStock: 2, Expired: 1, Mappings: 1},
			stock.WarehouseTotal{ArticleDetailID: 801, WarehouseID: 802, Stock: 5, Expired: 0, Mappings: 1})
		read = stockOf()
		if got := expiredOf(read[801]); got[801] != [2]int{7, 1} || got[802] != [2]int{5, 0} {
			t.Fatalf("after the second write: %+v", read[801])
		}
		if f := stock.FiguresOf(read[801], 0); f.PhysicalStockForSale != 6 || f.ExpiredStock != 1 {
			t.Errorf("figures after the second write: %+v", f)
		}
	})
}

// lotTracked is stored and read wherever an article detail is read.
func TestLotTrackedIsStoredAndRead(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := figuresDB(t, databaseURL)
		ctx := context.Background()
		err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
			plain, err := catalog.NewArticleDetail(802, "FIG-2", "")
			if err != nil {
				return err
			}
			return s.ArticleDetails().Add(ctx, plain)
		})
		if err != nil {
			t.Fatal(err)
		}
		tracked := func(t *testing.T) map[int64]bool {
			t.Helper()
			out := map[int64]bool{}
			if err := db.Read(ctx, func(ctx context.Context, s ports.Store) error {
				for _, id := range []int64{801, 802} {
					a, err := s.ArticleDetails().Get(ctx, id)
					if err != nil {
						return err
					}
					out[id] = a.LotTracked()
				}
				page, err := s.ArticleDetails().List(ctx, ports.ListQuery{Limit: 10})
				if err != nil {
					return err
				}
				for _, a := range page.Items {
					if a.LotTracked() != out[a.ID()] {
						t.Errorf("product %d: the list reads lotTracked %v, Get %v", a.ID(), a.LotTracked(), out[a.ID()])
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			return out
		}
		if got := tracked(t); !got[801] || got[802] {
			t.Fatalf("after Add: %v", got)
		}
		err = db.Write(ctx, func(ctx context.Context, s ports.Store) error {
			for _, id := range []int64{801, 802} {
				a, err := s.ArticleDetails().Get(ctx, id)
				if err != nil {
					return err
				}
				if err := a.SetLotTracked(!a.LotTracked(), 0, 0); err != nil {
					return err
				}
				if err := s.ArticleDetails().Save(ctx, a); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := tracked(t); got[801] || !got[802] {
			t.Fatalf("after Save: %v", got)
		}
	})
}
