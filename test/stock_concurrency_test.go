package test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/test/testdb"
)

// Concurrent stock batches never lose an update, never leave the ledger and
// the stock apart, and never fail a client with a deadlock or serialization
// error: rows are locked in a fixed order and the service retries
// serialization failures itself.

func TestStockConcurrentBatchesPostgres(t *testing.T) {
	stockConcurrently(t, testdb.Postgres(t), 16, 3*time.Second)
}

func TestStockConcurrentBatchesSQLite(t *testing.T) {
	stockConcurrently(t, testdb.SQLite(t), 4, 700*time.Millisecond)
}

// stockWorld is what the workers pick from.
type stockWorld struct {
	warehouses []stockWorldWarehouse
	articles   []int64
	// tracked articles see only change and relocate, so their totals are
	// known: the seed plus every successful change.
	tracked map[int64]bool
}

type stockWorldWarehouse struct {
	id   int64
	code string
	bins []stockWorldBin
}

type stockWorldBin struct {
	id   int64
	code string
}

// location picks any way of naming a location of the world.
func (w *stockWorld) location(rng *rand.Rand) stock.LocationSpec {
	wh := w.warehouses[rng.IntN(len(w.warehouses))]
	bin := wh.bins[rng.IntN(len(wh.bins))]
	switch rng.IntN(6) {
	case 0:
		return stockWarehouse(wh.id)
	case 1:
		return stockWarehouseCode(wh.code)
	case 2, 3:
		return stockBin(bin.id)
	case 4:
		return stockBinCode(bin.code, wh.id)
	default:
		return stockBinCodeIn(bin.code, wh.code)
	}
}

func (w *stockWorld) batch(rng *rand.Rand) (string, []application.BatchOperation) {
	n := 1 + rng.IntN(6)
	ops := make([]application.BatchOperation, n)
	kind := []string{"set", "change", "change", "relocate", "relocate"}[rng.IntN(5)]
	for i := range ops {
		article := w.articles[rng.IntN(len(w.articles))]
		switch kind {
		case "set":
			for w.tracked[article] {
				article = w.articles[rng.IntN(len(w.articles))]
			}
			ops[i] = stockSetOp(article, rng.IntN(30), w.location(rng))
		case "change":
			q := 1 + rng.IntN(8)
			if rng.IntN(2) == 0 {
				q = -q
			}
			ops[i] = stockChangeOp(article, q, w.location(rng))
		case "relocate":
			if rng.IntN(8) == 0 {
				ops[i] = stockMoveAllOp(article, w.location(rng), w.location(rng))
			} else {
				ops[i] = stockMoveOp(article, 1+rng.IntN(8), w.location(rng), w.location(rng))
			}
		}
		ops[i].OperationID = []byte(fmt.Sprint(i))
	}
	return kind, ops
}

