package stock

import (
	"cmp"
	"fmt"
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
// the same mappings listed by article and warehouse. The rules that act on
// it live in the files named after them (set.go, change.go, relocate.go,
// reserve.go, lot.go; strategy.go picks the bins).
type WorkingSet struct {
	now time.Time

	scope    Scope
	declared map[need]bool                   // every need of the scope
	resolved map[specKey]resolution          // what each location of the scope names
	articles map[int64]bool                  // the scope's article details that exist
	loaded   map[articleWarehouse]bool       // loaded whole: every mapping of the article in the warehouse
	loadedOn map[mappingKey]bool             // loaded: the one mapping of the article on the bin
	byCode   map[string]KnownWarehouse       // warehouses by code
	binCodes map[int64]map[string]Bin        // bins by warehouse, then code
	onBin    map[mappingKey]*Mapping         // every mapping seen
	inWH     map[articleWarehouse][]*Mapping // the same mappings by article and warehouse

	warehouses map[int64]KnownWarehouse
	bins       map[int64]Bin

	// A mapping seen stays in onBin and inWH even when it empties: a
	// persisted one so that Changes reports it removed, and so that it is
	// the same object again if stock comes back.

	entries []LedgerEntry

	// tracked are the lot-tracked article details, lots the lots they have
	// (KnowLots) and those operations created; changedLots names the lots
	// to write back.
	tracked     map[int64]bool
	lots        map[lotKey]Lot
	changedLots map[lotKey]bool

	// undo takes back, last first, what the running operation did.
	undo []func()
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
		scope:       scope,
		declared:    make(map[need]bool, len(scope.needs)),
		resolved:    make(map[specKey]resolution, len(scope.needs)),
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
	for _, n := range scope.needs {
		ws.declared[n.need] = true
		if _, ok := ws.resolved[n.at]; ok {
			continue
		}
		if !n.at.valid() {
			ws.resolved[n.at] = resolution{err: n.at.spec().Validate("")}
			continue
		}
		at, err := ws.resolveKey(n.at)
		ws.resolved[n.at] = resolution{at, err}
	}
	return ws
}

// rememberBin adds a bin location; a later one of the same id or code
// replaces an earlier one.
func (ws *WorkingSet) rememberBin(b Bin) {
	if b.Code == warehouse.NullBinLocationCode {
		b.IsNull = true
	}
	ws.bins[b.ID] = b
	if ws.binCodes[b.WarehouseID] == nil {
		ws.binCodes[b.WarehouseID] = make(map[string]Bin)
	}
	ws.binCodes[b.WarehouseID][b.Code] = b
}

// bin is the bin location of id the working set knows.
func (ws *WorkingSet) bin(id int64) (Bin, bool) {
	b, ok := ws.bins[id]
	return b, ok
}

// MappingNeeds are the mappings the resolved scope needs, for storage to
// load and lock.
func (ws *WorkingSet) MappingNeeds() MappingNeeds {
	var n MappingNeeds
	whole := map[articleWarehouse]bool{}
	for _, nd := range ws.scope.needs {
		if r := ws.resolved[nd.at]; r.err == nil && ws.articles[nd.article] && (r.at.IsWarehouse() || nd.whole) {
			whole[articleWarehouse{nd.article, r.at.WarehouseID}] = true
		}
	}
	for aw := range whole {
		n.InWarehouse = append(n.InWarehouse, ArticleWarehouse{aw.article, aw.warehouse})
	}
	for _, nd := range ws.scope.needs {
		r := ws.resolved[nd.at]
		if r.err != nil || !ws.articles[nd.article] || r.at.IsWarehouse() || whole[articleWarehouse{nd.article, r.at.WarehouseID}] {
			continue
		}
		n.OnBin = append(n.OnBin, ArticleBin{nd.article, r.at.BinLocationID})
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
	for _, aw := range queried.InWarehouse {
		ws.loaded[articleWarehouse{aw.ArticleDetailID, aw.WarehouseID}] = true
	}
	for _, ab := range queried.OnBin {
		ws.loadedOn[mappingKey{ab.ArticleDetailID, ab.BinLocationID}] = true
	}
	for _, b := range bins {
		if _, ok := ws.bins[b.ID]; !ok {
			ws.rememberBin(b)
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
	aw := articleWarehouse{m.articleDetailID, m.warehouseID}
	ws.inWH[aw] = append(ws.inWH[aw], m)
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
			ws.undo[i]()
		}
		ws.entries = ws.entries[:entries]
	}
	clear(ws.undo)
	ws.undo = ws.undo[:0]
	return err
}

// touch marks m as changed by the running operation, remembering how it was.
func (ws *WorkingSet) touch(m *Mapping) {
	before := *m
	before.lots = slices.Clone(m.lots) // changed in place
	ws.undo = append(ws.undo, func() { *m = before })
	m.touched = true
}

// all are the mappings seen, in no particular order.
func (ws *WorkingSet) all() iter.Seq[*Mapping] { return maps.Values(ws.onBin) }

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
		return cmp.Or(cmp.Compare(a.articleDetailID, b.articleDetailID), cmp.Compare(a.warehouseID, b.warehouseID),
			cmp.Compare(a.binLocationID, b.binLocationID))
	})
}

