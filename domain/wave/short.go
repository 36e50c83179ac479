package wave

import (
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
)

// ShortPick is the stock side of a short task: the pieces nobody found
// are released from their positions, then reserved for the same
// positions on the other bins of the wave's warehouse by the stock-out
// strategy, each new reservation a task of the wave; what no bin holds is
// recorded on the wave as short (a position shipped or cancelled since
// needs nothing). Orders are the holders of the releases,
// by id. A failing Run leaves the wave and the orders half changed: the
// caller's transaction fails with it.
type ShortPick struct {
	Wave      *Wave
	Warehouse stock.LocationSpec
	Releases  []Release
	Orders    map[int64]*order.Order
}

func (p ShortPick) Declare(sc *stock.Scope) {
	sc.AddLocation(p.Warehouse)
	for _, r := range p.Releases {
		sc.Add(r.ArticleDetailID, p.Warehouse)
	}
}

func (p ShortPick) Run(ws *stock.WorkingSet, _ stock.Reference) error {
	if _, err := ws.Resolve(p.Warehouse); err != nil {
		return err
	}
	for _, r := range p.Releases {
		o := p.Orders[r.OrderID]
		if o == nil {
			return errs.E(errs.Internal, "order %d of a short task was not loaded", r.OrderID)
		}
		if err := o.ReleaseHeld(ws, r.OrderDetailID, r.BinLocationID, r.Lot, r.Quantity); err != nil {
			return err
		}
	}
	for _, r := range p.Releases {
		at, err := ws.Locate(r.ArticleDetailID, p.Warehouse)
		if err != nil {
			return err
		}
		holds, missing, err := p.Orders[r.OrderID].ReserveElsewhere(ws, r.OrderDetailID, at, r.BinLocationID, r.Quantity)
		if err != nil {
			return err
		}
		picks := make([]Pick, 0, len(holds))
		for _, h := range holds {
			item := r.Item
			item.BinLocationID, item.BinLocationCode, item.Lot = h.BinLocationID, ws.BinCode(h.BinLocationID), h.Lot
			picks = append(picks, Pick{Item: item, OrderID: r.OrderID, OrderDetailID: r.OrderDetailID, Quantity: h.Quantity})
		}
		if err := p.Wave.AddReserved(picks); err != nil {
			return err
		}
		p.Wave.AddShort(r.OrderID, r.OrderDetailID, missing)
	}
	return nil
}
