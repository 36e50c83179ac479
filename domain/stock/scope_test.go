package stock

import (
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

func whSpec(id int64) LocationSpec  { return LocationSpec{Warehouse: &WarehouseSpec{ID: id}} }
func binSpec(id int64) LocationSpec { return LocationSpec{BinLocation: &BinLocationSpec{ID: id}} }

// loadFor builds a working set the way storage does: for the operations'
// scope, with everything it asks for loaded from rows.
func loadFor(t *testing.T, ops []Operation, rows ...row) *WorkingSet {
	t.Helper()
	ws := NewWorkingSet(ScopeOf(ops...), now, knownWarehouses, bins, []int64{article, other})
	needs := ws.MappingNeeds()
	ws.Loaded(needs, mappingsOf(t, rows), nil)
	return ws
}

func mappingsOf(t *testing.T, rows []row) []*Mapping {
	t.Helper()
	var ms []*Mapping
	for i, r := range rows {
		a := r.article
		if a == 0 {
			a = article
		}
		m, err := UnmarshalMappingFromDatabase(int64(100+i), r.bin, binOf(r.bin).WarehouseID, a, r.stock, r.reserved, r.def, nil)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}

func TestAScopeAsksForExactlyWhatItsOperationsNeed(t *testing.T) {
	ops := []Operation{
		Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: 1},
		Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 1}, // inside WH1: the warehouse load covers it
		Relocate{ArticleDetailID: other, From: binSpec(shelfB), To: binSpec(shelfD), Quantity: 1},
		SetDefault{ArticleDetailID: other, BinLocationID: shelfD, Default: true}, // every mapping in WH2
		Change{ArticleDetailID: 99, At: whSpec(wh1), Quantity: 1},                // an article that does not exist
	}
	scope := ScopeOf(ops...)
	eq(t, "articles, in lock order", scope.Articles(), []int64{article, other, 99})
	names := scope.Locations()
	eq(t, "warehouses", names.WarehouseIDs, []int64{wh1})
	eq(t, "bins", names.BinIDs, []int64{shelfB, shelfA, shelfD})

	ws := NewWorkingSet(scope, now, knownWarehouses, bins, []int64{article, other})
	eq(t, "mappings", ws.MappingNeeds(), MappingNeeds{
		InWarehouse: []ArticleWarehouse{{article, wh1}, {other, wh2}},
		OnBin:       []ArticleBin{{other, shelfB}},
	})
}

func TestAnOperationOutsideTheScopeIsAnInternalError(t *testing.T) {
	ws := loadFor(t, []Operation{Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 1}}, row{bin: shelfA, stock: 5})
	before := snap(ws)
	for name, op := range map[string]Operation{
		"another location": Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: -1},
		"another article":  Change{ArticleDetailID: other, At: binSpec(shelfA), Quantity: 1},
	} {
		err := ws.Apply(op, ref)
		if errs.KindOf(err) != errs.Internal || !strings.Contains(err.Error(), "was not declared in the scope") {
			t.Errorf("%s: want an internal error about the scope, got %v", name, err)
		}
	}
	assertUnchanged(t, ws, before)
}

// An article acted on at a location the scope declared for another
// article only is refused too: its stock there was not loaded.
func TestAnArticleAtAnotherArticlesLocationIsAnInternalError(t *testing.T) {
	ws := loadFor(t, []Operation{
		Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 1},
		Change{ArticleDetailID: other, At: binSpec(shelfB), Quantity: 1},
	}, row{bin: shelfA, stock: 5}, row{article: other, bin: shelfB, stock: 5})
	before := snap(ws)
	err := ws.Apply(Change{ArticleDetailID: article, At: binSpec(shelfB), Quantity: 1}, ref)
	if errs.KindOf(err) != errs.Internal || !strings.Contains(err.Error(), "was not loaded") {
		t.Fatalf("want an internal error about the missing load, got %v", err)
	}
	assertUnchanged(t, ws, before)
}

// A storage adapter that drops a load must not make the strategy choose
// bins from what happens to be in memory: taking stock out of WH1 would
// otherwise find only shelf A and report 5 available instead of 8.
func TestADroppedLoadIsAnInternalErrorNotAWrongBinChoice(t *testing.T) {
	op := Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: -6}
	ws := NewWorkingSet(ScopeOf(op), now, knownWarehouses, bins, []int64{article})
	needs := ws.MappingNeeds()
	eq(t, "needs", needs.InWarehouse, []ArticleWarehouse{{article, wh1}})
	// The adapter "forgets" the warehouse query and loads one bin it happened to know.
	ws.Loaded(MappingNeeds{OnBin: []ArticleBin{{article, shelfA}}}, mappingsOf(t, []row{{bin: shelfA, stock: 5}}), nil)
	err := ws.Apply(op, ref)
	if errs.KindOf(err) != errs.Internal || !strings.Contains(err.Error(), "was not loaded") {
		t.Fatalf("want an internal error about the missing load, got %v", err)
	}

	full := loadFor(t, []Operation{op}, row{bin: shelfA, stock: 5}, row{bin: shelfB, stock: 3})
	mustNot(t, full.Apply(op, ref))
}

