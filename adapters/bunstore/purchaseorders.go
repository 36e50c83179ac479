package bunstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/ports"
)

type purchaseOrderRow struct {
	bun.BaseModel `bun:"table:purchase_orders,alias:po"`

	ID          int64     `bun:"id,pk"`
	Number      string    `bun:"number"`
	Supplier    string    `bun:"supplier"`
	WarehouseID int64     `bun:"warehouse_id"`
	Status      string    `bun:"status"`
	ExpectedAt  *string   `bun:"expected_at"`
	CreatedAt   time.Time `bun:"created_at"`
}

type purchaseOrderLineRow struct {
	bun.BaseModel `bun:"table:purchase_order_lines,alias:pol"`

	ID              int64 `bun:"id,pk"`
	PurchaseOrderID int64 `bun:"purchase_order_id"`
	Position        int   `bun:"position"`
	ArticleDetailID int64 `bun:"article_detail_id"`
	Quantity        int   `bun:"quantity"`
	Received        int   `bun:"received"`
}

type purchaseReceiptRow struct {
	bun.BaseModel `bun:"table:purchase_receipts,alias:pr"`

	ID              int64     `bun:"id,pk,autoincrement"`
	PurchaseOrderID int64     `bun:"purchase_order_id"`
	CreatedAt       time.Time `bun:"created_at"`
	User            string    `bun:"user_name"`
}

type purchaseReceiptLineRow struct {
	bun.BaseModel `bun:"table:purchase_receipt_lines,alias:prl"`

	ReceiptID       int64 `bun:"receipt_id,pk"`
	Position        int   `bun:"position,pk"`
	LineID          int64 `bun:"line_id"`
	ArticleDetailID int64 `bun:"article_detail_id"`
	Quantity        int   `bun:"quantity"`
	WarehouseID     int64 `bun:"warehouse_id"`
	BinLocationID   int64 `bun:"bin_location_id"`
	// LotNumber is the lot received, NULL for a product that is not
	// lot-tracked.
	LotNumber *string `bun:"lot_number"`
}

type incomingStockRow struct {
	bun.BaseModel `bun:"table:incoming_stock,alias:inc"`

	ArticleDetailID int64 `bun:"article_detail_id,pk"`
	Quantity        int64 `bun:"quantity"`
}

var purchaseOrderColumns = columns{
	"purchaseOrder.id": "po.id", "purchaseOrder.number": "po.number", "purchaseOrder.supplier": "po.supplier",
	"purchaseOrder.status": "po.status", "purchaseOrder.warehouseId": "po.warehouse_id",
	"purchaseOrder.expectedAt": "po.expected_at", "purchaseOrder.createdAt": "po.created_at",
}

var receiptColumns = columns{
	"receipt.id": "pr.id", "receipt.createdAt": "pr.created_at", "receipt.user": "pr.user_name",
}

type purchaseOrders struct{ s *store }

func (s *store) PurchaseOrders() ports.PurchaseOrderRepository { return purchaseOrders{s} }

func (r purchaseOrders) Add(ctx context.Context, o *purchase.Order) error {
	r.s.saved.PurchaseOrder(o)
	lines := o.Lines()
	chosen := idsOf(lines) // the client's ids, 0 where it chose none
	id, lineIDs, err := documentIDs(ctx, r.s, "purchase_orders", o.ID(), "purchase_order_lines", chosen)
	if err != nil {
		return err
	}
	row := &purchaseOrderRow{ID: id, Number: o.Number(), Supplier: o.Supplier(), WarehouseID: o.WarehouseID(),
		Status: string(o.Status()), ExpectedAt: optional(o.ExpectedAt()), CreatedAt: o.CreatedAt().UTC()}
	if _, err := r.s.idb.NewInsert().Model(row).Exec(ctx); err != nil {
		if raced(err, o.ID()) {
			return errIDRaced
		}
		if isUniqueViolation(err) {
			if violatesNumber(err) {
				return purchase.ErrNumberTaken(o.Number())
			}
			return purchase.ErrIDTaken(id)
		}
		return err
	}
	rows := make([]purchaseOrderLineRow, len(lines))
	for i, l := range lines {
		rows[i] = purchaseOrderLineRow{ID: lineIDs[i], PurchaseOrderID: id, Position: i, ArticleDetailID: l.ArticleDetailID(),
			Quantity: l.Quantity(), Received: l.Received()}
	}
	if _, err := r.s.idb.NewInsert().Model(&rows).Exec(ctx); err != nil {
		if raced(err, chosen...) {
			return errIDRaced
		}
		if isUniqueViolation(err) {
			// A concurrent insert took one of the ids the checks found free.
			return purchase.ErrLineIDTaken("lines", violatedID(err))
		}
		return err
	}
	return o.AssignIDs(id, lineIDs)
}

func (r purchaseOrders) IDTaken(ctx context.Context, id int64) (bool, error) {
	return r.s.idb.NewSelect().Table("purchase_orders").Where("id = ?", id).Exists(ctx)
}

