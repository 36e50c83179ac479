package test

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// Reorder points (extensions E4): the field, the belowReorderPoint filter,
// and the stock figures in every list item.

func TestReorderPointsAndListFigures(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		art3 := f.created(t, env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-3", "reorderPoint": 4}), false)
		if got := ohOK(t, env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", art3), nil))["data"].(map[string]any)["reorderPoint"]; got != float64(4) {
			t.Errorf("reorderPoint = %v", got)
		}
		for _, body := range []map[string]any{{"number": "X", "reorderPoint": -1}, {"number": "X", "reorderPoint": 1000000001}, {"number": "X", "reorderPoint": "5"}, {"number": "X", "reorderPoint": 1.5}} {
			ohError(t, env.Do(t, "POST", "/api/articleDetails", body), http.StatusBadRequest, "reorderPoint")
		}
		ohError(t, env.Do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", art3), map[string]any{"reorderPoint": -1}), http.StatusBadRequest, "reorderPoint")
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", art3), map[string]any{"name": "renamed"}))
		if got := ohOK(t, env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", art3), nil))["data"].(map[string]any); got["reorderPoint"] != float64(4) || got["name"] != "renamed" {
			t.Errorf("a PUT without reorderPoint keeps it: %v", got)
		}

		// art1: 10 in stock, 3 ordered: 7 available, reorder point 8 (below).
		// art2: 5 in a warehouse not for sale: 0 available, no reorder point.
		// art3: nothing, reorder point 4 (below).
		f.put(t, f.art1, ohWarehouse(f.main), 10)
		f.newOrder(t, map[string]any{"number": "RP-1", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 3}}})
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", f.art1), map[string]any{"reorderPoint": 8}))
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", f.second), map[string]any{"stockAvailableForSale": false}))
		f.put(t, f.art2, ohWarehouse(f.second), 5)

		list := ohOK(t, env.Do(t, "GET", "/api/articleDetails", nil))
		for _, item := range list["data"].([]any) {
			m := item.(map[string]any)
			single := ohOK(t, env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%v", m["id"]), nil))["data"]
			if !reflect.DeepEqual(m, single) {
				t.Errorf("list item\n%v\ndiffers from the single fetch\n%v", m, single)
			}
		}
		ids := func(query string) string {
			body := ohOK(t, env.Do(t, "GET", "/api/articleDetails?"+query, nil))
			var out []any
			for _, item := range body["data"].([]any) {
				out = append(out, item.(map[string]any)["id"])
			}
			return fmt.Sprint(body["total"], out)
		}
		if got, want := ids("filter[0][property]=articleDetail.belowReorderPoint&filter[0][value]=true"), fmt.Sprint(2, []any{float64(f.art1), float64(art3)}); got != want {
			t.Errorf("below: %s, want %s", got, want)
		}
		if got, want := ids("filter[0][property]=articleDetail.belowReorderPoint&filter[0][value]=0"), fmt.Sprint(1, []any{float64(f.art2)}); got != want {
			t.Errorf("not below: %s, want %s", got, want)
		}
		if got, want := ids("filter[0][property]=articleDetail.reorderPoint&filter[0][expression]=>&filter[0][value]=4&sort[0][property]=articleDetail.reorderPoint"), fmt.Sprint(1, []any{float64(f.art1)}); got != want {
			t.Errorf("reorderPoint > 4: %s, want %s", got, want)
		}
		ohError(t, env.Do(t, "GET", "/api/articleDetails?filter[0][property]=articleDetail.belowReorderPoint&filter[0][value]=maybe", nil), http.StatusBadRequest)

		// The feed agrees: both products went below once, art2 never.
		low, _ := evFeed(t, env, "type=stock.low")
		var lowIDs []any
		for _, e := range low {
			lowIDs = append(lowIDs, e.Data["articleDetailId"])
		}
		if fmt.Sprint(lowIDs) != fmt.Sprint([]any{float64(art3), float64(f.art1)}) {
			t.Errorf("stock.low for %v, want art3 at creation then art1", lowIDs)
		}
		// A warehouse leaving sale changes figures: art2's stock.changed says so.
		changed, _ := evFeed(t, env, "type=stock.changed&limit=1000")
		lastArt2 := changed[len(changed)-1]
		if lastArt2.Data["id"] != float64(f.art2) || lastArt2.Data["physicalStock"] != float64(5) || lastArt2.Data["availableStock"] != float64(0) {
			t.Errorf("last stock.changed = %v", lastArt2.Data)
		}
	})
}

func TestAWarehouseLeavingSaleRecordsStockChanged(t *testing.T) {
	t.Parallel()
	f := ohSetup(t, testdb.SQLite(t))
	f.put(t, f.art1, ohWarehouse(f.second), 5)
	_, pos := evFeed(t, f.env, "")
	ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", f.second), map[string]any{"stockAvailableForSale": false}))
	events, _ := evFeed(t, f.env, fmt.Sprintf("after=%d", pos))
	if len(events) != 1 || events[0].Data["physicalStockForSale"] != float64(0) || events[0].Data["cause"].(map[string]any)["type"] != "warehouses/update" {
		t.Fatalf("events = %v", events)
	}
	ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", f.second), map[string]any{"name": "renamed"}))
	if events, _ := evFeed(t, f.env, fmt.Sprintf("after=%d", events[0].ID)); len(events) != 0 {
		t.Errorf("a rename changes no figure: %v", events)
	}
}