// An operation that fails half way leaves nothing behind: Apply takes back
// the mappings it created or changed and the ledger entries it wrote.
type halfDone struct{ Change }

func (h halfDone) Run(ws *WorkingSet, ref Reference) error {
	if err := h.Change.Run(ws, ref); err != nil {
		return err
	}
	if err := (Set{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 0}).Run(ws, ref); err != nil {
		return err
	}
	return errs.Invalidf("refused after it changed stock")
}

func TestApplyTakesBackAFailedOperationWhole(t *testing.T) {
	first := Change{ArticleDetailID: article, At: binSpec(shelfB), Quantity: 2}
	op := halfDone{Change{ArticleDetailID: article, At: binSpec(shelfC), Quantity: 4}}
	ws := loadFor(t, []Operation{first, op, Set{ArticleDetailID: article, At: binSpec(shelfA)}}, row{bin: shelfA, stock: 5})
	mustNot(t, ws.Apply(first, ref))
	before := snap(ws)
	assertInvalid(t, ws.Apply(op, ref), "refused after it changed stock")
	assertUnchanged(t, ws, before)
	eq(t, "state", state(ws), want(row{bin: shelfA, stock: 5}, row{bin: shelfB, stock: 2}))
	eq(t, "ledger", moves(ws), []move{{shelfB, 2}})
}

func TestQuantitiesAreBounded(t *testing.T) {
	for _, n := range []int64{0, 1, -1, MaxQuantity, -MaxQuantity} {
		if q, err := ParseQuantity("quantity", n); err != nil || int64(q) != n {
			t.Errorf("%d: got %d, %v", n, q, err)
		}
	}
	for _, n := range []int64{MaxQuantity + 1, -MaxQuantity - 1, 2147483648, 9007199254740993} {
		_, err := ParseQuantity("quantity", n)
		if e, ok := errs.As(err); !ok || len(e.Fields) != 1 || e.Fields[0].Property != "quantity" ||
			e.Fields[0].Message != "must be an integer from -1000000000 to 1000000000" {
			t.Errorf("%d: got %v", n, err)
		}
	}
}

func TestNoMappingHoldsMoreThanTheStockLimit(t *testing.T) {
	full := row{bin: shelfA, stock: MaxStock - 5}
	for name, tc := range map[string]struct {
		apply func(ws *WorkingSet) error
	}{
		"incoming on the bin":          {func(ws *WorkingSet) error { return ws.change(article, atA, 6, nil, ref) }},
		"incoming into the warehouse":  {func(ws *WorkingSet) error { return ws.change(article, inWH1, 6, nil, ref) }},
		"a stocktake of the bin":       {func(ws *WorkingSet) error { return ws.set(article, atA, MaxStock+1, nil, false, ref) }},
		"a stocktake of the warehouse": {func(ws *WorkingSet) error { return ws.set(article, inWH1, MaxStock+20, nil, false, ref) }},
		"a relocation onto the bin": {func(ws *WorkingSet) error {
			_, err := ws.relocate(article, atB, atA, 6, false, nil, ref)
			return err
		}},
	} {
		t.Run(name, func(t *testing.T) {
			ws := load(t, row{bin: shelfA, stock: MaxStock - 5, def: true}, row{bin: shelfB, stock: 10})
			before := snap(ws)
			err := tc.apply(ws)
			if errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), "stock limit of article detail 7") {
				t.Fatalf("want the stock limit, got %v", err)
			}
			assertUnchanged(t, ws, before)
		})
	}
	ws := load(t, full)
	mustNot(t, ws.change(article, atA, 5, nil, ref))
	eq(t, "at the limit", state(ws), want(row{bin: shelfA, stock: MaxStock}))
}

// Storage locks rows in the order of the needs: sorted, each once, however
// often and in whatever order the operations declared them.
func TestMappingNeedsComeSortedAndOnce(t *testing.T) {
	ops := []Operation{
		Change{ArticleDetailID: other, At: binSpec(shelfD), Quantity: 1},
		Change{ArticleDetailID: article, At: binSpec(shelfB), Quantity: 1},
		Change{ArticleDetailID: article, At: binCodeSpec(wh1, "A-01"), Quantity: 1},
		Change{ArticleDetailID: other, At: whSpec(wh1), Quantity: 1},
		Change{ArticleDetailID: article, At: binSpec(shelfB), Quantity: 1},
		Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 1},
		Change{ArticleDetailID: other, At: LocationSpec{Warehouse: &WarehouseSpec{Code: "WH1"}}, Quantity: 1},
		Change{ArticleDetailID: article, At: whSpec(wh2), Quantity: 1},
	}
	ws := NewWorkingSet(ScopeOf(ops...), now, knownWarehouses, bins, []int64{article, other})
	eq(t, "mappings", ws.MappingNeeds(), MappingNeeds{
		InWarehouse: []ArticleWarehouse{{article, wh2}, {other, wh1}},
		OnBin:       []ArticleBin{{article, shelfB}, {article, shelfA}, {other, shelfD}},
	})
}
