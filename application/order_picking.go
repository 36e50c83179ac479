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
//
// Concurrent calls in this process reserve together, as shipments do
// (ShipOrder): one transaction for the calls that arrived while the one
// before it ran, each order still all or nothing and with its own answer.
func (a *App) ReservePickingList(ctx context.Context, ref OrderRef, at *stock.WarehouseSpec) (PickingList, error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return PickingList{}, err
	}
	var o *order.Order
	if err := a.reserving.do(orderRequest{ctx: ctx, ref: ref, at: at, saved: &o}); err != nil {
		return PickingList{}, err
	}
	return a.picksOf(ctx, o)
}

// ReleasePickingList releases every reservation of the order.
func (a *App) ReleasePickingList(ctx context.Context, ref OrderRef) (PickingList, error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return PickingList{}, err
	}
	var o *order.Order
	if err := a.alone(releaseUseCase, orderRequest{ctx: ctx, ref: ref, saved: &o}); err != nil {
		return PickingList{}, err
	}
	return a.picksOf(ctx, o)
}

// reserveUseCase reserves what the order's positions still need.
var reserveUseCase = orderUseCase{
	cause: event.CausePickingList,
	op: func(o *order.Order, at func() (stock.LocationSpec, error)) (stock.Operation, error) {
		spec, err := at()
		if err != nil {
			return nil, err
		}
		return order.PickingList{Order: o, At: spec}, nil
	},
}

// releaseUseCase releases the order's reservations.
var releaseUseCase = orderUseCase{
	cause: event.CausePickingList,
	op: func(o *order.Order, _ func() (stock.LocationSpec, error)) (stock.Operation, error) {
		return order.ReleasePicking{Order: o}, nil
	},
}

func (a *App) newReserving() *combiner[orderRequest] {
	return newCombiner(maxOrderGroup,
		func(reqs []orderRequest) []verdict { return a.group(reserveUseCase, reqs) },
		func(r orderRequest) error { return a.alone(reserveUseCase, r) })
}

// picksOf answers with the order's reservations as its transaction saved
// them. The bin codes are read after the commit: reading them inside
// would hold the products' lock for one more round trip.
func (a *App) picksOf(ctx context.Context, o *order.Order) (PickingList, error) {
	var out PickingList
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		var err error
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
