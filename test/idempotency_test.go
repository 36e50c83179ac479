package test

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// movableClock is a clock the test sets.
type movableClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *movableClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *movableClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestIdempotencyKeysExpireAfterTheRetention: a key is remembered (replayed,
// or a 409 for another body) until the purge forgets it after the
// retention; then it may be used again.
func TestIdempotencyKeysExpireAfterTheRetention(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		ctx := apitest.Admin()
		db, err := bunstore.Open(databaseURL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		clock := &movableClock{now: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
		app := application.New(db, clock, apitest.Secrets(t))
		whID, err := app.CreateWarehouse(ctx, warehouse.Details{Code: "WH", Name: "Main"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := app.CreateArticleDetail(ctx, 1, "SKU1", "", 0); err != nil {
			t.Fatal(err)
		}
		render := func(r application.BatchResult) ([]byte, error) { return json.Marshal(r) }
		change := func(fingerprint string) (application.BatchOutcome, error) {
			ops := []application.BatchOperation{{Op: stock.Change{ArticleDetailID: 1, Quantity: 1, At: stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: whID}}}}}
			meta := application.BatchMeta{Key: "k", Endpoint: "stock/change", Fingerprint: fingerprint, User: "admin"}
			return app.StockBatch(ctx, meta, ops, render)
		}
		if _, err := change("first"); err != nil {
			t.Fatal(err)
		}
		clock.advance(30 * time.Minute)
		if n, err := app.PurgeIdempotencyKeys(ctx, time.Hour); err != nil || n != 0 {
			t.Fatalf("a key younger than the retention stays: %d %v", n, err)
		}
		if out, err := change("first"); err != nil || !out.Replayed {
			t.Fatalf("the same batch replays: %+v %v", out, err)
		}
		if _, err := change("second"); errs.KindOf(err) != errs.Conflict {
			t.Fatalf("another batch under the key is a conflict: %v", err)
		}
		clock.advance(time.Hour)
		if n, err := app.PurgeIdempotencyKeys(ctx, time.Hour); err != nil || n != 1 {
			t.Fatalf("the purge forgets the expired key: %d %v", n, err)
		}
		out, err := change("second")
		if err != nil || out.Replayed {
			t.Fatalf("after expiry the key runs a new batch: %+v %v", out, err)
		}
		v, err := app.ArticleDetail(ctx, 1)
		if err != nil || v.PhysicalStock != 2 {
			t.Fatalf("two batches ran, one replay did not: stock %d %v", v.PhysicalStock, err)
		}
	})
}
