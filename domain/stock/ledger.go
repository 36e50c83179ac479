package stock

import "time"

// EntryType says why a mapping's stock changed.
type EntryType string

const (
	EntryStocktake  EntryType = "stocktake"
	EntryIncoming   EntryType = "incoming"
	EntryOutgoing   EntryType = "outgoing"
	EntryRelocation EntryType = "relocation"
	EntryShipment   EntryType = "shipment"
	EntryReturn     EntryType = "return"
	EntryReceipt    EntryType = "receipt"
)

// Reference ties a ledger entry to the request that caused it.
type Reference struct {
	IdempotencyKey string
	// OperationID is the raw JSON text of the operation's id, "" if it had none.
	OperationID   string
	OrderID       int64
	OrderDetailID int64
	// PurchaseOrderID is the purchase order a receipt booked pieces of.
	PurchaseOrderID int64
	User            string
}

// LedgerEntry records one change of one mapping. For every mapping the sum of
// its entries' quantities equals its stock.
type LedgerEntry struct {
	ArticleDetailID int64
	WarehouseID     int64
	BinLocationID   int64
	Type            EntryType
	Quantity        int
	StockAfter      int
	// LotNumber is the lot the pieces belong to, "" for a product that is
	// not lot-tracked.
	LotNumber string
	Ref       Reference
	CreatedAt time.Time
}
