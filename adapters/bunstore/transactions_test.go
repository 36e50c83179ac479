package bunstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/event"

	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

func TestSnapshotLockWaitsAndFiguresReadWhatTheHolderCommitted(t *testing.T) {
	db := migratedDB(t, testdb.Postgres(t))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, q := range []string{
		`INSERT INTO warehouses (id, code, name) VALUES (901, 'LOCKW', 'Lock test')`,
		`INSERT INTO bin_locations (id, warehouse_id, code) VALUES (901, 901, 'L1')`,
		`INSERT INTO article_details (id, number, name) VALUES (901, 'LOCK-1', '')`,
		`INSERT INTO stock_mappings (bin_location_id, warehouse_id, article_detail_id, stock, reserved_stock, is_default) VALUES (901, 901, 901, 5, 0, FALSE)`,
		`INSERT INTO stock_totals (article_detail_id, warehouse_id, stock, reserved_stock, mappings) VALUES (901, 901, 5, 0, 1)`,
		`INSERT INTO stock_snapshots (article_detail_id) VALUES (901)`,
	} {
		if _, err := db.bun.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	stockOf := func(l ports.LockedSnapshots) int {
		total := 0
		for _, w := range l.Stock[901] {
			total += w.Stock
		}
		return total
	}
	locked := make(chan struct{})
	holderDone := make(chan error, 1)
	go func() {
		holderDone <- db.Write(ctx, func(ctx context.Context, s ports.Store) error {
			l, err := s.Events().LockSnapshots(ctx, []int64{901}, nil)
			if err != nil {
				return err
			}
			if got := stockOf(l); got != 5 {
				t.Errorf("holder read stock %d, want 5", got)
			}
			if err := exec(ctx, s, "UPDATE stock_totals SET stock = 12 WHERE article_detail_id = 901"); err != nil {
				return err
			}
			// What a purchase order's change writes under the snapshot
			// lock, holding no lock of its products.
			if err := exec(ctx, s, "INSERT INTO incoming_stock (article_detail_id, quantity) VALUES (901, 50)"); err != nil {
				return err
			}
			close(locked)
			time.Sleep(300 * time.Millisecond) // the waiter queues behind the lock meanwhile
			return nil
		})
	}()
	<-locked
	start := time.Now()
	err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
		// A write before the lock, as a batch's are (it touches no row the
		// holder locked, so the lock is the only wait).
		if err := exec(ctx, s, "UPDATE warehouses SET name = 'Lock test' WHERE id = 901"); err != nil {
			return err
		}
		l, err := s.Events().LockSnapshots(ctx, []int64{901}, nil)
		if err != nil {
			return err
		}
		if waited := time.Since(start); waited < 100*time.Millisecond {
			t.Errorf("the lock was granted after %v: it did not wait for the holder", waited)
		}
		if got := stockOf(l); got != 12 {
			t.Errorf("after the lock the figures show stock %d, want the holder's 12", got)
		}
		if len(l.Articles) != 1 || l.Articles[0].Number() != "LOCK-1" {
			t.Errorf("articles = %v, want LOCK-1", l.Articles)
		}
		if l.Incoming[901] != 50 {
			t.Errorf("after the lock the incoming stock is %d, want the holder's 50", l.Incoming[901])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-holderDone; err != nil {
		t.Fatal(err)
	}
}

// The transaction is the store's own on PostgreSQL: a transaction that
// failed is not reported as committed, and its connection goes back to the
// pool with no transaction open.

func TestWriteWhoseStatementFailedUnnoticedIsNotCommitted(t *testing.T) {
	db := retryDB(t)
	ctx := context.Background()
	err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
		if err := exec(ctx, s, "UPDATE retry_probe SET n = 5 WHERE id = 1"); err != nil {
			return err
		}
		_ = exec(ctx, s, "INSERT INTO retry_probe (id) VALUES (1)") // fails; the use case looks away
		return nil
	})
	if err == nil {
		t.Fatal("Write = nil for a transaction PostgreSQL rolled back")
	}
	var n int
	if err := db.bun.NewRaw("SELECT n FROM retry_probe WHERE id = 1").Scan(ctx, &n); err != nil || n != 0 {
		t.Fatalf("n = %d (%v), want the update rolled back", n, err)
	}
}