func stockConcurrently(t *testing.T, databaseURL string, workers int, duration time.Duration) {
	e := newStockEnv(t, databaseURL)
	w := &stockWorld{tracked: map[int64]bool{}}
	for _, code := range []string{"CW1", "CW2"} {
		id, null := e.newWarehouse(code, true)
		wh := stockWorldWarehouse{id: id, code: code, bins: []stockWorldBin{{null, warehouse.NullBinLocationCode}}}
		for j := range 4 {
			c := fmt.Sprintf("B-%d", j+1)
			wh.bins = append(wh.bins, stockWorldBin{e.newBin(id, c), c})
		}
		w.warehouses = append(w.warehouses, wh)
	}
	for id := int64(1); id <= 8; id++ {
		w.articles = append(w.articles, e.newArticle(id))
		w.tracked[id] = id <= 5
	}
	// Seed: stock on two bins of the first warehouse and in the second; some defaults.
	expected := map[int64]int{}
	var seed []application.BatchOperation
	for _, a := range w.articles {
		seed = append(seed,
			stockChangeOp(a, 20, stockBin(w.warehouses[0].bins[1].id)),
			stockChangeOp(a, 20, stockBin(w.warehouses[0].bins[2].id)),
			stockChangeOp(a, 10, stockWarehouse(w.warehouses[1].id)))
		expected[a] = 50
		if a%2 == 0 {
			if err := e.App.SetDefaultBinLocation(e.ctx, w.warehouses[0].bins[int(a)%4+1].id, a, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	e.mustSucceed("change", seed...)

	ctx, cancel := context.WithTimeout(e.ctx, duration+30*time.Second)
	defer cancel()
	deadline := time.Now().Add(duration)
	type tally struct {
		batches, defaults int
		succeeded         map[string]int
		failed            int
		delta             map[int64]int
	}
	tallies := make([]tally, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			my := tally{succeeded: map[string]int{}, delta: map[int64]int{}}
			defer func() { tallies[i] = my }()
			for n := 0; time.Now().Before(deadline); n++ {
				if rng.IntN(20) == 0 {
					wh := w.warehouses[rng.IntN(len(w.warehouses))]
					bin := wh.bins[1+rng.IntN(len(wh.bins)-1)]
					if err := e.App.SetDefaultBinLocation(ctx, bin.id, w.articles[rng.IntN(len(w.articles))], rng.IntN(3) > 0); err != nil {
						t.Errorf("worker %d: set default: %v", i, err)
						return
					}
					my.defaults++
					continue
				}
				kind, ops := w.batch(rng)
				key := fmt.Sprintf("w%d-%d", i, n)
				var res application.BatchResult
				if _, err := stockRun(ctx, e.App, kind, stockMeta(key), ops, stockCapture(&res)); err != nil {
					t.Errorf("worker %d: %s batch %s failed as a whole: %v", i, kind, key, err)
					return
				}
				my.batches++
				if len(res.Results) != len(ops) {
					t.Errorf("worker %d: %d results for %d operations", i, len(res.Results), len(ops))
					return
				}
				for j, r := range res.Results {
					if !r.Success {
						my.failed++
						continue
					}
					my.succeeded[kind]++
					if c, ok := ops[j].Op.(stock.Change); ok {
						my.delta[c.ArticleDetailID] += c.Quantity
					}
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	batches, defaults, failed := 0, 0, 0
	succeeded := map[string]int{}
	for _, my := range tallies {
		batches += my.batches
		defaults += my.defaults
		failed += my.failed
		for k, n := range my.succeeded {
			succeeded[k] += n
		}
		for a, d := range my.delta {
			expected[a] += d
		}
	}
	t.Logf("%d workers: %d batches, %d default moves; operations succeeded %v, failed %d", workers, batches, defaults, succeeded, failed)
	for _, kind := range []string{"set", "change", "relocate"} {
		if succeeded[kind] == 0 {
			t.Errorf("no %s operation succeeded: the run proves little", kind)
		}
	}

	e.checkLedger()
	var totals []struct {
		Article int64 `bun:"article_detail_id"`
		Total   int64 `bun:"total"`
	}
	if err := e.DB.Bun().NewRaw("SELECT article_detail_id, SUM(stock) AS total FROM stock_mappings GROUP BY article_detail_id").Scan(e.ctx, &totals); err != nil {
		t.Fatal(err)
	}
	got := map[int64]int{}
	for _, r := range totals {
		got[r.Article] = int(r.Total)
	}
	for _, a := range w.articles {
		if w.tracked[a] && got[a] != expected[a] {
			t.Errorf("article %d: total stock %d, but the successful changes imply %d", a, got[a], expected[a])
		}
	}
	var keys, defaultsPerWarehouse int
	if err := e.DB.Bun().NewRaw("SELECT COUNT(*) FROM idempotency_keys").Scan(e.ctx, &keys); err != nil {
		t.Fatal(err)
	}
	if keys != batches+1 {
		t.Errorf("%d idempotency keys stored for %d batches", keys, batches+1)
	}
	if err := e.DB.Bun().NewRaw(`SELECT COUNT(*) FROM (SELECT article_detail_id, warehouse_id FROM stock_mappings
WHERE is_default GROUP BY article_detail_id, warehouse_id HAVING COUNT(*) > 1) AS x`).Scan(e.ctx, &defaultsPerWarehouse); err != nil {
		t.Fatal(err)
	}
	if defaultsPerWarehouse != 0 {
		t.Errorf("%d products have more than one default in a warehouse", defaultsPerWarehouse)
	}
	requireKeptFigures(t, e.Env)
}

// stockWaiting counts the other sessions of the test database that wait
// for a lock.
func (e *stockEnv) stockWaiting() int {
	e.t.Helper()
	var n int
	if err := e.DB.Bun().NewRaw(`SELECT COUNT(*) FROM pg_stat_activity
WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`).Scan(e.ctx, &n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// stockUntil polls cond for up to ten seconds.
func stockUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}

// A warehouse deleted while a batch puts stock into it: whichever comes
// first wins cleanly, the batch never fails as a whole (not even with a
// foreign key violation on the unknown bin location).
func TestStockWarehouseDeletedUnderABatch(t *testing.T) {
	t.Run("delete first", func(t *testing.T) {
		e := newStockEnv(t, testdb.Postgres(t))
		e.newWarehouse("WH1", true)
		wh2, _ := e.newWarehouse("WH2", true)
		p := e.newArticle(1)
		// A transaction that deletes the warehouse as DeleteWarehouse does
		// and has not committed yet.
		holder, err := e.DB.Bun().BeginTx(e.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Rollback() //nolint:errcheck
		for _, q := range []string{"SELECT id FROM warehouses WHERE id = ? FOR UPDATE", "DELETE FROM bin_locations WHERE warehouse_id = ?", "DELETE FROM warehouses WHERE id = ?"} {
			if _, err := holder.ExecContext(e.ctx, q, wh2); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error, 1)
		var res application.BatchResult
		go func() {
			_, err := stockRun(e.ctx, e.App, "change", stockMeta("into-deleted"),
				[]application.BatchOperation{stockChangeOp(p, 1, stockWarehouse(wh2))}, stockCapture(&res))
			done <- err
		}()
		stockUntil(t, "the batch waits", func() bool { return e.stockWaiting() > 0 })
		if err := holder.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("the batch failed as a whole: %v", err)
		}
		stockExpectResults(t, res, "does not exist")
		e.checkLedger()
	})
	t.Run("batch first", func(t *testing.T) {
		e := newStockEnv(t, testdb.Postgres(t))
		e.newWarehouse("WH1", true)
		wh2, null2 := e.newWarehouse("WH2", true)
		p := e.newArticle(1)
		// Hold the article so that the batch stops after resolving its
		// locations, before it writes.
		holder, err := e.DB.Bun().BeginTx(e.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Rollback() //nolint:errcheck
		if _, err := holder.ExecContext(e.ctx, "SELECT id FROM article_details WHERE id = ? FOR UPDATE", p); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		var res application.BatchResult
		go func() {
			_, err := stockRun(e.ctx, e.App, "change", stockMeta("into-deleted"),
				[]application.BatchOperation{stockChangeOp(p, 1, stockWarehouse(wh2))}, stockCapture(&res))
			done <- err
		}()
		stockUntil(t, "the batch waits", func() bool { return e.stockWaiting() > 0 })
		deleted := make(chan error, 1)
		go func() { deleted <- e.App.DeleteWarehouse(e.ctx, wh2) }()
		stockUntil(t, "the delete waits or ends", func() bool { return len(deleted) > 0 || e.stockWaiting() > 1 })
		if err := holder.Rollback(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("the batch failed as a whole: %v", err)
		}
		stockExpectResults(t, res, "")
		if err := <-deleted; errs.KindOf(err) != errs.Invalid {
			t.Errorf("deleting a warehouse that just got stock: %v, want invalid", err)
		}
		e.expectStock("after the race", p, map[int64]int{null2: 1})
		e.checkLedger()
	})
}
