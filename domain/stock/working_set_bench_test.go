package stock

import (
	"fmt"
	"testing"
)

// BenchmarkWorkingSetBatch is the domain's share of a 1000-operation change
// batch: declaring the scope, resolving it against 1000 bins, loading 1000
// mappings, applying the operations and collecting the changes.
func BenchmarkWorkingSetBatch(b *testing.B) {
	const n = 1000
	warehouses := []KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: 1_000_000}}
	binList := make([]Bin, n)
	ops := make([]Operation, n)
	for i := range n {
		binList[i] = Bin{ID: int64(i + 1), WarehouseID: 1, Code: fmt.Sprintf("B-%04d", i)}
		ops[i] = Change{ArticleDetailID: int64(i%100 + 1), Quantity: 1,
			At: LocationSpec{BinLocation: &BinLocationSpec{Code: binList[i].Code, WarehouseID: 1}}}
	}
	articles := make([]int64, 100)
	for i := range articles {
		articles[i] = int64(i + 1)
	}
	b.ReportAllocs()
	for b.Loop() {
		scope := ScopeOf(ops...)
		_ = scope.Locations()
		ws := NewWorkingSet(scope, now, warehouses, binList, articles)
		needs := ws.MappingNeeds()
		mappings := make([]*Mapping, len(needs.OnBin))
		for i, nb := range needs.OnBin {
			mappings[i], _ = UnmarshalMappingFromDatabase(int64(i+1), nb.BinLocationID, 1, nb.ArticleDetailID, 5, 0, false, nil)
		}
		ws.Loaded(needs, mappings, nil)
		for _, op := range ops {
			if err := ws.Apply(op, ref); err != nil {
				b.Fatal(err)
			}
		}
		ws.Changes()
	}
}

// BenchmarkWorkingSetBatchByWarehouse is a stocktake sync: 1000 operations
// that name only the warehouse, so that the default strategy picks among
// the article's 10 bins there, with the mappings in the order storage
// returns them (by id, not by article).
func BenchmarkWorkingSetBatchByWarehouse(b *testing.B) {
	const articles, binsPer = 100, 10
	warehouses := []KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: 1_000_000}}
	binList := make([]Bin, articles*binsPer)
	for i := range binList {
		binList[i] = Bin{ID: int64(i + 1), WarehouseID: 1, Code: fmt.Sprintf("B-%04d", i)}
	}
	ops := make([]Operation, 0, 1000)
	for i := range 1000 {
		at := LocationSpec{Warehouse: &WarehouseSpec{Code: "WH1"}}
		a := int64(i%articles + 1)
		switch i % 3 {
		case 0:
			ops = append(ops, Set{ArticleDetailID: a, At: at, Quantity: 40 + i%7})
		case 1:
			ops = append(ops, Change{ArticleDetailID: a, At: at, Quantity: -3})
		default:
			ops = append(ops, Change{ArticleDetailID: a, At: at, Quantity: 2})
		}
	}
	existing := make([]int64, articles)
	for i := range existing {
		existing[i] = int64(i + 1)
	}
	b.ReportAllocs()
	for b.Loop() {
		scope := ScopeOf(ops...)
		_ = scope.Locations()
		_ = scope.Articles()
		ws := NewWorkingSet(scope, now, warehouses, nil, existing)
		needs := ws.MappingNeeds()
		var mappings []*Mapping
		var bins []Bin
		for j := range binsPer {
			for _, aw := range needs.InWarehouse {
				bin := binList[(int(aw.ArticleDetailID)-1)*binsPer+j]
				m, _ := UnmarshalMappingFromDatabase(int64(len(mappings)+1), bin.ID, 1, aw.ArticleDetailID, 5+j, 0, j == 0, nil)
				mappings = append(mappings, m)
				bins = append(bins, bin)
			}
		}
		ws.Loaded(needs, mappings, bins)
		for _, op := range ops {
			if err := ws.Apply(op, ref); err != nil {
				b.Fatal(err)
			}
		}
		ws.Changes()
		ws.ChangedArticles()
	}
}
