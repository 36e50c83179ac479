package bench_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/test/apitest"
)

// growthShape is what the growth benchmark builds: products on bins, each
// product on mappings/products bins, and the history beside them.
type growthShape struct {
	ledger, events, mappings, products, bins, rounds int
}

// copies is how many bins each product lies on.
func (g growthShape) copies() int { return g.mappings / g.products }

// mapping j is product j%products+1 on bin (product-1 + k*bins/copies) %
// bins + 1, k = j/products: the copies of a product lie far apart, and
// every bin holds mappings/bins products.
func (g growthShape) mapping(j int) (product, bin int) {
	product = j%g.products + 1
	k := j / g.products
	return product, (product-1+k*(g.bins/g.copies()))%g.bins + 1
}

// BenchmarkOutsideGrowth measures what must stay fast as the data grows,
// through the API of the real binary: the warehouse, its bins, the
// products and their stock are created through the API; then the history
// a long-running shop accumulates (ledger entries in +1/−1 pairs on the
// mappings, which leave every mapping's stock its ledger's sum, and
// stock.changed events continuing the feed) is written in SQL into the
// service's own tables, as the service writes them, and the database is
// vacuumed and analysed as autovacuum would have done over that time.
// It reports the median ms of: the ledger's first page (50), a page 90%
// deep reached with after and with start, a product's ledger page, the
// feed (limit 100) from its start, middle and end, the first page of
// products below their reorder point, the whole-warehouse CSV export (and
// the service's RSS before and at most during it), and a 1000-operation
// change batch at this size against the same batch before the history was
// written (batch-growth-x). The sizes come from INVENTORY_BENCH_LEDGER
// (default 10 000 000), INVENTORY_BENCH_EVENTS (1 000 000),
// INVENTORY_BENCH_MAPPINGS (100 000; products are a fifth, bins a
// twentieth) and INVENTORY_BENCH_ROUNDS (10).
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench OutsideGrowth -benchtime 1x -timeout 6h
func BenchmarkOutsideGrowth(b *testing.B) {
	g := growthShape{
		ledger:   envInt(b, "INVENTORY_BENCH_LEDGER", 10_000_000),
		events:   envInt(b, "INVENTORY_BENCH_EVENTS", 1_000_000),
		mappings: envInt(b, "INVENTORY_BENCH_MAPPINGS", 100_000),
		rounds:   envInt(b, "INVENTORY_BENCH_ROUNDS", 10),
	}
	g.products, g.bins = max(1, g.mappings/5), max(1, g.mappings/20)
	eachDatabase(b, func(b *testing.B, dbURL string) {
		svc := startService(b, dbURL)
		api := svc.api
		t0 := time.Now()
		warehouse, err := loadGrowthStock(api, g)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("loaded %d products on %d bins (%d mappings) through the API in %v", g.products, g.bins, g.mappings, time.Since(t0).Round(time.Millisecond))
		batch := func(phase string, n int) error {
			return sendOutsideBatch(api, warehouse, growthOps(g, phase, n))
		}
		before := timeRounds(b, g.rounds, func(n int) error { return batch("empty", n) })

		db := openSQL(b, dbURL)
		postgres := !strings.HasPrefix(dbURL, "sqlite:")
		t0 = time.Now()
		if err := buildHistory(db, postgres, g); err != nil {
			b.Fatal(err)
		}
		var entries, lastEvent, lastEntry int64
		if err := db.QueryRow(`SELECT COUNT(*), MAX(id) FROM stock_ledger_entries`).Scan(&entries, &lastEntry); err != nil {
			b.Fatal(err)
		}
		if err := db.QueryRow(`SELECT value FROM event_feed WHERE name = 'last'`).Scan(&lastEvent); err != nil {
			b.Fatal(err)
		}
		b.Logf("history written in %v: %d ledger entries, %d events; %s", time.Since(t0).Round(time.Second), entries, lastEvent, durabilityOf(b, db, postgres))

		get := func(path string) func(int) error {
			return func(int) error { _, err := api.must(http.StatusOK, http.MethodGet, path, nil); return err }
		}
		report := func(unit string, path string) {
			b.ReportMetric(ms(median(timeRounds(b, g.rounds, get(path)))), unit)
		}
		deep := lastEntry * 9 / 10
		// Lists that do not know after ignore it; the figure then is the
		// first page's, and after-honoured says so.
		honoured := 1.0
		if err := checkAfter(api, deep); err != nil {
			b.Log(err)
			honoured = 0
		}
		b.ReportMetric(honoured, "after-honoured")
		report("ledger-first-ms", "/api/stockLedgerEntries?limit=50")
		report("ledger-after-deep-ms", fmt.Sprintf("/api/stockLedgerEntries?limit=50&after=%d", deep))
		report("ledger-start-deep-ms", fmt.Sprintf("/api/stockLedgerEntries?limit=50&start=%d", entries*9/10))
		report("ledger-product-ms", "/api/stockLedgerEntries?limit=50&"+filter("stockLedgerEntry.articleDetailId", fmt.Sprint(g.products/2+1)))
		report("feed-start-ms", "/api/events?after=0&limit=100")
		report("feed-middle-ms", fmt.Sprintf("/api/events?after=%d&limit=100", lastEvent/2))
		report("feed-end-ms", fmt.Sprintf("/api/events?after=%d&limit=100", max(0, lastEvent-100)))
		report("below-reorder-ms", "/api/articleDetails?limit=50&"+filter("articleDetail.belowReorderPoint", "true"))

		rssBefore, err := svc.rssKB()
		if err != nil {
			b.Fatal(err)
		}
		var peak int
		export := timeRounds(b, min(g.rounds, 3), func(int) error {
			p, err := exportCSV(svc, g.mappings)
			peak = max(peak, p)
			return err
		})
		b.ReportMetric(ms(median(export)), "csv-ms")
		b.ReportMetric(float64(rssBefore)/1024, "rss-before-MB")
		b.ReportMetric(float64(peak)/1024, "rss-csv-max-MB")

		after := timeRounds(b, g.rounds, func(n int) error { return batch("grown", n) })
		b.ReportMetric(ms(median(before)), "batch-empty-ms")
		b.ReportMetric(ms(median(after)), "batch-grown-ms")
		b.ReportMetric(ms(median(after))/ms(median(before)), "batch-growth-x")

		checkCounts(b, db, serviceStockChecks)
		checkCounts(b, db, map[string]string{
			"feed positions that no event holds, or held twice": `SELECT (SELECT value FROM event_feed WHERE name = 'last') - (SELECT COALESCE(SUM(n), 0) FROM events)`,
		})
	})
}

