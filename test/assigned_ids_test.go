package test

import (
	"context"
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/test/testdb"
)

// An id storage assigns never fails a request because a row with a chosen
// id already holds it, however that row came: the creation takes another
// id and succeeds.
func TestAnAssignedIDThatMeetsAStoredRowIsTakenAgain(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ordSetup(t, databaseURL)
		first := f.createOrder(order.NewOrder{Number: "A-1", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 1}}})
		nextOrder, nextDetail := first.ID()+1, first.Details()[0].ID()+1

		// Rows stored past the ids handed out so far, as a creator with
		// chosen ids racing this one stores them.
		ctx := context.Background()
		db := f.env.DB.Bun()
		if _, err := db.ExecContext(ctx, "INSERT INTO orders (id, number, status, customer_email) VALUES (?, 'RACED', 'Open', '')", nextOrder); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO order_details (id, order_id, position, article_detail_id, quantity, shipped, status, outstanding, returned)
VALUES (?, ?, 0, ?, 1, 0, 'Open', 0, 0)`, nextDetail, nextOrder, f.art2); err != nil {
			t.Fatal(err)
		}

		second := f.createOrder(order.NewOrder{Number: "A-2", Details: []order.NewDetail{{ArticleDetailID: f.art1, Quantity: 2}}})
		if second.ID() == nextOrder || second.ID() == first.ID() || second.Details()[0].ID() == nextDetail {
			t.Fatalf("assigned ids: order %d, position %d; taken: order %d, position %d", second.ID(), second.Details()[0].ID(), nextOrder, nextDetail)
		}
		got, err := f.app.Order(f.ctx, application.OrderRef{ID: second.ID()})
		if err != nil || got.Number() != "A-2" || len(got.Details()) != 1 || got.Details()[0].Quantity() != 2 {
			t.Fatalf("order %d read back: %v %v", second.ID(), got, err)
		}
	})
}
