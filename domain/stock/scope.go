package stock

import (
	"cmp"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
)

// Scope is what a batch needs loaded before its operations run: each
// operation declares the article details and the locations it acts on, and
// storage loads exactly that (see WorkingSet). Declaring is the only way to
// get stock into a working set, so an operation that forgets a need fails
// with an internal error instead of choosing bins from a partial view.
type Scope struct {
	// needs in the order they were declared, repeats included: every use
	// of a scope (the locations, the articles, the mappings to load) takes
	// out repeats anyway, and a working set indexes the needs once instead
	// of each declaration looking for an earlier one.
	needs []scopeNeed
}

type scopeNeed struct {
	need
	whole bool // every mapping in the location's warehouse
}

// need is an article detail at a location as a client named it.
type need struct {
	article int64
	at      specKey
}

// Add declares that an operation acts on article at the location: on a bin,
// its mapping there; on a warehouse, every mapping of the article in it.
func (s *Scope) Add(article int64, at LocationSpec) {
	s.add(article, at, false)
}

// AddLocation declares a location an operation must find without acting on
// any stock there (a picking list that turns out to need nothing still
// checks the warehouse it was asked for).
func (s *Scope) AddLocation(at LocationSpec) {
	s.add(0, at, false)
}

// AddWarehouseOf declares that an operation needs every mapping of article
// in the warehouse of the location, even when the location is one bin (a
// new default bin location clears the old default of that warehouse).
func (s *Scope) AddWarehouseOf(article int64, at LocationSpec) {
	s.add(article, at, true)
}

func (s *Scope) add(article int64, at LocationSpec, whole bool) {
	s.needs = append(s.needs, scopeNeed{need{article, keyOf(at)}, whole})
}

// ScopeOf is the scope of a batch: the needs of all its operations.
func ScopeOf(ops ...Operation) Scope {
	// Most operations declare one need; a relocation declares two.
	s := Scope{needs: make([]scopeNeed, 0, len(ops))}
	for _, op := range ops {
		if op != nil {
			op.Declare(&s)
		}
	}
	return s
}

// Articles are the article details the scope names, ascending: the order in
// which every writer locks them.
func (s Scope) Articles() []int64 {
	ids := make([]int64, 0, len(s.needs))
	for _, n := range s.needs {
		if n.article > 0 {
			ids = append(ids, n.article)
		}
	}
	return sortedUnique(ids, cmp.Compare[int64])
}

// LocationNames lists every warehouse and bin location a scope names, in
// the ways it names them, so that storage can look them all up in a few
// queries.
type LocationNames struct {
	WarehouseIDs   []int64
	WarehouseCodes []string
	BinIDs         []int64
	BinCodes       []BinName
}

// BinName is a bin location named by code inside a warehouse given by id or
// by code.
type BinName struct {
	WarehouseID   int64
	WarehouseCode string
	Code          string
}

// Locations are the names of the scope's well-formed locations, sorted and
// without repeats.
func (s Scope) Locations() LocationNames {
	var l LocationNames
	// Most needs of a batch name the same few warehouses: a repeat of the
	// last one is left out at once, the rest when sorted.
	addWarehouseID := func(id int64) {
		if n := len(l.WarehouseIDs); n == 0 || l.WarehouseIDs[n-1] != id {
			l.WarehouseIDs = append(l.WarehouseIDs, id)
		}
	}
	addWarehouseCode := func(code string) {
		if n := len(l.WarehouseCodes); n == 0 || l.WarehouseCodes[n-1] != code {
			l.WarehouseCodes = append(l.WarehouseCodes, code)
		}
	}
	for _, n := range s.needs {
		k := n.at
		if !k.valid() {
			continue
		}
		if k.warehouse {
			if k.id != 0 {
				addWarehouseID(k.id)
			}
			if k.code != "" {
				addWarehouseCode(k.code)
			}
			continue
		}
		if k.id != 0 {
			if l.BinIDs == nil {
				l.BinIDs = make([]int64, 0, len(s.needs))
			}
			l.BinIDs = append(l.BinIDs, k.id)
		}
		if k.binWarehouseID != 0 {
			addWarehouseID(k.binWarehouseID)
		}
		if k.binWarehouse != "" {
			addWarehouseCode(k.binWarehouse)
		}
		if k.code != "" && (k.binWarehouseID != 0 || k.binWarehouse != "") {
			if l.BinCodes == nil {
				l.BinCodes = make([]BinName, 0, len(s.needs))
			}
			l.BinCodes = append(l.BinCodes, BinName{WarehouseID: k.binWarehouseID, WarehouseCode: k.binWarehouse, Code: k.code})
		}
	}
	l.WarehouseIDs = sortedUnique(l.WarehouseIDs, cmp.Compare[int64])
	l.WarehouseCodes = sortedUnique(l.WarehouseCodes, strings.Compare)
	l.BinIDs = sortedUnique(l.BinIDs, cmp.Compare[int64])
	l.BinCodes = sortedUnique(l.BinCodes, func(a, b BinName) int {
		if c := cmp.Compare(a.WarehouseID, b.WarehouseID); c != 0 {
			return c
		}
		if c := strings.Compare(a.WarehouseCode, b.WarehouseCode); c != 0 {
			return c
		}
		return strings.Compare(a.Code, b.Code)
	})
	return l
}

