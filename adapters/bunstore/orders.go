package bunstore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/errs"
	domorder "github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type orderRow struct {
	bun.BaseModel `bun:"table:orders,alias:o"`

	ID            int64  `bun:"id,pk"`
	Number        string `bun:"number"`
	Status        string `bun:"status"`
	CustomerEmail string `bun:"customer_email"`
}

type orderDetailRow struct {
	bun.BaseModel `bun:"table:order_details,alias:od"`

	ID              int64  `bun:"id,pk"`
	OrderID         int64  `bun:"order_id"`
	Position        int    `bun:"position"`
	ArticleDetailID int64  `bun:"article_detail_id"`
	Quantity        int    `bun:"quantity"`
	Shipped         int    `bun:"shipped"`
	Status          string `bun:"status"`
	// Outstanding is order.Order.Outstanding of the position, stored so that
	// availableStock can sum it through an index.
	Outstanding int `bun:"outstanding"`
	Returned    int `bun:"returned"`
}

type reservationRow struct {
	bun.BaseModel `bun:"table:reservations,alias:r"`

	OrderDetailID   int64 `bun:"order_detail_id,pk"`
	BinLocationID   int64 `bun:"bin_location_id,pk"`
	WarehouseID     int64 `bun:"warehouse_id"`
	ArticleDetailID int64 `bun:"article_detail_id"`
	Quantity        int   `bun:"quantity"`
	Position        int   `bun:"position"`
	// LotNumber is the lot held, '' for a product that is not lot-tracked
	// (part of the key: one position may hold two lots on one bin).
	LotNumber string `bun:"lot_number,pk"`
}

var orderColumns = columns{
	"order.id": "o.id", "order.number": "o.number", "order.status": "o.status",
	"order.customerEmail": "o.customer_email",
}

type orders struct{ s *store }

func (s *store) Orders() ports.OrderRepository { return orders{s} }

func (r orders) Add(ctx context.Context, o *domorder.Order) error {
	r.s.saved.Order(o)
	details := o.Details()
	chosen := idsOf(details) // the client's ids, 0 where it chose none
	id, detailIDs, err := documentIDs(ctx, r.s, "orders", o.ID(), "order_details", chosen)
	if err != nil {
		return err
	}
	row := &orderRow{ID: id, Number: o.Number(), Status: string(o.Status()), CustomerEmail: o.CustomerEmail()}
	if _, err := r.s.idb.NewInsert().Model(row).Exec(ctx); err != nil {
		if raced(err, o.ID()) {
			return errIDRaced
		}
		if isUniqueViolation(err) {
			if violatesNumber(err) {
				return domorder.ErrNumberTaken(o.Number())
			}
			return domorder.ErrIDTaken(id)
		}
		return err
	}
	rows := make([]orderDetailRow, len(details))
	for i, d := range details {
		rows[i] = orderDetailRow{
			ID: detailIDs[i], OrderID: id, Position: i, ArticleDetailID: d.ArticleDetailID(),
			Quantity: d.Quantity(), Shipped: d.Shipped(), Status: string(d.Status()), Outstanding: o.Outstanding(d),
		}
	}
	if _, err := r.s.idb.NewInsert().Model(&rows).Exec(ctx); err != nil {
		if raced(err, chosen...) {
			return errIDRaced
		}
		if isUniqueViolation(err) {
			// A concurrent insert took one of the ids the checks found free.
			return domorder.ErrDetailIDTaken("details", violatedID(err))
		}
		return err
	}
	return o.AssignIDs(id, detailIDs)
}

func (r orders) Get(ctx context.Context, id int64) (*domorder.Order, error) {
	return r.one(ctx, []int64{id}, nil, fmt.Sprintf("order %d not found", id))
}

func (r orders) GetByNumber(ctx context.Context, number string) (*domorder.Order, error) {
	return r.one(ctx, nil, []string{number}, fmt.Sprintf("order %q not found", number))
}

// GetMany locks the orders in one round trip on PostgreSQL, positions and
// reservations included (lockOrders).
func (r orders) GetMany(ctx context.Context, ids []int64, numbers []string) ([]*domorder.Order, error) {
	if len(ids) == 0 && len(numbers) == 0 {
		return []*domorder.Order{}, nil
	}
	rows, details, holds, err := r.s.db.dialect.lockOrders(ctx, r.s, ids, numbers)
	if err != nil {
		return nil, err
	}
	return assembleOrders(rows, details, holds)
}

