// Package bench holds the shared setup of the stock benchmarks and the load
// driver: a warehouse with many bins and mappings, and 1000-operation batches
// that touch distinct mappings.
package bench

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/shopstock/inventory/adapters/bunstore"
)

// Shape is the size of the seeded stock: Bins × Articles mappings.
type Shape struct {
	Bins     int
	Articles int
	Stock    int
}

// Default is the measured shape: 1000 bins, 100 000 mappings.
var Default = Shape{Bins: 1000, Articles: 100, Stock: 1_000_000}

// Seed fills an empty, migrated database: one warehouse "BENCH" (id 1),
// its bins B1…Bn, articles 1…m, and a mapping of every article on every bin.
// It writes rows in a few set-based statements; it is no use case.
func Seed(ctx context.Context, db *bunstore.DB, s Shape) error {
	stmts := []string{
		`INSERT INTO warehouses (id, code, name, is_default, is_default_return) VALUES (1, 'BENCH', 'Benchmark', TRUE, TRUE)`,
		`INSERT INTO bin_locations (warehouse_id, code) VALUES (1, 'erp_null_bin_location')`,
		`UPDATE warehouses SET null_bin_location_id = (SELECT id FROM bin_locations WHERE code = 'erp_null_bin_location') WHERE id = 1`,
		fmt.Sprintf(`WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < %d)
			INSERT INTO bin_locations (warehouse_id, code) SELECT 1, 'B' || x FROM g`, s.Bins),
		fmt.Sprintf(`WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < %d)
			INSERT INTO article_details (id, number, name) SELECT x, 'SKU' || x, '' FROM g`, s.Articles),
		fmt.Sprintf(`INSERT INTO stock_mappings (bin_location_id, warehouse_id, article_detail_id, stock, reserved_stock, is_default)
			SELECT b.id, 1, a.id, %d, 0, FALSE FROM bin_locations b CROSS JOIN article_details a
			WHERE b.code <> 'erp_null_bin_location' ORDER BY a.id, b.id`, s.Stock),
		// What the service keeps beside the mappings (events.Record): each
		// product's stock per warehouse, and its snapshot.
		`INSERT INTO stock_totals (article_detail_id, warehouse_id, stock, reserved_stock, mappings)
			SELECT article_detail_id, warehouse_id, SUM(stock), SUM(reserved_stock), COUNT(*) FROM stock_mappings
			GROUP BY article_detail_id, warehouse_id ORDER BY article_detail_id, warehouse_id`,
		`INSERT INTO stock_snapshots (article_detail_id) SELECT id FROM article_details ORDER BY id`,
	}
	if db.Postgres() {
		stmts = append(stmts,
			`SELECT setval(pg_get_serial_sequence('warehouses', 'id'), 1)`,
			`VACUUM ANALYZE`)
	} else {
		stmts = append(stmts, `ANALYZE`)
	}
	for _, q := range stmts {
		if _, err := db.Bun().ExecContext(ctx, q); err != nil {
			return fmt.Errorf("seed: %w\n%s", err, q)
		}
	}
	if db.Postgres() {
		// Write the seeded pages out now rather than during the measurement;
		// it needs superuser rights, so where it is refused it is skipped.
		_, _ = db.Bun().ExecContext(ctx, `CHECKPOINT`)
	}
	return nil
}

// Operation is one change operation as sent over HTTP.
type Operation struct {
	ID              int            `json:"id"`
	ArticleDetailID int            `json:"articleDetailId"`
	Quantity        int            `json:"quantity"`
	BinLocation     map[string]any `json:"binLocation"`
	Lot             map[string]any `json:"lot,omitempty"`
}

// Change is one operation of a change batch: an article on bin "B<Bin>" of
// the warehouse "BENCH" (id 1).
type Change struct {
	ArticleDetailID int
	Bin             int
}

