package bench_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// outsideShape: 1000 bins, 100 products, every product on every bin.
const (
	outsideBins     = 1000
	outsideProducts = 100
	outsideStock    = 1000
)

// BenchmarkOutsideBatch times 1000-operation change batches as a client
// sees them, against the real binary, and the same batches' database work
// done by a plain client on tables of its own (the floor), just before.
// Stock is loaded through the API: 1000 bins, 100 products, every (product,
// bin) pair set by stock/set batches in shuffled order; nothing is vacuumed
// or analysed by hand. Each measured batch changes one random product of
// the 100 on each of the 1000 bins by ±1, in shuffled order. At 1 client it
// reports the median and p90 of each and x-floor (service / floor medians);
// at 4 clients, which draw from the same products, batches per second and
// of-floor (service / floor). INVENTORY_BENCH_BATCHES (default 100) is the
// number of batches of each phase.
//
//	TESTDB_FSYNC=on go test ./test/bench -run '^$' -bench OutsideBatch -benchtime 1x
func BenchmarkOutsideBatch(b *testing.B) {
	batches := envInt(b, "INVENTORY_BENCH_BATCHES", 100)
	eachDatabase(b, func(b *testing.B, url string) {
		svc := startService(b, url)
		t0 := time.Now()
		warehouse, err := loadOutsideStock(svc.api)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("loaded %d × %d mappings through the API in %v", outsideBins, outsideProducts, time.Since(t0).Round(time.Millisecond))
		db := openSQL(b, url)
		postgres := !strings.HasPrefix(url, "sqlite:")
		b.Logf("durability: %s", durabilityOf(b, db, postgres))
		floor := newBatchFloor(b, url)

		b.Run("clients=1", func(b *testing.B) {
			floorTimes := runBatches(b, 1, batches, "floor", func(c, n int, ops batchOps) error { return floor.batch(c, ops) })
			serviceTimes := runBatches(b, 1, batches, "service", func(c, n int, ops batchOps) error { return sendOutsideBatch(svc.api, warehouse, ops) })
			b.ReportMetric(ms(median(serviceTimes.each)), "service-ms")
			b.ReportMetric(ms(percentile(serviceTimes.each, 90)), "service-p90-ms")
			b.ReportMetric(ms(median(floorTimes.each)), "floor-ms")
			b.ReportMetric(ms(percentile(floorTimes.each, 90)), "floor-p90-ms")
			b.ReportMetric(ms(median(serviceTimes.each))/ms(median(floorTimes.each)), "x-floor")
		})
		b.Run("clients=4", func(b *testing.B) {
			floorTimes := runBatches(b, 4, batches, "floor", func(c, n int, ops batchOps) error { return floor.batch(c, ops) })
			serviceTimes := runBatches(b, 4, batches, "service", func(c, n int, ops batchOps) error { return sendOutsideBatch(svc.api, warehouse, ops) })
			b.ReportMetric(serviceTimes.perSecond(), "service-batches/s")
			b.ReportMetric(floorTimes.perSecond(), "floor-batches/s")
			b.ReportMetric(serviceTimes.perSecond()/floorTimes.perSecond(), "of-floor")
		})

		var stored int
		if err := db.QueryRow(`SELECT COALESCE(MAX(LENGTH(response)), 0) FROM idempotency_keys WHERE endpoint = 'stock/change'`).Scan(&stored); err != nil {
			b.Fatal(err)
		}
		b.Logf("the service's stored result of a change batch: %d bytes", stored)
		checkCounts(b, db, serviceStockChecks)
		checkCounts(b, floor.sql, floorStockChecks)
	})
}

