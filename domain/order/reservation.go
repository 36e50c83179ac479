package order

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// restore puts the stored returns and reservations on the positions and
// checks the rules that tie them to the quantities.
func (o *Order) restore(records []DetailRecord) error {
	for i, r := range records {
		d := o.details[i]
		if r.Returned < 0 || r.Returned > d.shipped {
			return fmt.Errorf("order detail %d has %d returned of %d shipped", d.id, r.Returned, d.shipped)
		}
		d.returned = r.Returned
		for _, h := range r.Reservations {
			if h.Quantity <= 0 || h.WarehouseID <= 0 || h.BinLocationID <= 0 {
				return fmt.Errorf("order detail %d has an invalid reservation %+v", d.id, h)
			}
		}
		d.reservations = slices.Clone(r.Reservations)
		if d.Reserved() > o.Outstanding(d) {
			return fmt.Errorf("order detail %d reserves %d but has %d to ship", d.id, d.Reserved(), o.Outstanding(d))
		}
	}
	return nil
}

// declareHolds adds the bins of every reservation of the order to a scope:
// whatever changes a position may have to release or ship them.
func (o *Order) declareHolds(sc *stock.Scope) {
	for _, d := range o.details {
		for _, h := range d.reservations {
			sc.Add(d.articleDetailID, h.Spec())
		}
	}
}

// trim releases reservations until no position holds more than it still
// has to ship (nothing, once it or the order is cancelled or shipped). The
// reservations made last go first.
func (o *Order) trim(ws *stock.WorkingSet) error {
	for _, d := range o.details {
		excess := d.Reserved() - o.Outstanding(d)
		for i := len(d.reservations) - 1; i >= 0 && excess > 0; i-- {
			h := &d.reservations[i]
			n := min(excess, h.Quantity)
			if err := ws.Release(d.articleDetailID, stock.Hold{WarehouseID: h.WarehouseID, BinLocationID: h.BinLocationID, Quantity: n, Lot: h.Lot}); err != nil {
				return err
			}
			h.Quantity -= n
			excess -= n
		}
		d.reservations = slices.DeleteFunc(d.reservations, func(h stock.Hold) bool { return h.Quantity == 0 })
	}
	return nil
}

// keepHolds remembers every position's reservations; calling the result
// puts them back, for an operation that fails after changing some.
func (o *Order) keepHolds() func() {
	kept := make([][]stock.Hold, len(o.details))
	for i, d := range o.details {
		kept[i] = slices.Clone(d.reservations)
	}
	return func() {
		for i, d := range o.details {
			d.reservations = kept[i]
		}
	}
}

// hold adds holds to a position, one per bin and lot.
func (d *Detail) hold(holds []stock.Hold) {
	for _, h := range holds {
		i := slices.IndexFunc(d.reservations, func(x stock.Hold) bool { return x.BinLocationID == h.BinLocationID && x.Lot == h.Lot })
		if i >= 0 {
			d.reservations[i].Quantity += h.Quantity
		} else {
			d.reservations = append(d.reservations, h)
		}
	}
}

// PickingList reserves, for every position that is not cancelled, what it
// still needs (what it has to ship less what it already holds) at one
// location, by the stock-out strategy. All or nothing: when any position
// falls short, it fails with one error naming every shortfall. An Open
// order that then holds stock becomes In process.
type PickingList struct {
	Order *Order
	At    stock.LocationSpec
}

// needs is what each position still has to reserve.
func (o *Order) needs() map[*Detail]int {
	out := map[*Detail]int{}
	for _, d := range o.details {
		if n := o.Outstanding(d) - d.Reserved(); n > 0 {
			out[d] = n
		}
	}
	return out
}

func (p PickingList) Declare(sc *stock.Scope) {
	sc.AddLocation(p.At)
	for d := range p.Order.needs() {
		sc.Add(d.articleDetailID, p.At)
	}
}

func (p PickingList) Run(ws *stock.WorkingSet, _ stock.Reference) error {
	o := p.Order
	if o.status == StatusCancelled {
		return errs.Invalidf("order %s is cancelled: there is nothing to pick", o.number).Breaks(CancelledOrder)
	}
	if _, err := ws.Resolve(p.At); err != nil {
		return err
	}
	needs := o.needs()
	made := map[*Detail][]stock.Hold{}
	var shortfalls []string
	var fields []errs.FieldError
	for _, d := range o.details {
		n := needs[d]
		if n == 0 {
			continue
		}
		at, err := ws.Locate(d.articleDetailID, p.At)
		var holds []stock.Hold
		if err == nil {
			holds, err = ws.Reserve(d.articleDetailID, at, n)
		}
		if err != nil {
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.Invalid {
				return err
			}
			shortfalls = append(shortfalls, fmt.Sprintf("order detail %d: %s", d.id, e.Message))
			fields = append(fields, errs.FieldError{Property: o.detailProperty(d.id), Message: e.Message})
			continue
		}
		made[d] = holds
	}
	if len(shortfalls) > 0 {
		e := errs.Invalidf("order %s cannot be reserved, nothing was reserved: %s", o.number, strings.Join(shortfalls, "; ")).
			Breaks(NotReservable)
		e.Fields = fields
		return e
	}
	for d, holds := range made {
		d.hold(holds)
	}
	if o.status == StatusOpen && o.reserves() {
		o.status = StatusInProcess
	}
	return nil
}