// locate checks the article detail of an operation and finds the location
// it names, as resolved when the working set was built. property prefixes
// messages (`source`, `destination`).
func (ws *WorkingSet) locate(article int64, spec LocationSpec, property string) (Location, error) {
	if err := spec.Validate(property); err != nil {
		return Location{}, err
	}
	if err := ws.checkArticle(article); err != nil {
		return Location{}, err
	}
	k := keyOf(spec)
	if !ws.declared[need{article, k}] {
		return Location{}, errs.E(errs.Internal, "article detail %d at %s was not declared in the scope this working set was loaded for", article, k.describe())
	}
	r := ws.resolved[k]
	if r.err != nil {
		return Location{}, errs.Within(property, r.err)
	}
	return r.at, nil
}

// Resolve finds the location spec names among the locations loaded for the
// scope, for an operation that must know where it acts before it acts on
// each of its article details (an order shipment names one warehouse for
// all of them).
func (ws *WorkingSet) Resolve(spec LocationSpec) (Location, error) {
	if err := spec.Validate(""); err != nil {
		return Location{}, err
	}
	return ws.resolveKey(keyOf(spec))
}

func (ws *WorkingSet) checkArticle(article int64) error {
	if article <= 0 {
		return errs.Invalidf("articleDetailId must be a positive integer").On("articleDetailId").Breaks(UnknownArticleDetail)
	}
	if !ws.articles[article] {
		return errs.Invalidf("article detail %d does not exist", article).On("articleDetailId").Breaks(UnknownArticleDetail).
			About(errs.Subject{ArticleDetail: article})
	}
	return nil
}

func (k specKey) describe() string {
	if k.warehouse {
		return fmt.Sprintf("warehouse %d/%q", k.id, k.code)
	}
	return fmt.Sprintf("bin location %d/%q in warehouse %d/%q", k.id, k.code, k.binWarehouseID, k.binWarehouse)
}

// warehouse finds a warehouse by spec; id and code, when both given, must
// agree. property is the request's property that names it by id and
// byCode the one that names it by code.
func (ws *WorkingSet) warehouse(s WarehouseSpec, property, byCode string) (KnownWarehouse, error) {
	if s.ID != 0 {
		w, ok := ws.warehouses[s.ID]
		if !ok {
			return w, errs.Invalidf("warehouse %d does not exist", s.ID).On(property).Breaks(UnknownWarehouse).
				About(errs.Subject{Warehouse: s.ID})
		}
		if s.Code != "" && s.Code != w.Code {
			return w, errs.Invalidf("warehouse id %d and code %q name different warehouses", s.ID, s.Code).On(byCode).
				Breaks(LocationMismatch).About(errs.Subject{Warehouse: s.ID})
		}
		return w, nil
	}
	w, ok := ws.byCode[s.Code]
	if !ok {
		return w, errs.Invalidf("warehouse with code %q does not exist", s.Code).On(byCode).Breaks(UnknownWarehouse)
	}
	return w, nil
}

