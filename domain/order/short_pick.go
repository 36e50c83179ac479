package order

import (
	"fmt"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// NothingShort is the rule a short pick breaks when the position holds
// no more on the bin than was already picked there.
const NothingShort errs.Code = "nothing_short"

// ShortPick is the stock side of a bin a picker of the order's list found
// short: of what a position holds on the bin (of the lot, "" for a
// product that is not lot-tracked), all but the pieces already picked are
// released, and reserved for the position again on the warehouse's other
// bins by the stock-out strategy. The picked pieces stay held: they are
// in the picker's hands and ship from that bin. Released and Missing tell,
// after Run, how many pieces were given back and how many of them no
// other bin had.
type ShortPick struct {
	Order         *Order
	Warehouse     stock.LocationSpec
	DetailID      int64
	BinLocationID int64
	Lot           string
	Picked        int

	Released, Missing int
}

func (p *ShortPick) Declare(sc *stock.Scope) {
	sc.AddLocation(p.Warehouse)
	if d, ok := p.Order.Detail(p.DetailID); ok {
		sc.Add(d.articleDetailID, p.Warehouse)
	}
}

func (p *ShortPick) Run(ws *stock.WorkingSet, _ stock.Reference) error {
	d, ok := p.Order.Detail(p.DetailID)
	if !ok {
		return errs.NotFoundf("order %s has no position %d", p.Order.number, p.DetailID)
	}
	held := 0
	for _, h := range d.reservations {
		if h.BinLocationID == p.BinLocationID && h.Lot == p.Lot {
			held += h.Quantity
		}
	}
	if p.Picked < 0 || p.Picked >= held {
		return errs.InvalidFields(errs.FieldError{Property: "picked",
			Message: fmt.Sprintf("position %d holds %d on the bin, and %d were picked: nothing is short", p.DetailID, held, p.Picked)}).Breaks(NothingShort)
	}
	if _, err := ws.Resolve(p.Warehouse); err != nil {
		return err
	}
	p.Released = held - p.Picked
	if err := p.Order.ReleaseHeld(ws, p.DetailID, p.BinLocationID, p.Lot, p.Released); err != nil {
		return err
	}
	at, err := ws.Locate(d.articleDetailID, p.Warehouse)
	if err != nil {
		return err
	}
	_, p.Missing, err = p.Order.ReserveElsewhere(ws, p.DetailID, at, p.BinLocationID, p.Released)
	return err
}
