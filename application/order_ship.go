package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"

	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ShipOrder ships everything an order still has to ship from one warehouse
// (nil: the default warehouse), all or nothing, and queues the status mail
// in the same transaction unless suppressMail is set or the order has no
// address. An order that is already fully shipped is left alone.
func (a *App) ShipOrder(ctx context.Context, ref OrderRef, from *stock.WarehouseSpec, suppressMail bool, user string) error {
	if err := permit(ctx, access.ShipOrders); err != nil {
		return err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CauseOrdersShip})
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		// The order row lock comes first (before the stock load locks
		// products): it serialises concurrent shipments of one order, so the
		// second finds it shipped and clears no stock.
		o, err := ref.load(ctx, s.Orders())
		if err != nil {
			return err
		}
		plan, err := o.PlanFullShipment()
		if err != nil || len(plan) == 0 {
			return err
		}
		spec, err := shipWarehouse(ctx, s, from)
		if err != nil {
			return err
		}
		now := a.clock.Now()
		if err := applyOne(ctx, s, now, order.Shipment{Order: o, From: spec}, stock.Reference{User: user}); err != nil {
			return err
		}
		if err := s.Orders().Save(ctx, o); err != nil {
			return err
		}
		if !o.SendsStatusMail(suppressMail) {
			return nil
		}
		subject, body := order.StatusMail(o)
		return s.Outbox().Enqueue(ctx, ports.Mail{To: o.CustomerEmail(), Subject: subject, Body: body}, now)
	})
}

// shipWarehouse is the location a shipment clears stock from (see
// order.ShipFrom); the default warehouse is looked up only when none is
// given.
func shipWarehouse(ctx context.Context, s ports.Store, from *stock.WarehouseSpec) (stock.LocationSpec, error) {
	var def int64
	if from == nil {
		w, _, err := s.Warehouses().Defaults(ctx)
		if err != nil {
			return stock.LocationSpec{}, err
		}
		if w != nil {
			def = w.ID()
		}
	}
	return order.ShipFrom(from, def)
}
