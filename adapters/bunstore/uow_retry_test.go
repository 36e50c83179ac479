package bunstore

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// Write retries a transaction that PostgreSQL aborts for a serialization
// failure (40001) or a deadlock (40P01); the caller sees only the success.

func retryDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(testdb.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.bun.ExecContext(context.Background(),
		"CREATE TABLE retry_probe (id INTEGER PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0); INSERT INTO retry_probe (id) VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	return db
}

func exec(ctx context.Context, s ports.Store, query string, args ...any) error {
	_, err := s.(*store).idb.ExecContext(ctx, query, args...)
	return err
}

func TestWriteRetriesASerializationFailureOnce(t *testing.T) {
	db := retryDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var attempts int
	err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
		attempts++
		// The first attempt's insert must be rolled back, or the second
		// one's would violate the primary key.
		if err := exec(ctx, s, "INSERT INTO retry_probe (id) VALUES (3)"); err != nil {
			return err
		}
		if attempts == 1 {
			return exec(ctx, s, "DO $$ BEGIN RAISE EXCEPTION 'forced by the test' USING ERRCODE = 'serialization_failure'; END $$")
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Write = %v, want the retry's success", err)
	}
	if attempts != 2 {
		t.Fatalf("%d attempts, want 2", attempts)
	}
	var n int
	if err := db.bun.NewRaw("SELECT count(*) FROM retry_probe WHERE id = 3").Scan(ctx, &n); err != nil || n != 1 {
		t.Fatalf("rows with id 3: %d (%v), want 1", n, err)
	}
}

// TestWriteRetriesTheVictimOfADeadlockOnce crosses two transactions' locks
// for real: each holds one row and waits for the other's, PostgreSQL aborts
// one of them, and Write runs that one again after the other committed.
func TestWriteRetriesTheVictimOfADeadlockOnce(t *testing.T) {
	db := retryDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var attempts [2]atomic.Int32
	holding := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	finished := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	cross := func(me, first, second int) error {
		defer close(finished[me])
		return db.Write(ctx, func(ctx context.Context, s ports.Store) error {
			n := attempts[me].Add(1)
			if n > 1 {
				// The victim's retry lets the survivor finish first, or it
				// could take the freed row before the survivor wakes up and
				// deadlock anew.
				select {
				case <-finished[1-me]:
				case <-time.After(10 * time.Second):
					return errors.New("the other transaction did not finish")
				}
			}
			if err := exec(ctx, s, "UPDATE retry_probe SET n = n + 1 WHERE id = ?", first); err != nil {
				return err
			}
			if n == 1 {
				// Both hold their first row before either asks for its second.
				close(holding[me])
				<-holding[1-me]
			}
			return exec(ctx, s, "UPDATE retry_probe SET n = n + 1 WHERE id = ?", second)
		})
	}
	var wg sync.WaitGroup
	var errs [2]error
	wg.Go(func() { errs[0] = cross(0, 1, 2) })
	wg.Go(func() { errs[1] = cross(1, 2, 1) })
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("transaction %d: Write = %v, want the retry's success", i, err)
		}
	}
	a, b := attempts[0].Load(), attempts[1].Load()
	if a+b != 3 || max(a, b) != 2 {
		t.Errorf("attempts = %d and %d, want one transaction run once and the deadlock's victim twice", a, b)
	}
	var ns []int
	if err := db.bun.NewRaw("SELECT n FROM retry_probe ORDER BY id").Scan(ctx, &ns); err != nil {
		t.Fatal(err)
	}
	if len(ns) != 2 || ns[0] != 2 || ns[1] != 2 {
		t.Errorf("counters = %v, want [2 2]: each transaction committed once", ns)
	}
}
