package stock

import (
	"cmp"
	"iter"
	"maps"
	"slices"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/warehouse"
)

type mappingKey struct{ article, bin int64 }

type articleWarehouse struct{ article, warehouse int64 }

// WorkingSet is the stock one batch works on: the locations its operations
// name, resolved once; the article details they act on; and the mappings
// they need, loaded and locked by storage. Operations change it in memory
// one after another (Apply), and Changes hands back what to write in bulk.
//
// It is built in two steps, because which mappings are needed depends on
// what the locations resolve to: NewWorkingSet resolves the scope against
// the warehouses and bins storage found, MappingNeeds says which mappings to
// load, and Loaded takes them. A working set records its scope and what was
// loaded: acting outside of either is an internal error, never a silent
// choice of bins from a partial view.
//
// The stock itself is plain: every mapping seen, by article and bin, and
// those of the warehouses loaded whole by article and warehouse. The rules
// that act on it live in the files named after them (set.go, change.go,
// relocate.go, reserve.go, default_mapping.go, lot.go; strategy.go picks
// the bins, ledger.go writes the changes).
type WorkingSet struct {
	now time.Time
	// stamp is now as a stocktake's stamp: mappings hand out copies of
	// their stamp, so all of them can share this one.
	stamp *time.Time

	scope    Scope
	resolved map[specKey]resolution // what each location of the scope names
	declared map[int64]bool         // the scope's article details
	articles map[int64]bool         // the scope's article details that exist

	warehouses map[int64]KnownWarehouse
	byCode     map[string]KnownWarehouse
	bins       map[int64]Bin
	binCodes   map[int64]map[string]Bin // by warehouse, then code

	// loaded are the articles' warehouses loaded whole, loadedOn the
	// single mappings loaded on their bins.
	loaded   map[articleWarehouse]bool
	loadedOn map[mappingKey]bool

	// onBin holds every mapping seen, and inWH those in the warehouses
	// loaded whole, by article and warehouse: only there may the strategy
	// look. A mapping stays when it empties: a persisted one so that
	// Changes reports it removed, and so that it is the same object again
	// if stock comes back.
	onBin map[mappingKey]*Mapping
	inWH  map[articleWarehouse][]*Mapping

	entries []LedgerEntry

	// tracked are the lot-tracked article details, lots the lots they have
	// (KnowLots) and those operations created; changedLots names the lots
	// to write back.
	tracked     map[int64]bool
	lots        map[lotKey]Lot
	changedLots map[lotKey]bool

	// undo is what the running operation did, to be taken back last first
	// when it fails.
	undo []undo

	// anyLocked: some bin the working set knows is locked by a count
	// (locks.go); while none is, the lock checks cost nothing.
	anyLocked bool
}

// undo takes back one step of an operation: a mapping's state (m, was),
// or any other step (back).
type undo struct {
	m    *Mapping
	was  Mapping
	back func()
}

// KnownWarehouse is what a working set needs to know of a warehouse.
type KnownWarehouse struct {
	ID                int64
	Code              string
	NullBinLocationID int64
}

type resolution struct {
	at  Location
	err error
}

// NewWorkingSet resolves every location of scope against the warehouses and
// bins that storage found for scope.Locations(); existing are the scope's
// article details that exist (locked by storage). now stamps ledger entries
// and stocktakes, and decides which lots are expired.
func NewWorkingSet(scope Scope, now time.Time, warehouses []KnownWarehouse, bins []Bin, existing []int64) *WorkingSet {
	ws := &WorkingSet{
		now:         now,
		stamp:       &now,
		scope:       scope,
		resolved:    make(map[specKey]resolution, len(scope.needs)),
		declared:    make(map[int64]bool),
		articles:    make(map[int64]bool, len(existing)),
		loaded:      make(map[articleWarehouse]bool),
		loadedOn:    make(map[mappingKey]bool, len(scope.needs)),
		warehouses:  make(map[int64]KnownWarehouse, len(warehouses)),
		byCode:      make(map[string]KnownWarehouse, len(warehouses)),
		bins:        make(map[int64]Bin, len(bins)+len(warehouses)),
		binCodes:    make(map[int64]map[string]Bin, len(warehouses)),
		entries:     make([]LedgerEntry, 0, len(scope.needs)),
		onBin:       make(map[mappingKey]*Mapping, len(scope.needs)),
		inWH:        make(map[articleWarehouse][]*Mapping),
		tracked:     make(map[int64]bool),
		lots:        make(map[lotKey]Lot),
		changedLots: make(map[lotKey]bool),
	}
	for _, id := range existing {
		ws.articles[id] = true
	}
	// A batch can name thousands of bins, most often in one warehouse.
	perWarehouse := map[int64]int{}
	for _, b := range bins {
		perWarehouse[b.WarehouseID]++
	}
	for id, n := range perWarehouse {
		ws.binCodes[id] = make(map[string]Bin, n+1) // and the unknown bin location
	}
	for _, w := range warehouses {
		ws.warehouses[w.ID], ws.byCode[w.Code] = w, w
		if w.NullBinLocationID != 0 {
			ws.rememberBin(Bin{ID: w.NullBinLocationID, WarehouseID: w.ID, Code: warehouse.NullBinLocationCode, IsNull: true})
		}
	}
	for _, b := range bins {
		ws.rememberBin(b)
	}
	// Each location once, however many needs name it.
	for _, n := range scope.needs {
		ws.declared[n.article] = true
		if _, ok := ws.resolved[n.at]; ok {
			continue
		}
		var r resolution
		if !n.at.valid() {
			r.err = n.at.spec().Validate("")
		} else {
			r.at, r.err = ws.resolveKey(n.at)
		}
		ws.resolved[n.at] = r
	}
	return ws
}

