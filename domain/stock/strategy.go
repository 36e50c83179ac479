package stock

import (
	"cmp"
	"slices"

	"github.com/shopstock/inventory/domain/errs"
)

// inTarget is the bin that receives stock at a location: the bin itself, or
// in a warehouse the article's default bin, else the unknown bin location.
func (ws *WorkingSet) inTarget(article int64, at Location) (int64, error) {
	if !at.IsWarehouse() {
		return at.BinLocationID, nil
	}
	for _, m := range ws.inWarehouse(article, at.WarehouseID) {
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
// source warehouse); 0 excludes nothing.
func (ws *WorkingSet) sources(article int64, at Location, except int64) []*Mapping {
	if !at.IsWarehouse() {
		if m := ws.existing(article, at.BinLocationID); m != nil && m.binLocationID != except {
			return []*Mapping{m}
		}
		return nil
	}
	var out []*Mapping
	for _, m := range ws.inWarehouse(article, at.WarehouseID) {
		if m.binLocationID != except {
			out = append(out, m)
		}
	}
	rank := func(m *Mapping) int {
		switch {
		case m.defaultMapping:
			return 0
		case ws.isNullBin(m.binLocationID):
			return 2
		default:
			return 1
		}
	}
	slices.SortFunc(out, func(a, b *Mapping) int {
		return cmp.Or(
			cmp.Compare(rank(a), rank(b)),
			cmp.Compare(a.stock, b.stock),
			cmp.Compare(ws.bins[a.binLocationID].Code, ws.bins[b.binLocationID].Code),
			cmp.Compare(a.binLocationID, b.binLocationID),
		)
	})
	return out
}

func available(sources []*Mapping) int {
	n := 0
	for _, m := range sources {
		n += m.Available()
	}
	return n
}

// take plans removing quantity of unreserved stock from sources in their
// order; the caller has checked that enough is available.
func take(sources []*Mapping, quantity int) []step {
	var steps []step
	for _, m := range sources {
		if quantity == 0 {
			break
		}
		n := min(quantity, m.Available())
		if n > 0 {
			steps = append(steps, step{m.warehouseID, m.binLocationID, -n})
			quantity -= n
		}
	}
	return steps
}
