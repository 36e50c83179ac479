package bench_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// BenchmarkPickingWaveCreate measures a picking wave of the first 200 Open
// orders of 5 positions each (100 products on 50 bins, each product on 3
// of them), on PostgreSQL: the orders are locked in one statement, their
// products once, the reservations made in one working set and written in
// bulk with the wave. The goal is under a second a wave; the median is
// reported as ms/wave, and a median above the goal fails. With fsync on:
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench PickingWaveCreate -benchtime 3x
func BenchmarkPickingWaveCreate(b *testing.B) {
	ctx := apitest.Admin()
	db, err := bunstore.Open(testdb.Postgres(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	app := application.New(db, utcClock{}, apitest.Secrets(b))
	wh, err := app.CreateWarehouse(ctx, warehouse.Details{Code: "WAVE", Name: "Waves", StockAvailableForSale: true})
	if err != nil {
		b.Fatal(err)
	}
	var bins []int64
	for i := range 50 {
		id, err := app.CreateBinLocation(ctx, wh, fmt.Sprintf("A-%d", i+1))
		if err != nil {
			b.Fatal(err)
		}
		bins = append(bins, id)
	}
	const products = 100
	var ops []application.BatchOperation
	for p := int64(1); p <= products; p++ {
		if _, err := app.CreateArticleDetail(ctx, p, fmt.Sprintf("WAVE-%03d", p), "", 0); err != nil {
			b.Fatal(err)
		}
		for k := range 3 {
			bin := bins[(int(p)*7+k*17)%len(bins)]
			ops = append(ops, application.BatchOperation{Op: stock.Change{ArticleDetailID: p, Quantity: 100_000,
				At: stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: bin}}}})
		}
	}
	if _, err := app.StockBatch(ctx, application.BatchMeta{Key: "wave-seed", Endpoint: "PUT /api/stock/change", Fingerprint: "f", User: "bench"},
		ops, func(application.BatchResult) ([]byte, error) { return []byte("{}"), nil }); err != nil {
		b.Fatal(err)
	}
	at := &stock.WarehouseSpec{ID: wh}
	var took []time.Duration
	next := 0
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		for range 200 {
			next++
			p := order.NewOrder{Number: fmt.Sprintf("WAVE-O-%d", next)}
			for j := range 5 {
				p.Details = append(p.Details, order.NewDetail{ArticleDetailID: int64((next*5+j)%products + 1), Quantity: 1 + j%3})
			}
			if _, err := app.CreateOrder(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		start := time.Now()
		w, err := app.CreateWave(ctx, application.NewWave{Warehouse: at, Limit: 200})
		took = append(took, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		if n := len(w.OrderIDs()); n != 200 || len(w.Skipped()) != 0 {
			b.Fatalf("the wave holds %d orders and skipped %d", n, len(w.Skipped()))
		}
	}
	b.StopTimer()
	slices.Sort(took)
	median := took[len(took)/2]
	b.ReportMetric(float64(median.Microseconds())/1000, "ms/wave")
	if median > time.Second {
		b.Errorf("a wave of 200 orders of 5 positions took %v (median of %d), over the goal of 1s", median, len(took))
	}
}
