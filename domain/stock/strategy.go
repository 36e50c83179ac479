package stock

import (
	"cmp"
	"slices"
	"strings"

	"github.com/shopstock/inventory/domain/errs"
)

// The default strategy: where stock goes in and the order in which it goes
// out when an operation names a warehouse, or which lots it takes when an
// operation names none. Every stock-out (Set, Change, Relocate, ShipHolding,
// Reserve) plans with take, so a rule here holds for every endpoint.

// inTarget is the bin that receives stock at a location: the bin itself, or
// in a warehouse the article's default bin, else the unknown bin location.
func (ws *WorkingSet) inTarget(article int64, at Location) (int64, error) {
	if !at.IsWarehouse() {
		return at.BinLocationID, nil
	}
	for m := range ws.inWarehouse(article, at.WarehouseID) {
		if m.defaultMapping {
			return m.binLocationID, nil
		}
	}
	nb, ok := ws.nullBin(at.WarehouseID)
	if !ok {
		return 0, errs.E(errs.Internal, "the unknown bin location of %s is not loaded", at)
	}
	return nb, nil
}

// sources are the mappings stock may leave a location from: the bin's, or
// every one in the warehouse. except is a bin that must not give anything
// (a relocation's destination inside the source warehouse); 0 excludes
// nothing. A warehouse passes the bins an open count locks by: what lies
// only there is not available. take orders them.
func (ws *WorkingSet) sources(article int64, at Location, except int64) []*Mapping {
	if !at.IsWarehouse() {
		if m := ws.existing(article, at.BinLocationID); m != nil && m.binLocationID != except {
			return []*Mapping{m}
		}
		return nil
	}
	out := make([]*Mapping, 0, len(ws.inWH[articleWarehouse{article, at.WarehouseID}]))
	for m := range ws.inWarehouse(article, at.WarehouseID) {
		if m.binLocationID != except && (!ws.anyLocked || ws.bins[m.binLocationID].LockedBy == 0) {
			out = append(out, m)
		}
	}
	return out
}

// stockOutOrder sorts mappings in the order they give up stock: the default
// bin first, then the other bins by stock ascending, then by code, the
// unknown bin location last. For one lot (lot not "") the stock compared is
// that lot's there. It is the one order of every stock-out, of bins and of
// a lot's bins alike.
func (ws *WorkingSet) stockOutOrder(ms []*Mapping, lot string) []*Mapping {
	type ranked struct {
		m     *Mapping
		rank  int // 0 the default bin, 1 another, 2 the unknown bin location
		stock int
		code  string
	}
	rs := make([]ranked, len(ms))
	for i, m := range ms {
		b, _ := ws.bin(m.binLocationID)
		r := ranked{m: m, rank: 1, code: b.Code}
		r.stock, _ = m.counted(lot)
		switch {
		case m.defaultMapping:
			r.rank = 0
		case b.IsNull:
			r.rank = 2
		}
		rs[i] = r
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.stock, b.stock), strings.Compare(a.code, b.code),
			cmp.Compare(a.m.binLocationID, b.m.binLocationID))
	})
	out := make([]*Mapping, len(rs))
	for i, r := range rs {
		out[i] = r.m
	}
	return out
}

// available is what of the unreserved stock on sources the choice may
// take: all of it for a product that is not lot-tracked, else the pieces of
// the lots it takes.
func (ws *WorkingSet) available(article int64, sources []*Mapping, c lotChoice) int {
	n := 0
	for _, m := range sources {
		if !c.tracked {
			n += m.Available()
			continue
		}
		for _, l := range m.lots {
			if ws.takes(article, l.Number, c) {
				n += Unreserved(l.Stock, l.ReservedStock)
			}
		}
	}
	return n
}

// take plans removing quantity unreserved pieces that the choice may take
// from sources; the caller has checked that enough are there (available).
// A product that is not lot-tracked gives them from its bins in
// stockOutOrder. A lot-tracked one gives its lots first expiring first out
// (CompareFEFO), and each lot from its bins in stockOutOrder of that lot's
// pieces.
func (ws *WorkingSet) take(article int64, sources []*Mapping, quantity int, c lotChoice) []step {
	if !c.tracked {
		return takeFrom(ws.stockOutOrder(sources, ""), "", quantity)
	}
	var lots []Lot
	for _, m := range sources {
		for _, l := range m.lots {
			if Unreserved(l.Stock, l.ReservedStock) > 0 && ws.takes(article, l.Number, c) &&
				!slices.ContainsFunc(lots, func(x Lot) bool { return x.Number == l.Number }) {
				lots = append(lots, ws.lots[lotKey{article, l.Number}])
			}
		}
	}
	slices.SortFunc(lots, CompareFEFO)
	var steps []step
	for _, l := range lots {
		taken := takeFrom(ws.stockOutOrder(sources, l.Number), l.Number, quantity)
		for _, s := range taken {
			quantity += s.delta
		}
		steps = append(steps, taken...)
	}
	return steps
}

// takeFrom plans removing up to quantity unreserved pieces (of lot, or of
// the product for "") from ordered, in its order.
func takeFrom(ordered []*Mapping, lot string, quantity int) []step {
	var steps []step
	for _, m := range ordered {
		if quantity == 0 {
			break
		}
		stock, reserved := m.counted(lot)
		if n := min(quantity, Unreserved(stock, reserved)); n > 0 {
			steps = append(steps, step{m.warehouseID, m.binLocationID, -n, lot})
			quantity -= n
		}
	}
	return steps
}
