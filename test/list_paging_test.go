package test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// TestAPageIsTheSliceOfTheWholeList checks that every page past the first
// (read by id first, then by row) is exactly the slice of the unpaged list,
// under filters, OR-filters and sorts on columns with ties.
func TestAPageIsTheSliceOfTheWholeList(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		for i := range 9 {
			whCreateWarehouse(t, env, map[string]any{
				"code": fmt.Sprintf("P%c", 'A'+i), "name": fmt.Sprintf("Hall %d", i%3),
				"stockAvailableForSale": i%2 == 0, "contact": []string{"Ann", "Bob", ""}[i%3],
			})
		}
		big := whCreateWarehouse(t, env, map[string]any{"code": "PBIG", "name": "Big"})
		other := whCreateWarehouse(t, env, map[string]any{"code": "POTHER", "name": "Other"})
		for i := range 12 {
			whCreateBin(t, env, big, fmt.Sprintf("Z%02d", 12-i))
			whCreateBin(t, env, other, fmt.Sprintf("Y%02d", i))
		}
		list := func(t *testing.T, path string, kv ...string) (int64, []int64) {
			t.Helper()
			body := whOK(t, env.Do(t, "GET", whList(path, kv...), nil))
			return whInt(t, body["total"]), whIDs(t, body["data"].([]any))
		}
		for _, c := range []struct {
			path string
			kv   []string
		}{
			{"/api/warehouses", nil},
			{"/api/warehouses", []string{"sort[0][property]", "warehouse.name", "sort[0][direction]", "DESC"}},
			{"/api/warehouses", []string{"filter[0][property]", "warehouse.stockAvailableForSale", "filter[0][value]", "1",
				"sort[0][property]", "warehouse.contact", "sort[1][property]", "warehouse.name", "sort[1][direction]", "DESC"}},
			{"/api/warehouses", []string{"filter[0][property]", "warehouse.contact", "filter[0][value]", "Ann",
				"filter[1][property]", "warehouse.name", "filter[1][value]", "Hall 2", "filter[1][operator]", "1"}},
			{"/api/binLocations", []string{"filter[0][property]", "binLocation.warehouseId", "filter[0][value]", strconv.FormatInt(big, 10)}},
			{"/api/binLocations", []string{"filter[0][property]", "binLocation.warehouseId", "filter[0][value]", strconv.FormatInt(big, 10),
				"sort[0][property]", "binLocation.code"}},
		} {
			total, all := list(t, c.path, c.kv...)
			if total != int64(len(all)) || total < 4 {
				t.Fatalf("%s %v: total %d, %d rows", c.path, c.kv, total, len(all))
			}
			for start := 1; start <= len(all); start++ {
				for _, limit := range []int{1, 3} {
					gotTotal, got := list(t, c.path, append(slices.Clone(c.kv), "start", strconv.Itoa(start), "limit", strconv.Itoa(limit))...)
					want := all[start:min(start+limit, len(all))]
					if gotTotal != total || !slices.Equal(got, want) {
						t.Errorf("%s %v start=%d limit=%d: %v (total %d), want %v (total %d)", c.path, c.kv, start, limit, got, gotTotal, want, total)
					}
				}
			}
		}
	})
}
