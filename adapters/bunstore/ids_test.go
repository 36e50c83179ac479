package bunstore

import (
	"context"
	"database/sql"
	"slices"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/catalog"
	domorder "github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/testdb"
)

// addOrder stores an order of one position per detail id (0: the store
// chooses), each of product 500, and returns it.
func addOrder(ctx context.Context, t *testing.T, db *DB, number string, detailIDs ...int64) (*domorder.Order, error) {
	t.Helper()
	p := domorder.NewOrder{Number: number}
	for _, id := range detailIDs {
		p.Details = append(p.Details, domorder.NewDetail{ID: id, ArticleDetailID: 500, Quantity: 1})
	}
	o, err := domorder.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return o, db.Write(ctx, func(ctx context.Context, s ports.Store) error { return s.Orders().Add(ctx, o) })
}

func TestNewIDsFollowTheLargestStoredAndChosenOnes(t *testing.T) {
	for name, url := range map[string]string{"sqlite": testdb.SQLite(t), "postgres": testdb.Postgres(t)} {
		t.Run(name, func(t *testing.T) {
			db := migratedDB(t, url)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			// Rows with ids of their own, inserted by hand.
			for _, q := range []string{
				`INSERT INTO article_details (id, number, name) VALUES (500, 'IDS-1', '')`,
				`INSERT INTO orders (id, number, status) VALUES (700, 'BY-HAND', 'open')`,
				`INSERT INTO order_details (id, order_id, position, article_detail_id, quantity, shipped, status) VALUES (40, 700, 0, 500, 1, 0, 'open')`,
			} {
				if _, err := db.bun.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			o, err := addOrder(ctx, t, db, "FIRST", 0, 90, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := detailIDs(o), []int64{91, 90, 92}; o.ID() != 701 || !slices.Equal(got, want) {
				t.Errorf("order %d with positions %v, want 701 with %v (after the stored ids and the chosen 90)", o.ID(), got, want)
			}
			o, err = addOrder(ctx, t, db, "SECOND", 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := detailIDs(o); o.ID() != 702 || !slices.Equal(got, []int64{93}) {
				t.Errorf("next order %d with positions %v, want 702 with [93]", o.ID(), got)
			}
			a, err := catalog.NewArticleDetail(0, "IDS-2", "")
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Write(ctx, func(ctx context.Context, s ports.Store) error { return s.ArticleDetails().Add(ctx, a) }); err != nil {
				t.Fatal(err)
			}
			if a.ID() != 501 {
				t.Errorf("new product id %d, want 501", a.ID())
			}
		})
	}
}

func detailIDs(o *domorder.Order) []int64 {
	var ids []int64
	for _, d := range o.Details() {
		ids = append(ids, d.ID())
	}
	return ids
}

// An id the sequence hands out can meet an id a client chose in a
// transaction that commits later; the write starts over with the next id
// instead of telling its client that an id it never chose is taken.
func TestANewIDThatMeetsAChosenOneIsTakenAgain(t *testing.T) {
	db := migratedDB(t, testdb.Postgres(t))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.bun.ExecContext(ctx, `INSERT INTO article_details (id, number, name) VALUES (500, 'IDS-1', '')`); err != nil {
		t.Fatal(err)
	}
	chooser, err := db.bun.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer chooser.Rollback()
	// The id the sequence hands out next, chosen and not yet committed.
	if _, err := chooser.ExecContext(ctx, `INSERT INTO orders (id, number, status) VALUES (1, 'CHOSEN', 'open')`); err != nil {
		t.Fatal(err)
	}
	type added struct {
		o   *domorder.Order
		err error
	}
	done := make(chan added, 1)
	go func() {
		o, err := addOrder(ctx, t, db, "HANDED-OUT", 0)
		done <- added{o, err}
	}()
	waitForLockWait(ctx, t, db.bun.DB)
	if err := chooser.Commit(); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.err != nil {
		t.Fatalf("the order whose id met a chosen one: %v, want it stored with the next id", got.err)
	}
	if got.o.ID() != 2 {
		t.Errorf("order id %d, want 2", got.o.ID())
	}
}

// waitForLockWait returns once a session of the database waits for a lock.
func waitForLockWait(ctx context.Context, t *testing.T, db *sql.DB) {
	t.Helper()
	for {
		var waiting int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_locks WHERE NOT granted`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("no session waits for a lock")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// A new document's products are kept from being deleted, without waiting
// for their stock writers: an order is created while a batch holds its
// product.
func TestKeepExistingDoesNotWaitForTheStockWriters(t *testing.T) {
	db := migratedDB(t, testdb.Postgres(t))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.bun.ExecContext(ctx, `INSERT INTO article_details (id, number, name) VALUES (500, 'IDS-1', '')`); err != nil {
		t.Fatal(err)
	}
	locked, release := make(chan struct{}), make(chan struct{})
	writer := make(chan error, 1)
	go func() {
		writer <- db.Write(ctx, func(ctx context.Context, s ports.Store) error {
			if _, err := s.ArticleDetails().Lock(ctx, []int64{500}); err != nil {
				return err
			}
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	kept := make(chan error, 1)
	go func() {
		kept <- db.Write(ctx, func(ctx context.Context, s ports.Store) error {
			exist, err := s.ArticleDetails().KeepExisting(ctx, []int64{500, 501})
			if err == nil && (!exist[500] || exist[501]) {
				t.Errorf("existing = %v, want 500 alone", exist)
			}
			return err
		})
	}()
	var err error
	select {
	case err = <-kept:
	case <-time.After(5 * time.Second):
		t.Error("KeepExisting waits for the product's stock writer")
		close(release)
		err = <-kept
		release = nil
	}
	if release != nil {
		close(release)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := <-writer; err != nil {
		t.Fatal(err)
	}
}

// A product's delete whose checks ran before a new purchase order naming
// the product committed meets the line's foreign key, and says that a
// purchase order names the product.
func TestADeleteThatMeetsANewDocumentsLineSaysWhatNamesTheProduct(t *testing.T) {
	db := migratedDB(t, testdb.Postgres(t))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.bun.ExecContext(ctx, `INSERT INTO article_details (id, number, name) VALUES (500, 'IDS-1', '')`); err != nil {
		t.Fatal(err)
	}
	creator, err := db.bun.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer creator.Rollback()
	for _, q := range []string{
		`INSERT INTO purchase_orders (id, number, warehouse_id, status, created_at) VALUES (1, 'PO-1', 1, 'open', now())`,
		`INSERT INTO purchase_order_lines (id, purchase_order_id, position, article_detail_id, quantity) VALUES (1, 1, 0, 500, 5)`,
	} {
		if _, err := creator.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	deleted := make(chan error, 1)
	go func() {
		deleted <- db.Write(ctx, func(ctx context.Context, s ports.Store) error { return s.ArticleDetails().Delete(ctx, 500) })
	}()
	waitForLockWait(ctx, t, db.bun.DB)
	if err := creator.Commit(); err != nil {
		t.Fatal(err)
	}
	err = <-deleted
	if want := purchase.ErrNamesArticle(500); err == nil || err.Error() != want.Error() {
		t.Errorf("delete: %v, want %v", err, want)
	}
}