// reserves tells whether any position holds stock.
func (o *Order) reserves() bool {
	for _, d := range o.details {
		if len(d.reservations) > 0 {
			return true
		}
	}
	return false
}

// ReleasePicking releases every reservation of the order.
type ReleasePicking struct{ Order *Order }

func (r ReleasePicking) Declare(sc *stock.Scope) { r.Order.declareHolds(sc) }

func (r ReleasePicking) Run(ws *stock.WorkingSet, _ stock.Reference) error {
	for _, d := range r.Order.details {
		for _, h := range d.reservations {
			if err := ws.Release(d.articleDetailID, h); err != nil {
				return err
			}
		}
	}
	for _, d := range r.Order.details {
		d.reservations = nil
	}
	return nil
}

// Pick is one line of a picking list: a position's reservation on a bin.
type Pick struct {
	OrderDetailID   int64
	ArticleDetailID int64
	WarehouseID     int64
	BinLocationID   int64
	BinLocationCode string
	Quantity        int
	// LotNumber is the lot picked, "" for a product that is not
	// lot-tracked.
	LotNumber string
}

// Picks are the order's reservations in the order a picker walks: by bin
// code (byte order), then by position, then lot as reserved. binCode names
// the bins.
func (o *Order) Picks(binCode func(bin int64) string) []Pick {
	picks := []Pick{}
	for _, d := range o.details {
		for _, h := range d.reservations {
			picks = append(picks, Pick{
				OrderDetailID: d.id, ArticleDetailID: d.articleDetailID, WarehouseID: h.WarehouseID,
				BinLocationID: h.BinLocationID, BinLocationCode: binCode(h.BinLocationID), Quantity: h.Quantity, LotNumber: h.Lot,
			})
		}
	}
	// Stable: a position's two lots on one bin stay in the order they were
	// reserved, first expiring first.
	slices.SortStableFunc(picks, func(a, b Pick) int {
		return cmp.Or(strings.Compare(a.BinLocationCode, b.BinLocationCode), cmp.Compare(a.OrderDetailID, b.OrderDetailID),
			cmp.Compare(a.BinLocationID, b.BinLocationID))
	})
	return picks
}

// ReleaseExpired releases the order's holds of lots that have expired: an
// expired piece is never picked or shipped, so it is not held for either
// (a picking list made again takes other lots).
type ReleaseExpired struct{ Order *Order }

func (r ReleaseExpired) Declare(sc *stock.Scope) { r.Order.declareHolds(sc) }

func (r ReleaseExpired) Run(ws *stock.WorkingSet, _ stock.Reference) error {
	restore := r.Order.keepHolds()
	for _, d := range r.Order.details {
		kept := d.reservations[:0:0]
		for _, h := range d.reservations {
			if h.Lot == "" || !ws.LotExpired(d.articleDetailID, h.Lot) {
				kept = append(kept, h)
				continue
			}
			if err := ws.Release(d.articleDetailID, h); err != nil {
				restore()
				return err
			}
		}
		d.reservations = kept
	}
	return nil
}

// HoldsExpired tells whether any position holds pieces of a lot that
// expired on the working set's day.
func (o *Order) HoldsExpired(ws *stock.WorkingSet) bool {
	for _, d := range o.details {
		for _, h := range d.reservations {
			if h.Lot != "" && ws.LotExpired(d.articleDetailID, h.Lot) {
				return true
			}
		}
	}
	return false
}

// Expiry records that lots of a product have expired: the holds of
// its expired lots are released, whoever holds them, and their pieces
// count as expired from then on. Holders are the orders that hold pieces
// of the product's lots; Warehouses are those where it has stock, all of
// which must be loaded. Run leaves the lots it counted in Counted and the
// holders whose holds it released in Released.
type Expiry struct {
	ArticleDetailID int64
	Warehouses      []int64
	Holders         []*Order
	Counted         []stock.Lot
	Released        []*Order
}

func (e *Expiry) Declare(sc *stock.Scope) {
	for _, w := range e.Warehouses {
		sc.Add(e.ArticleDetailID, stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: w}})
	}
	for _, o := range e.Holders {
		o.declareHolds(sc)
	}
}

func (e *Expiry) Run(ws *stock.WorkingSet, ref stock.Reference) error {
	e.Released = nil
	for _, o := range e.Holders {
		if !o.HoldsExpired(ws) {
			continue
		}
		if err := (ReleaseExpired{Order: o}).Run(ws, ref); err != nil {
			return err
		}
		e.Released = append(e.Released, o)
	}
	e.Counted = ws.RecordExpiry(e.ArticleDetailID)
	return nil
}
