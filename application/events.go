package application

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
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

// tracker is the store a write transaction's use case sees: it passes every
// call on and notes what changed.
type tracker struct {
	ports.Store
	articles      map[int64]bool
	deleted       map[int64]bool
	statusBefore  map[int64]order.Status
	ordersSaved   map[int64]*order.Order
	ordersAdded   []int64
	warehouses    map[int64]*warehouse.Warehouse
	forSaleBefore map[int64]bool
	batch         *Cause
}

func newTracker(s ports.Store) *tracker {
	return &tracker{
		Store: s, articles: map[int64]bool{}, deleted: map[int64]bool{},
		statusBefore: map[int64]order.Status{}, ordersSaved: map[int64]*order.Order{},
		warehouses: map[int64]*warehouse.Warehouse{}, forSaleBefore: map[int64]bool{},
	}
}

func (t *tracker) ArticleDetails() ports.ArticleDetailRepository {
	return trackedArticles{t.Store.ArticleDetails(), t}
}
func (t *tracker) Stock() ports.StockRepository  { return trackedStock{t.Store.Stock(), t} }
func (t *tracker) Orders() ports.OrderRepository { return trackedOrders{t.Store.Orders(), t} }
func (t *tracker) Warehouses() ports.WarehouseRepository {
	return trackedWarehouses{t.Store.Warehouses(), t}
}
func (t *tracker) Idempotency() ports.IdempotencyStore {
	return trackedIdempotency{t.Store.Idempotency(), t}
}
func (t *tracker) touch(articleDetailIDs ...int64) {
	for _, id := range articleDetailIDs {
		t.articles[id] = true
	}
}

type trackedArticles struct {
	ports.ArticleDetailRepository
	t *tracker
}

func (r trackedArticles) Add(ctx context.Context, a *catalog.ArticleDetail) error {
	err := r.ArticleDetailRepository.Add(ctx, a)
	r.t.touch(a.ID())
	return err
}

func (r trackedArticles) Save(ctx context.Context, a *catalog.ArticleDetail) error {
	r.t.touch(a.ID())
	return r.ArticleDetailRepository.Save(ctx, a)
}

func (r trackedArticles) Delete(ctx context.Context, id int64) error {
	r.t.deleted[id] = true
	return r.ArticleDetailRepository.Delete(ctx, id)
}

type trackedStock struct {
	ports.StockRepository
	t *tracker
}

func (r trackedStock) Apply(ctx context.Context, upserted, removed []*stock.Mapping) error {
	for _, m := range slices.Concat(upserted, removed) {
		r.t.touch(m.ArticleDetailID())
	}
	return r.StockRepository.Apply(ctx, upserted, removed)
}

type trackedOrders struct {
	ports.OrderRepository
	t *tracker
}

// seen remembers the status an order had when this transaction first read it.
func (r trackedOrders) seen(os ...*order.Order) {
	for _, o := range os {
		if _, ok := r.t.statusBefore[o.ID()]; !ok {
			r.t.statusBefore[o.ID()] = o.Status()
		}
	}
}

func (r trackedOrders) Get(ctx context.Context, id int64) (*order.Order, error) {
	o, err := r.OrderRepository.Get(ctx, id)
	if err == nil {
		r.seen(o)
	}
	return o, err
}

func (r trackedOrders) GetByNumber(ctx context.Context, number string) (*order.Order, error) {
	o, err := r.OrderRepository.GetByNumber(ctx, number)
	if err == nil {
		r.seen(o)
	}
	return o, err
}

func (r trackedOrders) ByDetailIDs(ctx context.Context, detailIDs []int64) ([]*order.Order, error) {
	os, err := r.OrderRepository.ByDetailIDs(ctx, detailIDs)
	if err == nil {
		r.seen(os...)
	}
	return os, err
}

func (r trackedOrders) Add(ctx context.Context, o *order.Order) error {
	err := r.OrderRepository.Add(ctx, o)
	r.t.ordersAdded = append(r.t.ordersAdded, o.ID())
	for _, d := range o.Details() {
		r.t.touch(d.ArticleDetailID())
	}
	return err
}

func (r trackedOrders) Save(ctx context.Context, os ...*order.Order) error {
	for _, o := range os {
		r.t.ordersSaved[o.ID()] = o
		for _, d := range o.Details() {
			r.t.touch(d.ArticleDetailID())
		}
	}
	return r.OrderRepository.Save(ctx, os...)
}

type trackedWarehouses struct {
	ports.WarehouseRepository
	t *tracker
}

func (r trackedWarehouses) Get(ctx context.Context, id int64) (*warehouse.Warehouse, error) {
	w, err := r.WarehouseRepository.Get(ctx, id)
	if _, ok := r.t.forSaleBefore[id]; err == nil && !ok {
		r.t.forSaleBefore[id] = w.Details().StockAvailableForSale
	}
	return w, err
}

