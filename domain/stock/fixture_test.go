package stock

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/warehouse"
)

// Two warehouses. In WH1 the shelf ids run against their codes, so that an
// order by code is not an order by id by accident.
const (
	wh1    = 1
	null1  = 10
	shelfC = 11 // "C-01"
	shelfB = 12 // "B-01"
	shelfA = 13 // "A-01"

	wh2    = 2
	null2  = 20
	shelfD = 21 // "D-01"

	article = 7
	other   = 8 // another article detail
)

var (
	now     = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	earlier = time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)

	bins = []Bin{
		{ID: null1, WarehouseID: wh1, Code: warehouse.NullBinLocationCode, IsNull: true},
		{ID: shelfC, WarehouseID: wh1, Code: "C-01"},
		{ID: shelfB, WarehouseID: wh1, Code: "B-01"},
		{ID: shelfA, WarehouseID: wh1, Code: "A-01"},
		{ID: null2, WarehouseID: wh2, Code: warehouse.NullBinLocationCode, IsNull: true},
		{ID: shelfD, WarehouseID: wh2, Code: "D-01"},
	}

	knownWarehouses = []KnownWarehouse{{ID: wh1, Code: "WH1", NullBinLocationID: null1}, {ID: wh2, Code: "WH2", NullBinLocationID: null2}}

	inWH1 = Location{WarehouseID: wh1, Label: `warehouse "WH1"`}
	inWH2 = Location{WarehouseID: wh2, Label: `warehouse "WH2"`}
	atA   = binAt(shelfA)
	atB   = binAt(shelfB)
	atC   = binAt(shelfC)
	atD   = binAt(shelfD)
	atN1  = binAt(null1)

	ref = Reference{IdempotencyKey: "key-1", OperationID: `"op-1"`, User: "api"}
)

func binOf(id int64) Bin {
	for _, b := range bins {
		if b.ID == id {
			return b
		}
	}
	panic(fmt.Sprintf("no bin %d", id))
}

func binAt(id int64) Location {
	b := binOf(id)
	return Location{WarehouseID: b.WarehouseID, BinLocationID: b.ID,
		Label: fmt.Sprintf("bin location %q in warehouse \"WH%d\"", b.Code, b.WarehouseID)}
}

// row is a mapping as the tests write it; article 0 means `article`.
type row struct {
	bin      int64
	stock    int
	reserved int
	def      bool
	article  int64
}

func (r row) String() string {
	s := fmt.Sprintf("%s:%d", binOf(r.bin).Code, r.stock)
	if r.reserved > 0 {
		s += fmt.Sprintf("(r%d)", r.reserved)
	}
	if r.def {
		s += "*"
	}
	if r.article != 0 && r.article != article {
		s += fmt.Sprintf("[ad %d]", r.article)
	}
	return s
}

// load builds an Inventory from stored mappings with ids 100, 101, …
func load(t *testing.T, rows ...row) *WorkingSet {
	t.Helper()
	var ms []*Mapping
	for i, r := range rows {
		a := cmp.Or(r.article, article)
		m, err := UnmarshalMappingFromDatabase(int64(100+i), r.bin, binOf(r.bin).WarehouseID, a, r.stock, r.reserved, r.def, nil)
		if err != nil {
			t.Fatalf("load %v: %v", r, err)
		}
		ms = append(ms, m)
	}
	return loadFull(ms)
}

// loadFull builds a working set whose scope covers both articles at every
// location of the fixture, with ms as everything storage found.
func loadFull(ms []*Mapping) *WorkingSet {
	ws := fullSet()
	ws.Loaded(ws.MappingNeeds(), ms, nil)
	return ws
}

// fullSet is a working set whose scope covers both articles at every
// location of the fixture, before anything is loaded.
func fullSet() *WorkingSet {
	var scope Scope
	for _, a := range []int64{article, other} {
		for _, w := range knownWarehouses {
			scope.Add(a, LocationSpec{Warehouse: &WarehouseSpec{ID: w.ID}})
		}
		for _, b := range bins {
			scope.Add(a, LocationSpec{BinLocation: &BinLocationSpec{ID: b.ID}})
		}
	}
	return NewWorkingSet(scope, now, knownWarehouses, bins, []int64{article, other})
}

func rowsOf(ms []*Mapping) []row {
	out := []row{}
	for _, m := range ms {
		out = append(out, row{bin: m.BinLocationID(), stock: m.Stock(), reserved: m.ReservedStock(), def: m.IsDefault(), article: m.ArticleDetailID()})
	}
	return out
}

func state(inv *WorkingSet) []row { return rowsOf(inv.Mappings()) }

// want normalises expected rows the way rowsOf reports them.
func want(rows ...row) []row {
	out := []row{}
	for _, r := range rows {
		r.article = cmp.Or(r.article, article)
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.article, b.article),
			cmp.Compare(binOf(a.bin).WarehouseID, binOf(b.bin).WarehouseID), cmp.Compare(a.bin, b.bin))
	})
	return out
}

// move is a ledger entry reduced to where and how much.
type move struct {
	bin      int64
	quantity int
}

func (m move) String() string { return fmt.Sprintf("%s%+d", binOf(m.bin).Code, m.quantity) }

func moves(inv *WorkingSet) []move {
	_, _, entries := inv.Changes()
	out := []move{}
	for _, e := range entries {
		out = append(out, move{e.BinLocationID, e.Quantity})
	}
	return out
}

func entries(inv *WorkingSet) []LedgerEntry {
	_, _, e := inv.Changes()
	return e
}

// snapshot is everything an Inventory shows, copied, to prove that a failed
// operation left it alone.
type snapshot struct {
	state, upserted, removed []Mapping
	entries                  []LedgerEntry
}

func snap(inv *WorkingSet) snapshot {
	values := func(ms []*Mapping) []Mapping {
		out := []Mapping{}
		for _, m := range ms {
			out = append(out, *m)
		}
		return out
	}
	u, r, e := inv.Changes()
	return snapshot{values(inv.Mappings()), values(u), values(r), e}
}

func assertUnchanged(t *testing.T, inv *WorkingSet, before snapshot) {
	t.Helper()
	if after := snap(inv); !reflect.DeepEqual(before, after) {
		t.Errorf("a failed operation changed the inventory:\nbefore %+v\nafter  %+v", before, after)
	}
}

func assertInvalid(t *testing.T, err error, message string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want invalid %q, got success", message)
	}
	if errs.KindOf(err) != errs.Invalid {
		t.Errorf("want kind invalid, got %v: %v", errs.KindOf(err), err)
	}
	if message != "" && err.Error() != message {
		t.Errorf("message\n got %q\nwant %q", err.Error(), message)
	}
}

func mustNot(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func eq[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s\n got %v\nwant %v", what, got, want)
	}
}
