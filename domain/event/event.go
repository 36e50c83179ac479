// Package event holds the rules of the change feed: the event types, what
// caused a change, and when a product's figures call for stock.changed and
// stock.low. The application notes what a transaction wrote and asks these
// rules; storage keeps what they decided.
package event

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/domain/stock"
)

// The event types, as the feed and webhooks name them.
const (
	StockChanged       = "stock.changed"
	StockLow           = "stock.low"
	OrderStatusChanged = "order.statusChanged"
	// PurchaseOrderStatusChanged: a purchase order's status changed.
	PurchaseOrderStatusChanged = "purchaseOrder.statusChanged"
	// TransferStatusChanged: a transfer's status changed.
	TransferStatusChanged = "transfer.statusChanged"
)

// Types lists every event type, for validation and documentation.
var Types = []string{StockChanged, StockLow, OrderStatusChanged, PurchaseOrderStatusChanged, TransferStatusChanged}

// Known tells whether t is an event type.
func Known(t string) bool { return slices.Contains(Types, t) }

// CheckType says what is wrong with t as an event type: "" when it is one.
func CheckType(t string) string {
	if Known(t) {
		return ""
	}
	return "unknown event type \"" + t + "\"; allowed: " + strings.Join(Types, ", ")
}

// The cause types of stock.changed: what made a product's figures change.
const (
	CauseStockSet         = "stock/set"
	CauseStockChange      = "stock/change"
	CauseStockRelocate    = "stock/relocate"
	CauseOrdersShip       = "orders/ship"
	CauseOrderDetailsShip = "orderDetails/ship"
	CauseOrdersCreate     = "orders/create"
	CauseOrdersUpdate     = "orders/update"
	CausePickingList      = "pickingList"
	CauseReturns          = "returns"
	CauseImport           = "import"
	// CauseWarehousesUpdate: a warehouse's stockAvailableForSale changed,
	// which changes the figures of every product stored there.
	CauseWarehousesUpdate = "warehouses/update"
	// The purchase orders' causes: they change incomingStock, and a
	// receipt the stock.
	CausePurchaseOrdersCreate  = "purchaseOrders/create"
	CausePurchaseOrdersReceive = "purchaseOrders/receive"
	CausePurchaseOrdersUpdate  = "purchaseOrders/update"
	// CauseExpiry: lots of the product expired at midnight UTC.
	CauseExpiry = "expiry"
	// The transfers' causes: they move stock and change inTransitStock.
	CauseTransfersShip    = "transfers/ship"
	CauseTransfersReceive = "transfers/receive"
	CauseTransfersUpdate  = "transfers/update"
)

// Cause is why stock changed, as stock.changed tells it.
type Cause struct {
	Type           string
	IdempotencyKey string
	OrderID        int64
}

// CauseOfEndpoint names the cause of a keyed request by its endpoint: the
// batch endpoints are their own cause types; both import modes are "import".
func CauseOfEndpoint(endpoint string) string {
	if strings.HasPrefix(endpoint, "stock/import/") {
		return CauseImport
	}
	return endpoint
}

// Writes is what a transaction did that tells its cause when the use case
// named none.
type Writes struct {
	// Named is the cause the use case named, if it named one.
	Named *Cause
	// Batch is the cause of a keyed request (see CauseOfEndpoint).
	Batch *Cause
	// OrdersCreated tells whether the transaction created orders.
	OrdersCreated bool
	// ForSaleChanged tells whether a warehouse's stockAvailableForSale changed.
	ForSaleChanged bool
	// Orders are the ids of the orders the transaction created or saved.
	Orders []int64
}

// CauseOf is the cause of a transaction's stock changes: the one its use
// case named, else its batch's, else what its writes tell. A change that
// concerns exactly one order names that order, whatever its kind.
func CauseOf(w Writes) Cause {
	var c Cause
	switch {
	case w.Named != nil:
		c = *w.Named
	case w.Batch != nil:
		c = *w.Batch
	case w.OrdersCreated:
		c = Cause{Type: CauseOrdersCreate}
	case w.ForSaleChanged:
		c = Cause{Type: CauseWarehousesUpdate}
	default:
		c = Cause{Type: CauseOrdersUpdate}
	}
	if c.OrderID == 0 {
		if ids := slices.Compact(slices.Sorted(slices.Values(w.Orders))); len(ids) == 1 {
			c.OrderID = ids[0]
		}
	}
	return c
}

// Snapshot is what the feed last recorded of a product's figures: the
// figures stock.changed watches, canonically spelt, and whether its
// available stock was below its reorder point. The zero Snapshot is a
// product new to the feed: no figures, not below.
type Snapshot struct {
	Figures string
	Below   bool
}

// SnapshotOf is the snapshot of a product with these figures; below is
// catalog.ArticleDetail.BelowReorderPoint of its available stock.
func SnapshotOf(f stock.Figures, below bool) Snapshot {
	return Snapshot{Figures: spell(f), Below: below}
}

// nothing is the figures of a product that holds nothing, which is what a
// product new to the feed is compared with.
var nothing = spell(stock.Figures{})

// Compare tells which events a product's new snapshot calls for against
// the one recorded before: stock.changed when any watched figure differs,
// however many operations touched the product; stock.low when it has just
// fallen below its reorder point (not while it stays there).
func Compare(before, now Snapshot) (changed, low bool) {
	was := before.Figures
	if was == "" {
		was = nothing
	}
	return now.Figures != was, now.Below && !before.Below
}

// spell writes the watched figures canonically: warehouses in id order,
// those holding nothing left out (a default mapping of 0 pieces changes no
// figure), then what is incoming and what is expired.
func spell(f stock.Figures) string {
	b := make([]byte, 0, 64)
	for i, n := range []int{f.PhysicalStock, f.PhysicalStockForSale, f.ReservedStock, f.AvailableStock} {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, '|')
	ws := slices.Clone(f.Warehouses)
	slices.SortFunc(ws, func(a, b stock.WarehouseStock) int { return cmp.Compare(a.WarehouseID, b.WarehouseID) })
	for _, w := range ws {
		if w.Stock != 0 || w.ReservedStock != 0 {
			b = strconv.AppendInt(b, w.WarehouseID, 10)
			b = strconv.AppendInt(append(b, ':'), int64(w.Stock), 10)
			b = strconv.AppendInt(append(b, ':'), int64(w.ReservedStock), 10)
			b = append(b, ';')
		}
	}
	// Written only when there is any, so that a product with nothing
	// incoming is spelt the same as in a snapshot recorded before
	// purchase orders existed, and comparing the two finds no change.
	if f.IncomingStock != 0 {
		b = strconv.AppendInt(append(b, "|in:"...), int64(f.IncomingStock), 10)
	}
	// The same for what is expired: a product that holds no expired piece
	// is spelt as in a snapshot recorded before lots existed.
	if f.ExpiredStock != 0 {
		b = strconv.AppendInt(append(b, "|ex:"...), int64(f.ExpiredStock), 10)
	}
	// And for what is on the road between warehouses.
	if f.InTransitStock != 0 {
		b = strconv.AppendInt(append(b, "|tr:"...), int64(f.InTransitStock), 10)
	}
	return string(b)
}