// serviceStockChecks count what breaks the stock's invariants in the
// service's tables.
var serviceStockChecks = map[string]string{
	"mappings whose stock is not their ledger's sum": `SELECT COUNT(*) FROM stock_mappings AS m
WHERE m.stock <> (SELECT COALESCE(SUM(l.quantity), 0) FROM stock_ledger_entries AS l
  WHERE l.bin_location_id = m.bin_location_id AND l.article_detail_id = m.article_detail_id)`,
	"mappings below zero or reserved beyond stock": `SELECT COUNT(*) FROM stock_mappings WHERE stock < 0 OR reserved_stock < 0 OR reserved_stock > stock`,
	"kept totals that are not their mappings' sum": `SELECT COUNT(*) FROM stock_totals AS t
WHERE t.stock <> (SELECT COALESCE(SUM(m.stock), 0) FROM stock_mappings AS m
  WHERE m.article_detail_id = t.article_detail_id AND m.warehouse_id = t.warehouse_id)
  OR t.reserved_stock <> (SELECT COALESCE(SUM(m.reserved_stock), 0) FROM stock_mappings AS m
  WHERE m.article_detail_id = t.article_detail_id AND m.warehouse_id = t.warehouse_id)`,
}

// floorStockChecks are the same for the floor's tables.
var floorStockChecks = map[string]string{
	"floor mappings whose stock is not their ledger's sum": `SELECT COUNT(*) FROM mappings AS m
WHERE m.stock <> (SELECT COALESCE(SUM(l.quantity), 0) FROM ledger AS l WHERE l.bin_id = m.bin_id AND l.product_id = m.product_id)`,
	"floor mappings below zero": `SELECT COUNT(*) FROM mappings WHERE stock < 0`,
	"floor totals that are not their mappings' sum": `SELECT COUNT(*) FROM totals AS t
WHERE t.stock <> (SELECT COALESCE(SUM(m.stock), 0) FROM mappings AS m WHERE m.product_id = t.product_id)`,
}

