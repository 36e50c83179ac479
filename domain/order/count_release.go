package order

import (
	"cmp"
	"slices"

	"github.com/shopstock/inventory/domain/stock"
)

// Released is what a count took from one position's reservation on one
// bin: the books showed pieces there that were not found.
type Released struct {
	OrderID       int64
	OrderDetailID int64
	BinLocationID int64
	Quantity      int
}

// HeldOn is what the order's positions hold of article (of lot, "" for a
// product that is not lot-tracked) on a bin.
func (o *Order) HeldOn(article, bin int64, lot string) int {
	n := 0
	for _, d := range o.details {
		if d.articleDetailID != article {
			continue
		}
		for _, h := range d.reservations {
			if h.BinLocationID == bin && h.Lot == lot {
				n += h.Quantity
			}
		}
	}
	return n
}

// ReleaseOnBin releases quantity reserved pieces of article (of lot) on a
// bin from the holders' positions, orders with the highest id first and,
// within an order, its last positions first: their picks shrink or
// disappear. The holders must hold that much there (HeldOn); it tells what
// it released from whom, and which orders changed.
func ReleaseOnBin(ws *stock.WorkingSet, holders []*Order, article int64, at stock.Location, lot string, quantity int) ([]Released, []*Order, error) {
	ordered := slices.Clone(holders)
	slices.SortFunc(ordered, func(a, b *Order) int { return cmp.Compare(b.id, a.id) })
	var released []Released
	var changed []*Order
	for _, o := range ordered {
		if quantity == 0 {
			break
		}
		before := len(released)
		for i := len(o.details) - 1; i >= 0 && quantity > 0; i-- {
			d := o.details[i]
			if d.articleDetailID != article {
				continue
			}
			for j := len(d.reservations) - 1; j >= 0 && quantity > 0; j-- {
				h := &d.reservations[j]
				if h.BinLocationID != at.BinLocationID || h.Lot != lot {
					continue
				}
				n := min(quantity, h.Quantity)
				if err := ws.Release(article, stock.Hold{WarehouseID: h.WarehouseID, BinLocationID: h.BinLocationID, Quantity: n, Lot: h.Lot}); err != nil {
					return nil, nil, err
				}
				h.Quantity -= n
				quantity -= n
				released = append(released, Released{OrderID: o.id, OrderDetailID: d.id, BinLocationID: h.BinLocationID, Quantity: n})
			}
			d.reservations = slices.DeleteFunc(d.reservations, func(h stock.Hold) bool { return h.Quantity == 0 })
		}
		if len(released) > before {
			changed = append(changed, o)
		}
	}
	return released, changed, nil
}
