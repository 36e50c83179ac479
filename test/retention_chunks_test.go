package test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

func countRows(t *testing.T, db *bun.DB, table, where string, args ...any) int {
	t.Helper()
	q := db.NewSelect().TableExpr(table)
	if where != "" {
		q = q.Where(where, args...)
	}
	n, err := q.Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// TestRetentionPurgesInChunks checks that each purge removes one chunk of
// the oldest rows at most (so that no purge holds its locks for long), and
// that the purges of the service remove every expired row, chunk after
// chunk, and nothing younger: idempotency keys, finished mails, events.
func TestRetentionPurgesInChunks(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		db := env.DB.Bun()
		ctx := apitest.Admin()
		old, young := time.Now().UTC().Add(-48*time.Hour), time.Now().UTC().Add(-time.Minute)
		expired := application.PurgeChunk*2 + 500
		for i := range expired + 3 {
			at := old.Add(time.Duration(i) * time.Second)
			if i >= expired {
				at = young
			}
			if _, err := db.NewRaw("INSERT INTO idempotency_keys (key, endpoint, fingerprint, created_at) VALUES (?, 'stock/change', 'f', ?)",
				fmt.Sprintf("k-%05d", i), at).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			sent, failed := &at, (*time.Time)(nil)
			if i%2 == 1 {
				sent, failed = nil, &at
			}
			if _, err := db.NewRaw(`INSERT INTO mail_outbox (recipient, subject, body, next_attempt_at, sent_at, failed_at, created_at)
VALUES ('a@example.com', 's', 'b', ?, ?, ?, ?)`, at, sent, failed, at).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		// A mail still waiting stays, however old.
		if _, err := db.NewRaw(`INSERT INTO mail_outbox (recipient, subject, body, next_attempt_at, created_at) VALUES ('a@example.com', 's', 'b', ?, ?)`,
			old, old).Exec(ctx); err != nil {
			t.Fatal(err)
		}

		// One chunk: exactly the limit, the oldest first.
		var n int
		if err := env.DB.Write(ctx, func(ctx context.Context, s ports.Store) (err error) {
			n, err = s.Idempotency().Purge(ctx, time.Now().Add(-24*time.Hour), 10)
			return err
		}); err != nil || n != 10 {
			t.Fatalf("one chunk of keys: %d %v", n, err)
		}
		if left := countRows(t, db, "idempotency_keys", "key < 'k-00010'"); left != 0 {
			t.Errorf("the chunk left %d of the oldest keys", left)
		}
		if err := env.DB.Write(ctx, func(ctx context.Context, s ports.Store) (err error) {
			n, err = s.Outbox().PurgeFinished(ctx, 24*time.Hour, 10)
			return err
		}); err != nil || n != 10 {
			t.Fatalf("one chunk of mails: %d %v", n, err)
		}
		if left := countRows(t, db, "mail_outbox", "id <= 10"); left != 0 {
			t.Errorf("the chunk left %d of the oldest mails", left)
		}

		// The service's purges: chunk after chunk, every expired row.
		if n, err := env.App.PurgeIdempotencyKeys(ctx, 24*time.Hour); err != nil || n != expired-10 {
			t.Errorf("purged keys: %d %v, want %d", n, err, expired-10)
		}
		if left := countRows(t, db, "idempotency_keys", ""); left != 3 {
			t.Errorf("%d keys left, want the 3 young ones", left)
		}
		if n, err := env.App.PurgeMails(ctx, 24*time.Hour); err != nil || n != expired-10 {
			t.Errorf("purged mails: %d %v, want %d", n, err, expired-10)
		}
		if left := countRows(t, db, "mail_outbox", ""); left != 4 {
			t.Errorf("%d mails left, want the 3 young ones and the waiting one", left)
		}

		// Events: twelve transactions' worth, a chunk of five rows of them
		// first, then the rest.
		w := env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "RET", "name": "Retention"})
		a := env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "RET-1"})
		if w.Status != http.StatusCreated || a.Status != http.StatusCreated {
			t.Fatalf("setup: %s %s", w, a)
		}
		article := a.JSON(t)["data"].(map[string]any)["id"]
		for i := range 12 {
			res := env.Do(t, "PUT", fmt.Sprintf("/api/stock/change/ret-%d", i), []any{map[string]any{"articleDetailId": article, "quantity": 1,
				"warehouse": map[string]any{"code": "RET"}}})
			if res.Status != http.StatusOK {
				t.Fatalf("stock: %s", res)
			}
		}
		rows := countRows(t, db, "events", "")
		if _, err := db.NewRaw("UPDATE events SET created_at = ?", old).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		var fifth int64
		if err := db.NewRaw("SELECT id + n - 1 FROM events ORDER BY id LIMIT 1 OFFSET 4").Scan(ctx, &fifth); err != nil {
			t.Fatal(err)
		}
		if err := env.DB.Write(ctx, func(ctx context.Context, s ports.Store) (err error) {
			n, err = s.Events().Purge(ctx, 24*time.Hour, 5)
			return err
		}); err != nil || n != int(fifth) {
			t.Fatalf("one chunk of events: %d %v, want the %d up to the fifth row", n, err, fifth)
		}
		if left := countRows(t, db, "events", ""); left != rows-5 {
			t.Errorf("%d event rows left of %d after a chunk of 5", left, rows)
		}
		ohError(t, env.Do(t, "GET", fmt.Sprintf("/api/events?after=%d", fifth-1), nil), http.StatusGone)
		if res := env.Do(t, "GET", fmt.Sprintf("/api/events?after=%d", fifth), nil); res.Status != http.StatusOK {
			t.Errorf("after the chunk: %s", res)
		}
		if n, err := env.App.PurgeEvents(ctx, 24*time.Hour); err != nil || n == 0 {
			t.Errorf("purged events: %d %v", n, err)
		}
		if left := countRows(t, db, "events", ""); left != 0 {
			t.Errorf("%d event rows left", left)
		}
	})
}
