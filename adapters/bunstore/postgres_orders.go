package bunstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// lockOrders, in a write transaction, sends the orders' lock and the reads
// of their positions and reservations in one round trip: in READ COMMITTED
// each statement reads its own snapshot, taken when it starts, so the two
// reads see what the lock's last holder committed. A group of shipments
// (application's ShipOrder) so locks its orders in one round trip, not
// three.
func (postgresDialect) lockOrders(ctx context.Context, s *store, ids []int64, numbers []string) ([]orderRow, []orderDetailRow, []reservationRow, error) {
	if s.conn == nil {
		return lockOrdersApart(ctx, s, ids, numbers)
	}
	if ids == nil {
		ids = []int64{}
	}
	if numbers == nil {
		numbers = []string{}
	}
	const named = "(id = ANY(?::bigint[]) OR number = ANY(?::text[]))"
	queries := []string{
		"SELECT id, number, status, customer_email FROM orders WHERE " + named + " ORDER BY id FOR UPDATE",
		"SELECT id, order_id, position, article_detail_id, quantity, shipped, status, outstanding, returned FROM order_details" +
			" WHERE order_id IN (SELECT id FROM orders WHERE " + named + ") ORDER BY order_id, position, id",
		"SELECT order_detail_id, bin_location_id, warehouse_id, article_detail_id, quantity, position, lot_number FROM reservations" +
			" WHERE order_detail_id IN (SELECT id FROM order_details WHERE order_id IN (SELECT id FROM orders WHERE " + named + "))" +
			" ORDER BY order_detail_id, position",
	}
	var args []any
	for range queries {
		args = append(args, pgdialect.Array(ids), pgdialect.Array(numbers))
	}
	results, err := s.queryAfterPending(ctx, queries, args...)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("lock orders: %w", err)
	}
	return ordersFromText(results)
}

// ordersFromText reads the answers of lockOrders' queries.
func ordersFromText(results []*pgconn.Result) ([]orderRow, []orderDetailRow, []reservationRow, error) {
	rows := make([]orderRow, len(results[0].Rows))
	for i, f := range results[0].Rows {
		id, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("orders: %w", err)
		}
		rows[i] = orderRow{ID: id, Number: string(f[1]), Status: string(f[2]), CustomerEmail: string(f[3])}
	}
	details := make([]orderDetailRow, len(results[1].Rows))
	for i, f := range results[1].Rows {
		n, err := ints(f, 0, 1, 2, 3, 4, 5, 7, 8)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("order details: %w", err)
		}
		details[i] = orderDetailRow{ID: n[0], OrderID: n[1], Position: int(n[2]), ArticleDetailID: n[3], Quantity: int(n[4]),
			Shipped: int(n[5]), Status: string(f[6]), Outstanding: int(n[6]), Returned: int(n[7])}
	}
	holds := make([]reservationRow, len(results[2].Rows))
	for i, f := range results[2].Rows {
		n, err := ints(f, 0, 1, 2, 3, 4, 5)
		if err != nil || len(f) != 7 {
			return nil, nil, nil, fmt.Errorf("reservations: a row of %d columns: %w", len(f), err)
		}
		holds[i] = reservationRow{OrderDetailID: n[0], BinLocationID: n[1], WarehouseID: n[2], ArticleDetailID: n[3],
			Quantity: int(n[4]), Position: int(n[5]), LotNumber: string(f[6])}
	}
	return rows, details, holds, nil
}

// ints parses the fields at these columns as integers.
func ints(fields [][]byte, columns ...int) ([]int64, error) {
	out := make([]int64, len(columns))
	var errs []error
	for i, c := range columns {
		if c >= len(fields) {
			return nil, fmt.Errorf("a row of %d columns", len(fields))
		}
		var err error
		out[i], err = strconv.ParseInt(string(fields[c]), 10, 64)
		errs = append(errs, err)
	}
	return out, errors.Join(errs...)
}
