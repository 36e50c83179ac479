package stock

import (
	"cmp"
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
	// out repeats.
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
	l := LocationNames{BinIDs: make([]int64, 0, len(s.needs)), BinCodes: make([]BinName, 0, len(s.needs))}
	for _, n := range s.needs {
		k := n.at
		if !k.valid() {
			continue
		}
		if k.warehouse {
			if k.id != 0 {
				l.WarehouseIDs = append(l.WarehouseIDs, k.id)
			}
			if k.code != "" {
				l.WarehouseCodes = append(l.WarehouseCodes, k.code)
			}
			continue
		}
		if k.id != 0 {
			l.BinIDs = append(l.BinIDs, k.id)
		}
		if k.binWarehouseID != 0 {
			l.WarehouseIDs = append(l.WarehouseIDs, k.binWarehouseID)
		}
		if k.binWarehouse != "" {
			l.WarehouseCodes = append(l.WarehouseCodes, k.binWarehouse)
		}
		if k.code != "" && (k.binWarehouseID != 0 || k.binWarehouse != "") {
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

// specKey is a LocationSpec as a comparable value, a map's key.
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
