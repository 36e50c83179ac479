package ports

import (
	"context"

	"github.com/shopstock/inventory/domain/transfer"
)

// TransferRepository stores transfers between warehouses, their shipments
// and receipts, and the products' kept inTransitStock. Inside Write, Get
// locks the transfer's row: shipments, receipts and cancellations of one
// transfer run one at a time.
type TransferRepository interface {
	// Add stores t with its lines and assigns the ids it has not got.
	Add(ctx context.Context, t *transfer.Transfer) error
	IDTaken(ctx context.Context, id int64) (bool, error)
	NumberTaken(ctx context.Context, number string) (bool, error)
	// LineIDsTaken are those of ids that lines of any transfer already
	// have.
	LineIDsTaken(ctx context.Context, ids []int64) ([]int64, error)
	Get(ctx context.Context, id int64) (*transfer.Transfer, error)
	// Save writes the transfer's status and what its lines shipped,
	// received, returned and lost per lot.
	Save(ctx context.Context, t *transfer.Transfer) error
	List(ctx context.Context, q ListQuery) (Page[*transfer.Transfer], error)
	// AddMovement stores a shipment or a receipt with its lines and
	// assigns its id.
	AddMovement(ctx context.Context, kind TransferMovementKind, m *transfer.Movement) error
	// Movement is a shipment or receipt of the transfer; one of another
	// transfer or kind is not found.
	Movement(ctx context.Context, kind TransferMovementKind, transferID, id int64) (*transfer.Movement, error)
	// NamesArticle tells whether a line of any transfer names the article
	// detail.
	NamesArticle(ctx context.Context, articleDetailID int64) (bool, error)
	// InTransitOf is the kept inTransitStock of the products, those with
	// none left out.
	InTransitOf(ctx context.Context, articleDetailIDs []int64) (map[int64]int, error)
	// KeepInTransit stores the products' inTransitStock as given
	// (transfer.ApplyInTransit's result).
	KeepInTransit(ctx context.Context, inTransit map[int64]int) error
}

// TransferMovementKind tells a transfer's shipments from its receipts.
type TransferMovementKind string

const (
	TransferShipment TransferMovementKind = "shipment"
	TransferReceipt  TransferMovementKind = "receipt"
)

// TransferFields are the list fields of transfers.
var TransferFields = ListFields{
	"transfer.id": IntField, "transfer.number": TextField, "transfer.status": TextField,
	"transfer.sourceWarehouseId": IntField, "transfer.destinationWarehouseId": IntField,
	"transfer.createdAt": TimeField,
}
