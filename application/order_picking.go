package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"

	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// PickingList is every reservation of an order, in the order a picker
// walks the bins.
type PickingList struct {
	OrderID int64
	Picks   []order.Pick
}

// ReservePickingList reserves, at one warehouse (nil: the default one),
// what every position of the order still needs, all or nothing, and
// answers with all of the order's reservations.
func (a *App) ReservePickingList(ctx context.Context, ref OrderRef, at *stock.WarehouseSpec) (PickingList, error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return PickingList{}, err
	}
	return a.pickingWrite(ctx, ref, func(ctx context.Context, s ports.Store, o *order.Order) (stock.Operation, error) {
		spec, err := shipWarehouse(ctx, s, at)
		if err != nil {
			return nil, err
		}
		return order.PickingList{Order: o, At: spec}, nil
	})
}

// ReleasePickingList releases every reservation of the order.
func (a *App) ReleasePickingList(ctx context.Context, ref OrderRef) (PickingList, error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return PickingList{}, err
	}
	return a.pickingWrite(ctx, ref, func(ctx context.Context, s ports.Store, o *order.Order) (stock.Operation, error) {
		return order.ReleasePicking{Order: o}, nil
	})
}

// pickingWrite locks the order (before the stock load locks products and
// mappings: the lock order of every order use case), applies the operation
// it makes, and saves both. The answer's bin codes are read after the
// commit: the reservations are the order's as committed, and reading
// their bins inside would hold the products' lock for one more round trip.
func (a *App) pickingWrite(ctx context.Context, ref OrderRef, op func(ctx context.Context, s ports.Store, o *order.Order) (stock.Operation, error)) (PickingList, error) {
	var o *order.Order
	ctx = WithCause(ctx, event.Cause{Type: event.CausePickingList})
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		var err error
		if o, err = ref.load(ctx, s.Orders()); err != nil {
			return err
		}
		operation, err := op(ctx, s, o)
		if err != nil {
			return err
		}
		return applyLast(ctx, s, a.clock.Now(), operation, stock.Reference{}, o)
	})
	if err != nil {
		return PickingList{}, err
	}
	var out PickingList
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		out, err = picks(ctx, s, o)
		return err
	})
	return out, err
}

// PickingListOf shows the order's reservations and changes nothing.
func (a *App) PickingListOf(ctx context.Context, ref OrderRef) (PickingList, error) {
	if err := permit(ctx, access.ReadOrders); err != nil {
		return PickingList{}, err
	}
	var out PickingList
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		o, err := ref.load(ctx, s.Orders())
		if err != nil {
			return err
		}
		out, err = picks(ctx, s, o)
		return err
	})
	return out, err
}

func picks(ctx context.Context, s ports.Store, o *order.Order) (PickingList, error) {
	var bins []int64
	for _, d := range o.Details() {
		for _, h := range d.Reservations() {
			bins = append(bins, h.BinLocationID)
		}
	}
	codes, err := s.BinLocations().Codes(ctx, bins)
	if err != nil {
		return PickingList{}, err
	}
	return PickingList{OrderID: o.ID(), Picks: o.Picks(func(bin int64) string { return codes[bin] })}, nil
}
