package test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The stock scenarios (locations, the default strategy, set, change and
// relocate, default mappings, the ledger, operations that fail alone),
// driven through the use cases. Identifiers of this file and its siblings
// (stock_*_test.go) start with "stock" so that they stay out of the way of
// other scenarios.

// stockEnv is a running service with helpers that arrange and inspect stock.
type stockEnv struct {
	*apitest.Env
	t    *testing.T
	ctx  context.Context
	keys int
}

func newStockEnv(t *testing.T, databaseURL string) *stockEnv {
	t.Helper()
	return &stockEnv{Env: apitest.New(t, databaseURL), t: t, ctx: apitest.Admin()}
}

// newWarehouse creates a warehouse and returns its id and the id of its
// unknown bin location.
func (e *stockEnv) newWarehouse(code string, forSale bool) (id, nullBin int64) {
	e.t.Helper()
	id, err := e.App.CreateWarehouse(e.ctx, warehouse.Details{Code: code, Name: "Warehouse " + code, StockAvailableForSale: forSale})
	if err != nil {
		e.t.Fatalf("create warehouse %s: %v", code, err)
	}
	w, err := e.App.Warehouse(e.ctx, id)
	if err != nil {
		e.t.Fatalf("read warehouse %s: %v", code, err)
	}
	return id, w.NullBinLocationID()
}

func (e *stockEnv) newBin(warehouseID int64, code string) int64 {
	e.t.Helper()
	id, err := e.App.CreateBinLocation(e.ctx, warehouseID, code)
	if err != nil {
		e.t.Fatalf("create bin location %s: %v", code, err)
	}
	return id
}

func (e *stockEnv) newArticle(id int64) int64 {
	e.t.Helper()
	got, err := e.App.CreateArticleDetail(e.ctx, id, fmt.Sprintf("SKU-%d", id), "", 0)
	if err != nil {
		e.t.Fatalf("create article detail %d: %v", id, err)
	}
	return got
}

// trackLots makes an article detail that holds nothing lot-tracked.
func (e *stockEnv) trackLots(id int64) {
	e.t.Helper()
	tracked := true
	if err := e.App.UpdateArticleDetailWith(e.ctx, id, application.ArticleDetailChange{LotTracked: &tracked}); err != nil {
		e.t.Fatalf("track lots of article detail %d: %v", id, err)
	}
}

func (e *stockEnv) nextKey() string {
	e.keys++
	return fmt.Sprintf("key-%d", e.keys)
}

// stockRun calls the use case of kind ("set", "change", "relocate").
func stockRun(ctx context.Context, app *application.App, kind string, meta application.BatchMeta,
	ops []application.BatchOperation, render application.RenderBatch) (application.BatchOutcome, error) {
	meta.Endpoint = "stock/" + kind
	switch kind {
	case "set", "change", "relocate":
		return app.StockBatch(ctx, meta, ops, render)
	}
	panic("unknown stock batch kind " + kind)
}

// stockMeta is the meta of a batch whose body is identified by its key.
func stockMeta(key string) application.BatchMeta {
	return application.BatchMeta{Key: key, Fingerprint: "body-of-" + key, User: "tester"}
}

// stockCapture is a render func that remembers the result it rendered (the
// last one: a retried transaction renders again).
func stockCapture(into *application.BatchResult) application.RenderBatch {
	return func(r application.BatchResult) ([]byte, error) {
		*into = r
		return json.Marshal(r)
	}
}

// batch runs one batch under a fresh key and returns its result.
func (e *stockEnv) batch(kind string, ops ...application.BatchOperation) application.BatchResult {
	e.t.Helper()
	return e.batchWithKey(kind, e.nextKey(), ops...)
}

func (e *stockEnv) batchWithKey(kind, key string, ops ...application.BatchOperation) application.BatchResult {
	e.t.Helper()
	var res application.BatchResult
	out, err := stockRun(e.ctx, e.App, kind, stockMeta(key), ops, stockCapture(&res))
	if err != nil {
		e.t.Fatalf("%s batch %s: %v", kind, key, err)
	}
	if out.Replayed {
		e.t.Fatalf("%s batch %s was replayed; a fresh key was expected", kind, key)
	}
	if len(res.Results) != len(ops) {
		e.t.Fatalf("%s batch %s: %d results for %d operations", kind, key, len(res.Results), len(ops))
	}
	return res
}

// mustSucceed runs a batch that must succeed completely.
func (e *stockEnv) mustSucceed(kind string, ops ...application.BatchOperation) {
	e.t.Helper()
	res := e.batch(kind, ops...)
	for i, r := range res.Results {
		if !r.Success {
			e.t.Fatalf("%s operation %d failed: %s", kind, i, r.Message)
		}
	}
}

// Location specs.

func stockWarehouse(id int64) stock.LocationSpec {
	return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: id}}
}

