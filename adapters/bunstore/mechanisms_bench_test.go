package bunstore

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// The benchmarks here weigh the batch path's mechanisms against the plain
// way of doing the same, on a 1000-operation batch's rows in a database of
// 100 000 mappings: a mechanism stays when it saves at least 5% of a batch
// (the batch's own figures are in test/bench/README.md).
//
//	go test ./adapters/bunstore -run '^$' -bench Mechanism -benchtime 40x -count 3

const mechanismBins, mechanismArticles = 1000, 100

func mechanismDB(b *testing.B, url string) *DB {
	b.Helper()
	db := migratedDB(b, url)
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO warehouses (id, code, name, is_default, is_default_return) VALUES (1, 'BENCH', 'Benchmark', TRUE, TRUE)`,
		fmt.Sprintf(`WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < %d)
			INSERT INTO bin_locations (id, warehouse_id, code) SELECT x, 1, 'B' || x FROM g`, mechanismBins),
		fmt.Sprintf(`WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < %d)
			INSERT INTO article_details (id, number, name) SELECT x, 'SKU' || x, '' FROM g`, mechanismArticles),
		`INSERT INTO stock_mappings (bin_location_id, warehouse_id, article_detail_id, stock, reserved_stock, is_default)
			SELECT b.id, 1, a.id, 1000, 0, FALSE FROM bin_locations b CROSS JOIN article_details a ORDER BY a.id, b.id`,
		`ANALYZE`,
	} {
		if _, err := db.Bun().ExecContext(ctx, q); err != nil {
			b.Fatalf("%v\n%s", err, q)
		}
	}
	return db
}

var errRolledBack = errors.New("rolled back")

func BenchmarkMechanismPostgresLedgerColumns(b *testing.B) {
	db := mechanismDB(b, testdb.Postgres(b))
	pg := postgresDialect{}
	ctx := context.Background()
	entries := make([]stock.LedgerEntry, mechanismBins)
	at := time.Now()
	for i := range entries {
		entries[i] = stock.LedgerEntry{ArticleDetailID: int64(1 + i%mechanismArticles), WarehouseID: 1, BinLocationID: int64(1 + i),
			Type: stock.EntryType("change"), Quantity: 1, StockAfter: 1001, CreatedAt: at,
			Ref: stock.Reference{IdempotencyKey: "a-batch-key-of-some-length", User: "erp"}}
	}
	write := map[string]func(s *store) error{
		"shared": func(s *store) error { return pg.appendLedger(ctx, s, entries) },
		"arrays": func(s *store) error {
			var c pgColumns
			arrays := func(name, sqlType string, values any) {
				c.names, c.rows = append(c.names, name), len(entries)
				c.values, c.arrays = append(c.values, "u."+name), append(c.arrays, "?::"+sqlType+"[]")
				c.arrayArgs = append(c.arrayArgs, values)
			}
			n := len(entries)
			ids, wh, bins, qty, after := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
			types, keys, users := make([]string, n), make([]string, n), make([]string, n)
			times := make([]time.Time, n)
			for i, e := range entries {
				ids[i], wh[i], bins[i], qty[i], after[i] = e.ArticleDetailID, e.WarehouseID, e.BinLocationID, int64(e.Quantity), int64(e.StockAfter)
				types[i], keys[i], users[i], times[i] = string(e.Type), e.Ref.IdempotencyKey, e.Ref.User, e.CreatedAt.UTC()
			}
			for _, col := range []struct {
				name, sqlType string
				values        any
			}{
				{"article_detail_id", "bigint", ids}, {"warehouse_id", "bigint", wh}, {"bin_location_id", "bigint", bins},
				{"type", "text", types}, {"quantity", "int", qty}, {"stock_after", "int", after},
				{"idempotency_key", "text", keys}, {"user_name", "text", users}, {"created_at", "timestamptz", times},
			} {
				arrays(col.name, col.sqlType, pgdialect.Array(col.values))
			}
			return s.exec(ctx, c.insert("stock_ledger_entries"), c.args...)
		},
	}
	for _, name := range []string{"shared", "arrays"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := db.Write(ctx, func(ctx context.Context, ps ports.Store) error {
					s := ps.(*store)
					if err := s.oneTrip(ctx, func() error { return write[name](s) }); err != nil {
						return err
					}
					return errRolledBack // the next round starts from the same table
				}); !errors.Is(err, errRolledBack) {
					b.Fatal(err)
				}
			}
		})
	}
}