// rememberBin adds a bin location of the scope; a later one of the same
// id or code replaces an earlier one. Bins learnt later (knowBin) are
// known by id only: the scope's locations are resolved by then.
func (ws *WorkingSet) rememberBin(b Bin) {
	ws.knowBin(b)
	b = ws.bins[b.ID]
	if ws.binCodes[b.WarehouseID] == nil {
		ws.binCodes[b.WarehouseID] = make(map[string]Bin)
	}
	ws.binCodes[b.WarehouseID][b.Code] = b
}

func (ws *WorkingSet) knowBin(b Bin) {
	if b.Code == warehouse.NullBinLocationCode {
		b.IsNull = true
	}
	ws.anyLocked = ws.anyLocked || b.LockedBy != 0
	ws.bins[b.ID] = b
}

// bin is the bin location of id the working set knows.
func (ws *WorkingSet) bin(id int64) (Bin, bool) {
	b, ok := ws.bins[id]
	return b, ok
}

// MappingNeeds are the mappings the resolved scope needs, for storage to
// load and lock.
func (ws *WorkingSet) MappingNeeds() MappingNeeds {
	type acting struct {
		article int64
		at      Location
		whole   bool
	}
	found := make([]acting, 0, len(ws.scope.needs)) // the needs of existing articles at locations that exist
	for _, nd := range ws.scope.needs {
		if r := ws.resolved[nd.at]; r.err == nil && ws.articles[nd.article] {
			found = append(found, acting{nd.article, r.at, nd.whole || r.at.IsWarehouse()})
		}
	}
	var n MappingNeeds
	whole := map[articleWarehouse]bool{}
	for _, f := range found {
		if f.whole {
			whole[articleWarehouse{f.article, f.at.WarehouseID}] = true
			n.InWarehouse = append(n.InWarehouse, ArticleWarehouse{f.article, f.at.WarehouseID})
		}
	}
	for _, f := range found {
		if !f.whole && !whole[articleWarehouse{f.article, f.at.WarehouseID}] {
			n.OnBin = append(n.OnBin, ArticleBin{f.article, f.at.BinLocationID})
		}
	}
	n.InWarehouse = sortedUnique(n.InWarehouse, func(a, b ArticleWarehouse) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), cmp.Compare(a.WarehouseID, b.WarehouseID))
	})
	n.OnBin = sortedUnique(n.OnBin, func(a, b ArticleBin) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), cmp.Compare(a.BinLocationID, b.BinLocationID))
	})
	return n
}

// Loaded takes the mappings storage loaded for what it queried (normally
// MappingNeeds()), with the bins of mappings found by warehouse (their codes
// order the strategy). Only what was queried counts as loaded. Mappings are
// unique per article and bin; a later duplicate replaces an earlier one.
func (ws *WorkingSet) Loaded(queried MappingNeeds, mappings []*Mapping, bins []Bin) {
	newlyWhole := map[articleWarehouse]bool{}
	for _, aw := range queried.InWarehouse {
		if k := (articleWarehouse{aw.ArticleDetailID, aw.WarehouseID}); !ws.loaded[k] {
			ws.loaded[k], newlyWhole[k] = true, true
		}
	}
	// Mappings seen before their warehouse was loaded whole join its list.
	if len(newlyWhole) > 0 {
		for _, m := range ws.onBin {
			if aw := (articleWarehouse{m.articleDetailID, m.warehouseID}); newlyWhole[aw] {
				ws.inWH[aw] = append(ws.inWH[aw], m)
			}
		}
	}
	for _, ab := range queried.OnBin {
		ws.loadedOn[mappingKey{ab.ArticleDetailID, ab.BinLocationID}] = true
	}
	for _, b := range bins {
		if _, ok := ws.bins[b.ID]; !ok {
			ws.knowBin(b)
		}
	}
	for _, m := range mappings {
		if m == nil {
			continue
		}
		m.touched = false
		if len(m.lots) > 0 {
			m.loadedExpired = ws.countedExpired(m)
		}
		k := mappingKey{m.articleDetailID, m.binLocationID}
		if old := ws.onBin[k]; old != nil {
			ws.forget(old)
		}
		ws.add(m)
	}
}