// filter is a list query's single filter, URL-encoded.
func filter(property, value string) string {
	return url.Values{"filter[0][property]": {property}, "filter[0][value]": {value}}.Encode()
}

// checkAfter tells whether the ledger list honours after: its first entry
// must lie beyond it.
func checkAfter(api client, after int64) error {
	out, err := api.must(http.StatusOK, http.MethodGet, fmt.Sprintf("/api/stockLedgerEntries?limit=1&after=%d", after), nil)
	if err != nil {
		return err
	}
	var page struct {
		Data []struct{ ID int64 } `json:"data"`
	}
	if err := json.Unmarshal(out, &page); err != nil || len(page.Data) != 1 {
		return fmt.Errorf("ledger page after %d: %.300s", after, out)
	}
	if page.Data[0].ID <= after {
		return fmt.Errorf("the ledger list ignores after=%d (its first entry is %d): ledger-after-deep-ms timed the first page", after, page.Data[0].ID)
	}
	return nil
}

// timeRounds times fn once per round, after one untimed call.
func timeRounds(b *testing.B, rounds int, fn func(n int) error) []time.Duration {
	if err := fn(0); err != nil {
		b.Fatal(err)
	}
	var out []time.Duration
	for n := 1; n <= rounds; n++ {
		t0 := time.Now()
		if err := fn(n); err != nil {
			b.Fatal(err)
		}
		out = append(out, time.Since(t0))
	}
	return out
}

