package test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// What the stock figures read is kept by the transactions that change it,
// as the domain computes it: each product's stock per warehouse
// (stock_totals) and what its positions still have to ship
// (stock_snapshots.outstanding). Whatever batches, orders, shipments,
// pickings, changes and cancellations do, it equals the sums of the rows.
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
		requireKeptFigures(t, f.env)

		// Orders: created, reserved, shipped in part, changed, cancelled.
		f.put(t, f.art1, ohWarehouse(f.main), 20)
		f.put(t, f.art2, ohWarehouse(f.main), 20)
		for i := range 6 {
			id, _ := f.newOrder(t, map[string]any{"number": fmt.Sprintf("TOT-%d", i), "details": []any{
				map[string]any{"articleDetailId": f.art1, "quantity": 1 + i%3},
				map[string]any{"articleDetailId": f.art2, "quantity": 2},
			}})
			path := fmt.Sprintf("/api/orders/%d", id)
			switch i % 3 {
			case 0:
				ohOK(t, f.env.Do(t, "POST", path+"/pickingList", nil))
			case 1:
				ohOK(t, f.env.Do(t, "PUT", path+"/ship", nil))
			}
			requireKeptFigures(t, f.env)
			if i%2 == 0 && i%3 != 1 { // a shipped order cannot be cancelled
				ohOK(t, f.env.Do(t, "PUT", path, map[string]any{"status": "Cancelled"}))
				requireKeptFigures(t, f.env)
			}
		}
		if f.available(t, f.art1) == 20 {
			t.Fatal("the orders that stayed open hold nothing back: the case does not test the demand")
		}
	})
}

// requireKeptFigures fails unless what the figures read equals the sums of
// the rows they are made of.
func requireKeptFigures(t testing.TB, env *apitest.Env) {
	t.Helper()
	type total struct {
		Article, Warehouse, Stock, Reserved, Mappings int64
	}
	var kept, summed []total
	bdb := env.DB.Bun()
	ctx := context.Background()
	if err := bdb.NewRaw("SELECT article_detail_id AS article, warehouse_id AS warehouse, stock, reserved_stock AS reserved, mappings FROM stock_totals ORDER BY 1, 2").Scan(ctx, &kept); err != nil {
		t.Fatal(err)
	}
	if err := bdb.NewRaw("SELECT article_detail_id AS article, warehouse_id AS warehouse, SUM(stock) AS stock, SUM(reserved_stock) AS reserved, COUNT(*) AS mappings FROM stock_mappings GROUP BY 1, 2 ORDER BY 1, 2").Scan(ctx, &summed); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(kept) != fmt.Sprint(summed) || len(kept) == 0 {
		t.Errorf("stock_totals %v\nmappings     %v", kept, summed)
	}
	type demand struct{ Article, Outstanding int64 }
	var keptDemand, summedDemand []demand
	if err := bdb.NewRaw("SELECT article_detail_id AS article, outstanding FROM stock_snapshots WHERE outstanding <> 0 ORDER BY 1").Scan(ctx, &keptDemand); err != nil {
		t.Fatal(err)
	}
	if err := bdb.NewRaw("SELECT article_detail_id AS article, SUM(outstanding) AS outstanding FROM order_details WHERE outstanding > 0 GROUP BY 1 ORDER BY 1").Scan(ctx, &summedDemand); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(keptDemand) != fmt.Sprint(summedDemand) {
		t.Errorf("outstanding kept %v\nof the positions  %v", keptDemand, summedDemand)
	}
}

func indexOf(locations []map[string]any, loc map[string]any) int {
	for i, l := range locations {
		if fmt.Sprint(l) == fmt.Sprint(loc) {
			return i
		}
	}
	return 0
}
