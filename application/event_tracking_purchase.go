package application

import (
	"context"
	"maps"
	"slices"

	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/ports"
)

// purchaseTracking is what a write transaction did to purchase orders:
// what each order brought (Incoming) and its status when the transaction
// first read it, and the orders it saved or deleted. incomingStock changes
// by exactly the difference, so storage only keeps the results.
type purchaseTracking struct {
	incomingBefore map[int64]map[int64]int
	statusBefore   map[int64]purchase.Status
	saved          map[int64]*purchase.Order
	deleted        map[int64]bool
}

func newPurchaseTracking() purchaseTracking {
	return purchaseTracking{incomingBefore: map[int64]map[int64]int{}, statusBefore: map[int64]purchase.Status{},
		saved: map[int64]*purchase.Order{}, deleted: map[int64]bool{}}
}

func (t *tracker) PurchaseOrders() ports.PurchaseOrderRepository {
	return trackedPurchaseOrders{t.Store.PurchaseOrders(), t}
}

type trackedPurchaseOrders struct {
	ports.PurchaseOrderRepository
	t *tracker
}

func (r trackedPurchaseOrders) Get(ctx context.Context, id int64) (*purchase.Order, error) {
	o, err := r.PurchaseOrderRepository.Get(ctx, id)
	if err == nil {
		p := &r.t.purchases
		if _, ok := p.incomingBefore[id]; !ok {
			p.incomingBefore[id], p.statusBefore[id] = o.Incoming(), o.Status()
		}
	}
	return o, err
}

func (r trackedPurchaseOrders) Add(ctx context.Context, o *purchase.Order) error {
	err := r.PurchaseOrderRepository.Add(ctx, o)
	if err == nil {
		r.t.purchases.incomingBefore[o.ID()] = map[int64]int{}
		r.t.purchases.saved[o.ID()] = o
	}
	return err
}

func (r trackedPurchaseOrders) Save(ctx context.Context, o *purchase.Order) error {
	r.t.purchases.saved[o.ID()] = o
	return r.PurchaseOrderRepository.Save(ctx, o)
}

func (r trackedPurchaseOrders) Delete(ctx context.Context, id int64) error {
	r.t.purchases.deleted[id] = true
	delete(r.t.purchases.saved, id)
	return r.PurchaseOrderRepository.Delete(ctx, id)
}

// incomingChanges is what the transaction did to incomingStock, per
// product; it touches the products concerned.
func (t *tracker) incomingChanges() map[int64]int {
	p := &t.purchases
	out := map[int64]int{}
	add := func(id int64, after map[int64]int) {
		for article, d := range purchase.Difference(p.incomingBefore[id], after) {
			out[article] += d
			t.touch(article)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(p.saved)) {
		add(id, p.saved[id].Incoming())
	}
	for _, id := range slices.Sorted(maps.Keys(p.deleted)) {
		add(id, map[int64]int{})
	}
	return out
}

// incoming is the products' incomingStock after this transaction: what
// was kept (read with their snapshots, LockSnapshots), changed by what this
// transaction did; the changed values are kept.
func (t *tracker) incoming(ctx context.Context, kept, changes map[int64]int) (map[int64]int, error) {
	kept = maps.Clone(kept)
	if kept == nil {
		kept = map[int64]int{}
	}
	changed := purchase.ApplyIncoming(kept, changes)
	if err := t.Store.PurchaseOrders().KeepIncoming(ctx, changed); err != nil {
		return nil, err
	}
	maps.Copy(kept, changed)
	return kept, nil
}

// purchaseStatusEvents are the purchaseOrder.statusChanged events of the
// orders whose status changed.
func (t *tracker) purchaseStatusEvents() []ports.NewEvent {
	var events []ports.NewEvent
	for _, id := range slices.Sorted(maps.Keys(t.purchases.saved)) {
		o := t.purchases.saved[id]
		before, ok := t.purchases.statusBefore[id]
		if !ok || before == o.Status() {
			continue
		}
		events = append(events, newEvent(event.PurchaseOrderStatusChanged, purchaseOrderStatusChangedData{
			PurchaseOrderID: o.ID(), Number: o.Number(), Status: string(o.Status()), PreviousStatus: string(before),
		}))
	}
	return events
}

type purchaseOrderStatusChangedData struct {
	PurchaseOrderID int64  `json:"purchaseOrderId"`
	Number          string `json:"number"`
	Status          string `json:"status"`
	PreviousStatus  string `json:"previousStatus"`
}
