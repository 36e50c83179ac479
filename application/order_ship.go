package application

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ShipOrder ships everything an order still has to ship from one warehouse
// (nil: the default warehouse), all or nothing, and queues the status mail
// in the same transaction unless suppressMail is set or the order has no
// address. An order that is already fully shipped is left alone.
//
// Concurrent calls in this process ship together: the calls that arrive
// while one group's transaction runs make the next group, which ships
// them in one transaction (shipGroup), each order still all or nothing and
// with its own result. A call that meets no other is a group of one.
func (a *App) ShipOrder(ctx context.Context, ref OrderRef, from *stock.WarehouseSpec, suppressMail bool, user string) error {
	if err := permit(ctx, access.ShipOrders); err != nil {
		return err
	}
	return a.shipping.do(shipRequest{ctx: ctx, ref: ref, from: from, suppressMail: suppressMail, user: user})
}

// shipRequest is one call of ShipOrder, permitted, waiting to ship.
type shipRequest struct {
	ctx          context.Context
	ref          OrderRef
	from         *stock.WarehouseSpec
	suppressMail bool
	user         string
}

// maxShipGroup is the most orders one shipping transaction ships.
const maxShipGroup = 100

func (a *App) newShipping() *combiner[shipRequest] {
	return newCombiner(maxShipGroup, a.shipGroup, a.shipAlone)
}

// shipAlone ships one request: a group of its own.
func (a *App) shipAlone(r shipRequest) error {
	return a.shipGroup([]shipRequest{r})[0].err
}

// shipGroup ships a group of requests in one transaction (shipTogether).
// When the transaction fails as a whole (a storage error, retries used
// up), every request of a larger group runs alone instead, so that
// whatever broke it fails only the request it belongs to; a group of one
// gets the error.
func (a *App) shipGroup(reqs []shipRequest) []verdict {
	verdicts := make([]verdict, len(reqs))
	// The group runs on behalf of all its members: the leader's request
	// ending does not end it (shipTogether answers a member whose caller
	// has gone before it starts).
	ctx := WithCause(context.WithoutCancel(reqs[0].ctx), event.Cause{Type: event.CauseOrdersShip})
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		clear(verdicts)
		return a.shipTogether(ctx, s, reqs, verdicts)
	})
	switch {
	case err != nil && len(reqs) == 1:
		verdicts[0] = verdict{err: err}
	case err != nil:
		for i := range verdicts {
			verdicts[i] = verdict{alone: true}
		}
	}
	return verdicts
}

