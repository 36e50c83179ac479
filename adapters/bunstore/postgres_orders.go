package bunstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// lockOrders, in a write transaction, sends the orders' lock and the reads
// of their positions and reservations as one pgx batch, one round trip: in
// READ COMMITTED each statement reads its own snapshot, taken when it
// starts, so the two reads see what the lock's last holder committed. A
// group of shipments (application's ShipOrder) so locks its orders in one
// round trip, not three, and so does a use case of one order (Get). Outside
// a transaction the batch reads without locking: the three statements run
// in one implicit transaction, each with its own snapshot, so a position
// may show reservations a commit between two of them changed, as three
// round trips would.
func (postgresDialect) lockOrders(ctx context.Context, s *store, ids []int64, numbers []string) ([]orderRow, []orderDetailRow, []reservationRow, error) {
	lock := " FOR UPDATE"
	if s.conn == nil {
		lock = ""
	}
	if ids == nil {
		ids = []int64{}
	}
	if numbers == nil {
		numbers = []string{}
	}
	const named = "(id = ANY($1::bigint[]) OR number = ANY($2::text[]))"
	var rows []orderRow
	var details []orderDetailRow
	var holds []reservationRow
	var b pgx.Batch
	b.Queue("SELECT id, number, status, customer_email FROM orders WHERE "+named+" ORDER BY id"+lock, ids, numbers).Query(func(r pgx.Rows) error {
		for r.Next() {
			var o orderRow
			if err := r.Scan(&o.ID, &o.Number, &o.Status, &o.CustomerEmail); err != nil {
				return err
			}
			rows = append(rows, o)
		}
		return r.Err()
	})
	b.Queue("SELECT id, order_id, position, article_detail_id, quantity, shipped, status, outstanding, returned FROM order_details"+
		" WHERE order_id IN (SELECT id FROM orders WHERE "+named+") ORDER BY order_id, position, id", ids, numbers).Query(func(r pgx.Rows) error {
		for r.Next() {
			var d orderDetailRow
			if err := r.Scan(&d.ID, &d.OrderID, &d.Position, &d.ArticleDetailID, &d.Quantity, &d.Shipped, &d.Status, &d.Outstanding, &d.Returned); err != nil {
				return err
			}
			details = append(details, d)
		}
		return r.Err()
	})
	b.Queue("SELECT order_detail_id, bin_location_id, warehouse_id, article_detail_id, quantity, position, lot_number FROM reservations"+
		" WHERE order_detail_id IN (SELECT id FROM order_details WHERE order_id IN (SELECT id FROM orders WHERE "+named+"))"+
		" ORDER BY order_detail_id, position", ids, numbers).Query(func(r pgx.Rows) error {
		for r.Next() {
			var h reservationRow
			if err := r.Scan(&h.OrderDetailID, &h.BinLocationID, &h.WarehouseID, &h.ArticleDetailID, &h.Quantity, &h.Position, &h.LotNumber); err != nil {
				return err
			}
			holds = append(holds, h)
		}
		return r.Err()
	})
	if err := s.sendBatch(ctx, &b); err != nil {
		return nil, nil, nil, fmt.Errorf("lock orders: %w", err)
	}
	return rows, details, holds, nil
}