func stockWarehouseCode(code string) stock.LocationSpec {
	return stock.LocationSpec{Warehouse: &stock.WarehouseSpec{Code: code}}
}

func stockBin(id int64) stock.LocationSpec {
	return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
}

func stockBinCode(code string, warehouseID int64) stock.LocationSpec {
	return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: code, WarehouseID: warehouseID}}
}

func stockBinCodeIn(code, warehouseCode string) stock.LocationSpec {
	return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: code, WarehouseCode: warehouseCode}}
}

// Operations.

func stockSetOp(article int64, quantity int, at stock.LocationSpec) application.BatchOperation {
	return application.BatchOperation{Op: stock.Set{ArticleDetailID: article, Quantity: quantity, At: at}}
}

func stockChangeOp(article int64, quantity int, at stock.LocationSpec) application.BatchOperation {
	return application.BatchOperation{Op: stock.Change{ArticleDetailID: article, Quantity: quantity, At: at}}
}

func stockMoveOp(article int64, quantity int, from, to stock.LocationSpec) application.BatchOperation {
	return application.BatchOperation{Op: stock.Relocate{ArticleDetailID: article, Quantity: quantity, From: from, To: to}}
}

func stockMoveAllOp(article int64, from, to stock.LocationSpec) application.BatchOperation {
	return application.BatchOperation{Op: stock.Relocate{ArticleDetailID: article, All: true, From: from, To: to}}
}

// Inspection.

// mapping is the article's mapping on bin, nil when there is none.
func (e *stockEnv) mapping(article, bin int64) *ports.MappingView {
	e.t.Helper()
	v, err := e.App.BinLocation(e.ctx, bin)
	if err != nil {
		e.t.Fatalf("read bin location %d: %v", bin, err)
	}
	for _, m := range v.Mappings {
		if m.ArticleDetailID == article {
			return &m
		}
	}
	return nil
}

func (e *stockEnv) stockOn(article, bin int64) int {
	e.t.Helper()
	if m := e.mapping(article, bin); m != nil {
		return m.Stock
	}
	return 0
}

// expectStock checks the article's stock on each named bin.
func (e *stockEnv) expectStock(what string, article int64, want map[int64]int) {
	e.t.Helper()
	for bin, n := range want {
		if got := e.stockOn(article, bin); got != n {
			e.t.Errorf("%s: stock of article %d on bin %d = %d, want %d", what, article, bin, got, n)
		}
	}
}

func (e *stockEnv) ledger(filters ...ports.Filter) []ports.LedgerRecord {
	e.t.Helper()
	p, err := e.App.StockLedgerEntries(e.ctx, ports.ListQuery{Limit: 10000, Filters: filters})
	if err != nil {
		e.t.Fatalf("read ledger: %v", err)
	}
	return p.Items
}

func stockFilter(property string, value any) ports.Filter {
	return ports.Filter{Property: "stockLedgerEntry." + property, Expression: ports.ExprEqual, Values: []any{value}}
}

func (e *stockEnv) ledgerCount() int {
	e.t.Helper()
	return len(e.ledger())
}

// stockPair is an article on a bin location.
type stockPair struct{ bin, article int64 }

// checkLedger asserts the ledger's invariants: for every mapping the sum of
// its ledger entries equals its stock (and pairs without a mapping sum to
// 0), no stock is negative, and the last entry's stockAfter is the stock.
func (e *stockEnv) checkLedger() {
	e.t.Helper()
	db := e.DB.Bun()
	var mappings []struct {
		Bin     int64 `bun:"bin_location_id"`
		Article int64 `bun:"article_detail_id"`
		Stock   int64 `bun:"stock"`
	}
	if err := db.NewRaw("SELECT bin_location_id, article_detail_id, stock FROM stock_mappings").Scan(e.ctx, &mappings); err != nil {
		e.t.Fatalf("read mappings: %v", err)
	}
	var sums []struct {
		Bin     int64 `bun:"bin_location_id"`
		Article int64 `bun:"article_detail_id"`
		Sum     int64 `bun:"total"`
		Last    int64 `bun:"last_after"`
	}
	if err := db.NewRaw(`SELECT l.bin_location_id, l.article_detail_id, SUM(l.quantity) AS total,
  (SELECT x.stock_after FROM stock_ledger_entries AS x
    WHERE x.bin_location_id = l.bin_location_id AND x.article_detail_id = l.article_detail_id
    ORDER BY x.id DESC LIMIT 1) AS last_after
FROM stock_ledger_entries AS l GROUP BY l.bin_location_id, l.article_detail_id`).Scan(e.ctx, &sums); err != nil {
		e.t.Fatalf("read ledger sums: %v", err)
	}
	stockOf := map[stockPair]int64{}
	for _, m := range mappings {
		if m.Stock < 0 {
			e.t.Errorf("negative stock %d of article %d on bin %d", m.Stock, m.Article, m.Bin)
		}
		stockOf[stockPair{m.Bin, m.Article}] = m.Stock
	}
	seen := map[stockPair]bool{}
	for _, s := range sums {
		p := stockPair{s.Bin, s.Article}
		seen[p] = true
		if s.Sum != stockOf[p] {
			e.t.Errorf("ledger of article %d on bin %d sums to %d, stock is %d", s.Article, s.Bin, s.Sum, stockOf[p])
		}
		if s.Last != stockOf[p] {
			e.t.Errorf("last ledger entry of article %d on bin %d says stockAfter %d, stock is %d", s.Article, s.Bin, s.Last, stockOf[p])
		}
	}
	for p, n := range stockOf {
		if !seen[p] && n != 0 {
			e.t.Errorf("article %d on bin %d has stock %d and no ledger entries", p.article, p.bin, n)
		}
	}
}

