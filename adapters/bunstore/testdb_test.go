package bunstore

import (
	"context"
	"testing"
)

// migratedDB opens the database at url, migrated, closed when the test
// ends.
func migratedDB(t testing.TB, url string) *DB {
	t.Helper()
	db, err := Open(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}
