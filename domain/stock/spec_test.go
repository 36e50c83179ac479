package stock

import (
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

// resolveIn resolves spec for article 7 the way a batch does: declared in
// a scope, looked up in bulk, located by the working set.
func resolveIn(spec LocationSpec) (Location, error) {
	var scope Scope
	scope.Add(7, spec)
	ws := NewWorkingSet(scope, now,
		[]KnownWarehouse{{ID: 1, Code: "WH1", NullBinLocationID: 10}, {ID: 2, Code: "WH2", NullBinLocationID: 20}},
		[]Bin{{ID: 11, WarehouseID: 1, Code: "A-01"}, {ID: 21, WarehouseID: 2, Code: "A-01"}},
		[]int64{7})
	return ws.Locate(7, spec)
}

func TestALocationSpecNamesExactlyOneWellFormedLocation(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec LocationSpec
		want string
	}{
		{"nothing", LocationSpec{}, "warehouse or source.binLocation is required"},
		{"both", LocationSpec{Warehouse: &WarehouseSpec{ID: 1}, BinLocation: &BinLocationSpec{ID: 11}}, "not both"},
		{"empty warehouse", LocationSpec{Warehouse: &WarehouseSpec{}}, "needs an id or a code"},
		{"bin code without warehouse", LocationSpec{BinLocation: &BinLocationSpec{Code: "A-01"}}, "needs an id, or a code with"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.spec.Validate("source")
			if errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "source.") {
				t.Fatalf("got %v, want a message containing %q and the property", err, tc.want)
			}
		})
	}
}

func TestEveryFormOfALocationResolves(t *testing.T) {
	for _, tc := range []struct {
		name           string
		spec           LocationSpec
		warehouse, bin int64
	}{
		{"warehouse by id", LocationSpec{Warehouse: &WarehouseSpec{ID: 2}}, 2, 0},
		{"warehouse by code", LocationSpec{Warehouse: &WarehouseSpec{Code: "WH1"}}, 1, 0},
		{"warehouse by agreeing id and code", LocationSpec{Warehouse: &WarehouseSpec{ID: 1, Code: "WH1"}}, 1, 0},
		{"bin by id", LocationSpec{BinLocation: &BinLocationSpec{ID: 21}}, 2, 21},
		{"bin by code in warehouse id", LocationSpec{BinLocation: &BinLocationSpec{Code: "A-01", WarehouseID: 2}}, 2, 21},
		{"bin by code in warehouse code", LocationSpec{BinLocation: &BinLocationSpec{Code: "A-01", WarehouseCode: "WH1"}}, 1, 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc, err := resolveIn(tc.spec)
			if err != nil || loc.WarehouseID != tc.warehouse || loc.BinLocationID != tc.bin || loc.Label == "" {
				t.Fatalf("got %+v, %v", loc, err)
			}
		})
	}
}

func TestResolveRefusesWhatNamesNothingOrDisagrees(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec LocationSpec
		want string
	}{
		{"unknown warehouse id", LocationSpec{Warehouse: &WarehouseSpec{ID: 9}}, "warehouse 9 does not exist"},
		{"unknown warehouse code", LocationSpec{Warehouse: &WarehouseSpec{Code: "X"}}, `code "X" does not exist`},
		{"disagreeing id and code", LocationSpec{Warehouse: &WarehouseSpec{ID: 1, Code: "WH2"}}, "different warehouses"},
		{"unknown bin id", LocationSpec{BinLocation: &BinLocationSpec{ID: 99}}, "bin location 99 does not exist"},
		{"unknown bin code", LocationSpec{BinLocation: &BinLocationSpec{Code: "Z", WarehouseID: 1}}, `"Z" does not exist in warehouse "WH1"`},
		{"bin in another warehouse", LocationSpec{BinLocation: &BinLocationSpec{ID: 21, WarehouseID: 1}}, "is not in warehouse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := resolveIn(tc.spec)
			if errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}