func (r purchaseOrders) NumberTaken(ctx context.Context, number string) (bool, error) {
	return r.s.idb.NewSelect().Table("purchase_orders").Where("number = ?", number).Exists(ctx)
}

func (r purchaseOrders) LineIDsTaken(ctx context.Context, ids []int64) ([]int64, error) {
	taken := []int64{}
	if len(ids) == 0 {
		return taken, nil
	}
	err := r.s.idb.NewSelect().Table("purchase_order_lines").Column("id").
		Where("id IN (?)", bun.List(ids)).OrderExpr("id").Scan(ctx, &taken)
	return taken, err
}

// Get locks the order's row inside a write transaction (on SQLite the
// immediate transaction already holds the database), so that two receipts
// of one order run one after the other and the second sees what the first
// received.
func (r purchaseOrders) Get(ctx context.Context, id int64) (*purchase.Order, error) {
	var rows []purchaseOrderRow
	if err := r.s.forUpdate(r.s.idb.NewSelect().Model(&rows).Where("id = ?", id)).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.NotFoundf("purchase order %d not found", id)
	}
	out, err := r.withLines(ctx, rows)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func (r purchaseOrders) List(ctx context.Context, q ports.ListQuery) (ports.Page[*purchase.Order], error) {
	var rows []purchaseOrderRow
	total, err := page(ctx, r.s.idb, &rows, q, purchaseOrderColumns, ports.PurchaseOrderFields, "po.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	if err != nil {
		return ports.Page[*purchase.Order]{}, err
	}
	items, err := r.withLines(ctx, rows)
	return ports.Page[*purchase.Order]{Total: total, Items: items}, err
}

