package application

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
)

// The commit step: what follows from what a write transaction saved is
// written once, here, for every use case alike. The repositories note
// every aggregate they write (ports.Saved); each aggregate remembers what
// it was loaded with and hands out what changed and the events that
// follow. When the use case has succeeded, still inside its transaction,
// the touched products' figures are brought up to date by exactly those
// changes and compared with the last figures recorded for each: a product
// whose figures differ gets one stock.changed, however many operations
// touched it, and one whose "below the reorder point" turned true gets
// stock.low. No use case spells an event, keeps a total or reads a
// "before".
//
// A use case that ends with Store.Last has its last writes held, so that
// they go with the commit step's and the COMMIT in one round trip. The
// commit step sends them first (Store.Flush) wherever it reads, or writes
// other than the events: what it reads then includes them.

type causeKey struct{}

type batchCauseKey struct{}

// WithCause names the cause of what the next Write with this context
// changes. Keyed requests need not: their idempotency key and endpoint
// name the cause already. Other use cases attach theirs in one line.
func WithCause(ctx context.Context, c event.Cause) context.Context {
	return context.WithValue(ctx, causeKey{}, c)
}

// withBatchCause names a keyed request's cause: its endpoint and key. A
// cause the use case named comes first.
func withBatchCause(ctx context.Context, meta BatchMeta) context.Context {
	return context.WithValue(ctx, batchCauseKey{}, event.Cause{Type: event.CauseOfEndpoint(meta.Endpoint), IdempotencyKey: meta.Key})
}

// Committing is the unit of work every use case writes through: uow with
// the commit step after each write transaction's use case. New builds the
// App's with it; a new use case written against it needs no event code.
func Committing(uow ports.UnitOfWork, clock ports.Clock) ports.UnitOfWork {
	return &committingUoW{UnitOfWork: uow, clock: clock}
}

// committingUoW runs every write transaction's commit step.
type committingUoW struct {
	ports.UnitOfWork
	clock ports.Clock
	// noEvents keeps the totals and snapshots and records no events
	// (WithoutEvents).
	noEvents bool
	// afterRecord, when set, runs after the events are recorded and before
	// the transaction commits: tests use it to make commits slow.
	afterRecord func(ctx context.Context)
}

func (u *committingUoW) Write(ctx context.Context, fn func(ctx context.Context, s ports.Store) error) error {
	return u.UnitOfWork.Write(ctx, func(ctx context.Context, s ports.Store) error {
		if err := fn(ctx, s); err != nil {
			return err
		}
		recorded, err := u.commit(ctx, s, s.Saved())
		if err != nil {
			return fmt.Errorf("record events: %w", err)
		}
		if recorded && u.afterRecord != nil {
			u.afterRecord(ctx)
		}
		return nil
	})
}

// changes is what a transaction's saved aggregates changed, gathered from
// them.
type changes struct {
	// touched are the products whose figures may have changed.
	touched map[int64]bool
	// demand is what the orders' demand changed by, per product.
	demand map[int64]int
	// incoming is what the purchase orders' incomingStock changed by.
	incoming map[int64]int
	// inTransit is what the transfers' inTransitStock changed by.
	inTransit map[int64]int
	// forSaleChanged tells whether a warehouse's stockAvailableForSale
	// changed.
	forSaleChanged bool
	events         []ports.NewEvent
}

// gather asks every saved aggregate what it changed.
func gather(ctx context.Context, s ports.Store, saved *ports.Saved) (changes, error) {
	c := changes{touched: map[int64]bool{}, demand: map[int64]int{}, incoming: map[int64]int{}, inTransit: map[int64]int{}}
	touch := func(ids ...int64) {
		for _, id := range ids {
			c.touched[id] = true
		}
	}
	touch(saved.StockArticles...)
	touch(saved.Articles...)
	for _, t := range saved.Stock {
		touch(t.ArticleDetailID)
	}
	for _, w := range saved.Warehouses {
		if !w.ForSaleChanged() {
			continue
		}
		c.forSaleChanged = true
		if err := s.Flush(ctx); err != nil {
			return c, err
		}
		ids, err := s.Figures().ArticlesInWarehouse(ctx, w.ID())
		if err != nil {
			return c, err
		}
		touch(ids...)
	}
	orders := slices.SortedFunc(slices.Values(saved.Orders), func(a, b *order.Order) int { return cmp.Compare(a.ID(), b.ID()) })
	for _, o := range orders {
		for _, d := range o.Details() {
			touch(d.ArticleDetailID())
		}
		demand, status := o.Changes()
		for id, n := range demand {
			c.demand[id] += n
		}
		if status != nil {
			c.events = append(c.events, newEvent(event.OrderStatusChanged, orderStatusChangedData{
				OrderID: status.OrderID, Number: status.Number, Status: string(status.Status), PreviousStatus: string(status.Previous),
			}))
		}
	}
	purchases := slices.SortedFunc(slices.Values(saved.PurchaseOrders), func(a, b *purchase.Order) int { return cmp.Compare(a.ID(), b.ID()) })
	for _, o := range purchases {
		incoming, status := o.Changes()
		for id, n := range incoming {
			c.incoming[id] += n
			touch(id)
		}
		if status != nil {
			c.events = append(c.events, newEvent(event.PurchaseOrderStatusChanged, purchaseOrderStatusChangedData{
				PurchaseOrderID: status.PurchaseOrderID, Number: status.Number, Status: string(status.Status), PreviousStatus: string(status.Previous),
			}))
		}
	}
	transfers := slices.SortedFunc(slices.Values(saved.Transfers), func(a, b *transfer.Transfer) int { return cmp.Compare(a.ID(), b.ID()) })
	for _, t := range transfers {
		inTransit, status := t.Changes()
		for id, n := range inTransit {
			c.inTransit[id] += n
			touch(id)
		}
		if status != nil {
			c.events = append(c.events, newEvent(event.TransferStatusChanged, transferStatusChangedData{
				TransferID: status.TransferID, Number: status.Number, Status: string(status.Status), PreviousStatus: string(status.Previous),
			}))
		}
	}
	for _, id := range saved.DeletedArticles {
		delete(c.touched, id)
	}
	return c, nil
}