// shipTogether is the group's transaction: one lock of their orders (in
// id order, the lock order of every writer; it serialises concurrent
// shipments of one order, so the second finds it shipped and clears no
// stock), one working set for all their products (one product lock), one
// save and one commit. Each order's shipment is applied alone (WorkingSet.Apply takes a
// failing one back), so a request that fails gets its own error and
// changes nothing, and the others ship. It sets each request's verdict; an
// error fails the whole group.
//
// Two requests may name the same order: the later one runs alone after
// the group (and finds the order shipped, as it would have after the
// earlier one's commit). A request whose order does not exist gets the
// answer a missing order gets.
func (a *App) shipTogether(ctx context.Context, s ports.Store, reqs []shipRequest, verdicts []verdict) error {
	var ids []int64
	var numbers []string
	for i, r := range reqs {
		if err := r.ctx.Err(); err != nil {
			// Its caller has gone: it is answered and ships nothing.
			verdicts[i].err = err
			continue
		}
		switch {
		case r.ref.Number != "":
			numbers = append(numbers, r.ref.Number)
		default:
			ids = append(ids, r.ref.ID)
		}
	}
	orders, err := s.Orders().GetMany(ctx, ids, numbers)
	if err != nil {
		return err
	}
	byID := make(map[int64]*order.Order, len(orders))
	byNumber := make(map[string]*order.Order, len(orders))
	for _, o := range orders {
		byID[o.ID()], byNumber[o.Number()] = o, o
	}

	// Each request's shipment, in the order the requests came.
	type shipping struct {
		req      int
		shipment order.Shipment
	}
	var shipments []shipping
	taken := map[int64]bool{}
	var def int64
	lookedUp := false
	for i, r := range reqs {
		if verdicts[i].err != nil {
			continue
		}
		o := byID[r.ref.ID]
		if r.ref.Number != "" {
			o = byNumber[r.ref.Number]
		}
		if o == nil {
			if verdicts[i].err, err = missing(ctx, s, r.ref); err != nil {
				return err
			}
			verdicts[i].alone = verdicts[i].err == nil
			continue
		}
		if taken[o.ID()] {
			verdicts[i].alone = true
			continue
		}
		taken[o.ID()] = true
		plan, err := o.PlanFullShipment()
		if err != nil || len(plan) == 0 {
			verdicts[i].err = err
			continue
		}
		if r.from == nil && !lookedUp {
			if def, err = defaultWarehouse(ctx, s); err != nil {
				return err
			}
			lookedUp = true
		}
		spec, err := order.ShipFrom(r.from, def)
		if err != nil {
			verdicts[i].err = err
			continue
		}
		shipments = append(shipments, shipping{req: i, shipment: order.Shipment{Order: o, From: spec}})
	}
	if len(shipments) == 0 {
		return nil
	}

	ops := make([]stock.Operation, len(shipments))
	for i, sh := range shipments {
		ops[i] = sh.shipment
	}
	now := a.clock.Now()
	ws, err := s.Stock().Load(ctx, stock.ScopeOf(ops...), now)
	if err != nil {
		return err
	}
	var shipped []*order.Order
	for _, sh := range shipments {
		if err := ws.Apply(sh.shipment, stock.Reference{User: reqs[sh.req].user}); err != nil {
			verdicts[sh.req].err = err
			continue
		}
		shipped = append(shipped, sh.shipment.Order)
	}
	if len(shipped) == 0 {
		return nil
	}
	slices.SortFunc(shipped, func(x, y *order.Order) int { return cmp.Compare(x.ID(), y.ID()) })
	return s.Last(ctx, func() error {
		if err := s.Stock().Save(ctx, ws); err != nil {
			return err
		}
		if err := s.Orders().Save(ctx, shipped...); err != nil {
			return err
		}
		for _, sh := range shipments {
			if verdicts[sh.req].err == nil {
				if err := queueStatusMail(ctx, s, sh.shipment.Order, reqs[sh.req].suppressMail, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// queueStatusMail queues the status mail of a shipped order, unless it is
// suppressed or the order has no address.
func queueStatusMail(ctx context.Context, s ports.Store, o *order.Order, suppressed bool, now time.Time) error {
	if !o.SendsStatusMail(suppressed) {
		return nil
	}
	subject, body := order.StatusMail(o)
	return s.Outbox().Enqueue(ctx, ports.Mail{To: o.CustomerEmail(), Subject: subject, Body: body}, now)
}

// missing is the answer to a request whose order the group's lock did not
// find: the order's own not-found error, or nil when it has appeared
// since (the request then runs alone).
func missing(ctx context.Context, s ports.Store, ref OrderRef) (answer, err error) {
	_, err = ref.load(ctx, s.Orders())
	if e, ok := errs.As(err); ok && e.Kind == errs.NotFound {
		return err, nil
	}
	return nil, err
}

// shipWarehouse is the location a shipment clears stock from (see
// order.ShipFrom); the default warehouse is looked up only when none is
// given.
func shipWarehouse(ctx context.Context, s ports.Store, from *stock.WarehouseSpec) (stock.LocationSpec, error) {
	var def int64
	if from == nil {
		var err error
		if def, err = defaultWarehouse(ctx, s); err != nil {
			return stock.LocationSpec{}, err
		}
	}
	return order.ShipFrom(from, def)
}

// defaultWarehouse is the id of the default warehouse, 0 when there is none.
func defaultWarehouse(ctx context.Context, s ports.Store) (int64, error) {
	w, _, err := s.Warehouses().Defaults(ctx)
	if err != nil || w == nil {
		return 0, err
	}
	return w.ID(), nil
}
