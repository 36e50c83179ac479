package stock

import (
	"cmp"
	"slices"
)

// Mappings is the current state: every mapping that is not removable, ordered
// by article detail, warehouse and bin location.
func (ws *WorkingSet) Mappings() []*Mapping {
	var out []*Mapping
	for m := range ws.all() {
		if !m.Removable() {
			out = append(out, m)
		}
	}
	sortMappings(out)
	return out
}

// Changes is what the caller writes back. upserted holds the new mappings
// (ID 0) and the changed persisted ones that remain; removed holds the
// persisted mappings that became removable (a new mapping that became
// removable was never stored and is left out); entries are the ledger entries
// in the order the operations wrote them. Both mapping lists are ordered by
// article detail, warehouse and bin location, a fixed order for row locks.
//
// The entries are shared with the working set, which never changes those it
// has handed out: the caller must not change them either.
func (ws *WorkingSet) Changes() (upserted []*Mapping, removed []*Mapping, entries []LedgerEntry) {
	for m := range ws.all() {
		switch {
		case m.Removable():
			if m.id != 0 {
				removed = append(removed, m)
			}
		case m.id == 0 || m.touched:
			upserted = append(upserted, m)
		}
	}
	sortMappings(upserted)
	sortMappings(removed)
	if ws.entries == nil {
		return upserted, removed, nil
	}
	// Clipped, so that an append by the caller cannot reach entries the
	// working set writes later.
	return upserted, removed, ws.entries[:len(ws.entries):len(ws.entries)]
}

// ChangedArticles are the article details whose mappings Changes writes,
// ascending.
func (ws *WorkingSet) ChangedArticles() []int64 {
	var out []int64
	for m := range ws.all() {
		if m.touched || (m.id == 0 && !m.Removable()) {
			out = append(out, m.articleDetailID)
		}
	}
	return sortedUnique(out, cmp.Compare[int64])
}

// sortMappings orders mappings by article detail, warehouse and bin
// location.
func sortMappings(ms []*Mapping) {
	slices.SortFunc(ms, func(a, b *Mapping) int {
		if a.articleDetailID != b.articleDetailID {
			return cmp.Compare(a.articleDetailID, b.articleDetailID)
		}
		if a.warehouseID != b.warehouseID {
			return cmp.Compare(a.warehouseID, b.warehouseID)
		}
		return cmp.Compare(a.binLocationID, b.binLocationID)
	})
}