// expectResults checks each result: "" means success, otherwise the
// operation must fail with a message containing the text.
func stockExpectResults(t *testing.T, res application.BatchResult, want ...string) {
	t.Helper()
	if len(res.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(res.Results), len(want))
	}
	failures := 0
	for i, w := range want {
		r := res.Results[i]
		switch {
		case w == "" && !r.Success:
			t.Errorf("operation %d failed (%s), want success", i, r.Message)
		case w != "" && r.Success:
			t.Errorf("operation %d succeeded, want a failure mentioning %q", i, w)
		case w != "" && !strings.Contains(r.Message, w):
			t.Errorf("operation %d failed with %q, want a message mentioning %q", i, r.Message, w)
		case w == "" && r.Message != "":
			t.Errorf("operation %d succeeded with a message %q", i, r.Message)
		}
		if w != "" {
			failures++
		}
	}
	if res.Success != (failures == 0) {
		t.Errorf("batch success = %v with %d failed operations", res.Success, failures)
	}
	if failures == 0 && res.Message != "" {
		t.Errorf("successful batch has a message %q", res.Message)
	}
	if failures > 0 && !strings.Contains(res.Message, fmt.Sprint(failures)) {
		t.Errorf("batch message %q does not name how many (%d) failed", res.Message, failures)
	}
}

// The scenarios.

func TestStockLocationForms(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh1, null1 := e.newWarehouse("WH1", true)
		wh2, null2 := e.newWarehouse("WH2", true)
		a1 := e.newBin(wh1, "A-01")
		a2 := e.newBin(wh2, "A-01") // the same code in another warehouse
		p := e.newArticle(10)

		res := e.batch("change",
			stockChangeOp(p, 1, stockWarehouse(wh1)),                                                                                       // 0
			stockChangeOp(p, 1, stockWarehouseCode("WH1")),                                                                                 // 1
			stockChangeOp(p, 1, stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: wh1, Code: "WH1"}}),                                 // 2
			stockChangeOp(p, 1, stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: wh1, Code: "WH2"}}),                                 // 3
			stockChangeOp(p, 10, stockBin(a1)),                                                                                             // 4
			stockChangeOp(p, 20, stockBinCode("A-01", wh2)),                                                                                // 5
			stockChangeOp(p, 100, stockBinCodeIn("A-01", "WH1")),                                                                           // 6
			stockChangeOp(p, 1, stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: a1, WarehouseID: wh1}}),                         // 7
			stockChangeOp(p, 1, stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: a1, WarehouseID: wh2}}),                         // 8
			stockChangeOp(p, 1, stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: a1, Code: "B-07"}}),                             // 9
			stockChangeOp(p, 1, stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: "A-01"}}),                                     // 10
			stockChangeOp(p, 1, stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: wh1}, BinLocation: &stock.BinLocationSpec{ID: a1}}), // 11
			stockChangeOp(p, 1, stock.LocationSpec{}),                                                                                      // 12
			stockChangeOp(p, 1, stockWarehouse(999999)),                                                                                    // 13
			stockChangeOp(p, 1, stockWarehouseCode("NOPE")),                                                                                // 14
			stockChangeOp(p, 1, stockBin(999999)),                                                                                          // 15
			stockChangeOp(p, 1, stockBinCode("Z-99", wh1)),                                                                                 // 16
			stockChangeOp(p, 1, stockBinCodeIn("A-01", "NOPE")),                                                                            // 17
			stockChangeOp(p, 1, stockBin(null2)),                                                                                           // 18: the unknown bin location by id
			stockChangeOp(p, 1, stockBinCodeIn(warehouse.NullBinLocationCode, "WH2")),                                                      // 19
		)
		stockExpectResults(t, res,
			"", "", "",
			"name different warehouses",
			"", "", "", "",
			`is not in warehouse "WH2"`,
			"name different bin locations",
			"needs an id, or a code",
			"not both",
			"warehouse or binLocation is required",
			"warehouse 999999 does not exist",
			`warehouse with code "NOPE" does not exist`,
			"bin location 999999 does not exist",
			`bin location with code "Z-99" does not exist in warehouse "WH1"`,
			`warehouse with code "NOPE" does not exist`,
			"", "",
		)
		e.expectStock("after the location forms", p, map[int64]int{null1: 3, a1: 111, a2: 20, null2: 2})
		e.checkLedger()
	})
}

