package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/event"

	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// tracker is the store a write transaction's use case sees: it passes every
// call on and notes what changed. A new port method that writes what the
// stock figures are made of (mappings, order positions, a product's reorder
// point, a warehouse's stockAvailableForSale) needs its override here, or
// its changes record no event.
type tracker struct {
	ports.Store
	articles     map[int64]bool
	deleted      map[int64]bool
	statusBefore map[int64]order.Status
	ordersSaved  map[int64]*order.Order
	ordersAdded  []int64
	// stockChanges and demandBefore are what the figures' totals change
	// by: what the saved working sets wrote, and what each order demanded
	// when this transaction first read it (none for a new one).
	stockChanges  []stock.WarehouseTotal
	demandBefore  map[int64]map[int64]int
	warehouses    map[int64]*warehouse.Warehouse
	forSaleBefore map[int64]bool
	batch         *event.Cause
	noEvents      bool
	purchases     purchaseTracking
}

func newTracker(s ports.Store) *tracker {
	return &tracker{
		Store: s, articles: map[int64]bool{}, deleted: map[int64]bool{},
		statusBefore: map[int64]order.Status{}, ordersSaved: map[int64]*order.Order{}, demandBefore: map[int64]map[int64]int{},
		warehouses: map[int64]*warehouse.Warehouse{}, forSaleBefore: map[int64]bool{},
		purchases: newPurchaseTracking(),
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

// The stock port must still write mappings through Save: should that
// change, this stops compiling instead of recording no stock events.
var _ interface {
	Save(ctx context.Context, ws *stock.WorkingSet) error
} = ports.StockRepository(nil)

type trackedStock struct {
	ports.StockRepository
	t *tracker
}

func (r trackedStock) Save(ctx context.Context, ws *stock.WorkingSet) error {
	for _, id := range ws.ChangedArticles() {
		r.t.touch(id)
	}
	// Before saving: storage gives the new mappings their ids.
	changes := ws.TotalsChanges()
	for _, c := range changes {
		r.t.touch(c.ArticleDetailID)
	}
	r.t.stockChanges = append(r.t.stockChanges, changes...)
	return r.StockRepository.Save(ctx, ws)
}

type trackedOrders struct {
	ports.OrderRepository
	t *tracker
}

// seen remembers the status and the demand an order had when this
// transaction first read it.
func (r trackedOrders) seen(os ...*order.Order) {
	for _, o := range os {
		if _, ok := r.t.statusBefore[o.ID()]; !ok {
			r.t.statusBefore[o.ID()] = o.Status()
		}
		if _, ok := r.t.demandBefore[o.ID()]; !ok {
			r.t.demandBefore[o.ID()] = o.Demand()
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

func (r trackedOrders) HoldingLotsOf(ctx context.Context, articleDetailID int64) ([]*order.Order, error) {
	os, err := r.OrderRepository.HoldingLotsOf(ctx, articleDetailID)
	if err == nil {
		r.seen(os...)
	}
	return os, err
}

func (r trackedOrders) Add(ctx context.Context, o *order.Order) error {
	err := r.OrderRepository.Add(ctx, o)
	r.t.ordersAdded = append(r.t.ordersAdded, o.ID())
	r.t.ordersSaved[o.ID()] = o
	r.t.demandBefore[o.ID()] = map[int64]int{}
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
		r.t.batch = &event.Cause{Type: event.CauseOfEndpoint(endpoint), IdempotencyKey: key}
	}
	return stored, err
}
