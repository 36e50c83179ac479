package test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// stock_totals, which the stock figures read, is kept by triggers on
// stock_mappings; whatever the batches do, it equals the sums of the mappings.
func TestStockTotalsFollowTheMappings(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		binB := f.created(t, f.env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.second, "code": "B-01"}), false)
		rng := rand.New(rand.NewPCG(1, 2))
		locations := []map[string]any{
			{"warehouse": map[string]any{"id": f.main}}, {"warehouse": map[string]any{"id": f.second}},
			{"binLocation": map[string]any{"id": f.binA}}, {"binLocation": map[string]any{"id": binB}},
		}
		for i := range 40 {
			var ops []any
			for range 1 + rng.IntN(5) {
				art := []int64{f.art1, f.art2}[rng.IntN(2)]
				loc := locations[rng.IntN(len(locations))]
				op := map[string]any{"articleDetailId": art}
				kind := []string{"change", "set", "relocate"}[i%3]
				switch kind {
				case "change":
					op["quantity"] = 1 + rng.IntN(9)
					for k, v := range loc {
						op[k] = v
					}
				case "set":
					op["quantity"] = rng.IntN(4)
					for k, v := range loc {
						op[k] = v
					}
				case "relocate":
					op["quantity"] = "all"
					op["source"] = loc
					op["destination"] = locations[(rng.IntN(3)+1+indexOf(locations, loc))%len(locations)]
				}
				ops = append(ops, op)
			}
			ohBatch(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/stock/%s/tot-%d", []string{"change", "set", "relocate"}[i%3], i), ops))
		}
		type total struct {
			Article, Warehouse, Stock, Reserved, Mappings int64
		}
		var kept, summed []total
		bdb := f.env.DB.Bun()
		ctx := apitest.Admin()
		if err := bdb.NewRaw("SELECT article_detail_id AS article, warehouse_id AS warehouse, stock, reserved_stock AS reserved, mappings FROM stock_totals WHERE mappings > 0 ORDER BY 1, 2").Scan(ctx, &kept); err != nil {
			t.Fatal(err)
		}
		if err := bdb.NewRaw("SELECT article_detail_id AS article, warehouse_id AS warehouse, SUM(stock) AS stock, SUM(reserved_stock) AS reserved, COUNT(*) AS mappings FROM stock_mappings GROUP BY 1, 2 ORDER BY 1, 2").Scan(ctx, &summed); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(kept) != fmt.Sprint(summed) || len(kept) == 0 {
			t.Errorf("stock_totals %v\nmappings     %v", kept, summed)
		}
	})
}

func indexOf(locations []map[string]any, loc map[string]any) int {
	for i, l := range locations {
		if fmt.Sprint(l) == fmt.Sprint(loc) {
			return i
		}
	}
	return 0
}
