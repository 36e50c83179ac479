package application

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/shopstock/inventory/domain/event"
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

type causeKey struct{}

// WithCause names the cause of what the next Write with this context
// changes. Batches need not call it: their idempotency key and endpoint name
// the cause already. Other use cases attach theirs in one line.
func WithCause(ctx context.Context, c event.Cause) context.Context {
	return context.WithValue(ctx, causeKey{}, c)
}

// eventingUoW records the events of every write transaction in it.
type eventingUoW struct {
	ports.UnitOfWork
	clock ports.Clock
	// noEvents keeps the snapshots and records no events (WithoutEvents).
	noEvents bool
	// afterRecord, when set, runs after the events are recorded and before
	// the transaction commits: tests use it to make commits slow.
	afterRecord func(ctx context.Context)
}

func (u *eventingUoW) Write(ctx context.Context, fn func(ctx context.Context, s ports.Store) error) error {
	return u.UnitOfWork.Write(ctx, func(ctx context.Context, s ports.Store) error {
		t := newTracker(s)
		t.noEvents = u.noEvents
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

// cause is the cause of the transaction's changes (event.CauseOf).
func (t *tracker) cause(ctx context.Context, flagChanged bool) event.Cause {
	w := event.Writes{Batch: t.batch, OrdersCreated: len(t.ordersAdded) > 0, ForSaleChanged: flagChanged,
		Orders: slices.Concat(t.ordersAdded, slices.Collect(maps.Keys(t.ordersSaved)))}
	if c, named := ctx.Value(causeKey{}).(event.Cause); named {
		w.Named = &c
	}
	return event.CauseOf(w)
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
	var totals []stock.WarehouseTotal
	incoming := t.incomingChanges()
	if len(t.articles) > 0 {
		var err error
		if events, snapshots, totals, err = t.stockEvents(ctx, t.cause(ctx, flagChanged), incoming); err != nil {
			return false, err
		}
	}
	for _, id := range slices.Sorted(maps.Keys(t.ordersSaved)) {
		if t.noEvents {
			break
		}
		o := t.ordersSaved[id]
		before, ok := t.statusBefore[id]
		if !ok || before == o.Status() {
			continue
		}
		events = append(events, newEvent(event.OrderStatusChanged, orderStatusChangedData{
			OrderID: o.ID(), Number: o.Number(), Status: string(o.Status()), PreviousStatus: string(before),
		}))
	}
	if !t.noEvents {
		events = append(events, t.purchaseStatusEvents()...)
	}
	if len(events) == 0 && len(snapshots) == 0 && len(totals) == 0 {
		return false, nil
	}
	return len(events) > 0, t.Events().Record(ctx, snapshots, totals, events, clock.Now())
}

// stockEvents brings the touched products' figures up to date and compares
// them with their snapshots (event.Compare). It returns the events, the
// snapshots that changed and the warehouse totals that changed: what the
// figures are made of changes by exactly what this transaction wrote
// (stock.ApplyTotals over the working sets' changes, the orders' demand,
// and the purchase orders' incoming), so storage only keeps the results.
func (t *tracker) stockEvents(ctx context.Context, cause event.Cause, incomingChanges map[int64]int) ([]ports.NewEvent, []ports.StockSnapshot, []stock.WarehouseTotal, error) {
	ids := slices.Sorted(maps.Keys(t.articles))
	var changes []stock.WarehouseTotal
	var warehouseIDs []int64
	for _, c := range t.stockChanges {
		if t.articles[c.ArticleDetailID] {
			changes = append(changes, c)
			warehouseIDs = append(warehouseIDs, c.WarehouseID)
		}
	}
	// The snapshots are locked before the figures are read: a transaction
	// touching the same product waits here until this one commits, and
	// then reads figures that include this one's changes.
	locked, err := t.Events().LockSnapshots(ctx, ids, slices.Compact(slices.Sorted(slices.Values(warehouseIDs))))
	if err != nil {
		return nil, nil, nil, err
	}
	incoming, err := t.incoming(ctx, locked.Incoming, incomingChanges)
	if err != nil {
		return nil, nil, nil, err
	}
	totals := stock.ApplyTotals(totalsOf(locked.Stock), changes)
	stocks := withTotals(locked.Stock, totals, locked.Warehouses)
	outstanding := maps.Clone(locked.Outstanding)
	for _, id := range slices.Sorted(maps.Keys(t.ordersSaved)) {
		for article, n := range t.ordersSaved[id].DemandChange(t.demandBefore[id]) {
			if t.articles[article] {
				outstanding[article] += n
			}
		}
	}
	var events []ports.NewEvent
	var changed []ports.StockSnapshot
	for _, f := range figuresOf(locked.Articles, stocks, outstanding, incoming) {
		id := f.Article.ID()
		stored := locked.Snapshots[id]
		before := event.Snapshot{Figures: stored.Figures, Below: stored.Below}
		now := event.SnapshotOf(f.Figures, f.BelowReorderPoint())
		stockChanged, low := event.Compare(before, now)
		if t.noEvents {
			stockChanged, low = false, false
		}
		if stockChanged {
			events = append(events, newEvent(event.StockChanged, stockChangedData{
				ArticleDetailData: ArticleDetailDataOf(f), Cause: causeData{Type: cause.Type, IdempotencyKey: nullIfZero(cause.IdempotencyKey), OrderID: nullIfZero(cause.OrderID)},
			}))
		}
		if low {
			events = append(events, newEvent(event.StockLow, stockLowData{
				ArticleDetailID: id, ArticleDetailNumber: f.Article.Number(), AvailableStock: f.AvailableStock, ReorderPoint: f.Article.ReorderPoint(),
			}))
		}
		if kept := (ports.StockSnapshot{ArticleDetailID: id, Figures: now.Figures, Below: now.Below, Outstanding: outstanding[id]}); kept != stored {
			changed = append(changed, kept)
		}
	}
	return events, changed, totals, nil
}

// totalsOf lists the products' stock per warehouse as totals.
func totalsOf(stocks map[int64][]stock.WarehouseStock) []stock.WarehouseTotal {
	var out []stock.WarehouseTotal
	for id, ws := range stocks {
		for _, w := range ws {
			out = append(out, stock.WarehouseTotal{ArticleDetailID: id, WarehouseID: w.WarehouseID, Stock: w.Stock, ReservedStock: w.ReservedStock, Expired: w.Expired, Mappings: w.Mappings})
		}
	}
	return out
}

// withTotals is the products' stock per warehouse with the changed totals
// in place of what was read (a warehouse that holds no mapping of a
// product any more left out), in warehouse id order.
func withTotals(stocks map[int64][]stock.WarehouseStock, changed []stock.WarehouseTotal, warehouses map[int64]stock.WarehouseStock) map[int64][]stock.WarehouseStock {
	out := make(map[int64][]stock.WarehouseStock, len(stocks))
	for id, ws := range stocks {
		out[id] = slices.Clone(ws)
	}
	for _, c := range changed {
		ws := out[c.ArticleDetailID]
		i := slices.IndexFunc(ws, func(w stock.WarehouseStock) bool { return w.WarehouseID == c.WarehouseID })
		if i < 0 {
			i = len(ws)
			ws = append(ws, warehouses[c.WarehouseID])
		}
		ws[i].WarehouseID, ws[i].Stock, ws[i].ReservedStock, ws[i].Expired, ws[i].Mappings = c.WarehouseID, c.Stock, c.ReservedStock, c.Expired, c.Mappings
		if !c.Held() {
			ws = slices.Delete(ws, i, i+1)
		}
		slices.SortFunc(ws, func(a, b stock.WarehouseStock) int { return cmp.Compare(a.WarehouseID, b.WarehouseID) })
		out[c.ArticleDetailID] = ws
	}
	return out
}