// resolveKey turns a valid spec, as a key, into a location with its label.
func (ws *WorkingSet) resolveKey(k specKey) (Location, error) {
	if k.warehouse {
		w, err := ws.warehouse(WarehouseSpec{ID: k.id, Code: k.code}, "warehouse", "warehouse")
		if err != nil {
			return Location{}, err
		}
		return Location{WarehouseID: w.ID, Label: warehouseLabel(w.Code)}, nil
	}
	var in KnownWarehouse
	if k.binWarehouseID != 0 || k.binWarehouse != "" {
		w, err := ws.warehouse(WarehouseSpec{ID: k.binWarehouseID, Code: k.binWarehouse}, "binLocation.warehouseId", "binLocation.warehouseCode")
		if err != nil {
			return Location{}, err
		}
		in = w
	}
	var b Bin
	if k.id != 0 {
		var ok bool
		if b, ok = ws.bin(k.id); !ok {
			return Location{}, errs.Invalidf("bin location %d does not exist", k.id).On("binLocation").Breaks(UnknownBinLocation).
				About(errs.Subject{BinLocation: k.id})
		}
		if k.code != "" && k.code != b.Code {
			return Location{}, errs.Invalidf("bin location id %d and code %q name different bin locations", k.id, k.code).
				On("binLocation").Breaks(LocationMismatch).About(errs.Subject{BinLocation: k.id})
		}
		if (k.binWarehouseID != 0 || k.binWarehouse != "") && in.ID != b.WarehouseID {
			return Location{}, errs.Invalidf("bin location %d is not in warehouse %q", k.id, in.Code).
				On("binLocation").Breaks(LocationMismatch).About(errs.Subject{BinLocation: k.id, Warehouse: in.ID})
		}
	} else {
		var ok bool
		if b, ok = ws.binCodes[in.ID][k.code]; !ok {
			return Location{}, errs.Invalidf("bin location with code %q does not exist in warehouse %q", k.code, in.Code).
				On("binLocation").Breaks(UnknownBinLocation).About(errs.Subject{Warehouse: in.ID})
		}
	}
	w, ok := ws.warehouses[b.WarehouseID]
	return Location{WarehouseID: b.WarehouseID, BinLocationID: b.ID, Label: binLabel(b.Code, w.Code, ok)}, nil
}

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
	ws.undo = append(ws.undo, func() { ws.forget(m) })
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

// step is one planned change of one mapping, and of one of its lots when
// lot is not "".
type step struct {
	warehouse, bin int64
	delta          int
	lot            string
}

// apply carries out a plan that has been checked; it cannot fail.
func (ws *WorkingSet) apply(article int64, steps []step, typ EntryType, ref Reference) {
	for _, s := range steps {
		if s.delta == 0 {
			continue
		}
		m := ws.mapping(article, s.warehouse, s.bin)
		ws.touch(m)
		m.stock += s.delta
		if s.lot != "" {
			m.addLot(s.lot, s.delta, 0)
		}
		ws.entries = append(ws.entries, LedgerEntry{
			ArticleDetailID: article,
			WarehouseID:     m.warehouseID,
			BinLocationID:   m.binLocationID,
			Type:            typ,
			Quantity:        s.delta,
			StockAfter:      m.stock,
			LotNumber:       s.lot,
			Ref:             ref,
			CreatedAt:       ws.now,
		})
	}
}

// stamp records a stocktake on m.
func (ws *WorkingSet) stamp(m *Mapping) {
	ws.touch(m)
	t := ws.now
	m.lastStockTake = &t
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