// lockOrdersApart is lockOrders in three statements: the orders, in id
// order and locked, then their positions and their reservations.
func lockOrdersApart(ctx context.Context, s *store, ids []int64, numbers []string) ([]orderRow, []orderDetailRow, []reservationRow, error) {
	var rows []orderRow
	sel := s.idb.NewSelect().Model(&rows).WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		if len(ids) > 0 {
			q = q.WhereOr("o.id ?", s.inIDs(ids))
		}
		if len(numbers) > 0 {
			q = q.WhereOr("o.number IN (?)", bun.List(numbers))
		}
		return q
	}).OrderExpr("o.id")
	if err := s.forUpdate(sel).Scan(ctx); err != nil {
		return nil, nil, nil, err
	}
	details, holds, err := orders{s}.detailsOf(ctx, rows)
	return rows, details, holds, err
}

// one reads an order as GetMany does (locked inside Write), in one round
// trip on PostgreSQL.
func (r orders) one(ctx context.Context, ids []int64, numbers []string, missing string) (*domorder.Order, error) {
	rows, details, holds, err := r.s.db.dialect.lockOrders(ctx, r.s, ids, numbers)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.NotFoundf("%s", missing)
	}
	out, err := assembleOrders(rows, details, holds)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// withDetails loads the positions of the order rows in one query.
func (r orders) withDetails(ctx context.Context, rows []orderRow) ([]*domorder.Order, error) {
	details, holds, err := r.detailsOf(ctx, rows)
	if err != nil {
		return nil, err
	}
	return assembleOrders(rows, details, holds)
}

