package stock

import (
	"strings"
	"testing"
)

func binCodeSpec(warehouseID int64, code string) LocationSpec {
	return LocationSpec{BinLocation: &BinLocationSpec{Code: code, WarehouseID: warehouseID}}
}

// A message about an operation names its location as Locate does.
func TestAMessageNamesTheLocationAsLocateDoes(t *testing.T) {
	for _, spec := range []LocationSpec{binSpec(shelfA), binCodeSpec(wh1, "A-01"), whSpec(wh1),
		{Warehouse: &WarehouseSpec{Code: "WH2"}}, binSpec(null2)} {
		op := Change{ArticleDetailID: article, At: spec, Quantity: -100}
		ws := loadFor(t, []Operation{op}, row{bin: shelfA, stock: 1})
		at, err := ws.Locate(article, spec)
		mustNot(t, err)
		if at.Label == "" {
			t.Fatalf("%v: Locate gave no label", at)
		}
		err = ws.Apply(op, ref)
		if err == nil || !strings.Contains(err.Error(), " at "+at.Label+": ") {
			t.Errorf("want a message naming %s, got %v", at.Label, err)
		}
	}
}

// Storage that names one id with two codes is broken, but a message still
// names a location the way the client found it, not by the other code.
func TestAMessageNamesTheCodeALocationWasFoundBy(t *testing.T) {
	atBin := binCodeSpec(wh1, "A-01")
	atWarehouse := LocationSpec{Warehouse: &WarehouseSpec{Code: "WH1"}}
	ops := []Operation{
		Change{ArticleDetailID: article, At: atBin, Quantity: -1},
		Change{ArticleDetailID: article, At: atWarehouse, Quantity: -1},
	}
	ws := NewWorkingSet(ScopeOf(ops...), now,
		[]KnownWarehouse{{ID: wh1, Code: "WH1", NullBinLocationID: null1}, {ID: wh1, Code: "WH-OTHER", NullBinLocationID: null1}},
		[]Bin{{ID: shelfA, WarehouseID: wh1, Code: "A-01"}, {ID: shelfA, WarehouseID: wh1, Code: "Z-99"}},
		[]int64{article})
	ws.Loaded(ws.MappingNeeds(), nil, nil)
	assertInvalid(t, ws.Apply(ops[0], ref),
		`insufficient stock of article detail 7 at bin location "A-01" in warehouse "WH-OTHER": requested 1, available 0`)
	assertInvalid(t, ws.Apply(ops[1], ref),
		`insufficient stock of article detail 7 at warehouse "WH1": requested 1, available 0`)
}

// A mapping storage loaded for its bin belongs to its warehouse's stock
// when a later load takes in the whole warehouse, even if that load does
// not return it again.
func TestAMappingLoadedEarlierCountsWhenItsWarehouseIsLoaded(t *testing.T) {
	op := Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: -9}
	ws := NewWorkingSet(ScopeOf(op), now, knownWarehouses, bins, []int64{article})
	ws.Loaded(MappingNeeds{OnBin: []ArticleBin{{article, shelfA}}}, mappingsOf(t, []row{{bin: shelfA, stock: 5}}), nil)
	ws.Loaded(ws.MappingNeeds(), mappingsOf(t, []row{{bin: shelfB, stock: 3}}), nil)
	assertInvalid(t, ws.Apply(op, ref), `insufficient stock of article detail 7 at warehouse "WH1": requested 9, available 8`)
	mustNot(t, ws.Apply(Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: -4}, ref))
	eq(t, "state", state(ws), want(row{bin: shelfA, stock: 4}))
}

// A failed operation that created a mapping in a warehouse takes it out of
// the warehouse's stock again.
func TestAFailedOperationLeavesNoNewMappingInTheWarehouse(t *testing.T) {
	first := Change{ArticleDetailID: article, At: binSpec(shelfB), Quantity: 1}
	failing := halfDone{Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: 4}}
	out := Change{ArticleDetailID: article, At: whSpec(wh1), Quantity: -7}
	ws := loadFor(t, []Operation{first, failing, out, Set{ArticleDetailID: article, At: binSpec(shelfA)}}, row{bin: shelfA, stock: 5})
	mustNot(t, ws.Apply(first, ref))
	before := snap(ws)
	assertInvalid(t, ws.Apply(failing, ref), "refused after it changed stock")
	assertUnchanged(t, ws, before)
	assertInvalid(t, ws.Apply(out, ref), `insufficient stock of article detail 7 at warehouse "WH1": requested 7, available 6`)
	eq(t, "ledger", moves(ws), []move{{shelfB, 1}})
}

// Changes hands out the working set's own ledger entries: what later
// operations write, or a caller appends, is not in what was handed out.
func TestLedgerEntriesHandedOutStayAsTheyWere(t *testing.T) {
	first := Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 2}
	second := Change{ArticleDetailID: article, At: binSpec(shelfB), Quantity: 3}
	ops := []Operation{first, second}
	for range 6 { // room in the ledger for more than the test writes
		ops = append(ops, Change{ArticleDetailID: article, At: binSpec(shelfC), Quantity: 1})
	}
	ws := loadFor(t, ops)
	mustNot(t, ws.Apply(first, ref))
	_, _, handedOut := ws.Changes()
	assertInvalid(t, ws.Apply(halfDone{second}, ref), "refused after it changed stock")
	mustNot(t, ws.Apply(second, ref))
	_ = append(handedOut, LedgerEntry{Quantity: 99})
	eq(t, "handed out", len(handedOut), 1)
	eq(t, "handed out", handedOut[0].Quantity, 2)
	eq(t, "ledger", moves(ws), []move{{shelfA, 2}, {shelfB, 3}})
}
