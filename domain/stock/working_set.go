package stock

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"math"
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
	now      time.Time
	nowStamp *time.Time // now, for the mappings it stamps

	scope Scope
	// index finds where a need is first declared in scope.needs; resolved
	// is what each declaration resolved to.
	index    needIndex
	resolved []resolution
	articles map[int64]bool // the scope's article details that exist

	warehouses map[int64]KnownWarehouse
	byCode     map[string]KnownWarehouse
	// binList holds every bin remembered, bins and binsByCode where in it
	// the last one of an id or code is.
	binList    []Bin
	bins       map[int64]int32
	binsByCode map[int64]map[string]int32 // by warehouse, then code
	// eagerLabels: storage named one id with two codes, so a label built
	// later from the id might not be the one the location was resolved by.
	eagerLabels bool

	loadedWarehouses map[articleWarehouse]bool

	// onBin holds, per article and bin, whether storage loaded its mapping
	// and the mapping seen there. Every mapping seen stays, removable ones
	// included: a persisted mapping that empties stays so that Changes can
	// report it removed, and so that it is the same object again if stock
	// comes back. The slots themselves live in slots, so that one can be
	// changed in place.
	onBin map[mappingKey]int32
	slots []slot
	// lastSlot is where the slot of onBin looked up last is (-1: there is
	// none): an operation asks for the same one several times (is it
	// loaded, what is there, take it).
	lastSlot struct {
		k  mappingKey
		i  int32
		ok bool
	}
	// all are the mappings of onBin in the order they were registered (one
	// that replaces another goes last).
	all []*Mapping
	// byWarehouse lists the mappings of all per article and warehouse, for
	// the warehouses loaded whole: only there may the strategy look.
	byWarehouse map[articleWarehouse][]*Mapping
	entries     []LedgerEntry
	journal     []undo // while an operation runs: how to take it back

	// tracked are the lot-tracked article details, lots the lots they have
	// (KnowLots) and those operations created; changedLots names the lots
	// to write back.
	tracked     map[int64]bool
	lots        map[lotKey]Lot
	changedLots map[lotKey]bool // while an operation runs: how to take it back

	// Buffers the strategy reuses from one call to the next.
	sourceBuf []*Mapping
	rankBuf   []rankedMapping
	stepBuf   []step
}

