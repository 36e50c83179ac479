package stock

import (
	"cmp"
	"slices"
	"time"

	"github.com/shopstock/inventory/domain/errs"
)

type mappingKey struct{ article, bin int64 }

type articleWarehouse struct{ article, warehouse int64 }

// Inventory is the stock a batch works on: the mappings the batch needs,
// loaded and locked by the caller, changed in memory one operation after
// another, and handed back by Changes for one bulk write.
//
// Every operation either succeeds completely or returns an error and leaves
// the Inventory as it was: it checks everything, then plans its steps, and
// only then applies them, and applying cannot fail.
//
// The caller loads, for an operation on a warehouse, every mapping of the
// article in that warehouse; for an operation on a bin, that bin's mapping of
// the article; and passes the unknown bin location of every warehouse
// involved, plus the bins of the loaded mappings (their codes order the
// strategy).
type Inventory struct {
	now      time.Time
	bins     map[int64]Bin
	nullBins map[int64]Bin // by warehouse
	// mappings holds every mapping seen, removable ones included: a persisted
	// mapping that empties stays here so that Changes can report it removed,
	// and so that it is the same object again if stock comes back.
	mappings    map[mappingKey]*Mapping
	byWarehouse map[articleWarehouse][]*Mapping
	touched     map[*Mapping]bool
	entries     []LedgerEntry
}

// NewInventory works on mappings in place; now stamps ledger entries and
// stocktakes. Mappings are unique per article and bin; a later duplicate
// replaces an earlier one.
func NewInventory(bins []Bin, mappings []*Mapping, now time.Time) *Inventory {
	inv := &Inventory{
		now:         now,
		bins:        make(map[int64]Bin, len(bins)),
		nullBins:    make(map[int64]Bin),
		mappings:    make(map[mappingKey]*Mapping, len(mappings)),
		byWarehouse: make(map[articleWarehouse][]*Mapping),
		touched:     make(map[*Mapping]bool),
	}
	for _, b := range bins {
		inv.rememberBin(b)
	}
	for _, m := range mappings {
		if m != nil {
			inv.register(m)
		}
	}
	return inv
}

func (inv *Inventory) rememberBin(b Bin) {
	inv.bins[b.ID] = b
	if b.IsNull {
		inv.nullBins[b.WarehouseID] = b
	}
}

func (inv *Inventory) register(m *Mapping) {
	k := mappingKey{m.articleDetailID, m.binLocationID}
	aw := articleWarehouse{m.articleDetailID, m.warehouseID}
	if old, ok := inv.mappings[k]; ok {
		inv.byWarehouse[aw] = slices.DeleteFunc(inv.byWarehouse[aw], func(x *Mapping) bool { return x == old })
	}
	inv.mappings[k] = m
	inv.byWarehouse[aw] = append(inv.byWarehouse[aw], m)
}

// Mappings is the current state: every mapping that is not removable, ordered
// by article detail, warehouse and bin location.
func (inv *Inventory) Mappings() []*Mapping {
	var out []*Mapping
	for _, m := range inv.ordered() {
		if !m.Removable() {
			out = append(out, m)
		}
	}
	return out
}

// Changes is what the caller writes back. upserted holds the new mappings
// (ID 0) and the changed persisted ones that remain; removed holds the
// persisted mappings that became removable (a new mapping that became
// removable was never stored and is left out); entries are the ledger entries
// in the order the operations wrote them. Both mapping lists are ordered by
// article detail, warehouse and bin location, a fixed order for row locks.
func (inv *Inventory) Changes() (upserted []*Mapping, removed []*Mapping, entries []LedgerEntry) {
	for _, m := range inv.ordered() {
		switch {
		case m.Removable():
			if m.id != 0 {
				removed = append(removed, m)
			}
		case m.id == 0 || inv.touched[m]:
			upserted = append(upserted, m)
		}
	}
	return upserted, removed, slices.Clone(inv.entries)
}

func (inv *Inventory) ordered() []*Mapping {
	out := make([]*Mapping, 0, len(inv.mappings))
	for _, m := range inv.mappings {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *Mapping) int {
		return cmp.Or(
			cmp.Compare(a.articleDetailID, b.articleDetailID),
			cmp.Compare(a.warehouseID, b.warehouseID),
			cmp.Compare(a.binLocationID, b.binLocationID),
		)
	})
	return out
}

// existing is the mapping of article on bin, nil when there is none in the
// state.
func (inv *Inventory) existing(article, bin int64) *Mapping {
	m := inv.mappings[mappingKey{article, bin}]
	if m == nil || m.Removable() {
		return nil
	}
	return m
}

// mapping is the mapping of article on bin, created when missing. A
// persisted mapping that was emptied earlier comes back as the same object.
func (inv *Inventory) mapping(article, warehouse, bin int64) *Mapping {
	if m, ok := inv.mappings[mappingKey{article, bin}]; ok {
		return m
	}
	m := NewMapping(bin, warehouse, article)
	inv.register(m)
	return m
}

// inWarehouse lists the mappings of article in warehouse that are in the
// state.
func (inv *Inventory) inWarehouse(article, warehouse int64) []*Mapping {
	var out []*Mapping
	for _, m := range inv.byWarehouse[articleWarehouse{article, warehouse}] {
		if !m.Removable() {
			out = append(out, m)
		}
	}
	return out
}

func (inv *Inventory) isNullBin(warehouse, bin int64) bool {
	if b, ok := inv.bins[bin]; ok && b.IsNull {
		return true
	}
	nb, ok := inv.nullBins[warehouse]
	return ok && nb.ID == bin
}

// step is one planned change of one mapping.
type step struct {
	warehouse, bin int64
	delta          int
}

// apply carries out a plan that has been checked; it cannot fail.
func (inv *Inventory) apply(article int64, steps []step, typ EntryType, ref Reference) {
	for _, s := range steps {
		if s.delta == 0 {
			continue
		}
		m := inv.mapping(article, s.warehouse, s.bin)
		m.stock += s.delta
		inv.touched[m] = true
		inv.entries = append(inv.entries, LedgerEntry{
			ArticleDetailID: article,
			WarehouseID:     m.warehouseID,
			BinLocationID:   m.binLocationID,
			Type:            typ,
			Quantity:        s.delta,
			StockAfter:      m.stock,
			Ref:             ref,
			CreatedAt:       inv.now,
		})
	}
}

func (inv *Inventory) stamp(m *Mapping) {
	t := inv.now
	m.lastStockTake = &t
	inv.touched[m] = true
}

// check refuses what only a caller's mistake produces: these are Internal,
// not a rule the client broke.
func (inv *Inventory) check(article int64, at Location) error {
	if article <= 0 {
		return errs.Invalidf("article detail id must be positive, got %d", article)
	}
	if at.WarehouseID <= 0 || at.BinLocationID < 0 {
		return errs.E(errs.Internal, "location %s is not resolved", at)
	}
	if b, ok := inv.bins[at.BinLocationID]; ok && !at.IsWarehouse() && b.WarehouseID != at.WarehouseID {
		return errs.E(errs.Internal, "%s: bin location %d belongs to warehouse %d", at, b.ID, b.WarehouseID)
	}
	return nil
}

func insufficient(article int64, at Location, requested, available int) error {
	return errs.Invalidf("insufficient stock of article detail %d at %s: requested %d, available %d",
		article, at, requested, available)
}
