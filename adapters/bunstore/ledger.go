package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

type ledgerRow struct {
	bun.BaseModel `bun:"table:stock_ledger_entries,alias:l"`

	ID              int64     `bun:"id,pk,autoincrement"`
	ArticleDetailID int64     `bun:"article_detail_id"`
	WarehouseID     int64     `bun:"warehouse_id"`
	BinLocationID   int64     `bun:"bin_location_id"`
	Type            string    `bun:"type"`
	Quantity        int       `bun:"quantity"`
	StockAfter      int       `bun:"stock_after"`
	IdempotencyKey  *string   `bun:"idempotency_key"`
	OperationID     *string   `bun:"operation_id"`
	OrderID         *int64    `bun:"order_id"`
	OrderDetailID   *int64    `bun:"order_detail_id"`
	PurchaseOrderID *int64    `bun:"purchase_order_id"`
	LotNumber       *string   `bun:"lot_number"`
	CountID         *int64    `bun:"count_id"`
	TransferID      *int64    `bun:"transfer_id"`
	User            string    `bun:"user_name"`
	CreatedAt       time.Time `bun:"created_at"`
}

var ledgerColumns = columns{
	"stockLedgerEntry.id": "l.id", "stockLedgerEntry.articleDetailId": "l.article_detail_id",
	"stockLedgerEntry.warehouseId": "l.warehouse_id", "stockLedgerEntry.binLocationId": "l.bin_location_id",
	"stockLedgerEntry.type": "l.type", "stockLedgerEntry.quantity": "l.quantity",
	"stockLedgerEntry.stockAfter": "l.stock_after", "stockLedgerEntry.idempotencyKey": "l.idempotency_key",
	"stockLedgerEntry.orderId": "l.order_id", "stockLedgerEntry.orderDetailId": "l.order_detail_id",
	"stockLedgerEntry.user": "l.user_name", "stockLedgerEntry.createdAt": "l.created_at",
	"stockLedgerEntry.purchaseOrderId": "l.purchase_order_id", "stockLedgerEntry.lotNumber": "l.lot_number",
	"stockLedgerEntry.transferId": "l.transfer_id",
}

type ledger struct{ s *store }

func (s *store) Ledger() ports.LedgerRepository { return ledger{s} }

func optional[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// anyLot tells whether an entry names a lot: a batch without lot-tracked
// products writes no lot column at all (NULL by default).
func anyLot(entries []stock.LedgerEntry) bool {
	for i := range entries {
		if entries[i].LotNumber != "" {
			return true
		}
	}
	return false
}

// anyTransfer tells whether an entry names a transfer: a batch of other
// entries writes no transfer column at all (NULL by default).
func anyTransfer(entries []stock.LedgerEntry) bool {
	for i := range entries {
		if entries[i].Ref.TransferID != 0 {
			return true
		}
	}
	return false
}

func (r ledger) append(ctx context.Context, entries []stock.LedgerEntry) error {
	if len(entries) == 0 {
		return nil
	}
	return r.s.db.dialect.appendLedger(ctx, r.s, entries)
}

// equalValue compares values, and pointers by what they point at.
func equalValue[T comparable](a, b T) bool {
	switch x := any(a).(type) {
	case *string:
		y := any(b).(*string)
		return x == y || (x != nil && y != nil && *x == *y)
	case *int64:
		y := any(b).(*int64)
		return x == y || (x != nil && y != nil && *x == *y)
	case *time.Time:
		y := any(b).(*time.Time)
		return x == y || (x != nil && y != nil && x.Equal(*y))
	case time.Time:
		return x.Equal(any(b).(time.Time))
	}
	return a == b
}

func (r ledger) List(ctx context.Context, q ports.ListQuery) (ports.Page[ports.LedgerRecord], error) {
	var rows []ledgerRow
	total, err := pageCounted(ctx, r.s.idb, &rows, q, ledgerColumns, ports.StockLedgerEntryFields, "l.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s }, "stock_ledger_entries")
	out := ports.Page[ports.LedgerRecord]{Total: total, Items: make([]ports.LedgerRecord, len(rows))}
	for i, row := range rows {
		e := stock.LedgerEntry{
			ArticleDetailID: row.ArticleDetailID, WarehouseID: row.WarehouseID, BinLocationID: row.BinLocationID,
			Type: stock.EntryType(row.Type), Quantity: row.Quantity, StockAfter: row.StockAfter,
			Ref: stock.Reference{User: row.User}, CreatedAt: row.CreatedAt.UTC(),
		}
		if row.IdempotencyKey != nil {
			e.Ref.IdempotencyKey = *row.IdempotencyKey
		}
		if row.OperationID != nil {
			e.Ref.OperationID = *row.OperationID
		}
		if row.OrderID != nil {
			e.Ref.OrderID = *row.OrderID
		}
		if row.OrderDetailID != nil {
			e.Ref.OrderDetailID = *row.OrderDetailID
		}
		if row.PurchaseOrderID != nil {
			e.Ref.PurchaseOrderID = *row.PurchaseOrderID
		}
		if row.LotNumber != nil {
			e.LotNumber = *row.LotNumber
		}
		if row.CountID != nil {
			e.Ref.CountID = *row.CountID
		}
		if row.TransferID != nil {
			e.Ref.TransferID = *row.TransferID
		}
		out.Items[i] = ports.LedgerRecord{ID: row.ID, LedgerEntry: e}
	}
	return out, err
}
