package test

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// Reorder points: the field, the belowReorderPoint filter, and the stock
// figures in every list item, so that a buyer sees what to reorder from one
// list.

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

// What is cancelled holds nothing back: availableStock subtracts only what
// positions that are not cancelled, of orders that are not cancelled, still
// have to ship, and a cancelled order or position releases its
// reservations. "Below" is strict (availableStock < reorderPoint), so stock
// exactly at the reorder point is not below it and sends no stock.low.
func TestReorderPointIgnoresCancelledOrdersAndPositionsAndBelowIsStrict(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		art := f.art1
		// Available never drops below 6 until RC-5: no stock.low before.
		f.put(t, art, ohWarehouse(f.main), 13)
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", art), map[string]any{"reorderPoint": 6}))
		line := func(quantity int, status string) map[string]any {
			d := map[string]any{"articleDetailId": art, "quantity": quantity}
			if status != "" {
				d["status"] = status
			}
			return d
		}
		figures := func() (available, reserved any) {
			data := ohOK(t, env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", art), nil))["data"].(map[string]any)
			return data["availableStock"], data["reservedStock"]
		}
		below := func() (bool, bool) {
			in := func(value string) bool {
				body := ohOK(t, env.Do(t, "GET", "/api/articleDetails?filter[0][property]=articleDetail.belowReorderPoint&filter[0][value]="+value, nil))
				for _, item := range body["data"].([]any) {
					if item.(map[string]any)["id"] == float64(art) {
						return true
					}
				}
				return false
			}
			return in("true"), in("false")
		}
		lows := func() []map[string]any {
			events, _ := evFeed(t, env, "type=stock.low")
			var out []map[string]any
			for _, e := range events {
				if e.Data["articleDetailId"] == float64(art) {
					out = append(out, e.Data)
				}
			}
			return out
		}
		expect := func(when string, available float64, isBelow bool, lowEvents int) {
			t.Helper()
			if got, reserved := figures(); got != available || reserved != float64(0) {
				t.Errorf("%s: availableStock %v, reservedStock %v; want %v and 0", when, got, reserved, available)
			}
			if inTrue, inFalse := below(); inTrue != isBelow || inFalse == isBelow {
				t.Errorf("%s: listed by belowReorderPoint=true %v, by =false %v; want below %v", when, inTrue, inFalse, isBelow)
			}
			if got := lows(); len(got) != lowEvents {
				t.Errorf("%s: %d stock.low events %v, want %d", when, len(got), got, lowEvents)
			}
		}

		// Pushed cancelled: an order, and a position next to one of
		// another product.
		f.newOrder(t, map[string]any{"number": "RC-1", "status": "Cancelled", "details": []any{line(5, "")}})
		f.newOrder(t, map[string]any{"number": "RC-2", "details": []any{line(3, "Cancelled"), map[string]any{"articleDetailId": f.art2, "quantity": 1}}})
		// Cancelled afterwards: an order that had its pieces reserved, and
		// one position of an order whose other position still counts.
		rc3, _ := f.newOrder(t, map[string]any{"number": "RC-3", "details": []any{line(2, "")}})
		ohOK(t, env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", rc3), map[string]any{"warehouse": map[string]any{"id": f.main}}))
		if _, reserved := figures(); reserved != float64(2) {
			t.Fatalf("reservedStock after picking RC-3 = %v, want 2", reserved)
		}
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d", rc3), map[string]any{"status": "Cancelled"}))
		// 13 in stock, 7 outstanding: 6, exactly the reorder point.
		rc4, o4 := f.newOrder(t, map[string]any{"number": "RC-4", "details": []any{line(4, ""), line(3, "")}})
		expect("at the reorder point with RC-4", 6, false, 0)
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d", rc4), map[string]any{"details": []any{map[string]any{"id": ohDetailID(t, o4, 1), "status": "Cancelled"}}}))
		f.put(t, art, ohWarehouse(f.main), -3)
		// 10 in stock, 4 outstanding: 6 again.
		expect("at the reorder point after cancelling a position of RC-4", 6, false, 0)

		// One piece more outstanding is below: 5 < 6, and stock.low says so.
		rc5, _ := f.newOrder(t, map[string]any{"number": "RC-5", "details": []any{line(1, "")}})
		expect("one under the reorder point", 5, true, 1)
		if low := lows(); len(low) == 1 && (low[0]["availableStock"] != float64(5) || low[0]["reorderPoint"] != float64(6)) {
			t.Errorf("stock.low = %v, want availableStock 5, reorderPoint 6", low[0])
		}

		// Cancelling that order is back at the point: not below, and no
		// new stock.low.
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d", rc5), map[string]any{"status": "Cancelled"}))
		expect("back at the reorder point", 6, false, 1)
	})
}