func TestStockDefaultStrategy(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, null := e.newWarehouse("WH1", true)
		wh2, null2 := e.newWarehouse("WH2", true)
		a := e.newBin(wh, "A-01")
		b := e.newBin(wh, "B-01")
		c := e.newBin(wh, "C-01")
		d := e.newBin(wh, "D-01")
		p := e.newArticle(1)

		// In without a default: the unknown bin location.
		e.mustSucceed("change", stockChangeOp(p, 5, stockWarehouse(wh)))
		e.expectStock("in without a default", p, map[int64]int{null: 5})

		// In with a default: the default bin location.
		if err := e.App.SetDefaultBinLocation(e.ctx, b, p, true); err != nil {
			t.Fatal(err)
		}
		e.mustSucceed("change", stockChangeOp(p, 3, stockWarehouse(wh)))
		e.expectStock("in with a default", p, map[int64]int{null: 5, b: 3})

		// A set upwards and a relocation destination go to the default too.
		e.mustSucceed("set", stockSetOp(p, 10, stockWarehouse(wh)))
		e.expectStock("set upwards", p, map[int64]int{null: 5, b: 5})
		e.mustSucceed("change", stockChangeOp(p, 4, stockBin(null2)))
		e.mustSucceed("relocate", stockMoveOp(p, 4, stockWarehouse(wh2), stockWarehouse(wh)))
		e.expectStock("relocated in", p, map[int64]int{null: 5, b: 9, null2: 0})

		// Out: default first, then by stock ascending, then code, the
		// unknown bin location last.
		e.mustSucceed("set", stockSetOp(p, 4, stockBin(a)), stockSetOp(p, 2, stockBin(d)), stockSetOp(p, 2, stockBin(c)),
			stockSetOp(p, 3, stockBin(b)))
		// b(default) 3, c 2, d 2, a 4, null 5
		e.mustSucceed("change", stockChangeOp(p, -4, stockWarehouse(wh)))
		e.expectStock("out: default, then the least stock, then code", p, map[int64]int{b: 0, c: 1, d: 2, a: 4, null: 5})
		if m := e.mapping(p, b); m == nil || !m.DefaultMapping {
			t.Errorf("the emptied default mapping must stay: %+v", m)
		}
		e.mustSucceed("change", stockChangeOp(p, -9, stockWarehouse(wh)))
		e.expectStock("out: the unknown bin location last", p, map[int64]int{c: 0, d: 0, a: 0, null: 3})
		if e.mapping(p, c) != nil || e.mapping(p, d) != nil || e.mapping(p, a) != nil {
			t.Errorf("emptied mappings that are not default must be removed")
		}
		// The order of the outgoing entries of that change.
		var order []int64
		for _, l := range e.ledger(stockFilter("idempotencyKey", fmt.Sprintf("key-%d", e.keys))) {
			if l.Type != stock.EntryOutgoing {
				t.Errorf("entry type %s, want outgoing", l.Type)
			}
			order = append(order, l.BinLocationID)
		}
		if fmt.Sprint(order) != fmt.Sprint([]int64{c, d, a, null}) {
			t.Errorf("stock left the bins in the order %v, want %v (c, d, a, null)", order, []int64{c, d, a, null})
		}

		// Set downwards takes out by the same strategy.
		e.mustSucceed("set", stockSetOp(p, 3, stockBin(c)), stockSetOp(p, 6, stockBin(b)))
		// b 6 (default), c 3, null 3: total 12 → 4 takes b 6, then c 2.
		e.mustSucceed("set", stockSetOp(p, 4, stockWarehouse(wh)))
		e.expectStock("set downwards", p, map[int64]int{b: 0, c: 1, null: 3})

		// A relocation out of a warehouse into a bin inside it never takes
		// from that bin.
		e.mustSucceed("set", stockSetOp(p, 5, stockBin(a)))
		// b 0 (default), c 1, a 5, null 3
		res := e.batch("relocate",
			stockMoveOp(p, 5, stockWarehouse(wh), stockBin(a)),
			stockMoveOp(p, 4, stockWarehouse(wh), stockBin(a)),
		)
		stockExpectResults(t, res, "requested 5, available 4", "")
		e.expectStock("relocated inside the warehouse", p, map[int64]int{a: 9, c: 0, null: 0})
		e.checkLedger()
	})
}

