package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

func TestZZProbe7(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		if strings.HasPrefix(databaseURL, "postgres") {
			t.Skip()
		}
		f := poSetup(t, databaseURL) // A-01 default of SKU-1 in MAIN
		env := f.env
		binC := f.created(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "C-01"}), false)
		f.put(t, f.art1, ohBin(binC), 2)
		id, o := f.newOrder(t, map[string]any{"number": "S-1", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}}})
		d := ohDetailID(t, o, 0)
		path := fmt.Sprintf("/api/orders/%d", id)
		t.Logf("pick %s", env.Do(t, "POST", path+"/pickingList", nil))
		f.put(t, f.art1, ohBin(f.binA), 5)
		// 1. ship 1 from warehouse: should take reserved on C-01 first
		t.Logf("ship wh %s", env.Do(t, "PUT", "/api/orderDetails/ship/k1", []any{map[string]any{"orderDetailId": d, "quantity": 1, "warehouse": map[string]any{"id": f.main}}}))
		sA, rA := f.mapping(t, f.art1, f.binA)
		sC, rC := f.mapping(t, f.art1, binC)
		t.Logf("after ship 1 from MAIN: A-01 %d/%d C-01 %d/%d (want A 5/0, C 1/1)", sA, rA, sC, rC)
		// 4. ship 1 from SECOND: reservation in MAIN must shrink to 0
		f.put(t, f.art1, ohBin(f.binB), 3)
		t.Logf("ship second %s", env.Do(t, "PUT", "/api/orderDetails/ship/k2", []any{map[string]any{"orderDetailId": d, "quantity": 1, "warehouse": map[string]any{"id": f.second}}}))
		sC, rC = f.mapping(t, f.art1, binC)
		sB, rB := f.mapping(t, f.art1, f.binB)
		t.Logf("after ship 1 from SECOND: C-01 %d/%d (want 1/0) B-01 %d/%d (want 2/0)", sC, rC, sB, rB)
		t.Logf("picks %s", env.Do(t, "GET", path+"/pickingList", nil))
		// 3. whole order from SECOND with reservations in MAIN
		id2, _ := f.newOrder(t, map[string]any{"number": "S-2", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}}})
		t.Logf("pick2 %s", env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", id2), nil))
		t.Logf("ship2 %s", env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id2), map[string]any{"warehouse": map[string]any{"id": f.second}}))
		t.Logf("picks2 %s", env.Do(t, "GET", fmt.Sprintf("/api/orders/%d/pickingList", id2), nil))
		t.Logf("article %s", env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", f.art1), nil))
		// pick from SECOND warehouse with body; then ship whole order default (MAIN)
		id3, _ := f.newOrder(t, map[string]any{"number": "S-3", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
		t.Logf("pick3 %s", env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", id3), map[string]any{"warehouse": map[string]any{"code": "SECOND"}}))
		t.Logf("ship3 %s", env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id3), map[string]any{}))
		t.Logf("picks3 %s", env.Do(t, "GET", fmt.Sprintf("/api/orders/%d/pickingList", id3), nil))
		t.Logf("article %s", env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", f.art1), nil))
		// restock return into named warehouse SECOND (art1 no default there)
		t.Logf("ret %s", f.returnRequest(t, fmt.Sprintf("/api/orders/%d", id3), "", map[string]any{"warehouse": map[string]any{"code": "SECOND"}, "details": []any{map[string]any{"orderDetailId": ohDetailID(t, f.order(t, fmt.Sprintf("/api/orders/%d", id3)), 0), "quantity": 1}}}))
		t.Logf("returns %s", env.Do(t, "GET", "/api/returns", nil))
	})
}
