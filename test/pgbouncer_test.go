package test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/test/testdb"
)

// The concurrent stock batches through PgBouncer in transaction pooling:
// the service keeps no session state and no server-side prepared
// statements, so it works behind such a pooler.
func TestStockConcurrentBatchesPgBouncer(t *testing.T) {
	stockConcurrently(t, testdb.PgBouncer(t), 16, 3*time.Second)
}

// Instances starting together behind PgBouncer migrate once, and the
// migration lock does not outlive the migration: a session advisory lock
// would stay on whichever server connection took it. Afterwards every
// migration is marked applied exactly once and every table the migrations
// create is there.
func TestMigrationsThroughPgBouncer(t *testing.T) {
	databaseURL := testdb.PgBouncer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	migrate := func() error {
		db, err := bunstore.Open(databaseURL)
		if err != nil {
			return err
		}
		defer db.Close()
		return db.Migrate(ctx)
	}
	for round := 0; round < 2; round++ {
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = migrate()
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, instance %d: %v", round, i, err)
			}
		}
		requireMigratedOnce(t, openDB(t, databaseURL))
	}
}

// requireMigratedOnce checks a PostgreSQL database against the migration
// files: bun's table names each migration exactly once and nothing else,
// and each table a migration creates exists.
func requireMigratedOnce(t *testing.T, db *bunstore.DB) {
	t.Helper()
	var want []string
	tables := map[string]bool{}
	createTable := regexp.MustCompile(`(?i)\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([a-z_][a-z0-9_]*)`)
	dropTable := regexp.MustCompile(`(?i)\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?"?([a-z_][a-z0-9_]*)`)
	for _, f := range schemaFiles(t, "postgres") {
		name, _, _ := strings.Cut(f, "_")
		want = append(want, name)
		body, err := os.ReadFile(filepath.Join(migrationsDir, "postgres", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range createTable.FindAllSubmatch(body, -1) {
			tables[strings.ToLower(string(m[1]))] = true
		}
		for _, m := range dropTable.FindAllSubmatch(body, -1) {
			delete(tables, strings.ToLower(string(m[1])))
		}
	}
	if got := appliedMigrations(t, db); !slices.Equal(got, want) {
		t.Errorf("bun_migrations holds %v, want each of %v once", got, want)
	}
	if len(tables) == 0 {
		t.Fatal("the migrations create no table")
	}
	for name := range tables {
		if !tableExists(t, db, name) {
			t.Errorf("table %s is missing", name)
		}
	}
}