func TestStockSet(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, null := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		b := e.newBin(wh, "B-01")
		c := e.newBin(wh, "C-01")
		p := e.newArticle(1)
		q := e.newArticle(2)

		before := time.Now().Add(-time.Second)
		stamped := func(what string, article, bin int64) {
			t.Helper()
			m := e.mapping(article, bin)
			if m == nil {
				t.Errorf("%s: no mapping of article %d on bin %d", what, article, bin)
				return
			}
			if m.LastStockTake == nil || m.LastStockTake.Before(before) || m.LastStockTake.After(time.Now().Add(time.Second)) {
				t.Errorf("%s: lastStockTake %v, want a stamp after %v", what, m.LastStockTake, before)
			}
		}
		entries := func(key string) []ports.LedgerRecord {
			return e.ledger(stockFilter("idempotencyKey", key))
		}

		// On a bin: up, down, unchanged.
		e.mustSucceed("set", stockSetOp(p, 10, stockBin(a)))
		up := entries(fmt.Sprintf("key-%d", e.keys))
		if len(up) != 1 || up[0].Quantity != 10 || up[0].StockAfter != 10 || up[0].Type != stock.EntryStocktake {
			t.Errorf("set up: entries %+v, want one stocktake +10", up)
		}
		stamped("set up", p, a)
		e.mustSucceed("set", stockSetOp(p, 4, stockBin(a)))
		down := entries(fmt.Sprintf("key-%d", e.keys))
		if len(down) != 1 || down[0].Quantity != -6 || down[0].StockAfter != 4 || down[0].Type != stock.EntryStocktake {
			t.Errorf("set down: entries %+v, want one stocktake -6", down)
		}
		e.mustSucceed("change", stockChangeOp(p, 7, stockBin(b)))
		if m := e.mapping(p, b); m == nil || m.LastStockTake != nil {
			t.Fatalf("a change is no stocktake: %+v", m)
		}
		n := e.ledgerCount()
		e.mustSucceed("set", stockSetOp(p, 7, stockBin(b)))
		if got := e.ledgerCount(); got != n {
			t.Errorf("a set that changes nothing wrote %d ledger entries", got-n)
		}
		stamped("set unchanged", p, b)
		e.expectStock("set on bins", p, map[int64]int{a: 4, b: 7})

		// A set to 0 on a bin without a mapping creates nothing.
		e.mustSucceed("set", stockSetOp(p, 0, stockBin(c)))
		if m := e.mapping(p, c); m != nil {
			t.Errorf("a set to 0 left an empty mapping: %+v", m)
		}

		// On a warehouse: the total there.
		if err := e.App.SetDefaultBinLocation(e.ctx, b, q, true); err != nil {
			t.Fatal(err)
		}
		e.mustSucceed("change", stockChangeOp(q, 5, stockBin(a)), stockChangeOp(q, 3, stockBin(c)))
		e.mustSucceed("set", stockSetOp(q, 10, stockWarehouse(wh)))
		e.expectStock("warehouse set up", q, map[int64]int{a: 5, b: 2, c: 3})
		for _, bin := range []int64{a, b, c} {
			stamped("warehouse set up", q, bin)
		}
		e.mustSucceed("set", stockSetOp(q, 4, stockWarehouse(wh)))
		// default b 2 first, then c 3 (less than a), then 1 of a.
		e.expectStock("warehouse set down", q, map[int64]int{a: 4, b: 0, c: 0})
		if e.mapping(q, c) != nil {
			t.Errorf("the emptied mapping on c must be removed")
		}
		n = e.ledgerCount()
		e.mustSucceed("set", stockSetOp(q, 4, stockWarehouse(wh)))
		if got := e.ledgerCount(); got != n {
			t.Errorf("a warehouse set that changes nothing wrote %d ledger entries", got-n)
		}
		stamped("warehouse set unchanged", q, a)
		stamped("warehouse set unchanged (default)", q, b)

		// Set up on a warehouse without a default goes to the unknown bin.
		e.mustSucceed("set", stockSetOp(p, 20, stockWarehouse(wh)))
		e.expectStock("warehouse set without default", p, map[int64]int{a: 4, b: 7, null: 9})

		// A negative set fails only itself.
		res := e.batch("set", stockSetOp(p, -1, stockBin(a)), stockSetOp(p, 1, stockBin(a)))
		stockExpectResults(t, res, "must not be negative", "")
		e.expectStock("after the negative set", p, map[int64]int{a: 1})
		e.checkLedger()
	})
}