// Changes lists the mappings of the n-th size-operation batch of client c
// out of clients: each client owns its own articles, so concurrent clients
// do not queue behind each other's product locks, and each batch touches
// size distinct mappings (its articles on a sliding window of bins).
func Changes(s Shape, client, clients, n, size int) ([]Change, error) {
	perClient := s.Articles / clients
	if perClient == 0 {
		return nil, fmt.Errorf("%d articles cannot be split over %d clients", s.Articles, clients)
	}
	binsPerArticle := (size + perClient - 1) / perClient
	out := make([]Change, 0, size)
	for i := 0; len(out) < size; i++ {
		out = append(out, Change{
			ArticleDetailID: client*perClient + i/binsPerArticle + 1,
			Bin:             (n*binsPerArticle+i%binsPerArticle)%s.Bins + 1,
		})
	}
	return out, nil
}

// Quantity is the quantity of every operation of the n-th batch: it
// alternates in sign so stock stays level however long a run goes.
func Quantity(n int) int {
	if n%2 == 1 {
		return -1
	}
	return 1
}

// ChangeBatch is the JSON body of the batch that Changes describes.
func ChangeBatch(s Shape, client, clients, n, size int) ([]byte, error) {
	changes, err := Changes(s, client, clients, n, size)
	if err != nil {
		return nil, err
	}
	ops := make([]Operation, len(changes))
	for i, c := range changes {
		ops[i] = Operation{
			ID: i, ArticleDetailID: c.ArticleDetailID, Quantity: Quantity(n),
			BinLocation: map[string]any{"code": fmt.Sprintf("B%d", c.Bin), "warehouseId": 1},
		}
	}
	return json.Marshal(ops)
}

// TrackHalf makes the odd articles of a seeded database lot-tracked, each
// mapping of theirs holding two lots: half of its stock in LOT-A (best
// before 2030-01-01), the rest in LOT-B (2031-01-01). Like Seed, it writes
// rows directly.
func TrackHalf(ctx context.Context, db *bunstore.DB) error {
	stmts := []string{
		`UPDATE article_details SET lot_tracked = TRUE WHERE id % 2 = 1`,
		`INSERT INTO lots (article_detail_id, number, best_before, expiry_counted, created_at)
			SELECT a.id, l.number, l.best_before, FALSE, CURRENT_TIMESTAMP FROM article_details a
			CROSS JOIN (SELECT 'LOT-A' AS number, '2030-01-01' AS best_before UNION ALL SELECT 'LOT-B', '2031-01-01') AS l
			WHERE a.lot_tracked ORDER BY a.id, l.number`,
		`INSERT INTO lot_stock (article_detail_id, bin_location_id, warehouse_id, lot_number, stock, reserved_stock)
			SELECT m.article_detail_id, m.bin_location_id, m.warehouse_id, l.number,
				CASE WHEN l.number = 'LOT-A' THEN m.stock / 2 ELSE m.stock - m.stock / 2 END, 0
			FROM stock_mappings m JOIN article_details a ON a.id = m.article_detail_id AND a.lot_tracked
			CROSS JOIN (SELECT 'LOT-A' AS number UNION ALL SELECT 'LOT-B') AS l
			ORDER BY m.article_detail_id, m.bin_location_id, l.number`,
	}
	if db.Postgres() {
		stmts = append(stmts, `VACUUM ANALYZE`)
	} else {
		stmts = append(stmts, `ANALYZE`)
	}
	for _, q := range stmts {
		if _, err := db.Bun().ExecContext(ctx, q); err != nil {
			return fmt.Errorf("track half: %w\n%s", err, q)
		}
	}
	return nil
}

// WithLots names LOT-A on the operations of a batch body that bring
// stock in for an odd (lot-tracked) article, as TrackHalf's data needs;
// what goes out takes lots first expiring first out.
func WithLots(body []byte) ([]byte, error) {
	var ops []Operation
	if err := json.Unmarshal(body, &ops); err != nil {
		return nil, err
	}
	for i := range ops {
		if ops[i].ArticleDetailID%2 == 1 && ops[i].Quantity > 0 {
			ops[i].Lot = map[string]any{"number": "LOT-A"}
		}
	}
	return json.Marshal(ops)
}
