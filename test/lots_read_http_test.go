package test

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"testing"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/test/testdb"
)

// The read side of lots over HTTP: GET /api/lots[/{id}], the lots of a bin's
// mappings, the ledger's lotNumber and its filter, and the lots a picking
// list reserves, on SQLite and PostgreSQL.

func TestLotReadsOverHTTP(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		tracked := f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "YOGURT-1"}), false)
		binB := f.created(t, f.env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "B-01"}), false)
		// Marked lot-tracked in the store (the product's lotTracked in the
		// API is another test's).
		db, err := bunstore.Open(databaseURL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Bun().NewUpdate().Table("article_details").Set("lot_tracked = TRUE").Where("id = ?", tracked).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		keys := 0
		batch := func(endpoint string, ops ...map[string]any) {
			t.Helper()
			keys++
			body := ohBatch(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/%s/read-key-%d", endpoint, keys), ops))
			for i, r := range body["results"].([]any) {
				if r.(map[string]any)["success"] != true {
					t.Fatalf("%s operation %d: %v", endpoint, i, r)
				}
			}
		}
		batch("stock/change",
			map[string]any{"articleDetailId": tracked, "binLocation": map[string]any{"id": f.binA}, "quantity": 5,
				"lot": map[string]any{"number": "Y-2", "bestBefore": "2099-03-01"}},
			map[string]any{"articleDetailId": tracked, "binLocation": map[string]any{"id": f.binA}, "quantity": 2,
				"lot": map[string]any{"number": "Y-1", "bestBefore": "2099-01-15"}},
			map[string]any{"articleDetailId": tracked, "binLocation": map[string]any{"id": binB}, "quantity": 4,
				"lot": map[string]any{"number": "Y-1"}},
			map[string]any{"articleDetailId": tracked, "warehouse": map[string]any{"id": f.second}, "quantity": 1,
				"lot": map[string]any{"number": "Y-OLD", "bestBefore": "2020-01-01"}},
			map[string]any{"articleDetailId": f.art1, "binLocation": map[string]any{"id": f.binA}, "quantity": 3},
		)

		// The bin's mappings: the tracked product's lots by best-before,
		// [] for the other.
		bin := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/binLocations/%d", f.binA), nil))["data"].(map[string]any)
		lotsOf := map[float64]any{}
		for _, m := range bin["articleDetailBinLocationMappings"].([]any) {
			m := m.(map[string]any)
			lotsOf[m["articleDetailId"].(float64)] = m["lots"]
		}
		wantLots := []any{
			map[string]any{"number": "Y-1", "bestBefore": "2099-01-15", "stock": float64(2), "reservedStock": float64(0)},
			map[string]any{"number": "Y-2", "bestBefore": "2099-03-01", "stock": float64(5), "reservedStock": float64(0)},
		}
		if got := lotsOf[float64(tracked)]; !reflect.DeepEqual(got, wantLots) {
			t.Errorf("lots on A-01: %v, want %v", got, wantLots)
		}
		if got := lotsOf[float64(f.art1)]; !reflect.DeepEqual(got, []any{}) {
			t.Errorf("lots of an untracked product: %#v, want []", got)
		}

		list := func(query string) (int, []map[string]any) {
			t.Helper()
			body := ohOK(t, f.env.Do(t, "GET", "/api/lots"+query, nil))
			var out []map[string]any
			for _, l := range body["data"].([]any) {
				out = append(out, l.(map[string]any))
			}
			return int(body["total"].(float64)), out
		}
		numbers := func(lots []map[string]any) []string {
			out := []string{}
			for _, l := range lots {
				out = append(out, l["number"].(string))
			}
			return out
		}
		total, lots := list("")
		if got := numbers(lots); total != 3 || !reflect.DeepEqual(got, []string{"Y-OLD", "Y-1", "Y-2"}) {
			t.Errorf("lots: %d %v", total, got)
		}
		y1 := lots[1]
		wantY1 := map[string]any{"id": y1["id"], "articleDetailId": float64(tracked), "number": "Y-1", "bestBefore": "2099-01-15",
			"expired": false, "stock": float64(6), "reservedStock": float64(0), "locations": []any{
				map[string]any{"warehouseId": float64(f.main), "binLocationId": float64(f.binA), "binLocationCode": "A-01", "stock": float64(2), "reservedStock": float64(0)},
				map[string]any{"warehouseId": float64(f.main), "binLocationId": float64(binB), "binLocationCode": "B-01", "stock": float64(4), "reservedStock": float64(0)},
			}}
		if !reflect.DeepEqual(y1, wantY1) {
			t.Errorf("Y-1 in the list:\n got %v\nwant %v", y1, wantY1)
		}
		one := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/lots/%d", int64(y1["id"].(float64))), nil))["data"]
		if !reflect.DeepEqual(one, wantY1) {
			t.Errorf("GET Y-1:\n got %v\nwant %v", one, wantY1)
		}
		if old := lots[0]; old["expired"] != true || old["bestBefore"] != "2020-01-01" {
			t.Errorf("the old lot: %v", old)
		}
		ohError(t, f.env.Do(t, "GET", "/api/lots/999999", nil), 404, "lot")

		for query, want := range map[string][]string{
			"?filter[0][property]=lot.expired&filter[0][value]=true":                                                                         {"Y-OLD"},
			"?filter[0][property]=lot.expired&filter[0][value]=0":                                                                            {"Y-1", "Y-2"},
			"?filter[0][property]=lot.bestBefore&filter[0][expression]=>&filter[0][value]=2099-01-15":                                        {"Y-2"},
			"?filter[0][property]=lot.bestBefore&filter[0][value]=2099-01-15":                                                                {"Y-1"},
			"?filter[0][property]=lot.number&filter[0][value]=y-%25":                                                                         {"Y-OLD", "Y-1", "Y-2"},
			"?filter[0][property]=lot.articleDetailId&filter[0][value]=" + fmt.Sprint(f.art1):                                                {},
			"?sort[0][property]=lot.number&sort[0][direction]=DESC":                                                                          {"Y-OLD", "Y-2", "Y-1"},
			"?sort[0][property]=lot.bestBefore&sort[0][direction]=DESC&filter[0][property]=lot.bestBefore&filter[0][expression]=IS NOT NULL": {"Y-2", "Y-1", "Y-OLD"},
		} {
			u, err := url.Parse("/api/lots" + query)
			if err != nil {
				t.Fatal(err)
			}
			u.RawQuery = u.Query().Encode()
			_, lots := list("?" + u.RawQuery)
			if got := numbers(lots); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %v, want %v", query, got, want)
			}
		}
		ohError(t, f.env.Do(t, "GET", "/api/lots?filter[0][property]=lot.bestBefore&filter[0][value]=soon", nil), 400, "date")
		ohError(t, f.env.Do(t, "GET", "/api/lots?filter[0][property]=lot.bestBefore&filter[0][expression]=LIKE&filter[0][value]=2099%25", nil), 400, "text")
		ohError(t, f.env.Do(t, "GET", "/api/lots?filter[0][property]=lot.nope&filter[0][value]=1", nil), 400, "lot.number")

		// A picking list reserves by FEFO: Y-1 first, on both of its bins.
		order := f.created(t, f.env.Do(t, "POST", "/api/orders", map[string]any{"number": "LOT-ORDER-1",
			"details": []any{map[string]any{"articleDetailId": tracked, "quantity": 7}}}), false)
		picks := ohOK(t, f.env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", order), nil))["data"].(map[string]any)["picks"].([]any)
		type pick struct {
			code, lot string
			quantity  float64
		}
		var got []pick
		for _, p := range picks {
			p := p.(map[string]any)
			got = append(got, pick{p["binLocationCode"].(string), fmt.Sprint(p["lotNumber"]), p["quantity"].(float64)})
		}
		if len(got) != 3 {
			t.Fatalf("picks %v", got)
		}
		reserved := 0.0
		for _, p := range got {
			if p.lot == "Y-2" {
				reserved += p.quantity
			}
		}
		if reserved != 1 {
			t.Errorf("picks %v: all of Y-1 (6) and one of Y-2", got)
		}
		// Read again, the holds keep their lots (one position, two lots on A-01).
		again := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/orders/%d/pickingList", order), nil))["data"].(map[string]any)["picks"].([]any)
		if !reflect.DeepEqual(again, picks) {
			t.Errorf("picking list read back:\n got %v\nwant %v", again, picks)
		}
		_, lots = list("?filter[0][property]=lot.number&filter[0][expression]==&filter[0][value]=Y-1")
		if len(lots) != 1 || lots[0]["reservedStock"] != float64(6) {
			t.Errorf("Y-1 after the picking list: %v", lots)
		}

		// Shipping the order: the ledger names the lots (a recall's answer).
		ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", order), map[string]any{}))
		body := ohOK(t, f.env.Do(t, "GET", "/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.lotNumber&filter[0][value]=Y-1&filter[1][property]=stockLedgerEntry.type&filter[1][value]=shipment", nil))
		shipped := 0.0
		for _, e := range body["data"].([]any) {
			e := e.(map[string]any)
			if e["lotNumber"] != "Y-1" || e["orderId"] != float64(order) {
				t.Errorf("shipment entry %v", e)
			}
			shipped -= e["quantity"].(float64)
		}
		if shipped != 6 {
			t.Errorf("Y-1 shipped %v pieces, want 6", shipped)
		}
		body = ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.articleDetailId&filter[0][value]=%d", f.art1), nil))
		for _, e := range body["data"].([]any) {
			if v, ok := e.(map[string]any)["lotNumber"]; !ok || v != nil {
				t.Errorf("an untracked product's entry: lotNumber %v (present %v)", v, ok)
			}
		}
		// Y-1 left entirely: it stays listed, with nothing and nowhere.
		_, lots = list("?filter[0][property]=lot.number&filter[0][expression]==&filter[0][value]=Y-1")
		if len(lots) != 1 || lots[0]["stock"] != float64(0) || !reflect.DeepEqual(lots[0]["locations"], []any{}) {
			t.Errorf("Y-1 after shipping: %v", lots)
		}
	})
}