// loadOutsideStock creates the warehouse, its bins B1…B1000 and the
// products 1…100 through the API, and sets 1000 pieces on every (product,
// bin) pair in stock/set batches of 1000 over the pairs shuffled. It
// returns the warehouse's id.
func loadOutsideStock(api client) (int64, error) {
	out, err := api.must(http.StatusCreated, http.MethodPost, "/api/warehouses", map[string]any{
		"code": "OUT", "name": "Outside",
		"binLocationFormatComponents": []map[string]any{{"type": "text", "value": "B"}, {"type": "number", "from": 1, "to": outsideBins}},
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
	for p := 1; p <= outsideProducts; p++ {
		if _, err := api.must(http.StatusCreated, http.MethodPost, "/api/articleDetails", map[string]any{"id": p, "number": fmt.Sprintf("SKU%d", p)}); err != nil {
			return 0, err
		}
	}
	type pair struct{ product, bin int }
	pairs := make([]pair, 0, outsideBins*outsideProducts)
	for p := 1; p <= outsideProducts; p++ {
		for bin := 1; bin <= outsideBins; bin++ {
			pairs = append(pairs, pair{p, bin})
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	for start := 0; start < len(pairs); start += 1000 {
		ops := make([]map[string]any, 0, 1000)
		for _, p := range pairs[start:min(start+1000, len(pairs))] {
			ops = append(ops, map[string]any{"articleDetailId": p.product, "quantity": outsideStock,
				"binLocation": map[string]any{"code": fmt.Sprintf("B%d", p.bin), "warehouseCode": "OUT"}})
		}
		out, err := api.must(http.StatusOK, http.MethodPut, fmt.Sprintf("/api/stock/set/outside-load-%d", start), ops)
		if err != nil {
			return 0, err
		}
		if !bytes.HasPrefix(out, []byte(`{"success":true`)) {
			return 0, fmt.Errorf("set stock: %.300s", out)
		}
	}
	return warehouse, nil
}

// batchOps is one measured batch: operation i puts quantity[i] on
// product products[i] on bin bins[i], whose code is prefix and the number.
type batchOps struct {
	key, prefix              string
	bins, products, quantity []int64
}

// outsideOps are the n-th batch of client c in a phase: one random product
// on each bin, the bins in shuffled order, ±1 each.
func outsideOps(phase string, clients, c, n int) batchOps {
	rng := rand.New(rand.NewPCG(uint64(clients)<<32|uint64(c), uint64(n)))
	ops := batchOps{key: fmt.Sprintf("outside-%s-%d-%d-%d", phase, clients, c, n), prefix: "B"}
	for _, bin := range rng.Perm(outsideBins) {
		ops.bins = append(ops.bins, int64(bin+1))
		ops.products = append(ops.products, int64(1+rng.IntN(outsideProducts)))
		ops.quantity = append(ops.quantity, int64(1-2*rng.IntN(2)))
	}
	return ops
}

// sendOutsideBatch sends ops as a stock/change batch, the bins named by
// code and warehouse id, and fails unless every operation succeeded.
func sendOutsideBatch(api client, warehouse int64, ops batchOps) error {
	var body bytes.Buffer
	body.WriteByte('[')
	for i := range ops.bins {
		if i > 0 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, `{"id":%d,"articleDetailId":%d,"quantity":%d,"binLocation":{"code":"%s%d","warehouseId":%d}}`,
			i, ops.products[i], ops.quantity[i], ops.prefix, ops.bins[i], warehouse)
	}
	body.WriteByte(']')
	out, err := api.must(http.StatusOK, http.MethodPut, "/api/stock/change/"+ops.key, body.Bytes())
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(out, []byte(`{"success":true`)) {
		return fmt.Errorf("batch %s: %.300s", ops.key, out)
	}
	return nil
}

// timings are one phase's batch times and its wall time.
type timings struct {
	each []time.Duration
	wall time.Duration
}

func (t timings) perSecond() float64 { return float64(len(t.each)) / t.wall.Seconds() }

// runBatches runs total batches from clients goroutines (each its share),
// timing each end to end; it fails the benchmark on the first error. The
// operations are made before each batch's clock starts.
func runBatches(b *testing.B, clients, total int, phase string, do func(c, n int, ops batchOps) error) timings {
	var mu sync.Mutex
	var t timings
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := c; n < total; n += clients {
				ops := outsideOps(phase, clients, c, n)
				t0 := time.Now()
				if err := do(c, n, ops); err != nil {
					errs <- fmt.Errorf("%s batch %d of client %d: %w", phase, n, c, err)
					return
				}
				d := time.Since(t0)
				mu.Lock()
				t.each = append(t.each, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.wall = time.Since(start)
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	return t
}

// batchFloor is what a plain client pays for a batch's contract on tables
// of its own, loaded with the service's rows in (bin, product) order: in
// one transaction it locks the 1000 mappings in id order and updates them,
// inserts 1000 ledger rows, locks the changed products' totals in id order
// and updates them, takes the feed positions from one counter row at the
// end, inserts one stock.changed row (about 400 bytes) per changed
// product, and stores the idempotency row with the batch's result (35 KB,
// as the service's).
// On PostgreSQL it has its own schema and one pgx connection per client,
// each statement set-based over arrays; on SQLite its own file with the
// service's settings and one connection (writers queue in the process, as
// the service's do), a prepared statement per row.
type batchFloor struct {
	sql   *sql.DB     // for loading and checks
	conns []*pgx.Conn // PostgreSQL: one per client
	mu    sync.Mutex  // SQLite: one writer at a time
	pg    bool
	stmts []*sql.Stmt // SQLite: sqliteFloorStmts, prepared
}

// floorTables are the floor's tables, in SQL both databases read.
var floorTables = []string{
	`CREATE TABLE mappings (id INTEGER PRIMARY KEY, bin_id BIGINT NOT NULL, product_id BIGINT NOT NULL, stock INTEGER NOT NULL,
  reserved INTEGER NOT NULL DEFAULT 0, UNIQUE (bin_id, product_id))`,
	`CREATE TABLE ledger (id INTEGER PRIMARY KEY, product_id BIGINT NOT NULL, bin_id BIGINT NOT NULL, type TEXT NOT NULL,
  quantity INTEGER NOT NULL, stock_after INTEGER NOT NULL, idempotency_key TEXT, operation_id TEXT, user_name TEXT NOT NULL, created_at TEXT NOT NULL)`,
	`CREATE INDEX ledger_mapping ON ledger (bin_id, product_id)`,
	`CREATE INDEX ledger_product ON ledger (product_id, id)`,
	`CREATE TABLE totals (product_id BIGINT PRIMARY KEY, stock BIGINT NOT NULL, reserved BIGINT NOT NULL DEFAULT 0)`,
	`CREATE TABLE feed (name TEXT PRIMARY KEY, value BIGINT NOT NULL)`,
	`CREATE TABLE events (id BIGINT PRIMARY KEY, type TEXT NOT NULL, created_at TEXT NOT NULL, data TEXT NOT NULL)`,
	`CREATE TABLE idempotency (key TEXT PRIMARY KEY, endpoint TEXT NOT NULL, fingerprint TEXT NOT NULL, response TEXT NOT NULL, created_at TEXT NOT NULL)`,
}

// newBatchFloor creates and loads the floor's tables beside the service's
// database: the same mappings, their stocktake ledger rows and the totals.
func newBatchFloor(b *testing.B, url string) *batchFloor {
	f := &batchFloor{pg: !strings.HasPrefix(url, "sqlite:")}
	load := []string{
		fmt.Sprintf(`WITH RECURSIVE g(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM g WHERE x < %d)
INSERT INTO mappings (id, bin_id, product_id, stock) SELECT x + 1, x / %[2]d + 1, x %% %[2]d + 1, %[3]d FROM g`, outsideBins*outsideProducts-1, outsideProducts, outsideStock),
		`INSERT INTO ledger (id, product_id, bin_id, type, quantity, stock_after, idempotency_key, operation_id, user_name, created_at)
SELECT id, product_id, bin_id, 'stocktake', stock, stock, 'load', '', 'admin', '2026-11-29 00:00:00+00' FROM mappings ORDER BY id`,
		`INSERT INTO totals (product_id, stock) SELECT product_id, SUM(stock) FROM mappings GROUP BY product_id ORDER BY product_id`,
		`INSERT INTO feed (name, value) VALUES ('last', 0)`,
		`ANALYZE`,
	}
	f.sql, url = openFloorDB(b, url, "batch_floor")
	if !f.pg {
		f.sql.SetMaxOpenConns(1)
	}
	for _, q := range append(slices.Clone(floorTables), load...) {
		if f.pg {
			q = strings.Replace(q, "id INTEGER PRIMARY KEY", "id BIGSERIAL PRIMARY KEY", 1)
		}
		if _, err := f.sql.Exec(q); err != nil {
			b.Fatalf("floor: %v\n%s", err, q)
		}
	}
	if f.pg {
		if _, err := f.sql.Exec(`SELECT setval(pg_get_serial_sequence('ledger', 'id'), (SELECT MAX(id) FROM ledger))`); err != nil {
			b.Fatal(err)
		}
		for range 4 {
			conn, err := pgx.Connect(context.Background(), url)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { conn.Close(context.Background()) })
			f.conns = append(f.conns, conn)
		}
		return f
	}
	for _, q := range sqliteFloorStmts {
		s, err := f.sql.Prepare(q)
		if err != nil {
			b.Fatalf("floor: %v\n%s", err, q)
		}
		f.stmts = append(f.stmts, s)
	}
	return f
}

// The SQLite floor's statements, by index.
const (
	liteLock = iota
	liteUpdate
	liteLedger
	liteTotal
	liteFeed
	liteEvent
	liteResult
)

var sqliteFloorStmts = []string{
	liteLock:   `SELECT id, stock FROM mappings WHERE bin_id = ? AND product_id = ?`,
	liteUpdate: `UPDATE mappings SET stock = ? WHERE id = ?`,
	liteLedger: `INSERT INTO ledger (product_id, bin_id, type, quantity, stock_after, idempotency_key, operation_id, user_name, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, 'admin', ?)`,
	liteTotal:  `UPDATE totals SET stock = stock + ? WHERE product_id = ? RETURNING stock`,
	liteFeed:   `UPDATE feed SET value = value + ? WHERE name = 'last' RETURNING value`,
	liteEvent:  `INSERT INTO events (id, type, created_at, data) VALUES (?, 'stock.changed', ?, ?)`,
	liteResult: `INSERT INTO idempotency (key, endpoint, fingerprint, response, created_at) VALUES (?, 'stock/change', ?, ?, ?)`,
}

// floorMapping is a mapping the floor locked, with its operation.
type floorMapping struct {
	id, product, bin, stock, quantity, op int64
}

// batch does ops' work as client c.
func (f *batchFloor) batch(c int, ops batchOps) error {
	now := time.Now().UTC()
	result := floorResult(ops.key, now, len(ops.bins))
	if f.pg {
		return f.batchPostgres(f.conns[c], ops, now, result)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.batchSQLite(ops, now, result)
}

func (f *batchFloor) batchPostgres(conn *pgx.Conn, ops batchOps, now time.Time, result string) error {
	ctx := context.Background()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	rows, err := tx.Query(ctx, `SELECT m.id, m.product_id, m.bin_id, m.stock, p.i - 1
FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS p(b, a, i)
JOIN mappings AS m ON m.bin_id = p.b AND m.product_id = p.a
ORDER BY m.id FOR UPDATE OF m`, ops.bins, ops.products)
	if err != nil {
		return err
	}
	locked, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (floorMapping, error) {
		var m floorMapping
		err := r.Scan(&m.id, &m.product, &m.bin, &m.stock, &m.op)
		return m, err
	})
	if err != nil {
		return err
	}
	if err := applyOps(locked, ops); err != nil {
		return err
	}
	n := len(locked)
	ids, products, bins, stocks, quantities, opIDs := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]string, n)
	for i, m := range locked {
		ids[i], products[i], bins[i], stocks[i], quantities[i], opIDs[i] = m.id, m.product, m.bin, m.stock, m.quantity, fmt.Sprint(m.op)
	}
	at := now.Format(time.RFC3339Nano)
	if _, err := tx.Exec(ctx, `UPDATE mappings AS m SET stock = v.s FROM unnest($1::bigint[], $2::int[]) AS v(id, s) WHERE m.id = v.id`, ids, stocks); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO ledger (product_id, bin_id, type, quantity, stock_after, idempotency_key, operation_id, user_name, created_at)
SELECT p.a, p.b, CASE WHEN p.q > 0 THEN 'incoming' ELSE 'outgoing' END, p.q, p.s, $6, p.op, 'admin', $7
FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::int[], $5::text[]) AS p(a, b, q, s, op)`,
		products, bins, quantities, stocks, opIDs, ops.key, at); err != nil {
		return err
	}
	changed, deltas := productDeltas(locked)
	if _, err := tx.Exec(ctx, `SELECT 1 FROM totals WHERE product_id = ANY($1) ORDER BY product_id FOR UPDATE`, changed); err != nil {
		return err
	}
	rows, err = tx.Query(ctx, `UPDATE totals AS t SET stock = t.stock + d.q FROM unnest($1::bigint[], $2::bigint[]) AS d(p, q)
WHERE t.product_id = d.p RETURNING t.product_id, t.stock`, changed, deltas)
	if err != nil {
		return err
	}
	totals := map[int64]int64{}
	for rows.Next() {
		var p, s int64
		if err := rows.Scan(&p, &s); err != nil {
			return err
		}
		totals[p] = s
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var last int64
	if err := tx.QueryRow(ctx, `UPDATE feed SET value = value + $1 WHERE name = 'last' RETURNING value`, len(changed)).Scan(&last); err != nil {
		return err
	}
	eventIDs, data := make([]int64, len(changed)), make([]string, len(changed))
	for i, p := range changed {
		eventIDs[i], data[i] = last-int64(len(changed)-1-i), stockChangedData(p, totals[p], ops.key)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO events (id, type, created_at, data) SELECT e.id, 'stock.changed', $3, e.d FROM unnest($1::bigint[], $2::text[]) AS e(id, d)`,
		eventIDs, data, at); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO idempotency (key, endpoint, fingerprint, response, created_at) VALUES ($1, 'stock/change', $2, $3, $4)`,
		ops.key, strings.Repeat("f", 64), result, at); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func (f *batchFloor) batchSQLite(ops batchOps, now time.Time, result string) error {
	tx, err := f.sql.Begin() // BEGIN IMMEDIATE: the database is the transaction's
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	st := func(i int) *sql.Stmt { return tx.Stmt(f.stmts[i]) }
	lock := st(liteLock)
	locked := make([]floorMapping, len(ops.bins))
	for i := range ops.bins {
		m := floorMapping{product: ops.products[i], bin: ops.bins[i], op: int64(i)}
		if err := lock.QueryRow(m.bin, m.product).Scan(&m.id, &m.stock); err != nil {
			return fmt.Errorf("mapping of product %d on bin %d: %w", m.product, m.bin, err)
		}
		locked[i] = m
	}
	slices.SortFunc(locked, func(a, b floorMapping) int { return int(a.id - b.id) })
	if err := applyOps(locked, ops); err != nil {
		return err
	}
	at := now.Format(time.RFC3339Nano)
	update, ledger := st(liteUpdate), st(liteLedger)
	for _, m := range locked {
		if _, err := update.Exec(m.stock, m.id); err != nil {
			return err
		}
		kind := "incoming"
		if m.quantity < 0 {
			kind = "outgoing"
		}
		if _, err := ledger.Exec(m.product, m.bin, kind, m.quantity, m.stock, ops.key, fmt.Sprint(m.op), at); err != nil {
			return err
		}
	}
	changed, deltas := productDeltas(locked)
	total := st(liteTotal)
	totals := make([]int64, len(changed))
	for i, p := range changed {
		if err := total.QueryRow(deltas[i], p).Scan(&totals[i]); err != nil {
			return err
		}
	}
	var last int64
	if err := st(liteFeed).QueryRow(len(changed)).Scan(&last); err != nil {
		return err
	}
	event := st(liteEvent)
	for i, p := range changed {
		if _, err := event.Exec(last-int64(len(changed)-1-i), at, stockChangedData(p, totals[i], ops.key)); err != nil {
			return err
		}
	}
	if _, err := st(liteResult).Exec(ops.key, strings.Repeat("f", 64), result, at); err != nil {
		return err
	}
	return tx.Commit()
}

// applyOps puts each operation's change on its locked mapping and refuses
// stock below zero.
func applyOps(locked []floorMapping, ops batchOps) error {
	if len(locked) != len(ops.bins) {
		return fmt.Errorf("locked %d of %d mappings", len(locked), len(ops.bins))
	}
	for i := range locked {
		locked[i].quantity = ops.quantity[locked[i].op]
		locked[i].stock += locked[i].quantity
		if locked[i].stock < 0 {
			return fmt.Errorf("stock of mapping %d would go below zero", locked[i].id)
		}
	}
	return nil
}

// productDeltas are the changed products in id order and each one's change.
func productDeltas(locked []floorMapping) (products, deltas []int64) {
	sum := map[int64]int64{}
	for _, m := range locked {
		sum[m.product] += m.quantity
	}
	for p := range sum {
		products = append(products, p)
	}
	slices.Sort(products)
	for _, p := range products {
		deltas = append(deltas, sum[p])
	}
	return products, deltas
}

// stockChangedData is a stock.changed event's data of about 400 bytes: the
// product's figures and the cause.
func stockChangedData(product, stock int64, key string) string {
	s := fmt.Sprintf(`{"id":%d,"number":"SKU%d","name":"","reorderPoint":0,"ean":"","lotTracked":false,"physicalStock":%d,"physicalStockForSale":%[3]d,`+
		`"reservedStock":0,"availableStock":%[3]d,"incomingStock":0,"expiredStock":0,"warehouseStocks":[{"warehouseId":1,"warehouseCode":"OUT","stock":%[3]d,"reservedStock":0}],`+
		`"cause":{"type":"stock/change","idempotencyKey":%q,"orderId":null}}`, product, product, stock, key)
	return s + strings.Repeat(" ", max(0, 400-len(s)))
}

// floorResult is the batch result the floor stores: the service's shape,
// one entry per operation.
func floorResult(key string, at time.Time, n int) string {
	var s strings.Builder
	fmt.Fprintf(&s, `{"success":true,"idempotencyKey":%q,"createdAt":%q,"results":[`, key, at.Format("2006-01-02T15:04:05-0700"))
	for i := range n {
		if i > 0 {
			s.WriteByte(',')
		}
		fmt.Fprintf(&s, `{"operationId":%d,"success":true}`, i)
	}
	s.WriteString("]}")
	return s.String()
}