// The events' statements are the transaction's last: they go with the
// COMMIT, a port call's writes travel as one batch sent before the call
// returns, and a statement after the events is refused rather than run
// before them.
func TestWritesOfAPortCallAreInTheDatabaseWhenItReturns(t *testing.T) {
	db := retryDB(t)
	ctx := context.Background()
	err := db.Write(ctx, func(ctx context.Context, ps ports.Store) error {
		s := ps.(*store)
		if err := s.oneTrip(ctx, func() error {
			if err := s.exec(ctx, "UPDATE retry_probe SET n = 3 WHERE id = ?", 1); err != nil {
				return err
			}
			return s.exec(ctx, "UPDATE retry_probe SET n = n + 1 WHERE id = ?", 1)
		}); err != nil {
			return err
		}
		var n int
		if err := s.idb.NewRaw("SELECT n FROM retry_probe WHERE id = 1").Scan(ctx, &n); err != nil || n != 4 {
			t.Errorf("after oneTrip n = %d (%v), want 4", n, err)
		}
		if err := s.Events().Record(ctx, nil, nil, nil, time.Now()); err != nil {
			return err
		}
		if err := s.exec(ctx, "UPDATE retry_probe SET n = 9 WHERE id = 2"); !errors.Is(err, errAfterLast) {
			t.Errorf("a statement after the events: %v, want errAfterLast", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var ns []int
	if err := db.bun.NewRaw("SELECT n FROM retry_probe ORDER BY id").Scan(ctx, &ns); err != nil || len(ns) != 2 || ns[0] != 4 || ns[1] != 0 {
		t.Fatalf("n = %v (%v), want [4 0]", ns, err)
	}
}

// Last holds the use case's last writes for the COMMIT: another session
// sees nothing until the transaction commits, a read inside it is refused
// rather than answered without them, the commit step's writes join them,
// and Flush sends them for a read that must see them.
func TestLastHoldsTheWritesForTheCommitAndFlushSendsThem(t *testing.T) {
	db := retryDB(t)
	ctx := context.Background()
	outside := func() []int {
		var ns []int
		if err := db.bun.NewRaw("SELECT n FROM retry_probe ORDER BY id").Scan(ctx, &ns); err != nil {
			t.Fatal(err)
		}
		return ns
	}
	err := db.Write(ctx, func(ctx context.Context, ps ports.Store) error {
		s := ps.(*store)
		if err := s.Last(ctx, func() error { return s.exec(ctx, "UPDATE retry_probe SET n = 5 WHERE id = 1") }); err != nil {
			return err
		}
		if got := s.held.Len(); got != 1 {
			t.Errorf("held statements after Last: %d, want 1", got)
		}
		if _, err := s.Figures().ArticlesInWarehouse(ctx, 1); !errors.Is(err, errHeld) {
			t.Errorf("a read while writes are held: %v, want errHeld", err)
		}
		if err := s.exec(ctx, "UPDATE retry_probe SET n = 6 WHERE id = 2"); err != nil {
			return err
		}
		if got := s.held.Len(); got != 2 {
			t.Errorf("held statements with the commit step's: %d, want 2", got)
		}
		if err := s.Events().Record(ctx, nil, nil, nil, time.Now()); err != nil {
			return err
		}
		if ns := outside(); !slices.Equal(ns, []int{0, 0}) {
			t.Errorf("before the COMMIT another session sees %v, want [0 0]", ns)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if ns := outside(); !slices.Equal(ns, []int{5, 6}) {
		t.Fatalf("after the COMMIT n = %v, want [5 6]", ns)
	}

	err = db.Write(ctx, func(ctx context.Context, ps ports.Store) error {
		s := ps.(*store)
		if err := s.Last(ctx, func() error { return s.exec(ctx, "UPDATE retry_probe SET n = 7 WHERE id = 1") }); err != nil {
			return err
		}
		if err := s.Flush(ctx); err != nil {
			return err
		}
		var n int
		if err := s.idb.NewRaw("SELECT n FROM retry_probe WHERE id = 1").Scan(ctx, &n); err != nil || n != 7 {
			t.Errorf("after Flush the transaction reads n = %d (%v), want 7", n, err)
		}
		if s.held != nil {
			t.Errorf("Flush left %d statements held", s.held.Len())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestWriteLeavesNoTransactionOpenOnItsConnection(t *testing.T) {
	db := retryDB(t)
	db.bun.SetMaxOpenConns(1) // every Write below gets the same connection
	ctx := context.Background()
	backend := func() int {
		var pid int
		if err := db.bun.NewRaw("SELECT pg_backend_pid()").Scan(ctx, &pid); err != nil {
			t.Fatal(err)
		}
		return pid
	}
	before := backend()
	failed := errors.New("the use case fails")
	err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
		if err := exec(ctx, s, "UPDATE retry_probe SET n = 7 WHERE id = 1"); err != nil {
			return err
		}
		return failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("Write = %v, want the use case's error", err)
	}
	// Rolled back on its connection, which stays in the pool (pgx would
	// discard one with a transaction open, at the cost of a new one).
	if after := backend(); after != before {
		t.Errorf("the pool's connection changed (backend %d, then %d): the failed transaction was not rolled back on it", before, after)
	}
	cancelled, cancel := context.WithCancel(ctx)
	err = db.Write(cancelled, func(ctx context.Context, s ports.Store) error {
		if err := exec(ctx, s, "UPDATE retry_probe SET n = 8 WHERE id = 1"); err != nil {
			return err
		}
		cancel()
		return exec(ctx, s, "SELECT pg_sleep(0.2)")
	})
	if err == nil {
		t.Fatal("Write = nil with its context cancelled")
	}
	if err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
		return exec(ctx, s, "UPDATE retry_probe SET n = n + 1 WHERE id = 2")
	}); err != nil {
		t.Fatal(err)
	}
	var ns []int
	if err := db.bun.NewRaw("SELECT n FROM retry_probe ORDER BY id").Scan(ctx, &ns); err != nil {
		t.Fatal(err)
	}
	if len(ns) != 2 || ns[0] != 0 || ns[1] != 1 {
		t.Fatalf("n = %v, want [0 1]: only the last Write committed", ns)
	}
	var status string
	if err := db.bun.NewRaw("SELECT CASE WHEN now() = statement_timestamp() THEN 'idle' ELSE 'in a transaction' END").Scan(ctx, &status); err != nil || status != "idle" {
		t.Fatalf("the pool's connection is %s (%v), want no transaction open", status, err)
	}
}

// The events travel to PostgreSQL, and are stored there, as one text
// joined at the record separator: whatever JSON an event holds (quotes, commas, question marks,
// backslashes, other scripts) comes back from the feed byte for byte and
// in order, and data holding a raw separator is refused, not split.
func TestEventsJoinedAtTheSeparatorComeBackAsWritten(t *testing.T) {
	db := migratedDB(t, testdb.Postgres(t))
	ctx := context.Background()
	evs := []ports.NewEvent{
		{Type: event.StockChanged, Data: []byte(`{"name":"it's, a \"quote\" ? and \\ back"}`)},
		{Type: event.StockLow, Data: []byte(`{"name":"Größe ½ – 日本, \u001e escaped"}`)},
		{Type: event.OrderStatusChanged, Data: []byte(`{}`)},
	}
	if err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
		return s.Events().Record(ctx, nil, nil, evs, time.Now())
	}); err != nil {
		t.Fatal(err)
	}
	var got []ports.Event
	if err := db.Read(ctx, func(ctx context.Context, s ports.Store) (err error) {
		got, err = s.Events().Feed(ctx, 0, 10, nil)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(evs) {
		t.Fatalf("%d events in the feed, want %d", len(got), len(evs))
	}
	for i, e := range got {
		if e.Type != evs[i].Type || string(e.Data) != string(evs[i].Data) {
			t.Errorf("event %d = %s %s, want %s %s", i, e.Type, e.Data, evs[i].Type, evs[i].Data)
		}
	}
	err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
		return s.Events().Record(ctx, nil, nil, []ports.NewEvent{{Type: event.StockChanged, Data: []byte("{\"a\":1}\x1e{\"b\":2}")}}, time.Now())
	})
	if err == nil || !strings.Contains(err.Error(), "record separator") {
		t.Fatalf("Record of data with a raw separator = %v, want it refused", err)
	}
}

// TestFeedReadsEventsOutOfRowsOfSeveral: on PostgreSQL a transaction's
// events are one row; the feed reads them one position at a time, from any
// position, in pages of any size, of the types asked for, as SQLite's rows
// of one do.
func TestFeedReadsEventsOutOfRowsOfSeveral(t *testing.T) {
	for _, database := range []string{"postgres", "sqlite"} {
		t.Run(database, func(t *testing.T) {
			url := testdb.SQLite(t)
			if database == "postgres" {
				url = testdb.Postgres(t)
			}
			db := migratedDB(t, url)
			ctx := context.Background()
			transactions := [][]ports.NewEvent{
				{{Type: event.StockChanged, Data: []byte(`{"a":1}`)}, {Type: event.StockLow, Data: []byte(`{"a":2}`)}, {Type: event.StockChanged, Data: []byte(`{"b":3}`)}},
				{{Type: event.OrderStatusChanged, Data: []byte(`{"o":4}`)}},
				{{Type: event.StockChanged, Data: []byte(`{"c":5}`)}, {Type: event.StockChanged, Data: []byte(`{"d":6}`)}},
			}
			var all []ports.NewEvent
			for _, evs := range transactions {
				all = append(all, evs...)
				if err := db.Write(ctx, func(ctx context.Context, s ports.Store) error {
					return s.Events().Record(ctx, nil, nil, evs, time.Now())
				}); err != nil {
					t.Fatal(err)
				}
			}
			for _, types := range [][]string{nil, {event.StockChanged}, {event.StockLow, event.OrderStatusChanged}} {
				for after := 0; after <= len(all); after++ {
					for limit := 1; limit <= len(all)+1; limit++ {
						var want []string
						for i := after; i < len(all) && len(want) < limit; i++ {
							if len(types) == 0 || slices.Contains(types, all[i].Type) {
								want = append(want, fmt.Sprintf("%d %s %s", i+1, all[i].Type, all[i].Data))
							}
						}
						var got []ports.Event
						if err := db.Read(ctx, func(ctx context.Context, s ports.Store) (err error) {
							got, err = s.Events().Feed(ctx, int64(after), limit, types)
							return err
						}); err != nil {
							t.Fatal(err)
						}
						var spelt []string
						for _, e := range got {
							spelt = append(spelt, fmt.Sprintf("%d %s %s", e.ID, e.Type, e.Data))
						}
						if !slices.Equal(spelt, want) {
							t.Fatalf("types %v after %d limit %d: got %q, want %q", types, after, limit, spelt, want)
						}
					}
				}
			}
			// The purge takes the oldest rows away: a page from before
			// them goes on from the oldest row left.
			if _, err := db.bun.ExecContext(ctx, "DELETE FROM events WHERE id <= 3"); err != nil {
				t.Fatal(err)
			}
			for _, after := range []int64{0, 2, 3} {
				var got []ports.Event
				if err := db.Read(ctx, func(ctx context.Context, s ports.Store) (err error) {
					got, err = s.Events().Feed(ctx, after, 2, nil)
					return err
				}); err != nil {
					t.Fatal(err)
				}
				if len(got) != 2 || got[0].ID != 4 || got[1].ID != 5 {
					t.Errorf("after %d past the purge: got %v, want positions 4 and 5", after, got)
				}
			}
		})
	}
}
