package test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// TestListTotalsStayExactAsRowsComeAndGo checks the totals of the ledger and
// the orders, which unfiltered come from counts kept as rows are inserted
// and deleted: exact, filtered and not, after batches that run at once,
// after rows deleted behind the service's back, and after the counts are
// folded.
func TestListTotalsStayExactAsRowsComeAndGo(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := afterFixture{t: t, env: apitest.New(t, databaseURL)}
		db := f.env.DB.Bun()
		ctx := apitest.Admin()
		f.id("POST", "/api/warehouses", map[string]any{"code": "TOT", "name": "Totals"})
		var articles []int64
		for i := range 4 {
			articles = append(articles, f.id("POST", "/api/articleDetails", map[string]any{"number": fmt.Sprintf("TOT-%d", i)}))
		}
		filterOn := func(property string, value int64) url.Values {
			return url.Values{"filter[0][property]": {property}, "filter[0][value]": {fmt.Sprint(value)}, "limit": {"1"}}
		}
		check := func(when string) {
			t.Helper()
			for _, c := range []struct {
				path, table, where string
				query              url.Values
			}{
				{"/api/stockLedgerEntries", "stock_ledger_entries", "", url.Values{"limit": {"1"}}},
				{"/api/stockLedgerEntries", "stock_ledger_entries", fmt.Sprintf("article_detail_id = %d", articles[1]),
					filterOn("stockLedgerEntry.articleDetailId", articles[1])},
				{"/api/orders", "orders", "", url.Values{"limit": {"1"}}},
			} {
				total, _ := f.page(c.path, "id", c.query)
				if want := countRows(t, db, c.table, c.where); total != int64(want) {
					t.Errorf("%s: %s %v: total %d, %d rows", when, c.path, c.query, total, want)
				}
			}
		}
		check("empty")

		// Batches and orders from several clients at once.
		var wg sync.WaitGroup
		for client := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for round := range 4 {
					var ops []any
					for _, a := range articles[:1+(client+round)%len(articles)] {
						ops = append(ops, map[string]any{"articleDetailId": a, "quantity": 1 + client, "warehouse": map[string]any{"code": "TOT"}})
					}
					if res := f.env.Do(t, "PUT", fmt.Sprintf("/api/stock/change/tot-%d-%d", client, round), ops); res.Status != http.StatusOK {
						t.Errorf("batch: %s", res)
					}
					if res := f.env.Do(t, "POST", "/api/orders", map[string]any{"number": fmt.Sprintf("TOT-%d-%d", client, round),
						"details": []any{map[string]any{"articleDetailId": articles[0], "quantity": 1}}}); res.Status != http.StatusCreated {
						t.Errorf("order: %s", res)
					}
				}
			}()
		}
		wg.Wait()
		check("after concurrent inserts")

		// Rows deleted by anyone are counted out too.
		if _, err := db.NewRaw("DELETE FROM stock_ledger_entries WHERE id IN (SELECT id FROM stock_ledger_entries ORDER BY id LIMIT 3)").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewRaw("DELETE FROM stock_ledger_entries WHERE article_detail_id = ?", articles[1]).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		check("after deletes")

		if err := f.env.App.FoldRowCounts(ctx); err != nil {
			t.Fatal(err)
		}
		if rows := countRows(t, db, "row_counts", "name = 'stock_ledger_entries'"); rows != 1 {
			t.Errorf("after the fold the ledger's count is %d rows", rows)
		}
		check("after the fold")

		// The unfiltered total is the kept count, not a count of the table.
		if _, err := db.NewRaw("UPDATE row_counts SET n = n + 1000 WHERE name = 'stock_ledger_entries'").Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		total, _ := f.page("/api/stockLedgerEntries", "id", url.Values{"limit": {"1"}})
		if want := countRows(t, db, "stock_ledger_entries", "") + 1000; total != int64(want) {
			t.Errorf("the unfiltered ledger total is %d, not its kept count %d", total, want)
		}
	})
}