// cause is the cause of the transaction's changes (event.CauseOf).
func cause(ctx context.Context, saved *ports.Saved, forSaleChanged bool) event.Cause {
	w := event.Writes{ForSaleChanged: forSaleChanged}
	for _, o := range saved.Orders {
		w.Orders = append(w.Orders, o.ID())
		w.OrdersCreated = w.OrdersCreated || o.IsNew()
	}
	if c, named := ctx.Value(causeKey{}).(event.Cause); named {
		w.Named = &c
	}
	if c, keyed := ctx.Value(batchCauseKey{}).(event.Cause); keyed {
		w.Batch = &c
	}
	return event.CauseOf(w)
}

// commit writes what follows from what the transaction saved: the kept
// totals, the figures' snapshots and the events. It tells whether it
// recorded events.
func (u *committingUoW) commit(ctx context.Context, s ports.Store, saved *ports.Saved) (bool, error) {
	c, err := gather(ctx, s, saved)
	if err != nil {
		return false, err
	}
	if len(saved.DeletedArticles) > 0 {
		if err := s.Flush(ctx); err != nil {
			return false, err
		}
		if err := s.Events().DeleteSnapshots(ctx, slices.Sorted(slices.Values(saved.DeletedArticles))); err != nil {
			return false, err
		}
	}
	var events []ports.NewEvent
	var snapshots []ports.StockSnapshot
	var totals []stock.WarehouseTotal
	if len(c.touched) > 0 {
		if events, snapshots, totals, err = u.stockEvents(ctx, s, saved.Stock, c, cause(ctx, saved, c.forSaleChanged)); err != nil {
			return false, err
		}
	}
	if !u.noEvents {
		events = append(events, c.events...)
	}
	if len(events) == 0 && len(snapshots) == 0 && len(totals) == 0 {
		return false, nil
	}
	return len(events) > 0, s.Events().Record(ctx, snapshots, totals, events, u.clock.Now())
}

