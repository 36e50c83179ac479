package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// The benchmarks here weigh the batch path's mechanisms against the plain
// way of doing the same, each on a 1000-operation batch's rows in a
// database of 100 000 mappings: a mechanism stays when it saves at least 5%
// of a batch (the batch's own figures are in test/bench/README.md).
//
//	go test ./adapters/bunstore -run '^$' -bench Mechanism -count 6

const mechanismBins, mechanismArticles = 1000, 100

func mechanismDB(b *testing.B, url string) *DB {
	b.Helper()
	db, err := Open(url)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
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

// scatteredNeeds names one random product on each bin.
func scatteredNeeds(r *rand.Rand) stock.MappingNeeds {
	var needs stock.MappingNeeds
	for bin := 1; bin <= mechanismBins; bin++ {
		needs.OnBin = append(needs.OnBin, stock.ArticleBin{ArticleDetailID: int64(1 + r.IntN(mechanismArticles)), BinLocationID: int64(bin)})
	}
	return needs
}

// BenchmarkMechanismSQLiteMappingsRead: the mappings packed into one row of
// text (loadMappings) against one row per mapping, scanned column by
// column.
func BenchmarkMechanismSQLiteMappingsRead(b *testing.B) {
	db := mechanismDB(b, testdb.SQLite(b))
	d := db.dialect.(*sqliteDialect)
	ctx := context.Background()
	read := map[string]func(s *store, needs stock.MappingNeeds) (int, error){
		"packed": func(s *store, needs stock.MappingNeeds) (int, error) {
			rows, err := d.loadMappings(ctx, s, needs)
			return len(rows), err
		},
		"rows": func(s *store, needs stock.MappingNeeds) (int, error) {
			args := make([]any, 0, 2*len(needs.OnBin))
			for _, p := range needs.OnBin {
				args = append(args, p.ArticleDetailID, p.BinLocationID)
			}
			rows, done, err := d.queryPrepared(ctx, s, `WITH p(a, x) AS (VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?), ", len(needs.OnBin)), ", ")+`)
SELECT m.id, m.bin_location_id, m.warehouse_id, m.article_detail_id, m.stock, m.reserved_stock, m.is_default, m.last_stock_take
FROM p JOIN stock_mappings AS m ON m.bin_location_id = p.x AND m.article_detail_id = p.a`, args...)
			if err != nil {
				return 0, err
			}
			defer done()
			defer rows.Close()
			n := 0
			for rows.Next() {
				var row loadedMappingRow
				var take sql.NullString
				if err := rows.Scan(&row.ID, &row.BinLocationID, &row.WarehouseID, &row.ArticleDetailID, &row.Stock, &row.ReservedStock, &row.IsDefault, &take); err != nil {
					return 0, err
				}
				if take.Valid {
					if row.LastStockTake, err = parsedTime(take.String); err != nil {
						return 0, err
					}
				}
				n++
			}
			return n, rows.Err()
		},
	}
	for _, name := range []string{"packed", "rows"} {
		b.Run(name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			for b.Loop() {
				needs := scatteredNeeds(r)
				if err := db.Write(ctx, func(ctx context.Context, ps ports.Store) error {
					n, err := read[name](ps.(*store), needs)
					if err == nil && n != mechanismBins {
						err = fmt.Errorf("read %d mappings, want %d", n, mechanismBins)
					}
					return err
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMechanismPostgresLedgerColumns: a value every entry shares sent
// once (pgColumn) against an array per column.
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
			return pg.execSoon(ctx, s, c.insert("stock_ledger_entries"), c.args...)
		},
	}
	for _, name := range []string{"shared", "arrays"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := db.Write(ctx, func(ctx context.Context, ps ports.Store) error {
					s := ps.(*store)
					if err := write[name](s); err != nil {
						return err
					}
					if _, err := s.queryAfterPending(ctx, []string{"SELECT 1"}); err != nil {
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
