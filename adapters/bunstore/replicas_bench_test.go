package bunstore

import (
	"context"
	"testing"

	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// BenchmarkMechanismCommitPosition weighs what taking a write's position
// (pg_current_wal_insert_lsn() in the COMMIT's round trip) adds to the
// smallest write transaction, one row updated:
//
//	go test ./adapters/bunstore -run '^$' -bench CommitPosition -benchtime 2000x -count 4
func BenchmarkMechanismCommitPosition(b *testing.B) {
	db := migratedDB(b, testdb.Postgres(b))
	write := func(ctx context.Context) error {
		return db.Write(ctx, func(ctx context.Context, s ports.Store) error {
			_, err := s.(*store).idb.ExecContext(ctx, "UPDATE event_feed SET value = value WHERE name = 'purged'")
			return err
		})
	}
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{
		{"without", context.Background()},
		{"with", ports.WhenCommitted(context.Background(), func(ports.Position) {})},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if err := write(c.ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
