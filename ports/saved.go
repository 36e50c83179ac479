package ports

import (
	"maps"
	"slices"

	"github.com/shopstock/inventory/domain/catalog"

	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/domain/warehouse"
)

// Saved is what the repositories of one write transaction wrote, as the
// aggregates they were handed. Each aggregate remembers what it was
// loaded with and hands out what changed (the working set's TotalsChanges,
// an order's Changes, …); the application's commit step derives from them
// the kept totals, the figures' snapshots and the events, for every use
// case alike. So every repository method that writes stock, an order, a
// purchase order, a product or a warehouse notes it here, and nothing
// else writes to it.
type Saved struct {
	// Stock is what the saved working sets changed of the products'
	// stock per warehouse (stock.WorkingSet.TotalsChanges, taken as each
	// was saved), and StockArticles the products whose mappings they wrote.
	Stock         []stock.WarehouseTotal
	StockArticles []int64
	// Orders are the orders added or saved, each once.
	Orders []*order.Order
	// PurchaseOrders are the purchase orders added, saved or deleted, each
	// once.
	PurchaseOrders []*purchase.Order
	// Articles are the products added or saved; DeletedArticles those
	// deleted.
	Articles        []int64
	DeletedArticles []int64
	// Warehouses are the warehouses saved, each once.
	Warehouses []*warehouse.Warehouse
	// Figures are figures' rows that Stock().Load locked and read along
	// with the products it locked, where the store can do that in the
	// same round trip (nil where it does not): the commit step locks and
	// reads only what is missing here. They stay true until the commit,
	// because only the commit step writes them, under that lock.
	Figures *LockedSnapshots
	// Transfers are the transfers added or saved, each once.
	Transfers []*transfer.Transfer
}

// Transfer notes a transfer added or saved.
func (s *Saved) Transfer(t *transfer.Transfer) {
	if !slices.Contains(s.Transfers, t) {
		s.Transfers = append(s.Transfers, t)
	}
}

// WorkingSet notes a working set about to be written: what it changed is
// taken now, before storage gives its new mappings their ids.
func (s *Saved) WorkingSet(ws *stock.WorkingSet) {
	s.StockArticles = append(s.StockArticles, ws.ChangedArticles()...)
	s.Stock = append(s.Stock, ws.TotalsChanges()...)
}

// Order notes orders added or saved.
func (s *Saved) Order(os ...*order.Order) {
	for _, o := range os {
		if !slices.Contains(s.Orders, o) {
			s.Orders = append(s.Orders, o)
		}
	}
}

// PurchaseOrder notes a purchase order added, saved or deleted.
func (s *Saved) PurchaseOrder(o *purchase.Order) {
	if !slices.Contains(s.PurchaseOrders, o) {
		s.PurchaseOrders = append(s.PurchaseOrders, o)
	}
}

// Article notes a product added or saved.
func (s *Saved) Article(id int64) { s.Articles = append(s.Articles, id) }

// ArticleDeleted notes a product deleted.
func (s *Saved) ArticleDeleted(id int64) { s.DeletedArticles = append(s.DeletedArticles, id) }

// Warehouse notes a warehouse saved.
func (s *Saved) Warehouse(w *warehouse.Warehouse) {
	if !slices.Contains(s.Warehouses, w) {
		s.Warehouses = append(s.Warehouses, w)
	}
}

// LockedFigures notes figures' rows locked and read along with a stock
// load; a later read of the same product replaces the earlier one.
func (s *Saved) LockedFigures(l LockedSnapshots) {
	if s.Figures == nil {
		s.Figures = &LockedSnapshots{Snapshots: map[int64]StockSnapshot{}, Stock: map[int64][]stock.WarehouseStock{},
			Outstanding: map[int64]int{}, Warehouses: map[int64]stock.WarehouseStock{}, Incoming: map[int64]int{}, InTransit: map[int64]int{}}
	}
	f := s.Figures
	for _, a := range l.Articles {
		id := a.ID()
		f.Articles = slices.DeleteFunc(f.Articles, func(b *catalog.ArticleDetail) bool { return b.ID() == id })
		f.Articles = append(f.Articles, a)
		f.Snapshots[id] = l.Snapshots[id]
		delete(f.Stock, id)
		delete(f.Outstanding, id)
		delete(f.Incoming, id)
		delete(f.InTransit, id)
	}
	maps.Copy(f.Stock, l.Stock)
	maps.Copy(f.Outstanding, l.Outstanding)
	maps.Copy(f.Incoming, l.Incoming)
	maps.Copy(f.InTransit, l.InTransit)
	maps.Copy(f.Warehouses, l.Warehouses)
}