func (r trackedWarehouses) Save(ctx context.Context, w *warehouse.Warehouse) error {
	r.t.warehouses[w.ID()] = w
	return r.WarehouseRepository.Save(ctx, w)
}

type trackedIdempotency struct {
	ports.IdempotencyStore
	t *tracker
}

// Claim notes the batch: its endpoint and key are the cause of its changes.
func (r trackedIdempotency) Claim(ctx context.Context, key, endpoint, fingerprint string, at time.Time) (*ports.StoredBatch, error) {
	stored, err := r.IdempotencyStore.Claim(ctx, key, endpoint, fingerprint, at)
	if err == nil && stored == nil {
		r.t.batch = &Cause{Type: endpoint, IdempotencyKey: key}
	}
	return stored, err
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
	if c.OrderID == 0 && strings.HasPrefix(c.Type, "orders/") {
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
	snapshots, articles, err := t.Events().LockSnapshots(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	figures, err := articleFigures(ctx, t.Store, articles)
	if err != nil {
		return nil, nil, err
	}
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
	var b strings.Builder
	fmt.Fprintf(&b, "%d,%d,%d,%d|", f.PhysicalStock, f.PhysicalStockForSale, f.ReservedStock, f.AvailableStock)
	ws := slices.Clone(f.WarehouseStocks)
	slices.SortFunc(ws, func(a, b ports.WarehouseStock) int { return cmp.Compare(a.WarehouseID, b.WarehouseID) })
	for _, w := range ws {
		if w.Stock != 0 || w.ReservedStock != 0 {
			fmt.Fprintf(&b, "%d:%d:%d;", w.WarehouseID, w.Stock, w.ReservedStock)
		}
	}
	return b.String()
}

func nullIfZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

func newEvent(typ string, data any) ports.NewEvent {
	raw, err := json.Marshal(data)
	if err != nil {
		panic(fmt.Sprintf("event %s: %v", typ, err)) // plain structs always marshal
	}
	return ports.NewEvent{Type: typ, Data: raw}
}

// ArticleDetailData is an article detail as GET /api/articleDetails/{id}
// shows it; stock.changed carries it.
type ArticleDetailData struct {
	ID                   int64                `json:"id"`
	Number               string               `json:"number"`
	Name                 string               `json:"name"`
	ReorderPoint         int                  `json:"reorderPoint"`
	PhysicalStock        int                  `json:"physicalStock"`
	PhysicalStockForSale int                  `json:"physicalStockForSale"`
	ReservedStock        int                  `json:"reservedStock"`
	AvailableStock       int                  `json:"availableStock"`
	WarehouseStocks      []WarehouseStockData `json:"warehouseStocks"`
}

// WarehouseStockData is a product's stock in one warehouse.
type WarehouseStockData struct {
	WarehouseID   int64  `json:"warehouseId"`
	WarehouseCode string `json:"warehouseCode"`
	Stock         int    `json:"stock"`
	ReservedStock int    `json:"reservedStock"`
}

// ArticleDetailDataOf renders a product with its figures.
func ArticleDetailDataOf(v ArticleStock) ArticleDetailData {
	out := ArticleDetailData{
		ID: v.Article.ID(), Number: v.Article.Number(), Name: v.Article.Name(), ReorderPoint: v.Article.ReorderPoint(),
		PhysicalStock: v.PhysicalStock, PhysicalStockForSale: v.PhysicalStockForSale, ReservedStock: v.ReservedStock,
		AvailableStock: v.AvailableStock, WarehouseStocks: make([]WarehouseStockData, len(v.WarehouseStocks)),
	}
	for i, ws := range v.WarehouseStocks {
		out.WarehouseStocks[i] = WarehouseStockData{WarehouseID: ws.WarehouseID, WarehouseCode: ws.WarehouseCode, Stock: ws.Stock, ReservedStock: ws.ReservedStock}
	}
	return out
}

type stockChangedData struct {
	ArticleDetailData
	Cause causeData `json:"cause"`
}

type causeData struct {
	Type           string  `json:"type"`
	IdempotencyKey *string `json:"idempotencyKey"`
	OrderID        *int64  `json:"orderId"`
}

type stockLowData struct {
	ArticleDetailID     int64  `json:"articleDetailId"`
	ArticleDetailNumber string `json:"articleDetailNumber"`
	AvailableStock      int    `json:"availableStock"`
	ReorderPoint        int    `json:"reorderPoint"`
}

type orderStatusChangedData struct {
	OrderID        int64  `json:"orderId"`
	Number         string `json:"number"`
	Status         string `json:"status"`
	PreviousStatus string `json:"previousStatus"`
}