// MappingNeeds names the mappings a working set needs: every mapping of an
// article in a warehouse, or the one mapping of an article on a bin. Both
// lists are sorted, the order rows are locked in.
type MappingNeeds struct {
	InWarehouse []ArticleWarehouse
	OnBin       []ArticleBin
}

// ArticleWarehouse is an article detail in a warehouse.
type ArticleWarehouse struct{ ArticleDetailID, WarehouseID int64 }

// ArticleBin is an article detail on a bin location.
type ArticleBin struct{ ArticleDetailID, BinLocationID int64 }

// specKey is a LocationSpec as a comparable value. The numbers and flags
// come first, so that a map hashes them in one piece.
type specKey struct {
	id             int64
	binWarehouseID int64
	warehouse, bin bool
	code           string
	binWarehouse   string
}

func keyOf(s LocationSpec) specKey {
	var k specKey
	if w := s.Warehouse; w != nil {
		k.warehouse, k.id, k.code = true, w.ID, w.Code
	}
	if b := s.BinLocation; b != nil {
		k.bin, k.binWarehouseID, k.binWarehouse = true, b.WarehouseID, b.WarehouseCode
		if !k.warehouse {
			k.id, k.code = b.ID, b.Code
		}
	}
	return k
}

// valid tells whether spec().Validate would accept the spec, without
// building it.
func (k specKey) valid() bool {
	switch {
	case k.warehouse == k.bin:
		return false
	case k.warehouse:
		return k.id != 0 || k.code != ""
	default:
		return k.id != 0 || (k.code != "" && (k.binWarehouseID != 0 || k.binWarehouse != ""))
	}
}

func (k specKey) spec() LocationSpec {
	var s LocationSpec
	if k.warehouse {
		s.Warehouse = &WarehouseSpec{ID: k.id, Code: k.code}
	}
	if k.bin {
		s.BinLocation = &BinLocationSpec{WarehouseID: k.binWarehouseID, WarehouseCode: k.binWarehouse}
		if !k.warehouse {
			s.BinLocation.ID, s.BinLocation.Code = k.id, k.code
		}
	}
	return s
}

func sortedUnique[T comparable](s []T, compare func(a, b T) int) []T {
	slices.SortFunc(s, compare)
	return slices.Compact(s)
}

// needIndex finds where a need is first declared in a scope's needs. A
// batch looks up every one of its thousand needs twice (once to index, once
// when its operation runs): a table of positions that fits in a cache, with
// the needs themselves left where they are, is several times faster for
// that than a map holding each need as its key.
type needIndex struct {
	needs []scopeNeed
	seed  maphash.Seed
	slots []int32 // 1 + a position in needs, 0 for none; a power of two long
}

func newNeedIndex(needs []scopeNeed) needIndex {
	size := 8
	for size < 2*len(needs) {
		size *= 2
	}
	x := needIndex{needs: needs, seed: maphash.MakeSeed(), slots: make([]int32, size)}
	for i := range needs {
		if s := x.slot(needs[i].need); x.slots[s] == 0 {
			x.slots[s] = int32(i + 1)
		}
	}
	return x
}

// find is where n is first declared.
func (x needIndex) find(n need) (int, bool) {
	i := x.slots[x.slot(n)]
	return int(i - 1), i != 0
}

// slot is where n is in the table, or the empty slot where it would go.
func (x needIndex) slot(n need) int {
	mask := uint64(len(x.slots) - 1)
	for s := x.hash(n) & mask; ; s = (s + 1) & mask {
		if i := x.slots[s]; i == 0 || x.needs[i-1].need == n {
			return int(s)
		}
	}
}

// hash is seeded in every part, so that no client can choose ids or codes
// that collide.
func (x needIndex) hash(n need) uint64 {
	numbers := [3]int64{n.article, n.at.id, n.at.binWarehouseID}
	h := maphash.Comparable(x.seed, numbers)
	h ^= bits.RotateLeft64(maphash.String(x.seed, n.at.code), 21)
	h ^= bits.RotateLeft64(maphash.String(x.seed, n.at.binWarehouse), 42)
	if n.at.warehouse {
		h = ^h
	}
	if n.at.bin {
		h = bits.RotateLeft64(h, 1)
	}
	return h
}
