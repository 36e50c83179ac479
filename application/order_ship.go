package application

import (
	"context"
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
// them in one transaction (App.together), each order still all or nothing
// and with its own result. A call that meets no other is a group of one.
func (a *App) ShipOrder(ctx context.Context, ref OrderRef, from *stock.WarehouseSpec, suppressMail bool, user string) error {
	if err := permit(ctx, access.ShipOrders); err != nil {
		return err
	}
	return a.shipping.do(orderRequest{ctx: ctx, ref: ref, at: from, suppressMail: suppressMail, user: user})
}

// shipUseCase clears what an order still has to ship and queues its status
// mail.
var shipUseCase = orderUseCase{
	cause: event.CauseOrdersShip,
	op: func(o *order.Order, from func() (stock.LocationSpec, error)) (stock.Operation, error) {
		plan, err := o.PlanFullShipment()
		if err != nil || len(plan) == 0 {
			return nil, err
		}
		spec, err := from()
		if err != nil {
			return nil, err
		}
		return order.Shipment{Order: o, From: spec}, nil
	},
	after: func(ctx context.Context, s ports.Store, r orderRequest, o *order.Order, now time.Time) error {
		return queueStatusMail(ctx, s, o, r.suppressMail, now)
	},
}

func (a *App) newShipping() *combiner[orderRequest] {
	return newCombiner(maxOrderGroup, a.shipGroup, a.shipAlone)
}

// shipAlone ships one request: a group of its own.
func (a *App) shipAlone(r orderRequest) error { return a.alone(shipUseCase, r) }

// shipGroup ships a group of requests in one transaction.
func (a *App) shipGroup(reqs []orderRequest) []verdict { return a.group(shipUseCase, reqs) }

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
