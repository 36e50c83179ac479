package test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// afterFixture drives the API of one database and fails the test on any
// answer but the one wanted.
type afterFixture struct {
	t   *testing.T
	env *apitest.Env
}

func (f afterFixture) do(method, path string, body any, want int) map[string]any {
	f.t.Helper()
	res := f.env.Do(f.t, method, path, body)
	if res.Status != want {
		f.t.Fatalf("%s %s: want %d, got %s", method, path, want, res)
	}
	return res.JSON(f.t)
}

func (f afterFixture) id(method, path string, body any) int64 {
	f.t.Helper()
	data := f.do(method, path, body, http.StatusCreated)["data"]
	if list, ok := data.([]any); ok {
		data = list[0]
	}
	return int64(data.(map[string]any)["id"].(float64))
}

// page reads one page of a list: its total and the ids (keyed by idKey) of
// its items.
func (f afterFixture) page(path, idKey string, query url.Values) (int64, []int64) {
	f.t.Helper()
	sep := "?"
	if len(query) > 0 {
		path += sep + query.Encode()
	}
	body := f.do(http.MethodGet, path, nil, http.StatusOK)
	var ids []int64
	for _, item := range body["data"].([]any) {
		ids = append(ids, int64(item.(map[string]any)[idKey].(float64)))
	}
	return int64(body["total"].(float64)), ids
}

// afterData puts at least three items in every list, through the API, and
// returns the lists: path and the key of their items' ids.
func afterData(f afterFixture) []struct{ path, idKey string } {
	t := f.t
	main := f.id("POST", "/api/warehouses", map[string]any{"code": "AMAIN", "name": "Main"})
	var others []int64
	for i := range 3 {
		others = append(others, f.id("POST", "/api/warehouses", map[string]any{"code": fmt.Sprintf("AW%d", i), "name": "Other"}))
	}
	var bins []int64
	for i := range 3 {
		bins = append(bins, f.id("POST", "/api/binLocations", map[string]any{"warehouseId": main, "code": fmt.Sprintf("A-%02d", i)}))
	}
	var articles []int64
	for i := range 3 {
		articles = append(articles, f.id("POST", "/api/articleDetails", map[string]any{"number": fmt.Sprintf("AFTER-%d", i)}))
	}
	tracked := f.id("POST", "/api/articleDetails", map[string]any{"number": "AFTER-LOT", "lotTracked": true})
	hook := f.id("POST", "/api/webhooks", map[string]any{"url": "https://shop.example/hooks/stock", "events": []string{"stock.changed"}})
	var ops []any
	for _, a := range articles {
		for _, b := range bins {
			ops = append(ops, map[string]any{"articleDetailId": a, "quantity": 10, "binLocation": map[string]any{"id": b}})
		}
	}
	for i, number := range []string{"L1", "L2", "L3"} {
		ops = append(ops, map[string]any{"articleDetailId": tracked, "quantity": 2, "binLocation": map[string]any{"id": bins[i]},
			"lot": map[string]any{"number": number}})
	}
	if res := f.do("PUT", "/api/stock/change/after-1", ops, http.StatusOK); res["success"] != true {
		t.Fatalf("stock: %v", res)
	}
	// Each batch's events are deliveries to the webhook.
	for i := range 3 {
		f.do("PUT", fmt.Sprintf("/api/stock/change/after-more-%d", i), []any{map[string]any{"articleDetailId": articles[i], "quantity": 1,
			"binLocation": map[string]any{"id": bins[0]}}}, http.StatusOK)
	}
	var orders []int64
	for i := range 3 {
		orders = append(orders, f.id("POST", "/api/orders", map[string]any{"number": fmt.Sprintf("A-%d", i),
			"details": []any{map[string]any{"articleDetailId": articles[0], "quantity": 3}}}))
	}
	orderPath := fmt.Sprintf("/api/orders/%d", orders[0])
	f.do("PUT", orderPath+"/ship", map[string]any{"warehouse": map[string]any{"id": main}, "suppressStatusMail": true}, http.StatusOK)
	detail := f.do("GET", orderPath, nil, http.StatusOK)["data"].(map[string]any)["details"].([]any)[0].(map[string]any)["id"]
	for range 3 {
		f.id("POST", orderPath+"/returns", map[string]any{"details": []any{map[string]any{"orderDetailId": detail, "quantity": 1}}})
	}
	var purchase int64
	for i := range 3 {
		purchase = f.id("POST", "/api/purchaseOrders", map[string]any{"number": fmt.Sprintf("APO-%d", i), "warehouse": map[string]any{"id": main},
			"lines": []any{map[string]any{"articleDetailId": articles[1], "quantity": 10}}})
	}
	poPath := fmt.Sprintf("/api/purchaseOrders/%d", purchase)
	line := f.do("GET", poPath, nil, http.StatusOK)["data"].(map[string]any)["lines"].([]any)[0].(map[string]any)["id"]
	for range 3 {
		f.id("POST", poPath+"/receipts", map[string]any{"lines": []any{map[string]any{"lineId": line, "quantity": 1,
			"binLocation": map[string]any{"id": bins[1]}}}})
	}
	for i := range 3 {
		f.id("POST", "/api/users", map[string]any{"name": fmt.Sprintf("after-%d", i), "role": "reader"})
	}
	for i := range 2 {
		f.id("POST", "/api/webhooks", map[string]any{"url": fmt.Sprintf("https://shop.example/hooks/%d", i), "events": []string{"order.statusChanged"}})
	}
	for i := range 3 {
		f.id("POST", "/api/transfers", map[string]any{"number": fmt.Sprintf("AT-%d", i), "source": map[string]any{"id": main},
			"destination": map[string]any{"id": others[i]}, "lines": []any{map[string]any{"articleDetailId": articles[2], "quantity": 1}}})
		f.id("POST", "/api/counts", map[string]any{"warehouse": map[string]any{"id": main}, "binLocations": []any{map[string]any{"id": bins[i]}}})
		waveOrder := f.id("POST", "/api/orders", map[string]any{"number": fmt.Sprintf("AWV-%d", i),
			"details": []any{map[string]any{"articleDetailId": articles[2], "quantity": 1}}})
		f.id("POST", "/api/pickingWaves", map[string]any{"warehouse": map[string]any{"id": main}, "orderIds": []int64{waveOrder}})
	}
	return []struct{ path, idKey string }{
		{"/api/transfers", "id"}, {"/api/counts", "id"}, {"/api/pickingWaves", "id"},
		{"/api/warehouses", "id"}, {"/api/binLocations", "id"}, {"/api/articleDetails", "id"},
		{"/api/stockLedgerEntries", "id"}, {"/api/orders", "id"}, {"/api/returns", "id"},
		{"/api/purchaseOrders", "id"}, {poPath + "/receipts", "id"}, {"/api/users", "id"},
		{"/api/webhooks", "id"}, {fmt.Sprintf("/api/webhooks/%d/deliveries", hook), "eventId"}, {"/api/lots", "id"},
	}
}

