package stock

import (
	"cmp"
	"slices"
	"strings"

	"github.com/shopstock/inventory/domain/errs"
)

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

// sources are the mappings stock leaves a location from, in the order they
// give it up. In a warehouse: the default bin first, then the other bins by
// stock ascending, then code, and the unknown bin location last. except is a
// bin that must not give anything (a relocation's destination inside the
// source warehouse); 0 excludes nothing. The result lives in a buffer of the
// working set that the next call reuses.
func (ws *WorkingSet) sources(article int64, at Location, except int64) []*Mapping {
	out := ws.sourceBuf[:0]
	if !at.IsWarehouse() {
		if m := ws.existing(article, at.BinLocationID); m != nil && m.binLocationID != except {
			out = append(out, m)
		}
		ws.sourceBuf = out
		return out
	}
	// Each mapping's rank and code, looked up once instead of per comparison.
	ranked := ws.rankBuf[:0]
	for _, m := range ws.byWarehouse[articleWarehouse{article, at.WarehouseID}] {
		if m.Removable() || m.binLocationID == except {
			continue
		}
		b, _ := ws.bin(m.binLocationID)
		r := rankedMapping{m: m, rank: 1, code: b.Code}
		switch {
		case m.defaultMapping:
			r.rank = 0
		case b.IsNull:
			r.rank = 2
		}
		ranked = append(ranked, r)
	}
	slices.SortFunc(ranked, func(a, b rankedMapping) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		if c := cmp.Compare(a.m.stock, b.m.stock); c != 0 {
			return c
		}
		if c := strings.Compare(a.code, b.code); c != 0 {
			return c
		}
		return cmp.Compare(a.m.binLocationID, b.m.binLocationID)
	})
	for _, r := range ranked {
		out = append(out, r.m)
	}
	clear(ranked)
	ws.rankBuf, ws.sourceBuf = ranked[:0], out
	return out
}

type rankedMapping struct {
	m    *Mapping
	rank int
	code string
}

func available(sources []*Mapping) int {
	n := 0
	for _, m := range sources {
		n += m.Available()
	}
	return n
}

// take plans removing quantity of unreserved stock from sources in their
// order; the caller has checked that enough is available. The plan lives in
// a buffer of the working set that the next call reuses.
func (ws *WorkingSet) take(sources []*Mapping, quantity int) []step {
	steps := ws.stepBuf[:0]
	for _, m := range sources {
		if quantity == 0 {
			break
		}
		n := min(quantity, m.Available())
		if n > 0 {
			steps = append(steps, step{m.warehouseID, m.binLocationID, -n, ""})
			quantity -= n
		}
	}
	ws.stepBuf = steps
	return steps
}

// availableTo is what of the unreserved stock on sources the choice may
// take: all of it for a product that is not lot-tracked, else the pieces of
// the lots it takes.
func (ws *WorkingSet) availableTo(article int64, sources []*Mapping, c lotChoice) int {
	if !c.tracked {
		return available(sources)
	}
	n := 0
	for _, m := range sources {
		for _, l := range m.lots {
			if ws.takes(article, l.Number, c) {
				n += Unreserved(l.Stock, l.ReservedStock)
			}
		}
	}
	return n
}

// takeBy plans removing quantity unreserved pieces that the choice may
// take from sources; the caller has checked that enough are there
// (availableTo). A product that is not lot-tracked gives them in the order
// of sources. A lot-tracked one gives its lots first expiring first out
// (CompareFEFO), and each lot its bins by the default strategy applied to
// that lot's pieces: the default bin first, then the other bins by the
// lot's stock ascending, then code, the unknown bin location last.
func (ws *WorkingSet) takeBy(article int64, sources []*Mapping, quantity int, c lotChoice) []step {
	if !c.tracked {
		return ws.take(sources, quantity)
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
	steps := ws.stepBuf[:0]
	for _, l := range lots {
		if quantity == 0 {
			break
		}
		for _, m := range ws.lotOrder(sources, l.Number) {
			n := min(quantity, m.lotAvailable(l.Number))
			if n > 0 {
				steps = append(steps, step{m.warehouseID, m.binLocationID, -n, l.Number})
				quantity -= n
			}
		}
	}
	ws.stepBuf = steps
	return steps
}

// lotOrder is sources in the default strategy's order applied to one lot's
// pieces (see sources): rank, then the lot's stock there, then code.
func (ws *WorkingSet) lotOrder(sources []*Mapping, number string) []*Mapping {
	ordered := slices.Clone(sources)
	rank := func(m *Mapping) (int, string) {
		b, _ := ws.bin(m.binLocationID)
		switch {
		case m.defaultMapping:
			return 0, b.Code
		case b.IsNull:
			return 2, b.Code
		}
		return 1, b.Code
	}
	slices.SortStableFunc(ordered, func(a, b *Mapping) int {
		ra, ca := rank(a)
		rb, cb := rank(b)
		return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(a.lotStock(number), b.lotStock(number)), strings.Compare(ca, cb),
			cmp.Compare(a.binLocationID, b.binLocationID))
	})
	return ordered
}
