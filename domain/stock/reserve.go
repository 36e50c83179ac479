package stock

import (
	"github.com/shopstock/inventory/domain/errs"
)

// Hold is stock of an article detail held on one bin location for a picking
// process: it stays physically on the bin, counts in the mapping's
// reservedStock, and no operation but the shipment of its holder may take
// it. The holder (an order position) keeps its holds; the working set keeps
// the mappings' reservedStock equal to their sum.
type Hold struct {
	WarehouseID   int64
	BinLocationID int64
	Quantity      int
	// Lot is the lot held, "" for a product that is not lot-tracked.
	Lot string
}

// In tells whether the hold lies at a location: on the bin, or anywhere in
// the warehouse.
func (h Hold) In(at Location) bool {
	return h.WarehouseID == at.WarehouseID && (at.IsWarehouse() || h.BinLocationID == at.BinLocationID)
}

// Locate finds the location spec names for article, as declared in the
// scope (see Scope.Add), for operations outside this package that act on it
// in several steps.
func (ws *WorkingSet) Locate(article int64, spec LocationSpec) (Location, error) {
	return ws.locate(article, spec, "")
}

// BinCode is the code of a bin location the working set knows, "" if none.
func (ws *WorkingSet) BinCode(bin int64) string {
	b, _ := ws.bin(bin)
	return b.Code
}

// Spec is the location a hold needs declared in a scope: its bin.
func (h Hold) Spec() LocationSpec {
	return LocationSpec{BinLocation: &BinLocationSpec{ID: h.BinLocationID}}
}

func (h Hold) location() Location {
	return Location{WarehouseID: h.WarehouseID, BinLocationID: h.BinLocationID}
}

// Reserve holds quantity pieces of article at a location for picking,
// chosen by the stock-out strategy (take) among the unreserved stock,
// and returns the holds it made, in strategy order. Not enough unreserved
// stock fails like any stock-out, and reserves nothing.
func (ws *WorkingSet) Reserve(article int64, at Location, quantity int) ([]Hold, error) {
	if err := ws.check(article, at); err != nil {
		return nil, err
	}
	if quantity <= 0 {
		return nil, errs.Invalidf("reserved quantity of article detail %d at %s must be positive, got %d", article, at, quantity).
			On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, at))
	}
	// Never an expired lot: a picking list that only expired pieces could
	// fill falls short.
	c := lotChoice{tracked: ws.tracked[article]}
	sources := ws.sources(article, at, 0)
	if avail := ws.available(article, sources, c); quantity > avail {
		return nil, insufficient(article, at, quantity, avail)
	}
	var holds []Hold
	for _, s := range ws.take(article, sources, quantity, c) {
		m := ws.onBin[mappingKey{article, s.bin}]
		ws.touch(m)
		m.reservedStock += -s.delta
		if s.lot != "" {
			m.addLot(s.lot, 0, -s.delta)
		}
		holds = append(holds, Hold{WarehouseID: s.warehouse, BinLocationID: s.bin, Quantity: -s.delta, Lot: s.lot})
	}
	return holds, nil
}

// Release gives held pieces back to the unreserved stock of their bin.
// Holds always match reservedStock, so a mismatch is the service's fault.
func (ws *WorkingSet) Release(article int64, h Hold) error {
	m, err := ws.held(article, h)
	if err != nil {
		return err
	}
	ws.touch(m)
	m.reservedStock -= h.Quantity
	if h.Lot != "" {
		m.addLot(h.Lot, 0, -h.Quantity)
	}
	return nil
}

// held is the mapping that carries h, checked to carry at least as much.
func (ws *WorkingSet) held(article int64, h Hold) (*Mapping, error) {
	if err := ws.check(article, h.location()); err != nil {
		return nil, err
	}
	m := ws.existing(article, h.BinLocationID)
	reserved := 0
	if m != nil {
		reserved = m.reservedStock
		if h.Lot != "" {
			_, reserved = m.counted(h.Lot)
		}
	}
	if h.Quantity < 0 || m == nil || reserved < h.Quantity {
		return nil, errs.E(errs.Internal, "article detail %d on bin location %d holds %d reserved pieces, not the %d of a reservation",
			article, h.BinLocationID, reserved, h.Quantity)
	}
	return m, nil
}