// stockEvents brings the touched products' figures up to date and compares
// them with their snapshots (event.Compare). It returns the events, the
// snapshots that changed and the warehouse totals that changed: what the
// figures are made of changes by exactly what this transaction wrote
// (stock.ApplyTotals over the working sets' changes, the orders' demand,
// and the purchase orders' incoming), so storage only keeps the results.
func (u *committingUoW) stockEvents(ctx context.Context, s ports.Store, stockChanges []stock.WarehouseTotal, c changes, cause event.Cause) ([]ports.NewEvent, []ports.StockSnapshot, []stock.WarehouseTotal, error) {
	ids := slices.Sorted(maps.Keys(c.touched))
	var totalsChanged []stock.WarehouseTotal
	var warehouseIDs []int64
	for _, t := range stockChanges {
		if c.touched[t.ArticleDetailID] {
			totalsChanged = append(totalsChanged, t)
			warehouseIDs = append(warehouseIDs, t.WarehouseID)
		}
	}
	// The snapshots are locked before the figures are read: a transaction
	// touching the same product waits here until this one commits, and
	// then reads figures that include this one's changes.
	locked, err := lockSnapshots(ctx, s, ids, slices.Compact(slices.Sorted(slices.Values(warehouseIDs))))
	if err != nil {
		return nil, nil, nil, err
	}
	incoming, err := keepIncoming(ctx, s, locked.Incoming, c.incoming)
	if err != nil {
		return nil, nil, nil, err
	}
	inTransit, err := keepInTransit(ctx, s, locked.InTransit, c.inTransit)
	if err != nil {
		return nil, nil, nil, err
	}
	totals := stock.ApplyTotals(totalsOf(locked.Stock), totalsChanged)
	stocks := withTotals(locked.Stock, totals, locked.Warehouses)
	outstanding := maps.Clone(locked.Outstanding)
	for article, n := range c.demand {
		if c.touched[article] {
			outstanding[article] += n
		}
	}
	var events []ports.NewEvent
	var changed []ports.StockSnapshot
	for _, f := range figuresOf(locked.Articles, stocks, outstanding, incoming, inTransit) {
		id := f.Article.ID()
		stored := locked.Snapshots[id]
		before := event.Snapshot{Figures: stored.Figures, Below: stored.Below}
		now := event.SnapshotOf(f.Figures, f.BelowReorderPoint())
		stockChanged, low := event.Compare(before, now)
		if u.noEvents {
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

// lockSnapshots locks and reads the figures' rows of these products and
// warehouses, taking those that the transaction's stock loads locked and
// read already (ports.Saved.Figures) and asking storage for the rest: the
// products it has not, and those the transaction saved since (their
// reorder point or name may have changed).
func lockSnapshots(ctx context.Context, s ports.Store, ids, warehouseIDs []int64) (ports.LockedSnapshots, error) {
	saved := s.Saved()
	have := saved.Figures
	if have == nil {
		if err := s.Flush(ctx); err != nil {
			return ports.LockedSnapshots{}, err
		}
		return s.Events().LockSnapshots(ctx, ids, warehouseIDs)
	}
	out := ports.LockedSnapshots{Snapshots: map[int64]ports.StockSnapshot{}, Stock: map[int64][]stock.WarehouseStock{},
		Outstanding: map[int64]int{}, Warehouses: map[int64]stock.WarehouseStock{}, Incoming: map[int64]int{}, InTransit: map[int64]int{}}
	take := func(l *ports.LockedSnapshots, id int64) {
		out.Snapshots[id] = l.Snapshots[id]
		if ws, ok := l.Stock[id]; ok {
			out.Stock[id] = ws
		}
		if n, ok := l.Outstanding[id]; ok {
			out.Outstanding[id] = n
		}
		if n, ok := l.Incoming[id]; ok {
			out.Incoming[id] = n
		}
		if n, ok := l.InTransit[id]; ok {
			out.InTransit[id] = n
		}
	}
	articles := map[int64]*catalog.ArticleDetail{}
	for _, a := range have.Articles {
		articles[a.ID()] = a
	}
	var missing, missingWarehouses []int64
	for _, id := range ids {
		if a, ok := articles[id]; ok && !slices.Contains(saved.Articles, id) {
			out.Articles = append(out.Articles, a)
			take(have, id)
		} else {
			missing = append(missing, id)
		}
	}
	for _, id := range warehouseIDs {
		if w, ok := have.Warehouses[id]; ok {
			out.Warehouses[id] = w
		} else {
			missingWarehouses = append(missingWarehouses, id)
		}
	}
	if len(missing) == 0 && len(missingWarehouses) == 0 {
		return out, nil
	}
	if err := s.Flush(ctx); err != nil {
		return out, err
	}
	read, err := s.Events().LockSnapshots(ctx, missing, missingWarehouses)
	if err != nil {
		return out, err
	}
	for _, a := range read.Articles {
		out.Articles = append(out.Articles, a)
		take(&read, a.ID())
	}
	maps.Copy(out.Warehouses, read.Warehouses)
	slices.SortFunc(out.Articles, func(a, b *catalog.ArticleDetail) int { return cmp.Compare(a.ID(), b.ID()) })
	return out, nil
}

// keepIncoming is the products' incomingStock after this transaction:
// what was kept (read with their snapshots), changed by what this
// transaction did to purchase orders; the changed values are kept.
func keepIncoming(ctx context.Context, s ports.Store, kept, changes map[int64]int) (map[int64]int, error) {
	kept = maps.Clone(kept)
	if kept == nil {
		kept = map[int64]int{}
	}
	if len(changes) == 0 {
		return kept, nil
	}
	changed := purchase.ApplyIncoming(kept, changes)
	if err := s.Flush(ctx); err != nil {
		return nil, err
	}
	if err := s.PurchaseOrders().KeepIncoming(ctx, changed); err != nil {
		return nil, err
	}
	maps.Copy(kept, changed)
	return kept, nil
}

// keepInTransit is the products' inTransitStock after this transaction,
// kept as keepIncoming keeps incomingStock.
func keepInTransit(ctx context.Context, s ports.Store, kept, changes map[int64]int) (map[int64]int, error) {
	kept = maps.Clone(kept)
	if kept == nil {
		kept = map[int64]int{}
	}
	if len(changes) == 0 {
		return kept, nil
	}
	changed := transfer.ApplyInTransit(kept, changes)
	if err := s.Flush(ctx); err != nil {
		return nil, err
	}
	if err := s.Transfers().KeepInTransit(ctx, changed); err != nil {
		return nil, err
	}
	maps.Copy(kept, changed)
	return kept, nil
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
