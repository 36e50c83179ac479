package test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// The repository contract tests (one suite per port, run against every
// adapter, as wild-workouts' hour_repository_test.go): the SQL of the two
// dialects must behave the same, so each case runs on SQLite and on
// PostgreSQL through the port alone.

// contractDB is a migrated, empty database of either dialect.
func contractDB(t *testing.T, databaseURL string) *bunstore.DB {
	t.Helper()
	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

func write(t *testing.T, db ports.UnitOfWork, fn func(ctx context.Context, s ports.Store) error) {
	t.Helper()
	if err := db.Write(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// stockPlace is what the stock contract works on: two warehouses, WH1 with
// bins A-01 and B-01, WH2 with its unknown bin only, and articles 1 and 2.
type stockPlace struct {
	wh1, wh2, null1, null2, a, b int64
}

func newStockPlace(t *testing.T, db ports.UnitOfWork) stockPlace {
	t.Helper()
	var p stockPlace
	write(t, db, func(ctx context.Context, s ports.Store) error {
		var holders warehouse.Holders
		for _, code := range []string{"WH1", "WH2"} {
			w, unknown, err := holders.Create(warehouse.Details{Code: code, Name: code, StockAvailableForSale: true})
			if err != nil {
				return err
			}
			if err := s.Warehouses().Add(ctx, w, unknown); err != nil {
				return err
			}
			holders = warehouse.Holders{Default: w, Return: w}
			if code == "WH1" {
				p.wh1, p.null1 = w.ID(), w.NullBinLocationID()
			} else {
				p.wh2, p.null2 = w.ID(), w.NullBinLocationID()
			}
		}
		for _, code := range []string{"A-01", "B-01"} {
			b, err := warehouse.NewBinLocation(p.wh1, code)
			if err != nil {
				return err
			}
			if err := s.BinLocations().Add(ctx, b); err != nil {
				return err
			}
			if code == "A-01" {
				p.a = b.ID()
			} else {
				p.b = b.ID()
			}
		}
		for id := int64(1); id <= 2; id++ {
			a, err := catalog.NewArticleDetail(id, fmt.Sprintf("SKU%d", id), "")
			if err != nil {
				return err
			}
			if err := s.ArticleDetails().Add(ctx, a); err != nil {
				return err
			}
		}
		return nil
	})
	return p
}

var contractNow = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// runOps loads a working set for ops through the port, applies them, saves
// it, and returns what each operation said.
func runOps(t *testing.T, db ports.UnitOfWork, ref stock.Reference, ops ...stock.Operation) []error {
	t.Helper()
	results := make([]error, len(ops))
	write(t, db, func(ctx context.Context, s ports.Store) error {
		ws, err := s.Stock().Load(ctx, stock.ScopeOf(ops...), contractNow)
		if err != nil {
			return err
		}
		for i, op := range ops {
			results[i] = ws.Apply(op, ref)
		}
		return s.Stock().Save(ctx, ws)
	})
	return results
}

type mappingState struct {
	article, bin    int64
	stock, reserved int
	isDefault       bool
	stocktake       bool
}

// bothWarehouses is the scope of articles 1 and 2 in both warehouses of p.
func bothWarehouses(p stockPlace) stock.Scope {
	var scope stock.Scope
	for _, a := range []int64{1, 2} {
		scope.Add(a, stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: p.wh1}})
		scope.Add(a, stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: p.wh2}})
	}
	return scope
}