// add puts m into the stock; forget takes it out.
func (ws *WorkingSet) add(m *Mapping) {
	ws.onBin[mappingKey{m.articleDetailID, m.binLocationID}] = m
	if aw := (articleWarehouse{m.articleDetailID, m.warehouseID}); ws.loaded[aw] {
		ws.inWH[aw] = append(ws.inWH[aw], m)
	}
}

func (ws *WorkingSet) forget(m *Mapping) {
	delete(ws.onBin, mappingKey{m.articleDetailID, m.binLocationID})
	aw := articleWarehouse{m.articleDetailID, m.warehouseID}
	ws.inWH[aw] = slices.DeleteFunc(ws.inWH[aw], func(x *Mapping) bool { return x == m })
}

// Apply runs one operation: it succeeds completely, or returns its error
// and leaves the working set as it was. Every change an operation makes
// goes through touch, mapping or setLot, each of which first records how
// to take it back; a failure runs those records last first.
func (ws *WorkingSet) Apply(op Operation, ref Reference) error {
	entries := len(ws.entries)
	err := op.Run(ws, ref)
	if err != nil {
		for i := len(ws.undo) - 1; i >= 0; i-- {
			if u := ws.undo[i]; u.back != nil {
				u.back()
			} else {
				*u.m = u.was
			}
		}
		ws.entries = ws.entries[:entries]
	}
	clear(ws.undo)
	ws.undo = ws.undo[:0]
	return err
}

// touch marks m as changed by the running operation, remembering how it was.
func (ws *WorkingSet) touch(m *Mapping) {
	u := undo{m: m, was: *m}
	u.was.lots = slices.Clone(m.lots) // changed in place
	ws.undo = append(ws.undo, u)
	m.touched = true
}

// all are the mappings seen, in no particular order.
func (ws *WorkingSet) all() iter.Seq[*Mapping] { return maps.Values(ws.onBin) }

// existing is the mapping of article on bin, nil when there is none in the
// state.
func (ws *WorkingSet) existing(article, bin int64) *Mapping {
	m := ws.onBin[mappingKey{article, bin}]
	if m == nil || m.Removable() {
		return nil
	}
	return m
}

// mapping is the mapping of article on bin, created when missing. A
// persisted mapping that was emptied earlier comes back as the same object.
func (ws *WorkingSet) mapping(article, warehouse, bin int64) *Mapping {
	if m := ws.onBin[mappingKey{article, bin}]; m != nil {
		return m
	}
	m := NewMapping(bin, warehouse, article)
	ws.add(m)
	ws.undo = append(ws.undo, undo{back: func() { ws.forget(m) }})
	return m
}

// inWarehouse yields the mappings of article in warehouse that are in the
// state; the warehouse must have been loaded whole (see check). A loop may
// change the mapping it was given, but not add or remove mappings.
func (ws *WorkingSet) inWarehouse(article, warehouse int64) iter.Seq[*Mapping] {
	return func(yield func(*Mapping) bool) {
		for _, m := range ws.inWH[articleWarehouse{article, warehouse}] {
			if !m.Removable() && !yield(m) {
				return
			}
		}
	}
}

func (ws *WorkingSet) isNullBin(bin int64) bool {
	b, ok := ws.bin(bin)
	return ok && b.IsNull
}

func (ws *WorkingSet) nullBin(warehouse int64) (int64, bool) {
	w, ok := ws.warehouses[warehouse]
	return w.NullBinLocationID, ok && w.NullBinLocationID != 0
}

// stocktake records a stocktake on m.
func (ws *WorkingSet) stocktake(m *Mapping) {
	ws.touch(m)
	m.lastStockTake = ws.stamp
}

// check refuses what only a caller's mistake produces: these are Internal,
// not a rule the client broke. A location whose stock was not loaded is
// one: acting on it would choose bins from what happens to be in memory.
func (ws *WorkingSet) check(article int64, at Location) error {
	if err := ws.checkArticle(article); err != nil {
		return err
	}
	if at.WarehouseID <= 0 || at.BinLocationID < 0 {
		return errs.E(errs.Internal, "location %s is not resolved", at)
	}
	if b, ok := ws.bin(at.BinLocationID); ok && !at.IsWarehouse() && b.WarehouseID != at.WarehouseID {
		return errs.E(errs.Internal, "%s: bin location %d belongs to warehouse %d", at, b.ID, b.WarehouseID)
	}
	if !ws.loaded[articleWarehouse{article, at.WarehouseID}] &&
		(at.IsWarehouse() || !ws.loadedOn[mappingKey{article, at.BinLocationID}]) {
		return errs.E(errs.Internal, "the stock of article detail %d at %s was not loaded for this working set", article, at)
	}
	return nil
}

func insufficient(article int64, at Location, requested, available int) error {
	return errs.Invalidf("insufficient stock of article detail %d at %s: requested %d, available %d",
		article, at, requested, available).On("quantity").Breaks(InsufficientStock).About(concerning(article, at))
}
