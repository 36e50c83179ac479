package bunstore

import (
	"context"
	"path/filepath"
	"testing"
)

// A commit copies the WAL back into the database file only once it holds
// sqliteWALPages pages: six commits of some 500 pages each stay in the WAL,
// where SQLite's default (1000 pages) would have copied them back and
// started the WAL over after the second or third.
func TestSQLiteCommitsLeaveTheWALToGrowBeforeCopyingItBack(t *testing.T) {
	ctx := context.Background()
	db := migratedDB(t, "sqlite:"+filepath.Join(t.TempDir(), "wal.db"))
	if _, err := db.bun.ExecContext(ctx, "CREATE TABLE scratch (b BLOB)"); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if _, err := db.bun.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
INSERT INTO scratch SELECT randomblob(4000) FROM n`); err != nil {
			t.Fatal(err)
		}
	}
	var busy, frames, copied int
	if err := db.bun.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
		t.Fatal(err)
	}
	if frames < 3000 || frames > sqliteWALPages {
		t.Errorf("the WAL holds %d pages after six commits of 500, want them all (at most %d)", frames, sqliteWALPages)
	}
}
