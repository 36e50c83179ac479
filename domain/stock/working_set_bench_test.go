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
