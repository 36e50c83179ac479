package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
)

// Volume is what a long-running installation accumulates beside the seeded
// stock: ledger entries and further warehouses and bins.
type Volume struct {
	LedgerEntries int // spread evenly over the seeded articles and bins
	Warehouses    int // more warehouses W2…, each with its unknown bin
	BigBins       int // bins of warehouse W2, one big warehouse
}

// DefaultVolume is the measured volume: a million ledger entries beside 100 000
// mappings, a thousand warehouses, and a warehouse of 100 000 bins.
var DefaultVolume = Volume{LedgerEntries: 1_000_000, Warehouses: 999, BigBins: 100_000}

// SeedVolume adds v to a database that Seed filled with s, in a few
// set-based statements (generate_series on PostgreSQL, recursive CTEs on
// SQLite). The ledger's entries belong to article i%Articles+1 on bin
// B(i/Articles%Bins+1) of warehouse 1, in id order.
func SeedVolume(ctx context.Context, db *bunstore.DB, s Shape, v Volume) error {
	series := func(n int, body string) string {
		if db.Postgres() {
			return fmt.Sprintf("%s FROM generate_series(0, %d) AS g(x)", body, n-1)
		}
		return fmt.Sprintf("WITH RECURSIVE g(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM g WHERE x < %d) %s FROM g", n-1, body)
	}
	stmts := []string{
		series(v.LedgerEntries, fmt.Sprintf(`INSERT INTO stock_ledger_entries
(article_detail_id, warehouse_id, bin_location_id, type, quantity, stock_after, idempotency_key, operation_id, user_name, created_at)
SELECT x %% %[1]d + 1, 1, (SELECT id FROM bin_locations WHERE warehouse_id = 1 AND code = 'B1') + x / %[1]d %% %[2]d,
'incoming', 1, %[3]d, 'seed-' || (x / 1000), CAST(x %% 1000 AS TEXT), 'admin', '2026-11-01 00:00:00+00:00'`, s.Articles, s.Bins, s.Stock)),
		series(v.Warehouses, `INSERT INTO warehouses (id, code, name) SELECT x + 2, 'W' || (x + 2), 'Warehouse ' || (x + 2)`),
		`INSERT INTO bin_locations (warehouse_id, code) SELECT id, 'erp_null_bin_location' FROM warehouses WHERE id > 1`,
		`UPDATE warehouses SET null_bin_location_id = (SELECT b.id FROM bin_locations AS b WHERE b.warehouse_id = warehouses.id AND b.code = 'erp_null_bin_location') WHERE id > 1`,
		series(v.BigBins, `INSERT INTO bin_locations (warehouse_id, code) SELECT 2, 'R' || x`),
	}
	if db.Postgres() {
		stmts = append(stmts,
			`SELECT setval(pg_get_serial_sequence('warehouses', 'id'), (SELECT max(id) FROM warehouses))`,
			`VACUUM ANALYZE`)
	} else {
		stmts = append(stmts, `ANALYZE`)
	}
	for _, q := range stmts {
		if _, err := db.Bun().ExecContext(ctx, q); err != nil {
			return fmt.Errorf("seed volume: %w\n%s", err, q)
		}
	}
	if db.Postgres() {
		return settle(ctx, db)
	}
	return nil
}

// settle vacuums until the ledger's pages are marked all-visible, the
// steady state of an append-only table that autovacuum keeps up with:
// counts then read the index alone. A vacuum that runs while autovacuum
// analyses another table cannot mark pages that the analysis might still
// see, so a single one leaves that to chance.
func settle(ctx context.Context, db *bunstore.DB) error {
	for range 10 {
		var pages, visible int
		if err := db.Bun().QueryRowContext(ctx, `SELECT relpages, relallvisible FROM pg_class WHERE relname = 'stock_ledger_entries'`).Scan(&pages, &visible); err != nil {
			return err
		}
		if visible >= pages*99/100 {
			return nil
		}
		time.Sleep(time.Second)
		if _, err := db.Bun().ExecContext(ctx, `VACUUM stock_ledger_entries`); err != nil {
			return err
		}
	}
	return fmt.Errorf("seed volume: the ledger's pages do not become all-visible")
}
