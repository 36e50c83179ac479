package test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/test/testdb"
)

// A batch's effects, ledger entries and stored result commit in one
// transaction: a batch cut off before its commit leaves nothing behind, and
// its retry under the same key applies it once.

// stockState is everything a batch may change, as one comparable string.
func (e *stockEnv) stockState() string {
	e.t.Helper()
	var mappings []struct {
		Bin     int64      `bun:"bin_location_id"`
		Article int64      `bun:"article_detail_id"`
		Stock   int64      `bun:"stock"`
		Default bool       `bun:"is_default"`
		Take    *time.Time `bun:"last_stock_take"`
	}
	db := e.DB.Bun()
	if err := db.NewRaw("SELECT bin_location_id, article_detail_id, stock, is_default, last_stock_take FROM stock_mappings ORDER BY id").Scan(e.ctx, &mappings); err != nil {
		e.t.Fatalf("read mappings: %v", err)
	}
	var ledger, keys int
	if err := db.NewRaw("SELECT COUNT(*) FROM stock_ledger_entries").Scan(e.ctx, &ledger); err != nil {
		e.t.Fatal(err)
	}
	if err := db.NewRaw("SELECT COUNT(*) FROM idempotency_keys").Scan(e.ctx, &keys); err != nil {
		e.t.Fatal(err)
	}
	s := fmt.Sprintf("ledger %d, keys %d;", ledger, keys)
	for _, m := range mappings {
		take := "-"
		if m.Take != nil {
			take = m.Take.UTC().Format(time.RFC3339Nano)
		}
		s += fmt.Sprintf(" %d@%d=%d(default %v, stocktake %s)", m.Article, m.Bin, m.Stock, m.Default, take)
	}
	return s
}

func TestStockCutOffBatchLeavesNothing(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, null := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		b := e.newBin(wh, "B-01")
		p := e.newArticle(1)
		e.mustSucceed("change", stockChangeOp(p, 5, stockBin(a)))

		for _, tc := range []struct {
			kind string
			ops  []application.BatchOperation
			want map[int64]int
		}{
			{"change", []application.BatchOperation{stockChangeOp(p, 3, stockBin(a)), stockChangeOp(p, -2, stockWarehouse(wh)), stockChangeOp(p, 4, stockWarehouse(wh))},
				map[int64]int{a: 6, null: 4}},
			{"set", []application.BatchOperation{stockSetOp(p, 1, stockBin(a)), stockSetOp(p, 2, stockBin(b)), stockSetOp(p, 9, stockWarehouse(wh))},
				map[int64]int{a: 1, b: 2, null: 6}},
			{"relocate", []application.BatchOperation{stockMoveAllOp(p, stockWarehouse(wh), stockBin(b)), stockMoveOp(p, 3, stockBin(b), stockBin(a))},
				map[int64]int{a: 3, b: 6, null: 0}},
		} {
			key := "cut-" + tc.kind
			before := e.stockState()
			entries := e.ledgerCount()

			// The render fails: the transaction rolls back.
			boom := errors.New("render failed")
			_, err := stockRun(e.ctx, e.App, tc.kind, stockMeta(key), tc.ops, func(application.BatchResult) ([]byte, error) { return nil, boom })
			if !errors.Is(err, boom) {
				t.Errorf("%s: a failing render gave %v", tc.kind, err)
			}
			if after := e.stockState(); after != before {
				t.Errorf("%s: a batch whose render failed left something behind:\nbefore %s\nafter  %s", tc.kind, before, after)
			}

			// The request is cancelled at the last moment: the result is
			// rendered, but storing it and committing fail.
			ctx, cancel := context.WithCancel(e.ctx)
			_, err = stockRun(ctx, e.App, tc.kind, stockMeta(key), tc.ops, func(r application.BatchResult) ([]byte, error) {
				cancel()
				return json.Marshal(r)
			})
			cancel()
			if err == nil {
				t.Errorf("%s: a batch cancelled before its commit reported success", tc.kind)
			}
			if after := e.stockState(); after != before {
				t.Errorf("%s: a cancelled batch left something behind:\nbefore %s\nafter  %s", tc.kind, before, after)
			}

			// The retry with the same key applies the batch, once.
			var res application.BatchResult
			out, err := stockRun(e.ctx, e.App, tc.kind, stockMeta(key), tc.ops, stockCapture(&res))
			if err != nil || out.Replayed {
				t.Fatalf("%s: retry: replayed %v, %v", tc.kind, out.Replayed, err)
			}
			stockExpectResults(t, res, make([]string, len(tc.ops))...)
			e.expectStock(tc.kind+" retried", p, tc.want)
			applied := e.stockState()
			again, err := stockRun(e.ctx, e.App, tc.kind, stockMeta(key), tc.ops, stockCapture(&res))
			if err != nil || !again.Replayed || !bytes.Equal(again.Body, out.Body) {
				t.Errorf("%s: a second retry: replayed %v, same body %v, %v", tc.kind, again.Replayed, bytes.Equal(again.Body, out.Body), err)
			}
			if after := e.stockState(); after != applied {
				t.Errorf("%s: the replay changed something:\nbefore %s\nafter  %s", tc.kind, applied, after)
			}
			if n := len(e.ledger(stockFilter("idempotencyKey", key))); n == 0 || e.ledgerCount() != entries+n {
				t.Errorf("%s: %d entries under the key, %d new in all", tc.kind, n, e.ledgerCount()-entries)
			}
		}
		e.checkLedger()
	})
}

