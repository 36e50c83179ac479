package application

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// Events are recorded once, by the unit of work, not by each use case
// (extensions E1). eventingUoW decorates the storage's unit of work: every
// Write hands the use case a store that notes what it writes (products whose
// mappings, order positions or reorder point changed; orders whose status
// changed; warehouses whose "for sale" flag changed). When the use case has
// succeeded, still inside its transaction, the products' figures are
// computed the way GET /api/articleDetails/{id} computes them and compared
// with the last figures recorded for each (a snapshot table): a product
// whose figures differ gets one stock.changed, however many operations
// touched it, and one whose "below the reorder point" turned true gets
// stock.low. So no use case spells an event, and none needs a "before" read.

// Cause types of stock.changed (extensions E1).
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
)

// Cause is why stock changed, as stock.changed tells it.
type Cause struct {
	Type           string
	IdempotencyKey string
	OrderID        int64
}

type causeKey struct{}

// WithCause names the cause of what the next Write with this context
// changes. Batches need not call it: their idempotency key and endpoint name
// the cause already. Other use cases attach theirs in one line.
func WithCause(ctx context.Context, c Cause) context.Context {
	return context.WithValue(ctx, causeKey{}, c)
}

// eventingUoW records the events of every write transaction in it.
type eventingUoW struct {
	ports.UnitOfWork
	clock ports.Clock
	// afterRecord, when set, runs after the events are recorded and before
	// the transaction commits: tests use it to make commits slow.
	afterRecord func(ctx context.Context)
}

func (u *eventingUoW) Write(ctx context.Context, fn func(ctx context.Context, s ports.Store) error) error {
	return u.UnitOfWork.Write(ctx, func(ctx context.Context, s ports.Store) error {
		t := newTracker(s)
		if err := fn(ctx, t); err != nil {
			return err
		}
		recorded, err := t.record(ctx, u.clock)
		if err != nil {
			return fmt.Errorf("record events: %w", err)
		}
		if recorded && u.afterRecord != nil {
			u.afterRecord(ctx)
		}
		return nil
	})
}

// cause is the cause the use case named, else the one its writes tell.
func (t *tracker) cause(ctx context.Context, flagChanged bool) Cause {
	c, named := ctx.Value(causeKey{}).(Cause)
	switch {
	case named:
	case t.batch != nil:
		c = *t.batch
	case len(t.ordersAdded) > 0:
		c = Cause{Type: CauseOrdersCreate}
	case flagChanged:
		c = Cause{Type: CauseWarehousesUpdate}
	default:
		c = Cause{Type: CauseOrdersUpdate}
	}
	// A change that concerns one order names it, whatever its kind.
	if c.OrderID == 0 {
		ids := slices.Concat(t.ordersAdded, slices.Collect(maps.Keys(t.ordersSaved)))
		if ids = slices.Compact(slices.Sorted(slices.Values(ids))); len(ids) == 1 {
			c.OrderID = ids[0]
		}
	}
	return c
}

// record compares the figures of the touched products with their
// snapshots and appends the events; it tells whether there were any.
func (t *tracker) record(ctx context.Context, clock ports.Clock) (bool, error) {
	flagChanged := false
	for id, w := range t.warehouses {
		before, ok := t.forSaleBefore[id]
		if !ok || before == w.Details().StockAvailableForSale {
			continue
		}
		flagChanged = true
		ids, err := t.Figures().ArticlesInWarehouse(ctx, id)
		if err != nil {
			return false, err
		}
		t.touch(ids...)
	}
	if len(t.deleted) > 0 {
		ids := slices.Sorted(maps.Keys(t.deleted))
		for _, id := range ids {
			delete(t.articles, id)
		}
		if err := t.Events().DeleteSnapshots(ctx, ids); err != nil {
			return false, err
		}
	}
	var events []ports.NewEvent
	var snapshots []ports.StockSnapshot
	if len(t.articles) > 0 {
		var err error
		if events, snapshots, err = t.stockEvents(ctx, t.cause(ctx, flagChanged)); err != nil {
			return false, err
		}
	}
	for _, id := range slices.Sorted(maps.Keys(t.ordersSaved)) {
		o := t.ordersSaved[id]
		before, ok := t.statusBefore[id]
		if !ok || before == o.Status() {
			continue
		}
		events = append(events, newEvent(ports.EventOrderStatusChanged, orderStatusChangedData{
			OrderID: o.ID(), Number: o.Number(), Status: string(o.Status()), PreviousStatus: string(before),
		}))
	}
	if len(events) == 0 && len(snapshots) == 0 {
		return false, nil
	}
	return len(events) > 0, t.Events().Record(ctx, snapshots, events, clock.Now())
}

// stockEvents compares the touched products' figures with their snapshots
// and returns the events and the snapshots that changed.
func (t *tracker) stockEvents(ctx context.Context, cause Cause) ([]ports.NewEvent, []ports.StockSnapshot, error) {
	ids := slices.Sorted(maps.Keys(t.articles))
	// The snapshots are locked before the figures are read: a transaction
	// touching the same product waits here until this one commits, and
	// then reads figures that include this one's changes.
	locked, err := t.Events().LockSnapshots(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	snapshots := locked.Snapshots
	figures := figuresOf(locked.Articles, locked.Stock, locked.Outstanding)
	var events []ports.NewEvent
	var changed []ports.StockSnapshot
	for _, f := range figures {
		id := f.Article.ID()
		before := snapshots[id]
		if before.Figures == "" {
			before.Figures = encodeFigures(ArticleStock{}) // new to the feed: nothing, not below
		}
		now := ports.StockSnapshot{ArticleDetailID: id, Figures: encodeFigures(f), Below: f.BelowReorderPoint()}
		if now.Figures != before.Figures {
			events = append(events, newEvent(ports.EventStockChanged, stockChangedData{
				ArticleDetailData: ArticleDetailDataOf(f), Cause: causeData{Type: cause.Type, IdempotencyKey: nullIfZero(cause.IdempotencyKey), OrderID: nullIfZero(cause.OrderID)},
			}))
		}
		if now.Below && !before.Below {
			events = append(events, newEvent(ports.EventStockLow, stockLowData{
				ArticleDetailID: id, ArticleDetailNumber: f.Article.Number(), AvailableStock: f.AvailableStock, ReorderPoint: f.Article.ReorderPoint(),
			}))
		}
		if now != snapshots[id] {
			changed = append(changed, now)
		}
	}
	return events, changed, nil
}

// encodeFigures spells the figures that stock.changed watches, canonically:
// warehouses in id order, those holding nothing left out (a default mapping
// of 0 pieces changes no figure).
func encodeFigures(f ArticleStock) string {
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
	return string(b)
}
