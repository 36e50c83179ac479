package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/ports"
)

// countedTables are the tables whose rows are counted as they are inserted
// and deleted, by triggers (migration *_row_counts): the tables a list may
// show unfiltered at any size.
var countedTables = []string{"stock_ledger_entries", "orders"}

// keptCount is the number of rows in a counted table: the sum of its rows
// in row_counts. On SQLite, whose writers take turns, that is one row the
// triggers update. On PostgreSQL each inserting or deleting statement adds
// a row of its own, so that concurrent writers never wait for each other
// on one counter row; Fold sums them up now and then.
func keptCount(ctx context.Context, idb bun.IDB, table string) (int, error) {
	var n int64
	err := idb.NewSelect().TableExpr("row_counts").ColumnExpr("COALESCE(SUM(n), 0)").Where("name = ?", table).Scan(ctx, &n)
	return int(n), err
}

type rowCounts struct{ s *store }

func (s *store) RowCounts() ports.RowCounts { return rowCounts{s} }

// Fold replaces each counted table's rows in row_counts by their sum. The
// delete hands back exactly the rows it removed (a row committed after its
// snapshot stays for the next fold), so no count is lost or taken twice,
// and two folds at once each sum what they removed.
func (r rowCounts) Fold(ctx context.Context) error {
	for _, table := range countedTables {
		var rows int
		if err := r.s.idb.NewSelect().TableExpr("row_counts").ColumnExpr("COUNT(*)").Where("name = ?", table).Scan(ctx, &rows); err != nil {
			return err
		}
		if rows < 2 {
			continue
		}
		var removed []int64
		if err := r.s.idb.NewRaw("DELETE FROM row_counts WHERE name = ? RETURNING n", table).Scan(ctx, &removed); err != nil {
			return err
		}
		if len(removed) == 0 {
			continue
		}
		var sum int64
		for _, n := range removed {
			sum += n
		}
		if _, err := r.s.idb.ExecContext(ctx, "INSERT INTO row_counts (name, n) VALUES (?, ?)", table, sum); err != nil {
			return err
		}
	}
	return nil
}