// TestStockKilledConnectionLeavesNothing terminates the database session of
// a batch, once before its commit and once after it. Killed before the
// commit (while it waits for a row lock, having claimed its key), the batch
// fails as unavailable and leaves nothing, not even its key: the retry
// applies it. Killed after the commit, the batch has succeeded and stands:
// the retry replays its answer and applies nothing again.
func TestStockKilledConnectionLeavesNothing(t *testing.T) {
	// killedEnv is a PostgreSQL database with 5 pieces on bin A-01, and the
	// batch the test kills: 3 more on the bin, 2 into the warehouse.
	type killedEnv struct {
		*stockEnv
		p, a, null int64
		ops        []application.BatchOperation
	}
	setup := func(t *testing.T) killedEnv {
		e := newStockEnv(t, testdb.Postgres(t))
		wh, null := e.newWarehouse("WH1", true)
		a := e.newBin(wh, "A-01")
		p := e.newArticle(1)
		e.mustSucceed("change", stockChangeOp(p, 5, stockBin(a)))
		return killedEnv{stockEnv: e, p: p, a: a, null: null,
			ops: []application.BatchOperation{stockChangeOp(p, 3, stockBin(a)), stockChangeOp(p, 2, stockWarehouse(wh))}}
	}
	// applied checks that the batch took effect exactly once.
	applied := func(t *testing.T, e killedEnv, what string) {
		t.Helper()
		e.expectStock(what, e.p, map[int64]int{e.a: 8, e.null: 2})
		if n := len(e.ledger(stockFilter("idempotencyKey", "killed"))); n != 2 {
			t.Errorf("%s: %d ledger entries under the key, want 2", what, n)
		}
		e.checkLedger()
	}
	terminate := func(t *testing.T, e killedEnv, ctx context.Context, pid int64) {
		t.Helper()
		var killed bool
		if err := e.DB.Bun().NewRaw("SELECT pg_terminate_backend(?)", pid).Scan(ctx, &killed); err != nil || !killed {
			t.Fatalf("terminate session %d: %v, %v", pid, killed, err)
		}
	}

	t.Run("before the commit", func(t *testing.T) {
		e := setup(t)
		before := e.stockState()
		db := e.DB.Bun()
		ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
		defer cancel()
		holder, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Rollback() //nolint:errcheck
		if _, err := holder.ExecContext(ctx, "SELECT id FROM article_details WHERE id = ? FOR UPDATE", e.p); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := stockRun(ctx, e.App, "change", stockMeta("killed"), e.ops, stockCapture(new(application.BatchResult)))
			done <- err
		}()
		var pid int64
		for {
			err := db.NewRaw(`SELECT pid FROM pg_stat_activity
WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid() LIMIT 1`).Scan(ctx, &pid)
			if err == nil {
				break
			}
			if !errors.Is(err, sql.ErrNoRows) || ctx.Err() != nil {
				t.Fatalf("find the waiting batch: %v", err)
			}
			time.Sleep(5 * time.Millisecond)
		}
		terminate(t, e, ctx, pid)
		err = <-done
		if err := holder.Rollback(); err != nil {
			t.Fatal(err)
		}
		if err == nil {
			t.Fatal("the batch whose session was killed before its commit reported success")
		}
		if errs.KindOf(err) != errs.Unavailable {
			t.Errorf("the killed batch failed with %v, want the database unavailable", err)
		}
		if after := e.stockState(); after != before {
			t.Errorf("the killed batch left something behind:\nbefore %s\nafter  %s", before, after)
		}

		var res application.BatchResult
		out, err := stockRun(e.ctx, e.App, "change", stockMeta("killed"), e.ops, stockCapture(&res))
		if err != nil || out.Replayed {
			t.Fatalf("retry: replayed %v, %v; want the batch applied now", out.Replayed, err)
		}
		stockExpectResults(t, res, "", "")
		applied(t, e, "after the retry")
	})

	t.Run("after the commit", func(t *testing.T) {
		e := setup(t)
		ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
		defer cancel()
		// The render runs inside the batch's transaction: its session is
		// the one idle in it.
		var pid int64
		var res application.BatchResult
		out, err := stockRun(ctx, e.App, "change", stockMeta("killed"), e.ops, func(r application.BatchResult) ([]byte, error) {
			var pids []int64
			if err := e.DB.Bun().NewRaw(`SELECT pid FROM pg_stat_activity
WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()`).Scan(ctx, &pids); err != nil {
				return nil, err
			}
			if len(pids) != 1 {
				return nil, fmt.Errorf("sessions in a transaction: %v, want the batch's alone", pids)
			}
			pid = pids[0]
			return stockCapture(&res)(r)
		})
		if err != nil {
			t.Fatalf("the batch failed before its session was killed: %v", err)
		}
		stockExpectResults(t, res, "", "")
		terminate(t, e, ctx, pid)
		awaitCondition(t, "the killed session is gone", func() bool {
			var n int
			err := e.DB.Bun().NewRaw("SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?", pid).Scan(ctx, &n)
			return err == nil && n == 0
		})
		applied(t, e, "after the kill")
		committed := e.stockState()

		again, err := stockRun(e.ctx, e.App, "change", stockMeta("killed"), e.ops, stockCapture(new(application.BatchResult)))
		if err != nil || !again.Replayed || !bytes.Equal(again.Body, out.Body) {
			t.Fatalf("retry: replayed %v, same answer %v, %v; want the committed answer replayed", again.Replayed, bytes.Equal(again.Body, out.Body), err)
		}
		if after := e.stockState(); after != committed {
			t.Errorf("the replay changed something:\nbefore %s\nafter  %s", committed, after)
		}
		applied(t, e, "after the retry")
	})
}