// ShipHolding ships quantity pieces of article from a location for one
// holder: first what holds (the holder's, in their order) lie there, then
// unreserved stock by the stock-out strategy. It returns how many pieces it
// took from each hold (holds elsewhere give none). When the holds there and
// the unreserved stock together fall short, nothing is shipped.
//
// On a lot-tracked product the unreserved stock goes first expiring first
// out; a named lot ships only that lot (its holds first). Expired pieces
// never ship, held or not, named or not.
func (ws *WorkingSet) ShipHolding(article int64, from Location, quantity int, holds []Hold, lot *LotSpec, ref Reference) ([]int, error) {
	if err := ws.check(article, from); err != nil {
		return nil, err
	}
	if err := ws.unlocked(from, ref); err != nil {
		return nil, err
	}
	if quantity <= 0 {
		return nil, errs.Invalidf("shipped quantity of article detail %d from %s must be positive, got %d",
			article, from, quantity).On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, from))
	}
	c, err := ws.lotOut(article, lot, false)
	if err != nil {
		return nil, err
	}
	ships := func(h Hold) bool { return h.In(from) && (h.Lot == "" || ws.takes(article, h.Lot, c)) }
	held := 0
	for _, h := range holds {
		if ships(h) {
			if err := ws.unlocked(h.location(), ref); err != nil {
				return nil, err
			}
			held += h.Quantity
		}
	}
	sources := ws.sources(article, from, 0)
	fromHolds := min(held, quantity)
	if avail := ws.available(article, sources, c); quantity-fromHolds > avail {
		return nil, insufficient(article, from, quantity, held+avail)
	}
	used := make([]int, len(holds))
	left := quantity
	for i, h := range holds {
		if left == 0 || !ships(h) {
			continue
		}
		m, err := ws.held(article, h)
		if err != nil {
			return nil, err
		}
		n := min(left, h.Quantity)
		ws.touch(m)
		m.reservedStock -= n
		if h.Lot != "" {
			m.addLot(h.Lot, 0, -n)
		}
		if err := ws.apply(article, []step{{m.warehouseID, m.binLocationID, -n, h.Lot}}, EntryShipment, ref); err != nil {
			return nil, err
		}
		used[i], left = n, left-n
	}
	if left > 0 {
		if err := ws.apply(article, ws.take(article, sources, left, c), EntryShipment, ref); err != nil {
			return nil, err
		}
	}
	return used, nil
}

// Restock puts returned pieces back at a location (a warehouse: the
// article's default bin there, else its unknown bin location) with a
// ledger entry of type return, and tells the bin they went to.
func (ws *WorkingSet) Restock(article int64, at Location, quantity int, lot *LotSpec, ref Reference) (Location, error) {
	if err := ws.check(article, at); err != nil {
		return Location{}, err
	}
	if quantity <= 0 {
		return Location{}, errs.Invalidf("returned quantity of article detail %d must be positive, got %d", article, quantity).
			On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, at))
	}
	return ws.stockIn(article, at, quantity, lot, EntryReturn, ref)
}

// Receive books pieces that arrived from a supplier in at a location (a
// warehouse: the article's default bin there, else its unknown bin
// location) with a ledger entry of type receipt, and tells the bin they
// went to.
func (ws *WorkingSet) Receive(article int64, at Location, quantity int, lot *LotSpec, ref Reference) (Location, error) {
	if err := ws.check(article, at); err != nil {
		return Location{}, err
	}
	if quantity <= 0 {
		return Location{}, errs.Invalidf("received quantity of article detail %d must be positive, got %d", article, quantity).
			On("quantity").Breaks(QuantityOutOfRange).About(concerning(article, at))
	}
	return ws.stockIn(article, at, quantity, lot, EntryReceipt, ref)
}