// withLines loads the lines of the order rows in one query.
func (r purchaseOrders) withLines(ctx context.Context, rows []purchaseOrderRow) ([]*purchase.Order, error) {
	out := make([]*purchase.Order, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	var lines []purchaseOrderLineRow
	if err := r.s.idb.NewSelect().Model(&lines).Where("purchase_order_id IN (?)", bun.List(ids)).
		OrderExpr("purchase_order_id, position").Scan(ctx); err != nil {
		return nil, err
	}
	byOrder := make(map[int64][]purchase.LineRecord, len(rows))
	for _, l := range lines {
		byOrder[l.PurchaseOrderID] = append(byOrder[l.PurchaseOrderID], purchase.LineRecord{
			ID: l.ID, ArticleDetailID: l.ArticleDetailID, Quantity: l.Quantity, Received: l.Received})
	}
	for i, row := range rows {
		expected := ""
		if row.ExpectedAt != nil {
			expected = *row.ExpectedAt
		}
		o, err := purchase.UnmarshalOrderFromDatabase(row.ID, row.Number, row.Supplier, row.WarehouseID, row.Status, expected,
			row.CreatedAt.UTC(), byOrder[row.ID])
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

// receivedChunk lines at most are updated by one statement.
const receivedChunk = 500

// Save writes the order's row, and what its lines received in a statement
// per receivedChunk lines.
func (r purchaseOrders) Save(ctx context.Context, o *purchase.Order) error {
	r.s.saved.PurchaseOrder(o)
	row := &purchaseOrderRow{ID: o.ID(), Supplier: o.Supplier(), Status: string(o.Status()), ExpectedAt: optional(o.ExpectedAt())}
	if _, err := r.s.idb.NewUpdate().Model(row).Column("supplier", "status", "expected_at").WherePK().Exec(ctx); err != nil {
		return err
	}
	lines := o.Lines()
	for start := 0; start < len(lines); start += receivedChunk {
		chunk := lines[start:min(start+receivedChunk, len(lines))]
		var cases strings.Builder
		args := make([]any, 0, 2*len(chunk)+len(chunk)+1)
		ids := make([]int64, len(chunk))
		cases.WriteString("CASE id")
		for i, l := range chunk {
			cases.WriteString(" WHEN ? THEN ?")
			args = append(args, l.ID(), l.Received())
			ids[i] = l.ID()
		}
		cases.WriteString(" END")
		args = append(args, o.ID(), bun.List(ids))
		if _, err := r.s.idb.ExecContext(ctx, "UPDATE purchase_order_lines SET received = "+cases.String()+
			" WHERE purchase_order_id = ? AND id IN (?)", args...); err != nil {
			return err
		}
	}
	return nil
}

func (r purchaseOrders) Delete(ctx context.Context, o *purchase.Order) error {
	if !o.Deleted() {
		return errs.E(errs.Internal, "purchase order %d is deleted without being marked to go", o.ID())
	}
	r.s.saved.PurchaseOrder(o)
	_, err := r.s.idb.NewDelete().Table("purchase_orders").Where("id = ?", o.ID()).Exec(ctx)
	return err
}

func (r purchaseOrders) AddReceipt(ctx context.Context, rec *purchase.Receipt) error {
	row := &purchaseReceiptRow{PurchaseOrderID: rec.PurchaseOrderID, CreatedAt: rec.CreatedAt.UTC(), User: rec.User}
	if _, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return err
	}
	lines := make([]purchaseReceiptLineRow, len(rec.Lines))
	for i, l := range rec.Lines {
		lines[i] = purchaseReceiptLineRow{ReceiptID: row.ID, Position: i, LineID: l.LineID, ArticleDetailID: l.ArticleDetailID,
			Quantity: l.Quantity, WarehouseID: l.WarehouseID, BinLocationID: l.BinLocationID, LotNumber: optional(l.LotNumber)}
	}
	if len(lines) > 0 {
		if _, err := r.s.idb.NewInsert().Model(&lines).Exec(ctx); err != nil {
			return err
		}
	}
	rec.ID = row.ID
	return nil
}

func (r purchaseOrders) Receipt(ctx context.Context, purchaseOrderID, id int64) (*purchase.Receipt, error) {
	var rows []purchaseReceiptRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("pr.id = ? AND pr.purchase_order_id = ?", id, purchaseOrderID).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.NotFoundf("purchase order %d has no receipt %d", purchaseOrderID, id)
	}
	out, err := r.receiptLines(ctx, rows)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func (r purchaseOrders) Receipts(ctx context.Context, purchaseOrderID int64, q ports.ListQuery) (ports.Page[*purchase.Receipt], error) {
	if exists, err := r.IDTaken(ctx, purchaseOrderID); err != nil || !exists {
		if err == nil {
			err = errs.NotFoundf("purchase order %d not found", purchaseOrderID)
		}
		return ports.Page[*purchase.Receipt]{}, err
	}
	var rows []purchaseReceiptRow
	total, err := page(ctx, r.s.idb, &rows, q, receiptColumns, ports.ReceiptFields, "pr.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s.Where("pr.purchase_order_id = ?", purchaseOrderID) })
	if err != nil {
		return ports.Page[*purchase.Receipt]{}, err
	}
	items, err := r.receiptLines(ctx, rows)
	return ports.Page[*purchase.Receipt]{Total: total, Items: items}, err
}

func (r purchaseOrders) receiptLines(ctx context.Context, rows []purchaseReceiptRow) ([]*purchase.Receipt, error) {
	out := make([]*purchase.Receipt, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	var lines []purchaseReceiptLineRow
	if err := r.s.idb.NewSelect().Model(&lines).Where("receipt_id IN (?)", bun.List(ids)).OrderExpr("receipt_id, position").Scan(ctx); err != nil {
		return nil, err
	}
	byReceipt := map[int64][]purchase.ReceivedLine{}
	for _, l := range lines {
		rl := purchase.ReceivedLine{LineID: l.LineID, ArticleDetailID: l.ArticleDetailID,
			Quantity: l.Quantity, WarehouseID: l.WarehouseID, BinLocationID: l.BinLocationID}
		if l.LotNumber != nil {
			rl.LotNumber = *l.LotNumber
		}
		byReceipt[l.ReceiptID] = append(byReceipt[l.ReceiptID], rl)
	}
	for i, row := range rows {
		out[i] = &purchase.Receipt{ID: row.ID, PurchaseOrderID: row.PurchaseOrderID, CreatedAt: row.CreatedAt.UTC(), User: row.User,
			Lines: byReceipt[row.ID]}
	}
	return out, nil
}

func (r purchaseOrders) NamesArticle(ctx context.Context, articleDetailID int64) (bool, error) {
	return r.s.idb.NewSelect().Table("purchase_order_lines").Where("article_detail_id = ?", articleDetailID).Exists(ctx)
}

func (r purchaseOrders) IncomingOf(ctx context.Context, ids []int64) (map[int64]int, error) {
	out := make(map[int64]int, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []incomingStockRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("article_detail_id IN (?) AND quantity <> 0", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[row.ArticleDetailID] = int(row.Quantity)
	}
	return out, nil
}

func (r purchaseOrders) KeepIncoming(ctx context.Context, incoming map[int64]int) error {
	if len(incoming) == 0 {
		return nil
	}
	rows := make([]incomingStockRow, 0, len(incoming))
	for id, n := range incoming {
		if n < 0 {
			return fmt.Errorf("incoming stock of article detail %d would be %d", id, n)
		}
		rows = append(rows, incomingStockRow{ArticleDetailID: id, Quantity: int64(n)})
	}
	// In id order, as every writer takes its locks.
	slices.SortFunc(rows, func(a, b incomingStockRow) int { return cmp.Compare(a.ArticleDetailID, b.ArticleDetailID) })
	_, err := r.s.idb.NewInsert().Model(&rows).On("CONFLICT (article_detail_id) DO UPDATE").
		Set("quantity = EXCLUDED.quantity").Exec(ctx)
	return err
}