func TestStockRelocate(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh1, null1 := e.newWarehouse("WH1", true)
		wh2, null2 := e.newWarehouse("WH2", true)
		a := e.newBin(wh1, "A-01")
		b := e.newBin(wh1, "B-01")
		x := e.newBin(wh2, "X-01")
		p := e.newArticle(1)
		e.mustSucceed("change", stockChangeOp(p, 10, stockBin(a)))

		res := e.batch("relocate",
			application.BatchOperation{OperationID: []byte(`"first"`), Op: stock.Relocate{ArticleDetailID: p, Quantity: 3, From: stockBin(a), To: stockBin(b)}}, // 0
			stockMoveOp(p, 8, stockBin(a), stockBin(b)),                       // 1: 7 left
			stockMoveOp(p, 0, stockBin(a), stockBin(b)),                       // 2
			stockMoveOp(p, -1, stockBin(a), stockBin(b)),                      // 3
			stockMoveOp(p, 1, stockBin(a), stockBin(a)),                       // 4
			stockMoveOp(p, 1, stockBin(a), stockBinCodeIn("A-01", "WH1")),     // 5: the same bin written two ways
			stockMoveOp(p, 1, stockWarehouse(wh1), stockWarehouseCode("WH1")), // 6
			stockMoveAllOp(p, stockBin(null1), stockWarehouse(wh1)),           // 7: would go back to the unknown bin
			stockMoveOp(p, 2, stockBin(a), stockBin(x)),                       // 8: across warehouses
			stockMoveOp(p, 1, stockBin(a), stockWarehouse(wh2)),               // 9: to the unknown bin of WH2
			stockMoveAllOp(p, stockBin(a), stockBinCode("X-01", wh2)),         // 10: the remaining 4
			stockMoveAllOp(p, stockBin(a), stockBin(b)),                       // 11: nothing left: moves 0
			stockMoveOp(p, 1, stockBin(a), stockBin(999999)),                  // 12
			stockMoveOp(p, 1, stock.LocationSpec{}, stockBin(b)),              // 13
			stockMoveOp(999, 1, stockBin(b), stockBin(a)),                     // 14
			stockMoveAllOp(p, stockWarehouse(wh2), stockWarehouse(wh1)),       // 15: 7 from WH2 to the unknown bin of WH1
		)
		stockExpectResults(t, res,
			"", "requested 8, available 7", "must be positive", "must be positive",
			"same location", "same location", "same location", "same bin location",
			"", "", "", "", "bin location 999999 does not exist", "source.warehouse or source.binLocation is required",
			"article detail 999 does not exist", "",
		)
		if string(res.Results[0].OperationID) != `"first"` {
			t.Errorf("operation id %s not echoed", res.Results[0].OperationID)
		}
		e.expectStock("after relocating", p, map[int64]int{a: 0, b: 3, x: 0, null2: 0, null1: 7})
		moved := e.ledger(stockFilter("idempotencyKey", fmt.Sprintf("key-%d", e.keys)))
		sum := 0
		for _, l := range moved {
			if l.Type != stock.EntryRelocation {
				t.Errorf("entry type %s, want relocation", l.Type)
			}
			sum += l.Quantity
		}
		if sum != 0 {
			t.Errorf("relocation entries sum to %d, want 0", sum)
		}
		if len(moved) == 0 || moved[0].Ref.OperationID != `"first"` || moved[0].Ref.User != "tester" {
			t.Errorf("first relocation entry %+v does not carry the operation id and user", moved[0])
		}
		e.checkLedger()
	})
}

func TestStockOperationsFailAlone(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, null := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		p := e.newArticle(1)

		res := e.batch("change",
			stockChangeOp(p, 5, stockBin(a)),            // 0
			stockChangeOp(999, 5, stockBin(a)),          // 1
			stockChangeOp(0, 5, stockBin(a)),            // 2
			stockChangeOp(p, 5, stockWarehouse(999999)), // 3
			stockChangeOp(p, 5, stockBin(999999)),       // 4
			stockChangeOp(p, 0, stockBin(a)),            // 5
			stockChangeOp(p, -10, stockBin(a)),          // 6
			stockChangeOp(p, -3, stockBin(a)),           // 7: sees the +5
			stockChangeOp(p, -3, stockBin(a)),           // 8: only 2 left
			application.BatchOperation{OperationID: []byte(`7`), Problem: "quantity must be an integer"}, // 9
			stockChangeOp(p, -2, stockWarehouse(wh)),                                                     // 10
			stockChangeOp(p, -1, stockWarehouse(wh)),                                                     // 11
		)
		stockExpectResults(t, res,
			"", "article detail 999 does not exist", "articleDetailId must be a positive integer",
			"warehouse 999999 does not exist", "bin location 999999 does not exist", "must not be 0",
			`insufficient stock of article detail 1 at bin location "A-01" in warehouse "WH1": requested 10, available 5`,
			"", "requested 3, available 2", "quantity must be an integer", "",
			`at warehouse "WH1": requested 1, available 0`,
		)
		if res.Message != "9 of 12 operations failed" {
			t.Errorf("batch message %q", res.Message)
		}
		if string(res.Results[9].OperationID) != "7" {
			t.Errorf("the failed operation lost its id: %s", res.Results[9].OperationID)
		}
		if res.IdempotencyKey != fmt.Sprintf("key-%d", e.keys) || res.CreatedAt.IsZero() {
			t.Errorf("key %q, createdAt %v", res.IdempotencyKey, res.CreatedAt)
		}
		e.expectStock("after the failures", p, map[int64]int{a: 0, null: 0})
		if got := e.ledgerCount(); got != 3 {
			t.Errorf("%d ledger entries, want 3 (one per successful operation)", got)
		}

		// The same in a set batch: a failure between two sets.
		res = e.batch("set",
			stockSetOp(p, 5, stockBin(a)), stockSetOp(999, 1, stockBin(a)), stockSetOp(p, -5, stockBin(a)),
			stockSetOp(p, 3, stockWarehouseCode("NOPE")), stockSetOp(p, 8, stockWarehouse(wh)))
		stockExpectResults(t, res, "", "does not exist", "must not be negative", "does not exist", "")
		e.expectStock("after the sets", p, map[int64]int{a: 5, null: 3})
		e.checkLedger()
	})
}

