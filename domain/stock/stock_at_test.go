package stock

import (
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

func TestStockAtABinIsItsMappingAndAtAWarehouseTheTotal(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 5, reserved: 2}, row{bin: shelfB, stock: 3}, row{bin: shelfD, stock: 9})
	for _, c := range []struct {
		name string
		spec LocationSpec
		want int
	}{
		{"bin with stock", LocationSpec{BinLocation: &BinLocationSpec{ID: shelfA}}, 5},
		{"other bin", LocationSpec{BinLocation: &BinLocationSpec{ID: shelfB}}, 3},
		{"bin without a mapping", LocationSpec{BinLocation: &BinLocationSpec{ID: shelfC}}, 0},
		{"warehouse", LocationSpec{Warehouse: &WarehouseSpec{ID: wh1}}, 8},
		{"other warehouse", LocationSpec{Warehouse: &WarehouseSpec{ID: wh2}}, 9},
	} {
		got, err := ws.StockAt(article, c.spec)
		if err != nil || got != c.want {
			t.Errorf("%s: StockAt = %d, %v; want %d", c.name, got, err, c.want)
		}
	}
}

func TestStockAtFollowsAppliedOperations(t *testing.T) {
	ws := load(t, row{bin: shelfA, stock: 5})
	inWarehouse := LocationSpec{Warehouse: &WarehouseSpec{ID: wh1}}
	if err := ws.Apply(Change{ArticleDetailID: article, At: inWarehouse, Quantity: -2}, ref); err != nil {
		t.Fatal(err)
	}
	if err := ws.Apply(Set{ArticleDetailID: article, At: LocationSpec{BinLocation: &BinLocationSpec{ID: shelfB}}, Quantity: 4}, ref); err != nil {
		t.Fatal(err)
	}
	if got, err := ws.StockAt(article, inWarehouse); err != nil || got != 7 {
		t.Errorf("after taking 2 and setting B-01 to 4: StockAt(WH1) = %d, %v; want 7", got, err)
	}
}

func TestStockAtWhatDoesNotExistFailsLikeAnOperation(t *testing.T) {
	unknown := LocationSpec{Warehouse: &WarehouseSpec{Code: "NOPE"}}
	known := LocationSpec{Warehouse: &WarehouseSpec{Code: "WH1"}}
	var scope Scope
	scope.Add(article, unknown)
	scope.Add(99, known)
	ws := NewWorkingSet(scope, now, knownWarehouses, bins, []int64{article})
	ws.Loaded(ws.MappingNeeds(), nil, nil)
	if _, err := ws.StockAt(article, unknown); errs.KindOf(err) != errs.Invalid {
		t.Errorf("unknown warehouse: %v, want invalid", err)
	}
	if _, err := ws.StockAt(99, known); errs.KindOf(err) != errs.Invalid {
		t.Errorf("unknown article: %v, want invalid", err)
	}
	if _, err := ws.StockAt(article, known); errs.KindOf(err) != errs.Internal {
		t.Errorf("undeclared: %v, want internal", err)
	}
}