// exportCSV reads the whole stock export, sampling the service's RSS while
// it streams, and returns the largest sample (KiB). It fails unless the
// export has a line per mapping and its header.
func exportCSV(svc *service, mappings int) (int, error) {
	done := make(chan struct{})
	var peak int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if rss, err := svc.rssKB(); err == nil {
				peak = max(peak, rss)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	status, lines, err := readCSV(svc)
	close(done)
	wg.Wait()
	if err != nil || status != http.StatusOK {
		return 0, fmt.Errorf("stock.csv: %d %v", status, err)
	}
	if lines < mappings+1 {
		return 0, fmt.Errorf("stock.csv: %d lines for %d mappings", lines, mappings)
	}
	return peak, nil
}

// readCSV streams the export and counts its lines.
func readCSV(svc *service) (int, int, error) {
	req, err := http.NewRequest(http.MethodGet, svc.url+"/api/stock.csv", nil)
	if err != nil {
		return 0, 0, err
	}
	req.SetBasicAuth(apitest.User, apitest.Key)
	resp, err := svc.api.http.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	lines, err := countLines(resp.Body)
	return resp.StatusCode, lines, err
}

func countLines(r io.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n := 0
	for {
		k, err := r.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// loadGrowthStock creates the warehouse GROW with the bins G1…Gn, the
// products (every tenth with a reorder point above its stock, so that the
// low-stock list has matches) and 100 pieces on every mapping, all through
// the API. It returns the warehouse's id.
func loadGrowthStock(api client, g growthShape) (int64, error) {
	out, err := api.must(http.StatusCreated, http.MethodPost, "/api/warehouses", map[string]any{
		"code": "GROW", "name": "Growth",
		"binLocationFormatComponents": []map[string]any{{"type": "text", "value": "G"}, {"type": "number", "from": 1, "to": g.bins}},
	})
	if err != nil {
		return 0, err
	}
	warehouse, err := createdID(out)
	if err != nil {
		return 0, err
	}
	if _, err := api.must(http.StatusOK, http.MethodPost, fmt.Sprintf("/api/warehouses/%d/binLocations/generate", warehouse), map[string]any{}); err != nil {
		return 0, err
	}
	if err := parallel(8, g.products, func(i int) error {
		p := i + 1
		product := map[string]any{"id": p, "number": fmt.Sprintf("G-SKU%d", p)}
		if p%10 == 0 {
			product["reorderPoint"] = 100*g.copies() + 1
		}
		_, err := api.must(http.StatusCreated, http.MethodPost, "/api/articleDetails", product)
		return err
	}); err != nil {
		return 0, err
	}
	for start := 0; start < g.mappings; start += 1000 {
		ops := make([]map[string]any, 0, 1000)
		for j := start; j < min(start+1000, g.mappings); j++ {
			product, bin := g.mapping(j)
			ops = append(ops, map[string]any{"articleDetailId": product, "quantity": 100,
				"binLocation": map[string]any{"code": fmt.Sprintf("G%d", bin), "warehouseId": warehouse}})
		}
		out, err := api.must(http.StatusOK, http.MethodPut, fmt.Sprintf("/api/stock/set/growth-load-%d", start), ops)
		if err != nil {
			return 0, err
		}
		if !bytes.HasPrefix(out, []byte(`{"success":true`)) {
			return 0, fmt.Errorf("set stock: %.300s", out)
		}
	}
	return warehouse, nil
}

// parallel runs fn(0…n-1) on workers goroutines and returns the first error.
func parallel(workers, n int, fn func(i int) error) error {
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for i := range n {
		select {
		case next <- i:
		case err = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(errs)
	if err == nil {
		err = <-errs
	}
	return err
}

// growthOps is a batch of ±1 on 1000 distinct random mappings (as many as
// there are, when fewer), in random order; bins are G-numbered.
func growthOps(g growthShape, phase string, n int) batchOps {
	rng := rand.New(rand.NewPCG(uint64(len(phase)), uint64(n)))
	ops := batchOps{key: fmt.Sprintf("growth-%s-%d", phase, n), prefix: "G"}
	for _, j := range rng.Perm(g.mappings)[:min(1000, g.mappings)] {
		product, bin := g.mapping(j)
		ops.bins = append(ops.bins, int64(bin))
		ops.products = append(ops.products, int64(product))
		ops.quantity = append(ops.quantity, int64(1-2*rng.IntN(2)))
	}
	return ops
}

// buildHistory writes the ledger entries up to g.ledger and g.events more
// events into the service's tables, in chunks of a million rows, as the
// service writes them: ledger entries in pairs (+1 incoming, −1 outgoing)
// on the mappings in turn, stamped with the latest entry's time;
// stock.changed events from the feed's next position on (on PostgreSQL ten
// to a row, as one transaction's, on SQLite one a row), and the feed's
// counter moved past them. Then it vacuums, analyses and checkpoints.
func buildHistory(db *sql.DB, postgres bool, g growthShape) error {
	conn, err := db.Conn(context.Background())
	if err != nil {
		return err
	}
	defer conn.Close()
	exec := func(q string) error {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			return fmt.Errorf("%w\n%s", err, q)
		}
		return nil
	}
	// series puts the numbers lo…hi as g(x) where body says FROM {series}.
	series := func(lo, hi int, body string) string {
		if postgres {
			return strings.Replace(body, "{series}", fmt.Sprintf("generate_series(%d, %d) AS g(x)", lo, hi), 1)
		}
		return fmt.Sprintf("WITH RECURSIVE g(x) AS (SELECT %d UNION ALL SELECT x + 1 FROM g WHERE x < %d) ", lo, hi) +
			strings.Replace(body, "{series}", "g", 1)
	}
	if err := exec(`CREATE TEMP TABLE growth_mappings (k BIGINT PRIMARY KEY, article_detail_id BIGINT, warehouse_id BIGINT, bin_location_id BIGINT, stock BIGINT)`); err != nil {
		return err
	}
	if err := exec(`INSERT INTO growth_mappings SELECT ROW_NUMBER() OVER (ORDER BY id) - 1, article_detail_id, warehouse_id, bin_location_id, stock FROM stock_mappings`); err != nil {
		return err
	}
	var have, last int
	if err := conn.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM stock_ledger_entries`).Scan(&have); err != nil {
		return err
	}
	if err := conn.QueryRowContext(context.Background(), `SELECT value FROM event_feed WHERE name = 'last'`).Scan(&last); err != nil {
		return err
	}
	const chunk = 1_000_000
	pairs := max(0, g.ledger-have) / 2
	for lo := 0; lo < 2*pairs; lo += chunk {
		hi := min(lo+chunk, 2*pairs) - 1
		if err := exec(series(lo, hi, fmt.Sprintf(`INSERT INTO stock_ledger_entries
(article_detail_id, warehouse_id, bin_location_id, type, quantity, stock_after, idempotency_key, operation_id, user_name, created_at)
SELECT m.article_detail_id, m.warehouse_id, m.bin_location_id,
  CASE WHEN x %% 2 = 0 THEN 'incoming' ELSE 'outgoing' END, 1 - 2 * (x %% 2), m.stock + 1 - x %% 2,
  'history-' || (x / 1000), CAST(x %% 1000 AS TEXT), 'admin',
  (SELECT created_at FROM stock_ledger_entries ORDER BY id DESC LIMIT 1)
FROM {series} JOIN growth_mappings AS m ON m.k = (x / 2) %% %d`, g.mappings))); err != nil {
			return err
		}
	}
	// A stock.changed of product p, about as the service spells it.
	data := func(p string) string {
		return fmt.Sprintf(`'{"id":' || %[1]s || ',"number":"G-SKU' || %[1]s || '","name":"","reorderPoint":0,"ean":"","lotTracked":false,`+
			`"physicalStock":%[2]d,"physicalStockForSale":%[2]d,"reservedStock":0,"availableStock":%[2]d,"incomingStock":0,"expiredStock":0,`+
			`"warehouseStocks":[{"warehouseId":1,"warehouseCode":"GROW","stock":%[2]d,"reservedStock":0}],`+
			`"cause":{"type":"stock/change","idempotencyKey":"history","orderId":null}}'`, p, 100*g.copies())
	}
	perRow := 1
	if postgres {
		perRow = 10
	}
	rows := g.events / perRow
	for lo := 0; lo < rows; lo += chunk / perRow {
		hi := min(lo+chunk/perRow, rows) - 1
		body := fmt.Sprintf(`INSERT INTO events (id, n, type, created_at, data)
SELECT %d + x * %d, %[2]d, 'stock.changed', (SELECT created_at FROM events ORDER BY id DESC LIMIT 1), %s FROM {series}`,
			last+1, perRow, data(fmt.Sprintf("CAST(x %% %d + 1 AS TEXT)", g.products)))
		if postgres {
			body = fmt.Sprintf(`INSERT INTO events (id, n, type, created_at, data)
SELECT %d + x * %d, %[2]d, repeat('stock.changed,', %[2]d - 1) || 'stock.changed', (SELECT created_at FROM events ORDER BY id DESC LIMIT 1),
  (SELECT string_agg(%s, chr(30)) FROM generate_series(0, %[2]d - 1) AS i) FROM {series}`,
				last+1, perRow, data(fmt.Sprintf("CAST((x * %d + i) %% %d + 1 AS TEXT)", perRow, g.products)))
		}
		if err := exec(series(lo, hi, body)); err != nil {
			return err
		}
	}
	if err := exec(fmt.Sprintf(`UPDATE event_feed SET value = value + %d WHERE name = 'last'`, rows*perRow)); err != nil {
		return err
	}
	// What the bulk insert left dirty is written out, as the checkpoints
	// over the months of that history would have: otherwise the first
	// batches would pay for writing gigabytes back. The service's own
	// checkpoints keep SQLite's WAL at a thousand pages.
	if postgres {
		if err := exec(`VACUUM ANALYZE`); err != nil {
			return err
		}
		return exec(`CHECKPOINT`)
	}
	if err := exec(`ANALYZE`); err != nil {
		return err
	}
	return exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
}
