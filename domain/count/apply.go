package count

import (
	"errors"

	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

// ErrHoldersChanged: a mapping holds more reserved pieces than the holders
// given carry there, so the orders to release from were read before
// another reservation came; the caller reads them again and retries.
var ErrHoldersChanged = errors.New("count: the reservations on a counted bin changed while the count was applied")

// Applying applies an Open count: for every counted bin and product (and
// lot), the books move by the difference counted − snapshot, on top of
// whatever moved since (a shipment that left the bin during the count is
// neither undone nor counted twice); no entry where the difference is 0,
// and never below 0. Where the result falls below what is reserved there,
// the holders' reservations are released down to it, orders with the
// highest id first. Bins not counted are left alone. The count becomes
// Applied, once.
//
// Holders are the orders that hold reservations on the count's bins
// (locked before the products, as for every shipment). Run leaves what it
// released in Released and the orders it changed in Changed.
type Applying struct {
	Count    *Count
	Holders  []*order.Order
	Released []order.Released
	Changed  []*order.Order
}

func binSpec(id int64) stock.LocationSpec {
	return stock.LocationSpec{BinLocation: &stock.BinLocationSpec{ID: id}}
}

func (a *Applying) Declare(sc *stock.Scope) {
	for _, d := range a.Count.Differences() {
		sc.Add(d.ArticleDetailID, binSpec(d.BinLocationID))
	}
}

func (a *Applying) Run(ws *stock.WorkingSet, ref stock.Reference) error {
	c := a.Count
	if err := c.open("applied"); err != nil {
		return err
	}
	ref.CountID = c.id
	a.Released, a.Changed = nil, nil
	changed := map[*order.Order]bool{}
	for _, d := range c.Differences() {
		at, err := ws.Locate(d.ArticleDetailID, binSpec(d.BinLocationID))
		if err != nil {
			return err
		}
		lot := ""
		if d.Lot != nil {
			lot = d.Lot.Number
		}
		have, reserved, err := ws.On(d.ArticleDetailID, at, lot)
		if err != nil {
			return err
		}
		if result := max(0, have+d.Delta); result < reserved {
			held := 0
			for _, o := range a.Holders {
				held += o.HeldOn(d.ArticleDetailID, d.BinLocationID, lot)
			}
			if held < reserved {
				return ErrHoldersChanged
			}
			released, orders, err := order.ReleaseOnBin(ws, a.Holders, d.ArticleDetailID, at, lot, reserved-result)
			if err != nil {
				return err
			}
			a.Released = append(a.Released, released...)
			for _, o := range orders {
				if !changed[o] {
					changed[o] = true
					a.Changed = append(a.Changed, o)
				}
			}
		}
		if _, err := ws.Recount(d.ArticleDetailID, at, d.Lot, d.Delta, ref); err != nil {
			return err
		}
	}
	c.status = Applied
	return nil
}
