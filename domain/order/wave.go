package order

import (
	"slices"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// ReleaseHeld gives back up to n of the pieces a position holds on a bin
// (of a lot, "" for a product that is not lot-tracked): a picker found
// them missing. What the position no longer holds there (its order was
// cancelled or its picking list released since) is not released twice.
func (o *Order) ReleaseHeld(ws *stock.WorkingSet, detailID, bin int64, lot string, n int) error {
	d, ok := o.Detail(detailID)
	if !ok {
		return errs.E(errs.Internal, "order %d has no position %d", o.id, detailID)
	}
	i := slices.IndexFunc(d.reservations, func(h stock.Hold) bool { return h.BinLocationID == bin && h.Lot == lot })
	if i < 0 || n <= 0 {
		return nil
	}
	h := d.reservations[i]
	n = min(n, h.Quantity)
	if err := ws.Release(d.articleDetailID, stock.Hold{WarehouseID: h.WarehouseID, BinLocationID: bin, Quantity: n, Lot: lot}); err != nil {
		return err
	}
	d.reservations[i].Quantity -= n
	if d.reservations[i].Quantity == 0 {
		d.reservations = slices.Delete(d.reservations, i, i+1)
	}
	return nil
}

// ReserveElsewhere reserves for a position up to n more pieces in a
// warehouse, on any bin but except, never more than it still has to ship
// beyond what it holds, and returns the holds it made and how many of
// those it needed no bin had (none for a position shipped or cancelled
// since).
func (o *Order) ReserveElsewhere(ws *stock.WorkingSet, detailID int64, warehouse stock.Location, except int64, n int) (holds []stock.Hold, missing int, err error) {
	d, ok := o.Detail(detailID)
	if !ok {
		return nil, 0, errs.E(errs.Internal, "order %d has no position %d", o.id, detailID)
	}
	n = min(n, o.Outstanding(d)-d.Reserved())
	if n <= 0 {
		return nil, 0, nil
	}
	holds, err = ws.ReserveUpTo(d.articleDetailID, warehouse, except, n)
	if err != nil {
		return nil, 0, err
	}
	d.hold(holds)
	for _, h := range holds {
		n -= h.Quantity
	}
	return holds, n, nil
}