// TestEveryListPagesWithAfterAsWithStart checks, on every list, that the
// page after the last id of a page is the page that start reaches, with
// the same total; with a filter too, with start within the items after
// the id, and that after is refused beside a sort and when it is no
// integer of at least 0.
func TestEveryListPagesWithAfterAsWithStart(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := afterFixture{t: t, env: apitest.New(t, databaseURL)}
		for _, list := range afterData(f) {
			total, all := f.page(list.path, list.idKey, nil)
			if total != int64(len(all)) || len(all) < 3 || !slices.IsSorted(all) {
				t.Fatalf("%s: total %d, ids %v: want three or more in id order", list.path, total, all)
			}
			for start := 1; start < len(all); start++ {
				for _, limit := range []string{"1", "2"} {
					_, byStart := f.page(list.path, list.idKey, url.Values{"start": {strconv.Itoa(start)}, "limit": {limit}})
					gotTotal, byAfter := f.page(list.path, list.idKey, url.Values{"after": {strconv.FormatInt(all[start-1], 10)}, "limit": {limit}})
					if gotTotal != total || !slices.Equal(byAfter, byStart) {
						t.Errorf("%s after=%d limit=%s: %v (total %d), start=%d gives %v (total %d)", list.path, all[start-1], limit, byAfter, gotTotal, start, byStart, total)
					}
				}
			}
			// Start skips within the items after the id.
			if _, got := f.page(list.path, list.idKey, url.Values{"after": {strconv.FormatInt(all[0], 10)}, "start": {"1"}, "limit": {"1"}}); !slices.Equal(got, all[2:3]) {
				t.Errorf("%s after=%d start=1: %v, want %v", list.path, all[0], got, all[2:3])
			}
			if _, got := f.page(list.path, list.idKey, url.Values{"after": {strconv.FormatInt(all[len(all)-1], 10)}}); len(got) != 0 {
				t.Errorf("%s after the last id: %v", list.path, got)
			}
			if _, got := f.page(list.path, list.idKey, url.Values{"after": {"0"}}); !slices.Equal(got, all) {
				t.Errorf("%s after=0: %v, want %v", list.path, got, all)
			}
			for _, bad := range []string{"-1", "x", "1.5", "99999999999999999999"} {
				ohError(t, f.env.Do(t, "GET", list.path+"?after="+url.QueryEscape(bad), nil), http.StatusBadRequest, "after")
			}
		}
		// A filtered list pages by after as by start, and its total counts
		// the filter's matches.
		filtered := url.Values{"filter[0][property]": {"stockLedgerEntry.type"}, "filter[0][value]": {"incoming"}}
		total, all := f.page("/api/stockLedgerEntries", "id", filtered)
		if total != int64(len(all)) || len(all) < 3 {
			t.Fatalf("incoming entries: total %d, %v", total, all)
		}
		q := url.Values{"after": {strconv.FormatInt(all[0], 10)}, "limit": {"2"}}
		for k, v := range filtered {
			q[k] = v
		}
		if gotTotal, got := f.page("/api/stockLedgerEntries", "id", q); gotTotal != total || !slices.Equal(got, all[1:3]) {
			t.Errorf("incoming entries after %d: %v (total %d), want %v (total %d)", all[0], got, gotTotal, all[1:3], total)
		}
		ohError(t, f.env.Do(t, "GET", "/api/stockLedgerEntries?after=1&sort[0][property]=stockLedgerEntry.quantity", nil), http.StatusBadRequest, "after")
		ohError(t, f.env.Do(t, "GET", "/api/orders?after=1&after=2", nil), http.StatusBadRequest, "after")
	})
}
