package stock

import (
	"cmp"
	"slices"
)

// What a product's figures are made of, kept per product so that its
// figures never need the sum of all its mappings: its stock, reserved stock
// and number of mappings per warehouse, and what its order positions still
// have to ship. A transaction that writes mappings or positions changes
// these by exactly what it wrote (TotalsChanges, Demand), so storage only
// keeps the results.

// WarehouseTotal is a product's stock in one warehouse, summed over its
// mappings there.
type WarehouseTotal struct {
	ArticleDetailID int64
	WarehouseID     int64
	Stock           int
	ReservedStock   int
	// Expired is what of Stock belongs to lots whose expiry is counted
	// (Lot.ExpiryCounted).
	Expired int
	// Mappings counts the product's mappings in the warehouse: a warehouse
	// is part of the product's figures while it holds any, even with no
	// stock (a default bin).
	Mappings int
}

// changes tells whether the change changes anything.
func (t WarehouseTotal) changes() bool {
	return t.Stock != 0 || t.ReservedStock != 0 || t.Expired != 0 || t.Mappings != 0
}

// Held tells whether the warehouse still holds mappings of the product;
// a total that holds none is removed.
func (t WarehouseTotal) Held() bool { return t.Mappings > 0 }

// Add is the total with the change d made to it.
func (t WarehouseTotal) Add(d WarehouseTotal) WarehouseTotal {
	t.Stock += d.Stock
	t.ReservedStock += d.ReservedStock
	t.Expired += d.Expired
	t.Mappings += d.Mappings
	return t
}

// ApplyTotals returns the totals with the changes made to them: changes
// of a warehouse that has no total yet start from zero. Both lists and the
// result are keyed by product and warehouse; the result is in that order
// and holds the totals that changed, including those that no longer hold
// anything (Held is false: storage removes them).
func ApplyTotals(totals []WarehouseTotal, changes []WarehouseTotal) []WarehouseTotal {
	type key struct{ article, warehouse int64 }
	sum := make(map[key]WarehouseTotal, len(changes))
	for _, c := range changes {
		k := key{c.ArticleDetailID, c.WarehouseID}
		t, ok := sum[k]
		if !ok {
			t = WarehouseTotal{ArticleDetailID: c.ArticleDetailID, WarehouseID: c.WarehouseID}
		}
		sum[k] = t.Add(WarehouseTotal{Stock: c.Stock, ReservedStock: c.ReservedStock, Expired: c.Expired, Mappings: c.Mappings})
	}
	out := make([]WarehouseTotal, 0, len(sum))
	for _, t := range totals {
		k := key{t.ArticleDetailID, t.WarehouseID}
		if d, ok := sum[k]; ok {
			delete(sum, k)
			if d.changes() {
				out = append(out, t.Add(d))
			}
		}
	}
	for _, d := range sum {
		if d.changes() {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b WarehouseTotal) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), cmp.Compare(a.WarehouseID, b.WarehouseID))
	})
	return out
}

// TotalsChanges is what the working set's changes do to the totals of its
// products, one change per product and warehouse, in that order: what its
// stored mappings gained or lost since they were loaded, a new mapping as
// a whole, a removed one as a loss of everything it held.
func (ws *WorkingSet) TotalsChanges() []WarehouseTotal {
	sum := map[articleWarehouse]WarehouseTotal{}
	for m := range ws.all() {
		var d WarehouseTotal
		switch {
		case m.id == 0 && m.Removable():
			continue
		case m.id == 0:
			d = WarehouseTotal{Stock: m.stock, ReservedStock: m.reservedStock, Expired: ws.countedExpired(m), Mappings: 1}
		case m.Removable():
			d = WarehouseTotal{Stock: -m.loadedStock, ReservedStock: -m.loadedReserved, Expired: -m.loadedExpired, Mappings: -1}
		case m.touched:
			d = WarehouseTotal{Stock: m.stock - m.loadedStock, ReservedStock: m.reservedStock - m.loadedReserved,
				Expired: ws.countedExpired(m) - m.loadedExpired}
		default:
			continue
		}
		k := articleWarehouse{m.articleDetailID, m.warehouseID}
		sum[k] = sum[k].Add(d)
	}
	out := make([]WarehouseTotal, 0, len(sum))
	for k, d := range sum {
		if d.changes() {
			d.ArticleDetailID, d.WarehouseID = k.article, k.warehouse
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b WarehouseTotal) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), cmp.Compare(a.WarehouseID, b.WarehouseID))
	})
	return out
}
