package test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// countInstance is another service process on the same database.
func countInstance(t *testing.T, databaseURL string) *application.App {
	t.Helper()
	db, err := bunstore.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return application.New(db, utcNow{}, apitest.Secrets(t))
}

// TestCountsWhileTheWarehouseWorksPostgres: three service instances on one
// PostgreSQL; while workers run stock batches, shipments and picking lists
// on the bins, a counter opens counts over two bins at a time, counts them
// and applies each from two instances at once. After every round: exactly
// one apply succeeded; each of the count's ledger entries leaves the books
// at snapshot + what moved since + (counted − snapshot) (never below 0),
// there is one where and only where that difference is not 0; no mapping
// holds reservations above its stock. At the end the ledger sums equal the
// stock and the kept figures agree.
func TestCountsWhileTheWarehouseWorksPostgres(t *testing.T) {
	databaseURL := testdb.Postgres(t)
	e := newStockEnv(t, databaseURL)
	apps := []*application.App{e.App, countInstance(t, databaseURL), countInstance(t, databaseURL)}
	wh, null := e.newWarehouse("CW", true)
	bins := []int64{null}
	for i := range 5 {
		bins = append(bins, e.newBin(wh, fmt.Sprintf("C-%d", i)))
	}
	var articles []int64
	var seed []application.BatchOperation
	for id := int64(1); id <= 3; id++ {
		articles = append(articles, e.newArticle(id))
		for _, b := range bins {
			seed = append(seed, stockChangeOp(id, 200, stockBin(b)))
		}
	}
	e.mustSucceed("change", seed...)

	ctx, cancel := context.WithTimeout(e.ctx, time.Minute)
	defer cancel()
	// The workers run until the counting has had its rounds: at least
	// three, and for at least four seconds, however slow the machine.
	deadline := time.Now().Add(4 * time.Second)
	var counting atomic.Bool
	counting.Store(true)
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			for n := 0; counting.Load(); n++ {
				app := apps[rng.IntN(len(apps))]
				article := articles[rng.IntN(len(articles))]
				var err error
				switch rng.IntN(3) {
				case 0:
					ops := []application.BatchOperation{stockChangeOp(article, []int{-2, -1, 1, 2, 3}[rng.IntN(5)], stockBin(bins[rng.IntN(len(bins))]))}
					_, err = app.StockBatch(ctx, application.BatchMeta{Key: fmt.Sprintf("cw-%d-%d", i, n), Endpoint: "stock/change", Fingerprint: "f", User: "worker"},
						ops, func(application.BatchResult) ([]byte, error) { return []byte("{}"), nil })
				case 1, 2:
					var id int64
					id, err = app.CreateOrder(ctx, order.NewOrder{Number: fmt.Sprintf("CW-%d-%d", i, n), Details: []order.NewDetail{{ArticleDetailID: article, Quantity: 1 + rng.IntN(2)}}})
					if err != nil {
						break
					}
					if _, err = app.ReservePickingList(ctx, application.OrderRef{ID: id}, &stock.WarehouseSpec{ID: wh}); err != nil || rng.IntN(2) == 0 {
						break
					}
					err = app.ShipOrder(ctx, application.OrderRef{ID: id}, &stock.WarehouseSpec{ID: wh}, true, "worker")
				}
				// A shipment of pieces held on a locked bin is refused by its
				// count: a conflict, as it should be.
				if e, ok := errs.As(err); ok && e.Kind == errs.Conflict && e.Code == stock.BinLocked {
					continue
				}
				if err != nil && errs.KindOf(err) != errs.Invalid {
					t.Errorf("worker %d: %v (%v)", i, err, errs.KindOf(err))
					return
				}
			}
		}()
	}

	rng := rand.New(rand.NewPCG(99, uint64(time.Now().UnixNano())))
	rounds := 0
	for ; (time.Now().Before(deadline) || rounds < 3) && !t.Failed(); rounds++ {
		first := rng.IntN(len(bins))
		pair := []int64{bins[first], bins[(first+1+rng.IntN(len(bins)-1))%len(bins)]}
		countRound(t, ctx, e, apps, rng, wh, pair, rounds)
	}
	counting.Store(false)
	wg.Wait()
	if rounds < 3 {
		t.Errorf("only %d rounds of counting", rounds)
	}
	t.Logf("%d rounds of counting", rounds)
	e.checkLedger()
	requireKeptFigures(t, e.Env)
}

