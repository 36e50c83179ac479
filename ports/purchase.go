package ports

import (
	"context"

	"github.com/shopstock/inventory/domain/purchase"
)

// PurchaseOrderRepository stores purchase orders, their receipts, and the
// products' kept incomingStock. Inside Write, Get locks the order's row:
// receipts and changes of one order run one at a time.
type PurchaseOrderRepository interface {
	// Add stores o with its lines and assigns the ids it has not got.
	Add(ctx context.Context, o *purchase.Order) error
	IDTaken(ctx context.Context, id int64) (bool, error)
	NumberTaken(ctx context.Context, number string) (bool, error)
	// LineIDsTaken are those of ids that lines of any order already have.
	LineIDsTaken(ctx context.Context, ids []int64) ([]int64, error)
	Get(ctx context.Context, id int64) (*purchase.Order, error)
	// Save writes the order's status, supplier, expected date and what its
	// lines received.
	Save(ctx context.Context, o *purchase.Order) error
	// Delete removes an order that Delete marked to go
	// (purchase.Order.Delete), with its lines.
	Delete(ctx context.Context, o *purchase.Order) error
	List(ctx context.Context, q ListQuery) (Page[*purchase.Order], error)
	// AddReceipt stores r with its lines and assigns its id.
	AddReceipt(ctx context.Context, r *purchase.Receipt) error
	// Receipt is a receipt of the purchase order; one of another order is
	// not found.
	Receipt(ctx context.Context, purchaseOrderID, id int64) (*purchase.Receipt, error)
	Receipts(ctx context.Context, purchaseOrderID int64, q ListQuery) (Page[*purchase.Receipt], error)
	// NamesArticle tells whether a line of any purchase order names the
	// article detail.
	NamesArticle(ctx context.Context, articleDetailID int64) (bool, error)
	// IncomingOf is the kept incomingStock of the products, those with
	// none left out.
	IncomingOf(ctx context.Context, articleDetailIDs []int64) (map[int64]int, error)
	// KeepIncoming stores the products' incomingStock as given
	// (purchase.ApplyIncoming's result).
	KeepIncoming(ctx context.Context, incoming map[int64]int) error
}

// List fields of purchase orders and their receipts.
var (
	PurchaseOrderFields = ListFields{
		"purchaseOrder.id": IntField, "purchaseOrder.number": TextField, "purchaseOrder.supplier": TextField,
		"purchaseOrder.status": TextField, "purchaseOrder.warehouseId": IntField,
		// a date, YYYY-MM-DD: compared as text, which orders dates rightly
		"purchaseOrder.expectedAt": TextField, "purchaseOrder.createdAt": TimeField,
	}
	ReceiptFields = ListFields{
		"receipt.id": IntField, "receipt.createdAt": TimeField, "receipt.user": TextField,
	}
)
