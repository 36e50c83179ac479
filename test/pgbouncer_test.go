package test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/test/testdb"
)

// The concurrency test of DESIGN.md 9 through PgBouncer in transaction
// pooling: no session state, no server-side prepared statements.
func TestStockConcurrentBatchesPgBouncer(t *testing.T) {
	stockConcurrently(t, testdb.PgBouncer(t), 16, 3*time.Second)
}

// Instances starting together behind PgBouncer migrate once, and the
// migration lock does not outlive the migration: a session advisory lock
// would stay on whichever server connection took it.
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
	}
}