// detailsOf reads the positions of the order rows and their reservations,
// in position order.
func (r orders) detailsOf(ctx context.Context, rows []orderRow) ([]orderDetailRow, []reservationRow, error) {
	if len(rows) == 0 {
		return nil, nil, nil
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	var details []orderDetailRow
	if err := r.s.idb.NewSelect().Model(&details).Where("order_id IN (?)", bun.List(ids)).
		OrderExpr("order_id, position, id").Scan(ctx); err != nil {
		return nil, nil, err
	}
	// Reservations change only under their order's row lock, which the
	// caller holds in a write transaction.
	var holds []reservationRow
	if err := r.s.idb.NewSelect().Model(&holds).
		Where("order_detail_id IN (?)", r.s.idb.NewSelect().Table("order_details").Column("id").Where("order_id IN (?)", bun.List(ids))).
		OrderExpr("order_detail_id, position").Scan(ctx); err != nil {
		return nil, nil, err
	}
	return details, holds, nil
}

// assembleOrders makes the domain's orders of the rows read, in the order
// of rows; details and holds are in position order.
func assembleOrders(rows []orderRow, details []orderDetailRow, holds []reservationRow) ([]*domorder.Order, error) {
	holdsOf := make(map[int64][]stock.Hold, len(holds))
	for _, h := range holds {
		holdsOf[h.OrderDetailID] = append(holdsOf[h.OrderDetailID], stock.Hold{WarehouseID: h.WarehouseID, BinLocationID: h.BinLocationID, Quantity: h.Quantity, Lot: h.LotNumber})
	}
	byOrder := make(map[int64][]domorder.DetailRecord, len(rows))
	for _, d := range details {
		byOrder[d.OrderID] = append(byOrder[d.OrderID], domorder.DetailRecord{
			ID: d.ID, ArticleDetailID: d.ArticleDetailID, Quantity: d.Quantity, Shipped: d.Shipped, Status: d.Status,
			Returned: d.Returned, Reservations: holdsOf[d.ID],
		})
	}
	out := make([]*domorder.Order, len(rows))
	for i, row := range rows {
		o, err := domorder.UnmarshalOrderFromDatabase(row.ID, row.Number, row.CustomerEmail, row.Status, byOrder[row.ID])
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

// Save writes the statuses and shipped quantities of the orders in two
// statements, however many orders and positions a batch touched, and
// their reservations: on PostgreSQL one pgx batch, one round trip
// (oneTrip).
func (r orders) Save(ctx context.Context, os ...*domorder.Order) error {
	r.s.saved.Order(os...)
	var orderIDs, detailIDs []int64
	var orderStatus, detailStatus []string
	var shipped, outstanding, returned []int64
	var orderEmail []string
	var holds []reservationRow
	for _, o := range os {
		orderIDs, orderStatus = append(orderIDs, o.ID()), append(orderStatus, string(o.Status()))
		orderEmail = append(orderEmail, o.CustomerEmail())
		for _, d := range o.Details() {
			detailIDs, shipped, detailStatus = append(detailIDs, d.ID()), append(shipped, int64(d.Shipped())), append(detailStatus, string(d.Status()))
			outstanding = append(outstanding, int64(o.Outstanding(d)))
			returned = append(returned, int64(d.Returned()))
			for i, h := range d.Reservations() {
				holds = append(holds, reservationRow{OrderDetailID: d.ID(), BinLocationID: h.BinLocationID,
					WarehouseID: h.WarehouseID, ArticleDetailID: d.ArticleDetailID(), Quantity: h.Quantity, Position: i, LotNumber: h.Lot})
			}
		}
	}
	if len(orderIDs) == 0 {
		return nil
	}
	return r.s.oneTrip(ctx, func() error {
		if err := r.saveReservations(ctx, detailIDs, holds); err != nil {
			return err
		}
		return r.s.db.dialect.saveOrders(ctx, r.s, orderStates{
			orderIDs: orderIDs, orderStatus: orderStatus, orderEmail: orderEmail,
			detailIDs: detailIDs, shipped: shipped, outstanding: outstanding, returns: returned, detailStatus: detailStatus,
		})
	})
}

// saveReservations replaces the reservations of the positions by holds.
func (r orders) saveReservations(ctx context.Context, detailIDs []int64, holds []reservationRow) error {
	if err := r.s.exec(ctx, "DELETE FROM reservations WHERE order_detail_id ?", r.s.inIDs(detailIDs)); err != nil {
		return err
	}
	for start := 0; start < len(holds); start += reservationsPerInsert {
		chunk := holds[start:min(start+reservationsPerInsert, len(holds))]
		args := make([]any, 0, 7*len(chunk))
		for _, h := range chunk {
			args = append(args, h.OrderDetailID, h.BinLocationID, h.WarehouseID, h.ArticleDetailID, h.Quantity, h.Position, h.LotNumber)
		}
		if err := r.s.exec(ctx, `INSERT INTO reservations (order_detail_id, bin_location_id, warehouse_id, article_detail_id, quantity, position, lot_number)
VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", len(chunk)), ", "), args...); err != nil {
			return err
		}
	}
	return nil
}

// reservationsPerInsert keeps an insert of reservations far below
// SQLite's limit of parameters.
const reservationsPerInsert = 1000

func (r orders) List(ctx context.Context, q ports.ListQuery) (ports.Page[*domorder.Order], error) {
	var rows []orderRow
	total, err := pageCounted(ctx, r.s.idb, &rows, q, orderColumns, ports.OrderFields, "o.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s }, "orders")
	if err != nil {
		return ports.Page[*domorder.Order]{}, err
	}
	items, err := r.withDetails(ctx, rows)
	return ports.Page[*domorder.Order]{Total: total, Items: items}, err
}

func (r orders) IDTaken(ctx context.Context, id int64) (bool, error) {
	return r.s.idb.NewSelect().Table("orders").Where("id = ?", id).Exists(ctx)
}

func (r orders) NumberTaken(ctx context.Context, number string) (bool, error) {
	return r.s.idb.NewSelect().Table("orders").Where("number = ?", number).Exists(ctx)
}

func (r orders) DetailIDsTaken(ctx context.Context, ids []int64) ([]int64, error) {
	taken := []int64{}
	if len(ids) == 0 {
		return taken, nil
	}
	err := r.s.idb.NewSelect().Table("order_details").Column("id").
		Where("id IN (?)", bun.List(ids)).OrderExpr("id").Scan(ctx, &taken)
	return taken, err
}

func (r orders) ByDetailIDs(ctx context.Context, detailIDs []int64) ([]*domorder.Order, error) {
	if len(detailIDs) == 0 {
		return []*domorder.Order{}, nil
	}
	ids := slices.Clone(detailIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var rows []orderRow
	sub := r.s.idb.NewSelect().Table("order_details").Column("order_id").Where("id IN (?)", bun.List(ids))
	sel := r.s.idb.NewSelect().Model(&rows).Where("o.id IN (?)", sub).OrderExpr("o.id")
	if err := r.s.forUpdate(sel).Scan(ctx); err != nil {
		return nil, err
	}
	return r.withDetails(ctx, rows)
}
