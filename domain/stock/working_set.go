package stock

import (
	"cmp"
	"fmt"
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
type WorkingSet struct {
	now time.Time

	scope    Scope
	resolved map[need]resolution
	articles map[int64]bool // the scope's article details that exist

	warehouses map[int64]KnownWarehouse
	byCode     map[string]KnownWarehouse
	bins       map[int64]Bin
	binsByCode map[binCode]Bin

	loadedWarehouses map[articleWarehouse]bool
	loadedBins       map[mappingKey]bool

	// mappings holds every mapping seen, removable ones included: a persisted
	// mapping that empties stays here so that Changes can report it removed,
	// and so that it is the same object again if stock comes back.
	mappings    map[mappingKey]*Mapping
	byWarehouse map[articleWarehouse][]*Mapping
	touched     map[*Mapping]bool
	entries     []LedgerEntry
	journal     []undo // while an operation runs: how to take it back
}

// KnownWarehouse is what a working set needs to know of a warehouse.
type KnownWarehouse struct {
	ID                int64
	Code              string
	NullBinLocationID int64
}

type binCode struct {
	warehouse int64
	code      string
}

type resolution struct {
	at  Location
	err error
}

// NewWorkingSet resolves every location of scope against the warehouses and
// bins that storage found for scope.Locations(); existing are the scope's
// article details that exist (locked by storage). now stamps ledger entries
// and stocktakes.
func NewWorkingSet(scope Scope, now time.Time, warehouses []KnownWarehouse, bins []Bin, existing []int64) *WorkingSet {
	ws := &WorkingSet{
		now:              now,
		scope:            scope,
		resolved:         make(map[need]resolution, len(scope.needs)),
		articles:         make(map[int64]bool, len(existing)),
		warehouses:       make(map[int64]KnownWarehouse, len(warehouses)),
		byCode:           make(map[string]KnownWarehouse, len(warehouses)),
		bins:             make(map[int64]Bin, len(bins)),
		binsByCode:       make(map[binCode]Bin, len(bins)),
		loadedWarehouses: make(map[articleWarehouse]bool),
		loadedBins:       make(map[mappingKey]bool),
		mappings:         make(map[mappingKey]*Mapping),
		byWarehouse:      make(map[articleWarehouse][]*Mapping),
		touched:          make(map[*Mapping]bool),
	}
	for _, id := range existing {
		ws.articles[id] = true
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
	for n := range scope.needs {
		spec := n.at.spec()
		if err := spec.Validate(""); err != nil {
			ws.resolved[n] = resolution{err: err}
			continue
		}
		at, err := ws.resolve(spec)
		ws.resolved[n] = resolution{at, err}
	}
	return ws
}

func (ws *WorkingSet) rememberBin(b Bin) {
	if b.Code == warehouse.NullBinLocationCode {
		b.IsNull = true
	}
	ws.bins[b.ID] = b
	ws.binsByCode[binCode{b.WarehouseID, b.Code}] = b
}

// MappingNeeds are the mappings the resolved scope needs, for storage to
// load and lock.
func (ws *WorkingSet) MappingNeeds() MappingNeeds {
	var n MappingNeeds
	whole := map[articleWarehouse]bool{}
	for nd, wholeWarehouse := range ws.scope.needs {
		r := ws.resolved[nd]
		if r.err != nil || !ws.articles[nd.article] {
			continue
		}
		if r.at.IsWarehouse() || wholeWarehouse {
			whole[articleWarehouse{nd.article, r.at.WarehouseID}] = true
			n.InWarehouse = append(n.InWarehouse, ArticleWarehouse{nd.article, r.at.WarehouseID})
		}
	}
	for nd := range ws.scope.needs {
		r := ws.resolved[nd]
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
		ws.loadedWarehouses[articleWarehouse{aw.ArticleDetailID, aw.WarehouseID}] = true
	}
	for _, ab := range queried.OnBin {
		ws.loadedBins[mappingKey{ab.ArticleDetailID, ab.BinLocationID}] = true
	}
	for _, b := range bins {
		if _, ok := ws.bins[b.ID]; !ok {
			ws.rememberBin(b)
		}
	}
	for _, m := range mappings {
		if m != nil {
			ws.register(m)
		}
	}
}

// Apply runs one operation: it succeeds completely, or returns its error
// and leaves the working set as it was.
func (ws *WorkingSet) Apply(op Operation, ref Reference) error {
	ws.journal = ws.journal[:0]
	entries := len(ws.entries)
	err := op.Run(ws, ref)
	if err != nil {
		for i := len(ws.journal) - 1; i >= 0; i-- {
			ws.journal[i].revert(ws)
		}
		ws.entries = ws.entries[:entries]
	}
	ws.journal = ws.journal[:0]
	return err
}

// undo restores one mapping as it was before an operation touched it.
type undo struct {
	m       *Mapping
	before  Mapping
	touched bool
	created bool
}

func (u undo) revert(ws *WorkingSet) {
	if u.created {
		k := mappingKey{u.m.articleDetailID, u.m.binLocationID}
		aw := articleWarehouse{u.m.articleDetailID, u.m.warehouseID}
		delete(ws.mappings, k)
		ws.byWarehouse[aw] = slices.DeleteFunc(ws.byWarehouse[aw], func(x *Mapping) bool { return x == u.m })
		delete(ws.touched, u.m)
		return
	}
	*u.m = u.before
	if !u.touched {
		delete(ws.touched, u.m)
	}
}

// touch marks m as changed by the running operation, remembering how it was.
func (ws *WorkingSet) touch(m *Mapping) {
	ws.journal = append(ws.journal, undo{m: m, before: *m, touched: ws.touched[m]})
	ws.touched[m] = true
}

func (ws *WorkingSet) register(m *Mapping) {
	k := mappingKey{m.articleDetailID, m.binLocationID}
	aw := articleWarehouse{m.articleDetailID, m.warehouseID}
	if old, ok := ws.mappings[k]; ok {
		ws.byWarehouse[aw] = slices.DeleteFunc(ws.byWarehouse[aw], func(x *Mapping) bool { return x == old })
	}
	ws.mappings[k] = m
	ws.byWarehouse[aw] = append(ws.byWarehouse[aw], m)
}

// Mappings is the current state: every mapping that is not removable, ordered
// by article detail, warehouse and bin location.
func (ws *WorkingSet) Mappings() []*Mapping {
	var out []*Mapping
	for _, m := range ws.ordered() {
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
func (ws *WorkingSet) Changes() (upserted []*Mapping, removed []*Mapping, entries []LedgerEntry) {
	for _, m := range ws.ordered() {
		switch {
		case m.Removable():
			if m.id != 0 {
				removed = append(removed, m)
			}
		case m.id == 0 || ws.touched[m]:
			upserted = append(upserted, m)
		}
	}
	return upserted, removed, slices.Clone(ws.entries)
}

// ChangedArticles are the article details whose mappings Changes writes,
// without its ordering work: what a caller that only watches needs.
func (ws *WorkingSet) ChangedArticles() []int64 {
	seen := make(map[int64]bool)
	var out []int64
	for _, m := range ws.mappings {
		if (ws.touched[m] || (m.id == 0 && !m.Removable())) && !seen[m.articleDetailID] {
			seen[m.articleDetailID] = true
			out = append(out, m.articleDetailID)
		}
	}
	return out
}

func (ws *WorkingSet) ordered() []*Mapping {
	out := make([]*Mapping, 0, len(ws.mappings))
	for _, m := range ws.mappings {
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
	r, ok := ws.resolved[need{article, keyOf(spec)}]
	if !ok {
		return Location{}, errs.E(errs.Internal, "article detail %d at %s was not declared in the scope this working set was loaded for", article, keyOf(spec).describe())
	}
	return r.at, r.err
}

// Resolve finds the location spec names among the locations loaded for the
// scope, for an operation that must know where it acts before it acts on
// each of its article details (an order shipment names one warehouse for
// all of them).
func (ws *WorkingSet) Resolve(spec LocationSpec) (Location, error) {
	if err := spec.Validate(""); err != nil {
		return Location{}, err
	}
	return ws.resolve(spec)
}

func (ws *WorkingSet) checkArticle(article int64) error {
	if article <= 0 {
		return errs.Invalidf("articleDetailId must be a positive integer")
	}
	if !ws.articles[article] {
		return errs.Invalidf("article detail %d does not exist", article)
	}
	return nil
}

func (k specKey) describe() string {
	if k.warehouse {
		return fmt.Sprintf("warehouse %d/%q", k.id, k.code)
	}
	return fmt.Sprintf("bin location %d/%q in warehouse %d/%q", k.id, k.code, k.binWarehouseID, k.binWarehouse)
}

// warehouse finds a warehouse by spec; id and code, when both given, must agree.
func (ws *WorkingSet) warehouse(s WarehouseSpec) (KnownWarehouse, error) {
	if s.ID != 0 {
		w, ok := ws.warehouses[s.ID]
		if !ok {
			return w, errs.Invalidf("warehouse %d does not exist", s.ID)
		}
		if s.Code != "" && s.Code != w.Code {
			return w, errs.Invalidf("warehouse id %d and code %q name different warehouses", s.ID, s.Code)
		}
		return w, nil
	}
	w, ok := ws.byCode[s.Code]
	if !ok {
		return w, errs.Invalidf("warehouse with code %q does not exist", s.Code)
	}
	return w, nil
}

// resolve turns a validated spec into a location.
func (ws *WorkingSet) resolve(s LocationSpec) (Location, error) {
	if s.Warehouse != nil {
		w, err := ws.warehouse(*s.Warehouse)
		if err != nil {
			return Location{}, err
		}
		return Location{WarehouseID: w.ID, Label: fmt.Sprintf("warehouse %q", w.Code)}, nil
	}
	spec := *s.BinLocation
	var in *KnownWarehouse
	if spec.WarehouseID != 0 || spec.WarehouseCode != "" {
		w, err := ws.warehouse(WarehouseSpec{ID: spec.WarehouseID, Code: spec.WarehouseCode})
		if err != nil {
			return Location{}, err
		}
		in = &w
	}
	var b Bin
	if spec.ID != 0 {
		var ok bool
		if b, ok = ws.bins[spec.ID]; !ok {
			return Location{}, errs.Invalidf("bin location %d does not exist", spec.ID)
		}
		if spec.Code != "" && spec.Code != b.Code {
			return Location{}, errs.Invalidf("bin location id %d and code %q name different bin locations", spec.ID, spec.Code)
		}
		if in != nil && in.ID != b.WarehouseID {
			return Location{}, errs.Invalidf("bin location %d is not in warehouse %q", spec.ID, in.Code)
		}
	} else {
		var ok bool
		if b, ok = ws.binsByCode[binCode{in.ID, spec.Code}]; !ok {
			return Location{}, errs.Invalidf("bin location with code %q does not exist in warehouse %q", spec.Code, in.Code)
		}
	}
	label := fmt.Sprintf("bin location %q", b.Code)
	if w, ok := ws.warehouses[b.WarehouseID]; ok {
		label += fmt.Sprintf(" in warehouse %q", w.Code)
	}
	return Location{WarehouseID: b.WarehouseID, BinLocationID: b.ID, Label: label}, nil
}

// existing is the mapping of article on bin, nil when there is none in the
// state.
func (ws *WorkingSet) existing(article, bin int64) *Mapping {
	m := ws.mappings[mappingKey{article, bin}]
	if m == nil || m.Removable() {
		return nil
	}
	return m
}

// mapping is the mapping of article on bin, created when missing. A
// persisted mapping that was emptied earlier comes back as the same object.
func (ws *WorkingSet) mapping(article, warehouse, bin int64) *Mapping {
	if m, ok := ws.mappings[mappingKey{article, bin}]; ok {
		return m
	}
	m := NewMapping(bin, warehouse, article)
	ws.register(m)
	ws.journal = append(ws.journal, undo{m: m, created: true})
	return m
}

// inWarehouse lists the mappings of article in warehouse that are in the
// state.
func (ws *WorkingSet) inWarehouse(article, warehouse int64) []*Mapping {
	var out []*Mapping
	for _, m := range ws.byWarehouse[articleWarehouse{article, warehouse}] {
		if !m.Removable() {
			out = append(out, m)
		}
	}
	return out
}

func (ws *WorkingSet) isNullBin(bin int64) bool {
	b, ok := ws.bins[bin]
	return ok && b.IsNull
}

func (ws *WorkingSet) nullBin(warehouse int64) (int64, bool) {
	w, ok := ws.warehouses[warehouse]
	return w.NullBinLocationID, ok && w.NullBinLocationID != 0
}

// step is one planned change of one mapping.
type step struct {
	warehouse, bin int64
	delta          int
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
		ws.entries = append(ws.entries, LedgerEntry{
			ArticleDetailID: article,
			WarehouseID:     m.warehouseID,
			BinLocationID:   m.binLocationID,
			Type:            typ,
			Quantity:        s.delta,
			StockAfter:      m.stock,
			Ref:             ref,
			CreatedAt:       ws.now,
		})
	}
}

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
	if b, ok := ws.bins[at.BinLocationID]; ok && !at.IsWarehouse() && b.WarehouseID != at.WarehouseID {
		return errs.E(errs.Internal, "%s: bin location %d belongs to warehouse %d", at, b.ID, b.WarehouseID)
	}
	if !ws.loadedWarehouses[articleWarehouse{article, at.WarehouseID}] &&
		(at.IsWarehouse() || !ws.loadedBins[mappingKey{article, at.BinLocationID}]) {
		return errs.E(errs.Internal, "the stock of article detail %d at %s was not loaded for this working set", article, at)
	}
	return nil
}

func insufficient(article int64, at Location, requested, available int) error {
	return errs.Invalidf("insufficient stock of article detail %d at %s: requested %d, available %d",
		article, at, requested, available)
}