func countRound(t *testing.T, ctx context.Context, e *stockEnv, apps []*application.App, rng *rand.Rand, wh int64, pair []int64, round int) {
	t.Helper()
	app := apps[rng.IntN(len(apps))]
	id, err := app.CreateCount(ctx, application.CountRequest{Warehouse: stock.WarehouseSpec{ID: wh},
		BinLocations: []stock.BinLocationSpec{{ID: pair[0]}, {ID: pair[1]}}, BinsGiven: true, LockBins: round%2 == 1})
	if err != nil {
		t.Fatalf("round %d: open: %v", round, err)
	}
	v, err := app.Count(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ bin, article int64 }
	snapshot, counted, position := map[key]int{}, map[key]int{}, map[int64]int64{}
	for _, b := range v.Bins() {
		position[b.BinLocationID] = b.Position
		var lines []count.Line
		for _, e := range b.Snapshot {
			k := key{b.BinLocationID, e.ArticleDetailID}
			snapshot[k] = e.Stock
			counted[k] = max(0, e.Stock+rng.IntN(9)-5)
			lines = append(lines, count.Line{ArticleDetailID: e.ArticleDetailID, Quantity: counted[k]})
		}
		if err := apps[rng.IntN(len(apps))].CountBin(ctx, id, b.BinLocationID, lines); err != nil {
			t.Fatalf("round %d: count bin %d: %v", round, b.BinLocationID, err)
		}
	}
	// Two instances apply at once: exactly one does.
	results := make([]error, 2)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, results[i] = apps[i].ApplyCount(ctx, application.BatchMeta{Key: fmt.Sprintf("apply-%d-%d", id, i), Endpoint: "counts/apply", Fingerprint: "f", User: "counter"},
				id, func(application.CountApplied) ([]byte, error) { return []byte("{}"), nil })
		}()
	}
	wg.Wait()
	applied := 0
	for _, err := range results {
		switch {
		case err == nil:
			applied++
		case errs.KindOf(err) != errs.Invalid:
			t.Fatalf("round %d: apply reached the client as %v: %v", round, errs.KindOf(err), err)
		}
	}
	if applied != 1 {
		t.Fatalf("round %d: %d applies of count %d succeeded, want 1 (%v)", round, applied, id, results)
	}

	entries := e.ledgerOf(ports.Filter{Property: "stockLedgerEntry.countId", Expression: ports.ExprEqual, Values: []any{id}})
	booked := map[key]bool{}
	for _, en := range entries {
		k := key{en.BinLocationID, en.ArticleDetailID}
		if booked[k] {
			t.Fatalf("round %d: count %d booked %v twice", round, id, k)
		}
		booked[k] = true
		var moved int
		if err := e.DB.Bun().NewRaw(`SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger_entries
WHERE bin_location_id = ? AND article_detail_id = ? AND id > ? AND id < ? AND (count_id IS NULL OR count_id <> ?)`,
			k.bin, k.article, position[k.bin], en.ID, id).Scan(ctx, &moved); err != nil {
			t.Fatal(err)
		}
		want := max(0, snapshot[k]+moved+counted[k]-snapshot[k])
		if en.StockAfter != want || en.Quantity == 0 {
			t.Fatalf("round %d: count %d left %v at %d (moved %+d), want snapshot %d + moved %+d + (counted %d − snapshot %d) = %d",
				round, id, k, en.StockAfter, en.Quantity, snapshot[k], moved, counted[k], snapshot[k], want)
		}
	}
	for k, n := range counted {
		// Found more than the snapshot always books; found less books
		// nothing only when the books already stood at 0.
		if n > snapshot[k] && !booked[k] {
			t.Fatalf("round %d: count %d found %d of %d of %v and booked nothing", round, id, n, snapshot[k], k)
		}
	}
	var over int
	if err := e.DB.Bun().NewRaw("SELECT COUNT(*) FROM stock_mappings WHERE reserved_stock > stock OR reserved_stock < 0").Scan(ctx, &over); err != nil {
		t.Fatal(err)
	}
	if over != 0 {
		t.Fatalf("round %d: %d mappings hold reservations above their stock", round, over)
	}
	if _, err := apps[0].ApplyCount(ctx, application.BatchMeta{User: "counter"}, id, func(application.CountApplied) ([]byte, error) { return nil, nil }); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("round %d: applying count %d again: %v", round, id, err)
	}
}

// ledgerOf lists the ledger entries the filters pick.
func (e *stockEnv) ledgerOf(filters ...ports.Filter) []ports.LedgerRecord {
	e.t.Helper()
	p, err := e.App.StockLedgerEntries(e.ctx, ports.ListQuery{Limit: 10000, Filters: filters})
	if err != nil {
		e.t.Fatal(err)
	}
	return p.Items
}
