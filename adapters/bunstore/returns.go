package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/errs"
	domorder "github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/ports"
)

type returnRow struct {
	bun.BaseModel `bun:"table:returns,alias:rt"`

	ID        int64     `bun:"id,pk,autoincrement"`
	OrderID   int64     `bun:"order_id"`
	CreatedAt time.Time `bun:"created_at"`
	User      string    `bun:"user_name"`
	Restock   bool      `bun:"restock"`
}

type returnDetailRow struct {
	bun.BaseModel `bun:"table:return_details,alias:rd"`

	ReturnID        int64  `bun:"return_id,pk"`
	Position        int    `bun:"position,pk"`
	OrderDetailID   int64  `bun:"order_detail_id"`
	ArticleDetailID int64  `bun:"article_detail_id"`
	Quantity        int    `bun:"quantity"`
	WarehouseID     *int64 `bun:"warehouse_id"`
	BinLocationID   *int64 `bun:"bin_location_id"`
	// LotNumber is the lot restocked, NULL when none.
	LotNumber *string `bun:"lot_number"`
}

var returnColumns = columns{
	"return.id": "rt.id", "return.orderId": "rt.order_id", "return.createdAt": "rt.created_at",
	"return.user": "rt.user_name", "return.restock": "rt.restock",
}

type returns struct{ s *store }

func (s *store) Returns() ports.ReturnRepository { return returns{s} }

func (r returns) Add(ctx context.Context, ret *domorder.Return) error {
	row := &returnRow{OrderID: ret.OrderID, CreatedAt: ret.CreatedAt.UTC(), User: ret.User, Restock: ret.Restock}
	if _, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return err
	}
	lines := make([]returnDetailRow, len(ret.Lines))
	for i, l := range ret.Lines {
		lines[i] = returnDetailRow{ReturnID: row.ID, Position: i, OrderDetailID: l.OrderDetailID, ArticleDetailID: l.ArticleDetailID,
			Quantity: l.Quantity, WarehouseID: optional(l.WarehouseID), BinLocationID: optional(l.BinLocationID),
			LotNumber: optional(l.LotNumber)}
	}
	if len(lines) > 0 {
		if _, err := r.s.idb.NewInsert().Model(&lines).Exec(ctx); err != nil {
			return err
		}
	}
	ret.ID = row.ID
	return nil
}

func (r returns) Get(ctx context.Context, id int64) (*domorder.Return, error) {
	var rows []returnRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("rt.id = ?", id).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.NotFoundf("return %d not found", id)
	}
	out, err := r.withLines(ctx, rows)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func (r returns) List(ctx context.Context, q ports.ListQuery) (ports.Page[*domorder.Return], error) {
	var rows []returnRow
	total, err := page(ctx, r.s.idb, &rows, q, returnColumns, ports.ReturnFields, "rt.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	if err != nil {
		return ports.Page[*domorder.Return]{}, err
	}
	items, err := r.withLines(ctx, rows)
	return ports.Page[*domorder.Return]{Total: total, Items: items}, err
}

func (r returns) withLines(ctx context.Context, rows []returnRow) ([]*domorder.Return, error) {
	out := make([]*domorder.Return, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	var lines []returnDetailRow
	if err := r.s.idb.NewSelect().Model(&lines).Where("return_id IN (?)", bun.List(ids)).OrderExpr("return_id, position").Scan(ctx); err != nil {
		return nil, err
	}
	byReturn := map[int64][]domorder.ReturnedLine{}
	for _, l := range lines {
		rl := domorder.ReturnedLine{OrderDetailID: l.OrderDetailID, ArticleDetailID: l.ArticleDetailID, Quantity: l.Quantity}
		if l.WarehouseID != nil {
			rl.WarehouseID = *l.WarehouseID
		}
		if l.BinLocationID != nil {
			rl.BinLocationID = *l.BinLocationID
		}
		if l.LotNumber != nil {
			rl.LotNumber = *l.LotNumber
		}
		byReturn[l.ReturnID] = append(byReturn[l.ReturnID], rl)
	}
	for i, row := range rows {
		out[i] = &domorder.Return{ID: row.ID, OrderID: row.OrderID, CreatedAt: row.CreatedAt.UTC(), User: row.User,
			Restock: row.Restock, Lines: byReturn[row.ID]}
	}
	return out, nil
}