func TestStockDefaultMappingAndDeleteRules(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh1, _ := e.newWarehouse("WH1", true)
		wh2, null2 := e.newWarehouse("WH2", true)
		a := e.newBin(wh1, "A-01")
		b := e.newBin(wh1, "B-01")
		c := e.newBin(wh1, "C-01")
		p := e.newArticle(1)
		q := e.newArticle(2)
		kind := func(what string, err error, want errs.Kind) {
			t.Helper()
			if errs.KindOf(err) != want || err == nil {
				t.Errorf("%s: got %v, want a %v error", what, err, want)
			}
		}

		// Setting and moving the default.
		if err := e.App.SetDefaultBinLocation(e.ctx, a, p, true); err != nil {
			t.Fatal(err)
		}
		if m := e.mapping(p, a); m == nil || !m.DefaultMapping || m.Stock != 0 {
			t.Fatalf("default mapping on a: %+v", m)
		}
		e.mustSucceed("change", stockChangeOp(p, 2, stockBin(a)))
		if err := e.App.SetDefaultBinLocation(e.ctx, b, p, true); err != nil {
			t.Fatal(err)
		}
		if m := e.mapping(p, a); m == nil || m.DefaultMapping || m.Stock != 2 {
			t.Errorf("the old default keeps its stock and is no longer default: %+v", m)
		}
		if m := e.mapping(p, b); m == nil || !m.DefaultMapping {
			t.Errorf("the default moved to b: %+v", m)
		}
		kind("default on the unknown bin location", e.App.SetDefaultBinLocation(e.ctx, null2, p, true), errs.Invalid)
		kind("default on an unknown bin", e.App.SetDefaultBinLocation(e.ctx, 999999, p, true), errs.NotFound)
		kind("default of an unknown article", e.App.SetDefaultBinLocation(e.ctx, a, 999, true), errs.NotFound)

		// Bin locations: not while they hold stock or are a default.
		kind("delete a bin with stock", e.App.DeleteBinLocation(e.ctx, a), errs.Invalid)
		kind("delete a default bin", e.App.DeleteBinLocation(e.ctx, b), errs.Invalid)
		kind("delete the unknown bin location", e.App.DeleteBinLocation(e.ctx, null2), errs.Invalid)
		e.mustSucceed("change", stockChangeOp(p, -2, stockBin(a)))
		if err := e.App.DeleteBinLocation(e.ctx, a); err != nil {
			t.Errorf("delete an emptied bin: %v", err)
		}
		if err := e.App.SetDefaultBinLocation(e.ctx, b, p, false); err != nil {
			t.Fatal(err)
		}
		if m := e.mapping(p, b); m != nil {
			t.Errorf("an empty mapping that is no longer default must go: %+v", m)
		}
		if err := e.App.DeleteBinLocation(e.ctx, b); err != nil {
			t.Errorf("delete a bin that is no longer default: %v", err)
		}
		if err := e.App.DeleteBinLocation(e.ctx, c); err != nil {
			t.Errorf("delete an unused bin: %v", err)
		}

		// Warehouses: not while they hold stock (even on the unknown bin).
		e.mustSucceed("change", stockChangeOp(q, 4, stockWarehouse(wh2)))
		kind("delete a warehouse with stock", e.App.DeleteWarehouse(e.ctx, wh2), errs.Invalid)
		e.mustSucceed("relocate", stockMoveAllOp(q, stockWarehouse(wh2), stockWarehouse(wh1)))
		if err := e.App.DeleteWarehouse(e.ctx, wh2); err != nil {
			t.Errorf("delete an emptied warehouse: %v", err)
		}

		// Article details: not while they have stock; a default mapping alone
		// does not keep them.
		kind("delete an article with stock", e.App.DeleteArticleDetail(e.ctx, q), errs.Invalid)
		e.mustSucceed("set", stockSetOp(q, 0, stockWarehouse(wh1)))
		if err := e.App.DeleteArticleDetail(e.ctx, q); err != nil {
			t.Errorf("delete an article without stock: %v", err)
		}
		d := e.newBin(wh1, "D-01")
		if err := e.App.SetDefaultBinLocation(e.ctx, d, p, true); err != nil {
			t.Fatal(err)
		}
		if err := e.App.DeleteArticleDetail(e.ctx, p); err != nil {
			t.Errorf("delete an article with only a default mapping: %v", err)
		}
		if _, err := e.App.ArticleDetail(e.ctx, p); errs.KindOf(err) != errs.NotFound {
			t.Errorf("the deleted article still reads: %v", err)
		}
		if err := e.App.DeleteBinLocation(e.ctx, d); err != nil {
			t.Errorf("the default of a deleted article still holds its bin: %v", err)
		}
		e.checkLedger()
	})
}