type slot struct {
	m      *Mapping // nil: none seen
	loaded bool
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
// and stocktakes.
func NewWorkingSet(scope Scope, now time.Time, warehouses []KnownWarehouse, bins []Bin, existing []int64) *WorkingSet {
	ws := &WorkingSet{
		now:        now,
		scope:      scope,
		index:      newNeedIndex(scope.needs),
		resolved:   make([]resolution, len(scope.needs)),
		articles:   make(map[int64]bool, len(existing)),
		warehouses: make(map[int64]KnownWarehouse, len(warehouses)),
		byCode:     make(map[string]KnownWarehouse, len(warehouses)),
		binList:    make([]Bin, 0, len(bins)+len(warehouses)),
		bins:       make(map[int64]int32, len(bins)+len(warehouses)),
		binsByCode: make(map[int64]map[string]int32, len(warehouses)),
	}
	for _, id := range existing {
		ws.articles[id] = true
	}
	// Sized up front: a batch can name thousands of bins, most often in
	// one warehouse.
	for id, n := range binsPerWarehouse(bins) {
		ws.binsByCode[id] = make(map[string]int32, n+1) // and its unknown bin location
	}
	for _, w := range warehouses {
		if known, ok := ws.warehouses[w.ID]; ok && known.Code != w.Code {
			ws.eagerLabels = true
		}
		ws.warehouses[w.ID], ws.byCode[w.Code] = w, w
		if w.NullBinLocationID != 0 {
			ws.rememberBin(Bin{ID: w.NullBinLocationID, WarehouseID: w.ID, Code: warehouse.NullBinLocationCode, IsNull: true})
		}
	}
	for _, b := range bins {
		ws.rememberBin(b)
	}
	if len(ws.bins) < len(ws.binList) {
		for _, b := range ws.binList {
			if known, _ := ws.bin(b.ID); known.Code != b.Code || known.WarehouseID != b.WarehouseID {
				ws.eagerLabels = true
			}
		}
	}
	for i, n := range scope.needs {
		if !n.at.valid() {
			ws.resolved[i] = resolution{err: n.at.spec().Validate("")}
			continue
		}
		at, err := ws.resolveKey(n.at)
		ws.resolved[i] = resolution{at, err}
	}
	return ws
}

// makeRoomForBins sizes the bins' maps for bins to come, which can be
// thousands (most often in one warehouse), so that they are not rehashed
// again and again as they grow.
func (ws *WorkingSet) makeRoomForBins(bins []Bin) {
	if len(bins) == 0 {
		return
	}
	ws.binList = slices.Grow(ws.binList, len(bins))
	ws.bins = roomFor(ws.bins, len(bins))
	for id, n := range binsPerWarehouse(bins) {
		ws.binsByCode[id] = roomFor(ws.binsByCode[id], n)
	}
}

func binsPerWarehouse(bins []Bin) map[int64]int {
	n := make(map[int64]int, 1)
	// Storage lists bins warehouse by warehouse: count each run at once.
	run, count := int64(0), 0
	for _, b := range bins {
		if b.WarehouseID != run || count == 0 {
			if count > 0 {
				n[run] += count
			}
			run, count = b.WarehouseID, 0
		}
		count++
	}
	if count > 0 {
		n[run] += count
	}
	return n
}

// roomFor is m, or when more entries are to come than it holds, a copy of m
// made for all of them.
func roomFor[K comparable, V any](m map[K]V, more int) map[K]V {
	if m != nil && more <= len(m) {
		return m
	}
	bigger := make(map[K]V, len(m)+more)
	maps.Copy(bigger, m)
	return bigger
}

func (ws *WorkingSet) rememberBin(b Bin) {
	if b.Code == warehouse.NullBinLocationCode {
		b.IsNull = true
	}
	i := int32(len(ws.binList))
	ws.binList = append(ws.binList, b)
	ws.bins[b.ID] = i
	codes := ws.binsByCode[b.WarehouseID]
	if codes == nil {
		codes = make(map[string]int32)
		ws.binsByCode[b.WarehouseID] = codes
	}
	codes[b.Code] = i
}

// bin is the bin location of id the working set knows.
func (ws *WorkingSet) bin(id int64) (Bin, bool) {
	i, ok := ws.bins[id]
	if !ok {
		return Bin{}, false
	}
	return ws.binList[i], true
}

// MappingNeeds are the mappings the resolved scope needs, for storage to
// load and lock.
func (ws *WorkingSet) MappingNeeds() MappingNeeds {
	var n MappingNeeds
	var whole map[articleWarehouse]bool
	for i, nd := range ws.scope.needs {
		r := ws.resolved[i]
		if r.err != nil || !ws.articles[nd.article] {
			continue
		}
		if r.at.IsWarehouse() || nd.whole {
			if whole == nil {
				whole = make(map[articleWarehouse]bool)
			}
			whole[articleWarehouse{nd.article, r.at.WarehouseID}] = true
			n.InWarehouse = append(n.InWarehouse, ArticleWarehouse{nd.article, r.at.WarehouseID})
		}
	}
	for i, nd := range ws.scope.needs {
		r := ws.resolved[i]
		if r.err != nil || !ws.articles[nd.article] || r.at.IsWarehouse() || whole[articleWarehouse{nd.article, r.at.WarehouseID}] {
			continue
		}
		if n.OnBin == nil {
			n.OnBin = make([]ArticleBin, 0, len(ws.scope.needs)-len(n.InWarehouse))
		}
		n.OnBin = append(n.OnBin, ArticleBin{nd.article, r.at.BinLocationID})
	}
	n.InWarehouse = sortedUnique(n.InWarehouse, func(a, b ArticleWarehouse) int {
		if c := cmp.Compare(a.ArticleDetailID, b.ArticleDetailID); c != 0 {
			return c
		}
		return cmp.Compare(a.WarehouseID, b.WarehouseID)
	})
	n.OnBin = sortedUniqueArticleBins(n.OnBin)
	return n
}

// sortedUniqueArticleBins sorts by article detail, then bin location, and
// drops repeats. A batch has a thousand of them: ids that fit in 32 bits
// (all of them, in practice) are sorted as one number each, which is
// several times faster than comparing pairs.
func sortedUniqueArticleBins(s []ArticleBin) []ArticleBin {
	for _, ab := range s {
		if uint64(ab.ArticleDetailID) > math.MaxUint32 || uint64(ab.BinLocationID) > math.MaxUint32 {
			return sortedUnique(s, func(a, b ArticleBin) int {
				if c := cmp.Compare(a.ArticleDetailID, b.ArticleDetailID); c != 0 {
					return c
				}
				return cmp.Compare(a.BinLocationID, b.BinLocationID)
			})
		}
	}
	keys := make([]uint64, len(s))
	for i, ab := range s {
		keys[i] = uint64(ab.ArticleDetailID)<<32 | uint64(ab.BinLocationID)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	s = s[:len(keys)]
	for i, k := range keys {
		s[i] = ArticleBin{ArticleDetailID: int64(k >> 32), BinLocationID: int64(k & math.MaxUint32)}
	}
	return s
}

// Loaded takes the mappings storage loaded for what it queried (normally
// MappingNeeds()), with the bins of mappings found by warehouse (their codes
// order the strategy). Only what was queried counts as loaded. Mappings are
// unique per article and bin; a later duplicate replaces an earlier one.
func (ws *WorkingSet) Loaded(queried MappingNeeds, mappings []*Mapping, bins []Bin) {
	if ws.onBin == nil {
		n := max(len(queried.OnBin), len(mappings))
		ws.onBin, ws.slots = make(map[mappingKey]int32, n), make([]slot, 0, n)
	}
	ws.all = slices.Grow(ws.all, len(mappings))
	ws.makeRoomForBins(bins)
	var newlyWhole map[articleWarehouse]bool
	for _, aw := range queried.InWarehouse {
		k := articleWarehouse{aw.ArticleDetailID, aw.WarehouseID}
		if ws.loadedWarehouses[k] {
			continue
		}
		if ws.loadedWarehouses == nil {
			ws.loadedWarehouses = make(map[articleWarehouse]bool, len(queried.InWarehouse))
			ws.byWarehouse = make(map[articleWarehouse][]*Mapping, len(queried.InWarehouse))
		}
		ws.loadedWarehouses[k] = true
		if len(ws.all) > 0 {
			if newlyWhole == nil {
				newlyWhole = make(map[articleWarehouse]bool)
			}
			newlyWhole[k] = true
		}
	}
	// Mappings seen before their warehouse was loaded whole join its list
	// in the order they were seen, as if it had been loaded all along.
	if newlyWhole != nil {
		for _, m := range ws.all {
			if aw := (articleWarehouse{m.articleDetailID, m.warehouseID}); newlyWhole[aw] {
				ws.byWarehouse[aw] = append(ws.byWarehouse[aw], m)
			}
		}
	}
	for _, ab := range queried.OnBin {
		k := mappingKey{ab.ArticleDetailID, ab.BinLocationID}
		ws.slotFor(k).loaded = true
	}
	for _, b := range bins {
		if _, ok := ws.bins[b.ID]; !ok {
			ws.rememberBin(b)
		}
	}
	for _, m := range mappings {
		if m != nil {
			m.touched = false
			if len(m.lots) > 0 {
				m.loadedExpired = ws.countedExpired(m)
			}
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

// undo restores one mapping, or one lot, as it was before an operation
// touched it.
type undo struct {
	m       *Mapping
	before  Mapping
	created bool
	lot     *lotUndo
}

func (u undo) revert(ws *WorkingSet) {
	if u.lot != nil {
		u.lot.revert(ws)
		return
	}
	if u.created {
		k := mappingKey{u.m.articleDetailID, u.m.binLocationID}
		if s := ws.slotFor(k); s.loaded {
			s.m = nil
		} else {
			delete(ws.onBin, k) // its place in slots stays unused
			ws.lastSlot.ok = false
		}
		ws.all = without(ws.all, u.m)
		aw := articleWarehouse{u.m.articleDetailID, u.m.warehouseID}
		if list, ok := ws.byWarehouse[aw]; ok {
			ws.byWarehouse[aw] = without(list, u.m)
		}
		return
	}
	*u.m = u.before
}

// without is list less m; a mapping being taken back is usually the last.
func without(list []*Mapping, m *Mapping) []*Mapping {
	if n := len(list); n > 0 && list[n-1] == m {
		list[n-1] = nil
		return list[:n-1]
	}
	return slices.DeleteFunc(list, func(x *Mapping) bool { return x == m })
}

// touch marks m as changed by the running operation, remembering how it was.
func (ws *WorkingSet) touch(m *Mapping) {
	u := undo{m: m, before: *m}
	u.before.lots = slices.Clone(m.lots) // changed in place
	ws.journal = append(ws.journal, u)
	m.touched = true
}

// slotAt is the slot of k, empty when there is none.
func (ws *WorkingSet) slotAt(k mappingKey) slot {
	if i := ws.slotIndex(k); i >= 0 {
		return ws.slots[i]
	}
	return slot{}
}

// slotFor is the slot of k to change, made when there is none; it stays
// valid until the next slot is made.
func (ws *WorkingSet) slotFor(k mappingKey) *slot {
	i := ws.slotIndex(k)
	if i < 0 {
		if ws.onBin == nil {
			ws.onBin = make(map[mappingKey]int32)
		}
		i = int32(len(ws.slots))
		ws.slots = append(ws.slots, slot{})
		ws.onBin[k] = i
		ws.lastSlot.i = i
	}
	return &ws.slots[i]
}

// slotIndex is where the slot of k is in slots, -1 when there is none.
// Deleting a slot must forget lastSlot.
func (ws *WorkingSet) slotIndex(k mappingKey) int32 {
	if ws.lastSlot.ok && ws.lastSlot.k == k {
		return ws.lastSlot.i
	}
	i, ok := ws.onBin[k]
	if !ok {
		i = -1
	}
	ws.lastSlot.k, ws.lastSlot.i, ws.lastSlot.ok = k, i, true
	return i
}

func (ws *WorkingSet) register(m *Mapping) {
	k := mappingKey{m.articleDetailID, m.binLocationID}
	aw := articleWarehouse{m.articleDetailID, m.warehouseID}
	s := ws.slotFor(k)
	if old := s.m; old != nil {
		ws.all = without(ws.all, old)
		if list, ok := ws.byWarehouse[aw]; ok {
			ws.byWarehouse[aw] = without(list, old)
		}
	}
	s.m = m
	ws.all = append(ws.all, m)
	if ws.loadedWarehouses[aw] {
		ws.byWarehouse[aw] = append(ws.byWarehouse[aw], m)
	}
}

// Mappings is the current state: every mapping that is not removable, ordered
// by article detail, warehouse and bin location.
func (ws *WorkingSet) Mappings() []*Mapping {
	var out []*Mapping
	for _, m := range ws.all {
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
	for _, m := range ws.all {
		switch {
		case m.Removable():
			if m.id != 0 {
				removed = append(removed, m)
			}
		case m.id == 0 || m.touched:
			if upserted == nil {
				upserted = make([]*Mapping, 0, len(ws.all))
			}
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
// without its ordering work: what a caller that only watches needs.
func (ws *WorkingSet) ChangedArticles() []int64 {
	var seen map[int64]bool
	var out []int64
	for _, m := range ws.all {
		if (m.touched || (m.id == 0 && !m.Removable())) && !seen[m.articleDetailID] {
			if seen == nil {
				seen = make(map[int64]bool, len(ws.articles))
			}
			seen[m.articleDetailID] = true
			out = append(out, m.articleDetailID)
		}
	}
	return out
}

// sortMappings orders mappings by article detail, warehouse and bin
// location.
func sortMappings(ms []*Mapping) {
	slices.SortFunc(ms, func(a, b *Mapping) int {
		if c := cmp.Compare(a.articleDetailID, b.articleDetailID); c != 0 {
			return c
		}
		if c := cmp.Compare(a.warehouseID, b.warehouseID); c != 0 {
			return c
		}
		return cmp.Compare(a.binLocationID, b.binLocationID)
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
	i, ok := ws.index.find(need{article, k})
	if !ok {
		return Location{}, errs.E(errs.Internal, "article detail %d at %s was not declared in the scope this working set was loaded for", article, k.describe())
	}
	r := ws.resolved[i]
	return r.at, errs.Within(property, r.err)
}

// Resolve finds the location spec names among the locations loaded for the
// scope, for an operation that must know where it acts before it acts on
// each of its article details (an order shipment names one warehouse for
// all of them).
func (ws *WorkingSet) Resolve(spec LocationSpec) (Location, error) {
	if err := spec.Validate(""); err != nil {
		return Location{}, err
	}
	at, err := ws.resolveKey(keyOf(spec))
	return at.labelled(), err
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

// resolveKey turns a valid spec, as a key, into a location that the working
// set names when it is printed.
func (ws *WorkingSet) resolveKey(k specKey) (Location, error) {
	if k.warehouse {
		w, err := ws.warehouse(WarehouseSpec{ID: k.id, Code: k.code}, "warehouse", "warehouse")
		if err != nil {
			return Location{}, err
		}
		if ws.eagerLabels {
			return Location{WarehouseID: w.ID, Label: warehouseLabel(w.Code)}, nil
		}
		return Location{WarehouseID: w.ID, namedBy: ws}, nil
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
		i, ok := ws.binsByCode[in.ID][k.code]
		if !ok {
			return Location{}, errs.Invalidf("bin location with code %q does not exist in warehouse %q", k.code, in.Code).
				On("binLocation").Breaks(UnknownBinLocation).About(errs.Subject{Warehouse: in.ID})
		}
		b = ws.binList[i]
	}
	if ws.eagerLabels {
		w, ok := ws.warehouses[b.WarehouseID]
		return Location{WarehouseID: b.WarehouseID, BinLocationID: b.ID, Label: binLabel(b.Code, w.Code, ok)}, nil
	}
	return Location{WarehouseID: b.WarehouseID, BinLocationID: b.ID, namedBy: ws}, nil
}

// existing is the mapping of article on bin, nil when there is none in the
// state.
func (ws *WorkingSet) existing(article, bin int64) *Mapping {
	m := ws.slotAt(mappingKey{article, bin}).m
	if m == nil || m.Removable() {
		return nil
	}
	return m
}

// mapping is the mapping of article on bin, created when missing. A
// persisted mapping that was emptied earlier comes back as the same object.
func (ws *WorkingSet) mapping(article, warehouse, bin int64) *Mapping {
	if m := ws.slotAt(mappingKey{article, bin}).m; m != nil {
		return m
	}
	m := NewMapping(bin, warehouse, article)
	ws.register(m)
	ws.journal = append(ws.journal, undo{m: m, created: true})
	return m
}

// inWarehouse yields the mappings of article in warehouse that are in the
// state; the warehouse must have been loaded whole (see check). A loop may
// change the mapping it was given, but not add or remove mappings.
func (ws *WorkingSet) inWarehouse(article, warehouse int64) iter.Seq[*Mapping] {
	return func(yield func(*Mapping) bool) {
		for _, m := range ws.byWarehouse[articleWarehouse{article, warehouse}] {
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
		if ws.entries == nil {
			ws.entries = make([]LedgerEntry, 0, len(ws.scope.needs))
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

func (ws *WorkingSet) stamp(m *Mapping) {
	ws.touch(m)
	// Every stamp is the same time, which nothing can change (a mapping
	// hands out copies): one copy serves them all.
	if ws.nowStamp == nil {
		t := ws.now
		ws.nowStamp = &t
	}
	m.lastStockTake = ws.nowStamp
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
	// A location this working set resolved lies in its warehouse: only
	// one from elsewhere needs the look-up.
	if at.namedBy != ws {
		if b, ok := ws.bin(at.BinLocationID); ok && !at.IsWarehouse() && b.WarehouseID != at.WarehouseID {
			return errs.E(errs.Internal, "%s: bin location %d belongs to warehouse %d", at, b.ID, b.WarehouseID)
		}
	}
	if !ws.loadedWarehouses[articleWarehouse{article, at.WarehouseID}] &&
		(at.IsWarehouse() || !ws.slotAt(mappingKey{article, at.BinLocationID}).loaded) {
		return errs.E(errs.Internal, "the stock of article detail %d at %s was not loaded for this working set", article, at)
	}
	return nil
}

func insufficient(article int64, at Location, requested, available int) error {
	return errs.Invalidf("insufficient stock of article detail %d at %s: requested %d, available %d",
		article, at, requested, available).On("quantity").Breaks(InsufficientStock).About(concerning(article, at))
}
