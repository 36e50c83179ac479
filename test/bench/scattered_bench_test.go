package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/bench"
	"github.com/shopstock/inventory/test/testdb"
)

// scatteredShape is the size of the scattered stock: bins × articles
// mappings; each measured batch has one operation per bin.
type scatteredShape struct {
	bins, articles int
	// tracked makes the odd products lot-tracked, their stock loaded into
	// LOT-A (BenchmarkLotsCost).
	tracked bool
}

// scatteredSize is 1000 bins × 100 products, or 1000 × 3 with -short, to
// see that the benchmark works (with batches of the measured size) without
// paying for loading the measured stock.
func scatteredSize() scatteredShape {
	if testing.Short() {
		return scatteredShape{bins: 1000, articles: 3}
	}
	return scatteredShape{bins: 1000, articles: 100}
}

// BenchmarkScattered measures change batches on stock as a shop's arrives:
// the mappings were loaded through the API in no particular order (stock/set
// batches over shuffled (product, bin) pairs), so neither a product's nor a
// bin's mappings lie together, and nothing was vacuumed or analysed by hand.
// Each batch puts one random product on each bin, ±1 (a random sign per
// operation), in shuffled order; under 4 clients the batches draw from the
// same products, so concurrent batches share products. The floor
// (floor_test.go) does the same batches' database work on the same data,
// alternating with the service as in BenchmarkBatchVersusFloor, and reports
// the same figures: at 1 client the medians and x-floor = service / floor,
// at 4 clients the throughputs and of-floor = service / floor (on SQLite the
// floor's is 1000 / its median). The bins are named by id (bins=by-id) or by
// code and warehouse id (bins=by-code). With fsync on:
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench Scattered -benchtime 100x
func BenchmarkScattered(b *testing.B) {
	shape := scatteredSize()
	for _, database := range []string{"sqlite", "postgres"} {
		b.Run(database, func(b *testing.B) {
			url := testdb.SQLite(b)
			if database == "postgres" {
				url = testdb.Postgres(b)
			}
			server, db := benchServer(b, url, false)
			t0 := time.Now()
			bins, err := loadScattered(apitest.Admin(), server, db, shape)
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("loaded %d × %d mappings through the API in %v", shape.bins, shape.articles, time.Since(t0).Round(time.Millisecond))
			f := newFloor(b, url, db)
			f.unanalysed = true
			settings := durability(b, db)
			for _, naming := range []string{"id", "code"} {
				src := scatteredBatches(shape, bins, naming == "id")
				b.Run("bins=by-"+naming, func(b *testing.B) {
					b.Run("clients=1", func(b *testing.B) {
						b.Logf("durability: %s", settings)
						service, floor := alternate(b, server, f, src)
						b.ReportMetric(ms(median(service)), "service-ms")
						b.ReportMetric(ms(median(floor)), "floor-ms")
						b.ReportMetric(ms(median(service))/ms(median(floor)), "x-floor")
					})
					b.Run("clients=4", func(b *testing.B) {
						service, floor := alternateThroughput(b, server, f, src)
						b.ReportMetric(service, "service-batches/s")
						b.ReportMetric(floor, "floor-batches/s")
						b.ReportMetric(service/floor, "of-floor")
					})
				})
			}
			// Both wrote through the same rows: what they left must still
			// be the stock the ledger and the kept totals say.
			if err := ledgerAndTotalsAgree(apitest.Admin(), db); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// loadScattered creates, through the API, the warehouse "SCATTER" (id 1,
// which the floor's statements name) with the bins B1…Bn, the products
// 1…m, and stock on every (product, bin) pair in stock/set batches of 1000
// operations over the pairs shuffled. It returns the bins' ids, bins[i]
// being B(i+1)'s.
func loadScattered(ctx context.Context, server string, db *bunstore.DB, s scatteredShape) ([]int64, error) {
	api := bench.API{URL: server, User: apitest.User, Key: apitest.Key}
	status, out, err := api.Call(ctx, http.MethodPost, "/api/warehouses", map[string]any{
		"code": "SCATTER", "name": "Scattered",
		"binLocationFormatComponents": []map[string]any{{"type": "text", "value": "B"}, {"type": "number", "from": 1, "to": s.bins}},
	})
	if err != nil || status != http.StatusCreated {
		return nil, fmt.Errorf("create warehouse: %d %.300s %v", status, out, err)
	}
	var created struct {
		Data []struct{ ID int64 } `json:"data"`
	}
	if err := json.Unmarshal(out, &created); err != nil || len(created.Data) != 1 || created.Data[0].ID != 1 {
		return nil, fmt.Errorf("create warehouse: %s; the floor needs it to be warehouse 1", out)
	}
	if status, out, err := api.Call(ctx, http.MethodPost, "/api/warehouses/1/binLocations/generate", map[string]any{}); err != nil || status != http.StatusOK {
		return nil, fmt.Errorf("generate bins: %d %.300s %v", status, out, err)
	}
	for a := 1; a <= s.articles; a++ {
		product := map[string]any{"id": a, "number": fmt.Sprintf("SKU%d", a)}
		if s.tracked && a%2 == 1 {
			product["lotTracked"] = true
		}
		if status, out, err := api.Call(ctx, http.MethodPost, "/api/articleDetails", product); err != nil || status != http.StatusCreated {
			return nil, fmt.Errorf("create product %d: %d %.300s %v", a, status, out, err)
		}
	}
	type pair struct{ article, bin int }
	pairs := make([]pair, 0, s.bins*s.articles)
	for a := 1; a <= s.articles; a++ {
		for bin := 1; bin <= s.bins; bin++ {
			pairs = append(pairs, pair{a, bin})
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	for start := 0; start < len(pairs); start += 1000 {
		ops := make([]bench.Operation, 0, 1000)
		for i, p := range pairs[start:min(start+1000, len(pairs))] {
			op := bench.Operation{
				ID: i, ArticleDetailID: p.article, Quantity: 1000,
				BinLocation: map[string]any{"code": fmt.Sprintf("B%d", p.bin), "warehouseCode": "SCATTER"},
			}
			if s.tracked && p.article%2 == 1 {
				op.Lot = map[string]any{"number": "LOT-A", "bestBefore": "2030-01-01"}
			}
			ops = append(ops, op)
		}
		status, out, err := api.Call(ctx, http.MethodPut, fmt.Sprintf("/api/stock/set/scatter-load-%d", start), ops)
		if err != nil || status != http.StatusOK || !bytes.HasPrefix(out, []byte(`{"success":true`)) {
			return nil, fmt.Errorf("set stock: %d %.300s %v", status, out, err)
		}
	}
	var rows []struct {
		ID   int64  `bun:"id"`
		Code string `bun:"code"`
	}
	if err := db.Bun().NewRaw(`SELECT id, code FROM bin_locations WHERE warehouse_id = 1`).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	byCode := map[string]int64{}
	for _, r := range rows {
		byCode[r.Code] = r.ID
	}
	bins := make([]int64, s.bins)
	for i := range bins {
		if bins[i] = byCode[fmt.Sprintf("B%d", i+1)]; bins[i] == 0 {
			return nil, fmt.Errorf("bin B%d was not generated", i+1)
		}
	}
	return bins, nil
}

// scatteredBatches are the batches of the scattered shape: the n-th batch
// of client c out of clients puts a random product on each bin, in shuffled
// order, with a random change of ±1; the service and the floor get the same
// operations. The bins are named by id, or by code and warehouse id.
func scatteredBatches(s scatteredShape, bins []int64, byID bool) batchSource {
	type op struct {
		article, bin int
		quantity     int
	}
	ops := func(c, clients, n int) []op {
		rng := rand.New(rand.NewPCG(uint64(clients)<<32|uint64(c), uint64(n)))
		out := make([]op, s.bins)
		for i, bin := range rng.Perm(s.bins) {
			out[i] = op{article: 1 + rng.IntN(s.articles), bin: bin, quantity: 1 - 2*rng.IntN(2)}
		}
		return out
	}
	return batchSource{
		service: func(c, clients, n int) ([]byte, error) {
			batch := ops(c, clients, n)
			body := make([]bench.Operation, len(batch))
			for i, o := range batch {
				body[i] = bench.Operation{ID: i, ArticleDetailID: o.article, Quantity: o.quantity,
					BinLocation: map[string]any{"code": fmt.Sprintf("B%d", o.bin+1), "warehouseId": 1}}
				if byID {
					body[i].BinLocation = map[string]any{"id": bins[o.bin]}
				}
			}
			return json.Marshal(body)
		},
		floor: func(key string, c, clients, n int) (floorBatch, error) {
			fb := floorBatch{key: key}
			for _, o := range ops(c, clients, n) {
				fb.articles = append(fb.articles, int64(o.article))
				fb.quantities = append(fb.quantities, int64(o.quantity))
				if byID {
					fb.bins = append(fb.bins, bins[o.bin])
				} else {
					fb.codes = append(fb.codes, fmt.Sprintf("B%d", o.bin+1))
				}
			}
			return fb, fb.render()
		},
	}
}

// ledgerAndTotalsAgree checks that every mapping's stock is the sum of its
// ledger entries, every change entry's type fits its sign, and every
// product's kept total is the sum of its mappings.
func ledgerAndTotalsAgree(ctx context.Context, db *bunstore.DB) error {
	var apart, mistyped, totals int
	if err := db.Bun().NewRaw(`SELECT COUNT(*) FROM stock_mappings AS m
WHERE m.stock <> (SELECT COALESCE(SUM(l.quantity), 0) FROM stock_ledger_entries AS l
  WHERE l.bin_location_id = m.bin_location_id AND l.article_detail_id = m.article_detail_id)`).Scan(ctx, &apart); err != nil {
		return err
	}
	if err := db.Bun().NewRaw(`SELECT COUNT(*) FROM stock_ledger_entries
WHERE (type = 'incoming' AND quantity <= 0) OR (type = 'outgoing' AND quantity >= 0)`).Scan(ctx, &mistyped); err != nil {
		return err
	}
	if err := db.Bun().NewRaw(`SELECT COUNT(*) FROM stock_totals AS t
WHERE t.stock <> (SELECT COALESCE(SUM(m.stock), 0) FROM stock_mappings AS m
  WHERE m.article_detail_id = t.article_detail_id AND m.warehouse_id = t.warehouse_id)`).Scan(ctx, &totals); err != nil {
		return err
	}
	if apart > 0 || mistyped > 0 || totals > 0 {
		return fmt.Errorf("%d mappings whose stock is not their ledger's sum, %d entries whose type does not fit their sign, %d products whose kept total is not their mappings' sum",
			apart, mistyped, totals)
	}
	return nil
}
