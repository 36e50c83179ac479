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
	EntryCount      EntryType = "count"
	// The transfers' entries: pieces leaving the source for the road,
	// arriving at the destination, and going back to the source when a
	// transfer is cancelled.
	EntryTransferOut    EntryType = "transferOut"
	EntryTransferIn     EntryType = "transferIn"
	EntryTransferReturn EntryType = "transferReturn"
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
	// CountID is the count whose difference an entry books (Recount); a
	// bin that count locks is open to that booking.
	CountID int64
	// TransferID is the transfer whose pieces left or arrived.
	TransferID int64
	User       string
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

// step is one planned change of one mapping, and of one of its lots when
// lot is not "".
type step struct {
	warehouse, bin int64
	delta          int
	lot            string
}

// apply carries out a plan that has been checked. It refuses, before
// changing anything, a plan that moves stock on a bin an open count locks
// (locks.go): whatever planned it, nothing moves there.
func (ws *WorkingSet) apply(article int64, steps []step, typ EntryType, ref Reference) error {
	for _, s := range steps {
		if s.delta != 0 {
			if err := ws.unlocked(Location{WarehouseID: s.warehouse, BinLocationID: s.bin}, ref); err != nil {
				return err
			}
		}
	}
	for _, s := range steps {
		if s.delta == 0 {
			continue
		}
		m := ws.mapping(article, s.warehouse, s.bin)
		ws.touch(m)
		m.stock += s.delta
		if s.lot != "" {
			m.addLot(s.lot, s.delta, 0)
		}
		ws.entries = append(ws.entries, LedgerEntry{
			ArticleDetailID: article,
			WarehouseID:     m.warehouseID,
			BinLocationID:   m.binLocationID,
			Type:            typ,
			Quantity:        s.delta,
			StockAfter:      m.stock,
			LotNumber:       s.lot,
			Ref:             ref,
			CreatedAt:       ws.now,
		})
	}
	return nil
}
