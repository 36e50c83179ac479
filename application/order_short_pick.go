package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// OrderShort names a pick of an order's list whose bin holds fewer
// pieces than the list says: the position, the bin and lot of its
// reservation, and how many of them the picker did take.
type OrderShort struct {
	OrderDetailID int64
	BinLocationID int64
	Lot           string
	Picked        int
}

// OrderShortPicked is the order's list after a short pick; of the pieces
// released from the short bin (BinCode), how many were reserved on other
// bins and how many none had; and the count the bin is put up for.
type OrderShortPicked struct {
	List                     PickingList
	BinCode                  string
	Released, Moved, Missing int
	CountID                  int64
}

// ShortPickOrder records that a bin of the order's picking list holds no
// more than was picked there (order.ShortPick): the rest of that pick is
// reserved on the warehouse's other bins, what none holds stays to be
// reserved, and the bin is put up for a count, as a short task of a
// picking wave does. Locks: the order, then its products, then the count.
func (a *App) ShortPickOrder(ctx context.Context, ref OrderRef, short OrderShort) (OrderShortPicked, error) {
	for _, need := range []access.Action{access.ManageOrders, access.WriteStock} {
		if err := permit(ctx, need); err != nil {
			return OrderShortPicked{}, err
		}
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CausePickingList})
	var out OrderShortPicked
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		o, err := ref.load(ctx, s.Orders())
		if err != nil {
			return err
		}
		d, ok := o.Detail(short.OrderDetailID)
		if !ok {
			return errs.NotFoundf("order %s has no position %d", o.Number(), short.OrderDetailID)
		}
		var warehouseID int64
		for _, h := range d.Reservations() {
			if h.BinLocationID == short.BinLocationID && h.Lot == short.Lot {
				warehouseID = h.WarehouseID
			}
		}
		if warehouseID == 0 {
			return errs.Invalidf("position %d of order %s holds nothing on bin location %d", short.OrderDetailID, o.Number(), short.BinLocationID).
				Breaks(order.NothingShort)
		}
		op := &order.ShortPick{Order: o, Warehouse: stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: warehouseID}},
			DetailID: short.OrderDetailID, BinLocationID: short.BinLocationID, Lot: short.Lot, Picked: short.Picked}
		if err := applyOne(ctx, s, a.clock.Now(), op, stock.Reference{}, o); err != nil {
			return err
		}
		if out.CountID, err = a.OpenCountForBin(ctx, s, warehouseID, short.BinLocationID); err != nil {
			return err
		}
		if out.List, err = picks(ctx, s, o); err != nil {
			return err
		}
		codes, err := s.BinLocations().Codes(ctx, []int64{short.BinLocationID})
		out.BinCode, out.Released, out.Missing, out.Moved = codes[short.BinLocationID], op.Released, op.Missing, op.Released-op.Missing
		return err
	})
	return out, err
}