func TestStockAvailableFigures(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh1, _ := e.newWarehouse("SHOP", true)
		wh2, _ := e.newWarehouse("BACK", false)
		a := e.newBin(wh1, "A-01")
		p := e.newArticle(1)
		e.mustSucceed("change", stockChangeOp(p, 6, stockBin(a)), stockChangeOp(p, 4, stockWarehouse(wh1)), stockChangeOp(p, 5, stockWarehouse(wh2)))
		if _, err := e.App.CreateOrder(e.ctx, order.NewOrder{Number: "O-1", Details: []order.NewDetail{
			{ArticleDetailID: p, Quantity: 3, Shipped: 1},
		}}); err != nil {
			t.Fatalf("create order: %v", err)
		}
		v, err := e.App.ArticleDetail(e.ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if v.PhysicalStock != 15 || v.PhysicalStockForSale != 10 || v.ReservedStock != 0 || v.AvailableStock != 8 {
			t.Errorf("physical %d, for sale %d, reserved %d, available %d; want 15, 10, 0, 8",
				v.PhysicalStock, v.PhysicalStockForSale, v.ReservedStock, v.AvailableStock)
		}
		if len(v.Warehouses) != 2 || v.Warehouses[0].WarehouseID != wh1 || v.Warehouses[0].Stock != 10 ||
			v.Warehouses[0].WarehouseCode != "SHOP" || v.Warehouses[1].WarehouseID != wh2 || v.Warehouses[1].Stock != 5 {
			t.Errorf("warehouse stocks %+v", v.Warehouses)
		}
		// Unshipped order positions keep the article, even without stock.
		e.mustSucceed("set", stockSetOp(p, 0, stockWarehouse(wh1)), stockSetOp(p, 0, stockWarehouse(wh2)))
		if err := e.App.DeleteArticleDetail(e.ctx, p); errs.KindOf(err) != errs.Invalid {
			t.Errorf("delete an article with unshipped positions: %v, want invalid", err)
		}
		v, err = e.App.ArticleDetail(e.ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if v.PhysicalStock != 0 || v.AvailableStock != -2 || len(v.Warehouses) != 0 {
			t.Errorf("after emptying: physical %d, available %d, warehouses %+v", v.PhysicalStock, v.AvailableStock, v.Warehouses)
		}
		e.checkLedger()
	})
}

// A failed operation's result names the property its error concerns and
// the rule it broke, for the console to put it beside its field; a
// relocation names the side it concerns.
func TestStockAFailedOperationNamesItsPropertyAndRule(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, _ := e.newWarehouse("WH1", true)
		a1 := e.newBin(wh, "A-01")
		p := e.newArticle(10)
		res := e.batch("relocate",
			application.BatchOperation{Op: stock.Relocate{ArticleDetailID: p, From: stockBin(a1), To: stockBin(999999), Quantity: 1}},
			application.BatchOperation{Op: stock.Relocate{ArticleDetailID: p, From: stockBin(a1), To: stockWarehouse(wh), Quantity: 1}},
		)
		for i, want := range []application.OperationResult{
			{Property: "destination.binLocation", Code: stock.UnknownBinLocation},
			{Property: "quantity", Code: stock.InsufficientStock},
		} {
			if got := res.Results[i]; got.Success || got.Property != want.Property || got.Code != want.Code {
				t.Errorf("operation %d: %+v, want property %q, code %q", i, got, want.Property, want.Code)
			}
		}
	})
}