// mappingsNow loads every mapping of articles 1 and 2 in both warehouses.
func mappingsNow(t *testing.T, db ports.UnitOfWork, p stockPlace) []mappingState {
	t.Helper()
	scope := bothWarehouses(p)
	var out []mappingState
	err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) error {
		ws, err := s.Stock().Load(ctx, scope, contractNow)
		if err != nil {
			return err
		}
		out = nil
		for _, m := range ws.Mappings() {
			out = append(out, mappingState{m.ArticleDetailID(), m.BinLocationID(), m.Stock(), m.ReservedStock(), m.IsDefault(), m.LastStockTake() != nil})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStockRepositoryContract(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		db := contractDB(t, databaseURL)
		p := newStockPlace(t, db)
		ref := stock.Reference{IdempotencyKey: "k1", OperationID: `"op"`, User: "tester"}
		wh := func(id int64) stock.LocationSpec { return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: id}} }
		whCode := func(code string) stock.LocationSpec {
			return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{Code: code}}
		}
		bin := func(id int64) stock.LocationSpec {
			return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
		}
		binIn := func(code string, whID int64) stock.LocationSpec {
			return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: code, WarehouseID: whID}}
		}
		binInCode := func(code, whCode string) stock.LocationSpec {
			return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: code, WarehouseCode: whCode}}
		}

		t.Run("load locates every way of naming a location and only existing articles", func(t *testing.T) {
			errs := runOps(t, db, ref,
				stock.Change{ArticleDetailID: 1, At: bin(p.a), Quantity: 5},
				stock.Change{ArticleDetailID: 1, At: binIn("B-01", p.wh1), Quantity: 3},
				stock.Change{ArticleDetailID: 2, At: binInCode("A-01", "WH1"), Quantity: 2},
				stock.Change{ArticleDetailID: 2, At: whCode("WH2"), Quantity: 4},
				stock.Change{ArticleDetailID: 3, At: wh(p.wh1), Quantity: 1},
				stock.Change{ArticleDetailID: 1, At: binInCode("A-01", "WH2"), Quantity: 1},
				stock.Change{ArticleDetailID: 1, At: whCode("NOPE"), Quantity: 1},
			)
			want := []string{"", "", "", "", "article detail 3 does not exist",
				`bin location with code "A-01" does not exist in warehouse "WH2"`, `warehouse with code "NOPE" does not exist`}
			for i, w := range want {
				got := ""
				if errs[i] != nil {
					got = errs[i].Error()
				}
				if got != w {
					t.Errorf("operation %d: got %q, want %q", i, got, w)
				}
			}
			eq := mappingsNow(t, db, p)
			want2 := []mappingState{{1, p.a, 5, 0, false, false}, {1, p.b, 3, 0, false, false}, {2, p.a, 2, 0, false, false}, {2, p.null2, 4, 0, false, false}}
			if !slices.Equal(eq, want2) {
				t.Errorf("mappings\n got %+v\nwant %+v", eq, want2)
			}
		})

		t.Run("a warehouse load brings every mapping of the article there, ordered for the strategy by bin code", func(t *testing.T) {
			// 1 has A-01:5 and B-01:3 in WH1; taking 6 out of the warehouse
			// empties the one with less stock first (B-01), then takes 3 of A-01.
			errs := runOps(t, db, ref, stock.Change{ArticleDetailID: 1, At: wh(p.wh1), Quantity: -6})
			if errs[0] != nil {
				t.Fatal(errs[0])
			}
			got := mappingsNow(t, db, p)
			want := []mappingState{{1, p.a, 2, 0, false, false}, {2, p.a, 2, 0, false, false}, {2, p.null2, 4, 0, false, false}}
			if !slices.Equal(got, want) {
				t.Errorf("an emptied mapping is removed, the other updated:\n got %+v\nwant %+v", got, want)
			}
		})

		t.Run("save writes defaults and stocktakes, and the ledger with every field", func(t *testing.T) {
			write(t, db, func(ctx context.Context, s ports.Store) error {
				op := stock.SetDefault{ArticleDetailID: 1, BinLocationID: p.b, Default: true}
				ws, err := s.Stock().Load(ctx, stock.ScopeOf(op), contractNow)
				if err != nil {
					return err
				}
				if err := ws.Apply(op, stock.Reference{}); err != nil {
					return err
				}
				return s.Stock().Save(ctx, ws)
			})
			setRef := stock.Reference{IdempotencyKey: "k2", OperationID: `{"n":1}`, OrderID: 0, User: "counter"}
			if errs := runOps(t, db, setRef, stock.Set{ArticleDetailID: 1, At: wh(p.wh1), Quantity: 7}); errs[0] != nil {
				t.Fatal(errs[0])
			}
			got := mappingsNow(t, db, p)
			want := []mappingState{{1, p.a, 2, 0, false, true}, {1, p.b, 5, 0, true, true}, {2, p.a, 2, 0, false, false}, {2, p.null2, 4, 0, false, false}}
			if !slices.Equal(got, want) {
				t.Errorf("the stocktake of the warehouse went to the new default and stamped both:\n got %+v\nwant %+v", got, want)
			}
			var page ports.Page[ports.LedgerRecord]
			err := db.Read(context.Background(), func(ctx context.Context, s ports.Store) (err error) {
				page, err = s.Ledger().List(ctx, ports.ListQuery{Limit: 100, Sorts: []ports.Sort{{Property: "stockLedgerEntry.id"}}})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			last := page.Items[len(page.Items)-1].LedgerEntry
			wantEntry := stock.LedgerEntry{ArticleDetailID: 1, WarehouseID: p.wh1, BinLocationID: p.b, Type: stock.EntryStocktake,
				Quantity: 5, StockAfter: 5, Ref: setRef, CreatedAt: contractNow}
			if !last.CreatedAt.Equal(contractNow) {
				t.Errorf("created at %v", last.CreatedAt)
			}
			last.CreatedAt = contractNow
			if last != wantEntry {
				t.Errorf("ledger entry\n got %+v\nwant %+v", last, wantEntry)
			}
			sums := map[[2]int64]int{}
			for _, e := range page.Items {
				sums[[2]int64{e.ArticleDetailID, e.BinLocationID}] += e.Quantity
			}
			for _, m := range got {
				if sums[[2]int64{m.article, m.bin}] != m.stock {
					t.Errorf("ledger sum of %d on %d is %d, stock %d", m.article, m.bin, sums[[2]int64{m.article, m.bin}], m.stock)
				}
			}
		})

		t.Run("load locks the article details: a second writer waits for the first to commit", func(t *testing.T) {
			op := stock.Change{ArticleDetailID: 2, At: wh(p.wh2), Quantity: -1}
			loaded := make(chan struct{})
			release := make(chan struct{})
			var order []string
			var mu sync.Mutex
			note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				write(t, db, func(ctx context.Context, s ports.Store) error {
					ws, err := s.Stock().Load(ctx, stock.ScopeOf(op), contractNow)
					if err != nil {
						return err
					}
					close(loaded)
					<-release
					if err := ws.Apply(op, ref); err != nil {
						return err
					}
					note("first commits")
					return s.Stock().Save(ctx, ws)
				})
			}()
			<-loaded
			wg.Add(1)
			go func() {
				defer wg.Done()
				write(t, db, func(ctx context.Context, s ports.Store) error {
					ws, err := s.Stock().Load(ctx, stock.ScopeOf(op), contractNow)
					if err != nil {
						return err
					}
					note("second loaded")
					if err := ws.Apply(op, ref); err != nil {
						return err
					}
					return s.Stock().Save(ctx, ws)
				})
			}()
			time.Sleep(200 * time.Millisecond) // give the second writer time to overtake, were it not blocked
			close(release)
			wg.Wait()
			if !slices.Equal(order, []string{"first commits", "second loaded"}) {
				t.Errorf("order %v: the second writer did not wait for the first", order)
			}
			if got := mappingsNow(t, db, p); got[len(got)-1] != (mappingState{2, p.null2, 2, 0, false, false}) {
				t.Errorf("both changes apply, neither is lost: %+v", got)
			}
		})
	})
}
