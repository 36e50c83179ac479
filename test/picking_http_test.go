package test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance tests over HTTP for picking lists, shipping from reserved bins,
// order changes and returns, on SQLite and PostgreSQL.

func ohBin(id int64) map[string]any {
	return map[string]any{"binLocation": map[string]any{"id": id}}
}

// mapping is the stock and reserved stock of a product on a bin.
func (f *ohFixture) mapping(t testing.TB, article, bin int64) (stock, reserved int64) {
	t.Helper()
	data := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/binLocations/%d", bin), nil))["data"].(map[string]any)
	for _, m := range data["articleDetailBinLocationMappings"].([]any) {
		mm := m.(map[string]any)
		if ohInt(t, mm["articleDetailId"]) == article {
			return ohInt(t, mm["stock"]), ohInt(t, mm["reservedStock"])
		}
	}
	return 0, 0
}

func (f *ohFixture) nullBin(t testing.TB, warehouseID int64) int64 {
	t.Helper()
	data := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/warehouses/%d", warehouseID), nil))["data"].(map[string]any)
	return ohInt(t, data["nullBinLocationId"])
}

func (f *ohFixture) articleFigures(t testing.TB, article int64) (reserved, available int64) {
	t.Helper()
	data := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", article), nil))["data"].(map[string]any)
	return ohInt(t, data["reservedStock"]), ohInt(t, data["availableStock"])
}

// picks is data.picks of a picking list response, after checking orderId.
func picks(t testing.TB, res *apitest.Response, orderID int64) []any {
	t.Helper()
	data := ohOK(t, res)["data"].(map[string]any)
	if ohInt(t, data["orderId"]) != orderID {
		t.Errorf("orderId %v, want %d", data["orderId"], orderID)
	}
	return data["picks"].([]any)
}

func pick(detail, article, warehouse, bin int64, code string, quantity int) map[string]any {
	return map[string]any{"orderDetailId": float64(detail), "articleDetailId": float64(article), "warehouseId": float64(warehouse),
		"binLocationId": float64(bin), "binLocationCode": code, "quantity": float64(quantity), "lotNumber": nil}
}

func requirePicks(t testing.TB, got []any, want ...map[string]any) {
	t.Helper()
	if len(want) == 0 {
		want = []map[string]any{}
	}
	w := make([]any, len(want))
	for i := range want {
		w[i] = want[i]
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("picks\n got %v\nwant %v", got, w)
	}
}

func (f *ohFixture) returnRequest(t testing.TB, orderPath, key string, body any) *apitest.Response {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", orderPath+"/returns", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	req.SetBasicAuth(apitest.User, apitest.Key)
	return f.env.DoRaw(t, req)
}

// TestOrderFlowHTTP is an order's whole flow: Open → picking list (In
// process) → shipped from the reserved bins → partly returned, each step
// visible in the article figures, the ledger and the order.
func TestOrderFlowHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		binB := f.created(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "B-01"}), false)
		null := f.nullBin(t, f.main)
		f.put(t, f.art1, ohBin(f.binA), 3)
		f.put(t, f.art1, ohBin(binB), 5)
		f.put(t, f.art2, ohWarehouse(f.main), 4) // the unknown bin location

		id, o := f.newOrder(t, map[string]any{"id": 7001, "number": "P-1", "customerEmail": "jane@example.com", "details": []any{
			map[string]any{"id": 7101, "articleDetailId": f.art1, "quantity": 6},
			map[string]any{"id": 7102, "articleDetailId": f.art2, "quantity": 2},
		}})
		path := fmt.Sprintf("/api/orders/%d", id)
		if d := o["details"].([]any)[0].(map[string]any); d["returned"] != float64(0) {
			t.Errorf("returned = %v before any return", d["returned"])
		}
		if _, avail := f.articleFigures(t, f.art1); avail != 2 {
			t.Errorf("availableStock = %d, want 8 - 6", avail)
		}

		// Picking: by the stock-out strategy (the smaller bin first), the
		// picks sorted by bin code.
		got := picks(t, env.Do(t, "POST", "/api/orders/P-1/pickingList?useNumberAsId=true", nil), id)
		requirePicks(t, got,
			pick(7101, f.art1, f.main, f.binA, "A-01", 3),
			pick(7101, f.art1, f.main, binB, "B-01", 3),
			pick(7102, f.art2, f.main, null, "erp_null_bin_location", 2))
		if s := f.order(t, path)["status"]; s != "In process" {
			t.Errorf("status %v, want In process", s)
		}
		if s, r := f.mapping(t, f.art1, binB); s != 5 || r != 3 {
			t.Errorf("B-01: stock %d reserved %d, want 5 and 3", s, r)
		}
		if reserved, avail := f.articleFigures(t, f.art1); reserved != 6 || avail != 2 {
			t.Errorf("reservedStock %d availableStock %d, want 6 and 2", reserved, avail)
		}
		// GET shows the same and changes nothing; POST again reserves nothing more.
		requirePicks(t, picks(t, env.Do(t, "GET", path+"/pickingList", nil), id),
			pick(7101, f.art1, f.main, f.binA, "A-01", 3), pick(7101, f.art1, f.main, binB, "B-01", 3),
			pick(7102, f.art2, f.main, null, "erp_null_bin_location", 2))
		requirePicks(t, picks(t, env.Do(t, "POST", path+"/pickingList", map[string]any{"warehouse": map[string]any{"code": "MAIN"}}), id),
			pick(7101, f.art1, f.main, f.binA, "A-01", 3), pick(7101, f.art1, f.main, binB, "B-01", 3),
			pick(7102, f.art2, f.main, null, "erp_null_bin_location", 2))

		// Nothing else takes reserved pieces.
		res := ohBatch(t, env.Do(t, "PUT", "/api/stock/change/take-reserved", []any{
			map[string]any{"articleDetailId": f.art1, "quantity": -1, "binLocation": map[string]any{"id": f.binA}}}))
		if res["success"] != false {
			t.Errorf("took a reserved piece: %v", res)
		}

		// A second order competing for article 1: all or nothing, every shortfall named.
		id2, _ := f.newOrder(t, map[string]any{"number": "P-2", "details": []any{
			map[string]any{"articleDetailId": f.art1, "quantity": 3},
			map[string]any{"articleDetailId": f.art2, "quantity": 3},
		}})
		ohError(t, env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", id2), nil), 400,
			"requested 3, available 2", "requested 3, available 2", "nothing was reserved")
		requirePicks(t, picks(t, env.Do(t, "GET", fmt.Sprintf("/api/orders/%d/pickingList", id2), nil), id2))
		if s := f.order(t, fmt.Sprintf("/api/orders/%d", id2))["status"]; s != "Open" {
			t.Errorf("a failed picking list moved the order to %v", s)
		}
		ohError(t, env.Do(t, "POST", path+"/pickingList", map[string]any{"warehouse": map[string]any{"id": 999}}), 400, "warehouse 999 does not exist")
		ohError(t, env.Do(t, "POST", "/api/orders/999999/pickingList", nil), 404)

		// Ship part of position 7101 from B-01: its reservation there goes first.
		res = ohBatch(t, env.Do(t, "PUT", "/api/orderDetails/ship/ship-p1", []any{
			map[string]any{"orderDetailId": 7101, "quantity": 2, "binLocation": map[string]any{"code": "B-01", "warehouseCode": "MAIN"}}}))
		if res["success"] != true {
			t.Fatalf("ship: %v", res)
		}
		if s, r := f.mapping(t, f.art1, binB); s != 3 || r != 1 {
			t.Errorf("B-01 after shipping 2: stock %d reserved %d, want 3 and 1", s, r)
		}
		// Then the rest of the order from the reserved bins.
		ohOK(t, env.Do(t, "PUT", path+"/ship", map[string]any{"suppressStatusMail": true}))
		if got := ohSummary(f.order(t, path)); got != "Completely delivered: 6/6 Completed, 2/2 Completed" {
			t.Errorf("order = %s", got)
		}
		for _, m := range []struct {
			article, bin    int64
			stock, reserved int64
		}{{f.art1, f.binA, 0, 0}, {f.art1, binB, 2, 0}, {f.art2, null, 2, 0}} {
			if s, r := f.mapping(t, m.article, m.bin); s != m.stock || r != m.reserved {
				t.Errorf("article %d on bin %d: stock %d reserved %d, want %d and %d", m.article, m.bin, s, r, m.stock, m.reserved)
			}
		}
		requirePicks(t, picks(t, env.Do(t, "GET", path+"/pickingList", nil), id))

		// Partly returned: into the default return-shipment warehouse (MAIN),
		// where article 1 has no default bin: its unknown bin location.
		body := map[string]any{"details": []any{map[string]any{"orderDetailId": 7101, "quantity": 2}}}
		first := f.returnRequest(t, path, "return-p1", body)
		retID := f.created(t, first, false)
		again := f.returnRequest(t, path, "return-p1", body)
		if again.Status != 201 || !bytes.Equal(again.Body, first.Body) || again.Header.Get("Idempotent-Replayed") != "true" ||
			again.Header.Get("Location") != first.Header.Get("Location") {
			t.Errorf("replay: %s, headers %v", again, again.Header)
		}
		ohError(t, f.returnRequest(t, path, "return-p1", map[string]any{"details": []any{map[string]any{"orderDetailId": 7101, "quantity": 1}}}), 409)
		if s, _ := f.mapping(t, f.art1, null); s != 2 {
			t.Errorf("unknown bin after the return: stock %d, want 2 (once)", s)
		}
		ret := ohOK(t, env.Do(t, "GET", fmt.Sprintf("/api/returns/%d", retID), nil))["data"].(map[string]any)
		if ret["orderId"] != float64(id) || ret["restock"] != true || ret["user"] != apitest.User {
			t.Errorf("return %v", ret)
		}
		wantLine := map[string]any{"orderDetailId": float64(7101), "articleDetailId": float64(f.art1), "quantity": float64(2),
			"warehouseId": float64(f.main), "binLocationId": float64(null)}
		if lines := ret["details"].([]any); len(lines) != 1 || !reflect.DeepEqual(lines[0], wantLine) {
			t.Errorf("return lines %v", lines)
		}
		ledger := ohOK(t, env.Do(t, "GET", "/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.type&filter[0][value]=return", nil))
		entries := ledger["data"].([]any)
		if len(entries) != 1 {
			t.Fatalf("return entries %v", entries)
		}
		if e := entries[0].(map[string]any); e["orderId"] != float64(id) || e["orderDetailId"] != float64(7101) || e["quantity"] != float64(2) ||
			e["binLocationId"] != float64(null) || e["idempotencyKey"] != "return-p1" {
			t.Errorf("ledger entry %v", e)
		}

		// Limits: at most shipped − returned; damaged goods move no stock.
		ohError(t, f.returnRequest(t, path, "", map[string]any{"details": []any{map[string]any{"orderDetailId": 7101, "quantity": 5}}}), 400,
			"at most 4 more")
		ohError(t, f.returnRequest(t, path, "return-bad", map[string]any{"details": []any{map[string]any{"orderDetailId": 7101, "quantity": 0}}}), 400,
			"details[0].quantity")
		// A rejected request does not use up its key.
		damaged := f.created(t, f.returnRequest(t, path, "return-bad", map[string]any{"restock": false,
			"details": []any{map[string]any{"orderDetailId": 7102, "quantity": 1}}}), false)
		ret = ohOK(t, env.Do(t, "GET", fmt.Sprintf("/api/returns/%d", damaged), nil))["data"].(map[string]any)
		if line := ret["details"].([]any)[0].(map[string]any); ret["restock"] != false || line["warehouseId"] != nil || line["binLocationId"] != nil {
			t.Errorf("damaged return %v", ret)
		}
		if s, _ := f.mapping(t, f.art2, null); s != 2 {
			t.Errorf("a return without restock moved stock: %d", s)
		}
		// Into a named bin.
		f.created(t, f.returnRequest(t, path, "", map[string]any{"binLocation": map[string]any{"code": "A-01", "warehouseId": f.main},
			"details": []any{map[string]any{"orderDetailId": 7101, "quantity": 1}}}), false)
		if s, _ := f.mapping(t, f.art1, f.binA); s != 1 {
			t.Errorf("A-01 after a return there: %d", s)
		}
		ds := f.order(t, path)["details"].([]any)
		if ds[0].(map[string]any)["returned"] != float64(3) || ds[1].(map[string]any)["returned"] != float64(1) {
			t.Errorf("returned on the positions: %v", ds)
		}
		list := ohOK(t, env.Do(t, "GET", fmt.Sprintf("/api/returns?filter[0][property]=return.orderId&filter[0][value]=%d", id), nil))
		if list["total"] != float64(3) {
			t.Errorf("returns of the order: %v", list["total"])
		}
		list = ohOK(t, env.Do(t, "GET", "/api/returns?filter[0][property]=return.createdAt&filter[0][expression]=%3E%3D&filter[0][value]=2000-01-01T00:00:00%2B0000"+
			"&filter[1][property]=return.restock&filter[1][value]=true&sort[0][property]=return.id&sort[0][direction]=DESC", nil))
		if list["total"] != float64(2) || ohInt(t, list["data"].([]any)[1].(map[string]any)["id"]) != retID {
			t.Errorf("restocked returns since 2000, newest first: %v", list)
		}
		ohError(t, env.Do(t, "GET", "/api/returns?filter[0][property]=return.nope&filter[0][value]=1", nil), 400, "return.orderId")
		ohError(t, env.Do(t, "GET", "/api/returns/999999", nil), 404)
		ohError(t, f.returnRequest(t, "/api/orders/999999", "", body), 404)
	})
}

func TestOrderChangesHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		f.put(t, f.art1, ohBin(f.binA), 5)
		id, o := f.newOrder(t, map[string]any{"number": "C-1", "details": []any{
			map[string]any{"articleDetailId": f.art1, "quantity": 2},
			map[string]any{"articleDetailId": f.art1, "quantity": 2},
		}})
		d1, d2 := ohDetailID(t, o, 0), ohDetailID(t, o, 1)
		path := fmt.Sprintf("/api/orders/%d", id)
		picks(t, env.Do(t, "POST", path+"/pickingList", nil), id)
		if reserved, avail := f.articleFigures(t, f.art1); reserved != 4 || avail != 1 {
			t.Fatalf("reserved %d available %d", reserved, avail)
		}

		// Impossible changes are a 400 that says why, and change nothing.
		ohError(t, env.Do(t, "PUT", path, map[string]any{"status": "Completely delivered"}), 400, "while pieces are unshipped")
		ohError(t, env.Do(t, "PUT", path, map[string]any{"status": "Sent"}), 400, `unknown order status \"Sent\"`)
		ohError(t, env.Do(t, "PUT", path, map[string]any{"details": []any{map[string]any{"id": 999999, "status": "Cancelled"}}}), 400, "details[0].id")
		ohError(t, env.Do(t, "PUT", path, map[string]any{"number": "X"}), 400, "number")

		// Cancelling a position releases its reservations.
		ohOK(t, env.Do(t, "PUT", path+"?useNumberAsId=false", map[string]any{"details": []any{map[string]any{"id": d2, "status": "Cancelled"}}}))
		if reserved, avail := f.articleFigures(t, f.art1); reserved != 2 || avail != 3 {
			t.Errorf("after cancelling a position: reserved %d available %d, want 2 and 3", reserved, avail)
		}
		requirePicks(t, picks(t, env.Do(t, "GET", path+"/pickingList", nil), id), pick(d1, f.art1, f.main, f.binA, "A-01", 2))

		// Ship the other, then the order cannot be cancelled, nor the shipped position.
		ohBatch(t, env.Do(t, "PUT", "/api/orderDetails/ship/c1", []any{map[string]any{"orderDetailId": d1, "quantity": 2, "warehouse": map[string]any{"id": f.main}}}))
		if s := f.order(t, path)["status"]; s != "Completely delivered" {
			t.Errorf("status %v", s)
		}
		ohError(t, env.Do(t, "PUT", "/api/orders/C-1?useNumberAsId=true", map[string]any{"status": "Cancelled"}), 400, "cannot")
		ohError(t, env.Do(t, "PUT", path, map[string]any{"details": []any{map[string]any{"id": d1, "status": "Cancelled"}}}), 400,
			"cannot be cancelled")
		ohOK(t, env.Do(t, "PUT", "/api/orders/C-1?useNumberAsId=true", map[string]any{"status": "Completed", "customerEmail": "new@example.com"}))
		if got := f.order(t, path); got["status"] != "Completed" || got["customerEmail"] != "new@example.com" {
			t.Errorf("order %v", got)
		}

		// Cancelling an order releases everything and stops counting it.
		id2, _ := f.newOrder(t, map[string]any{"number": "C-2", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 3}}})
		picks(t, env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", id2), nil), id2)
		if reserved, avail := f.articleFigures(t, f.art1); reserved != 3 || avail != 0 {
			t.Errorf("reserved %d available %d, want 3 and 0", reserved, avail)
		}
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d", id2), map[string]any{"status": "Cancelled"}))
		if reserved, avail := f.articleFigures(t, f.art1); reserved != 0 || avail != 3 {
			t.Errorf("after cancelling: reserved %d available %d, want 0 and 3", reserved, avail)
		}
		ohError(t, env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", id2), nil), 400, "cancelled")
		ohError(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d", id2), map[string]any{"status": "Open"}), 400, "cancelled")

		// DELETE releases a picking list.
		id3, _ := f.newOrder(t, map[string]any{"number": "C-3", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
		picks(t, env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", id3), nil), id3)
		requirePicks(t, picks(t, env.Do(t, "DELETE", fmt.Sprintf("/api/orders/%d/pickingList", id3), nil), id3))
		if reserved, _ := f.articleFigures(t, f.art1); reserved != 0 {
			t.Errorf("reserved %d after DELETE", reserved)
		}
	})
}

// An orderDetails/ship operation that names a bin the position holds
// nothing on takes unreserved stock there, and the position's reservations
// elsewhere shrink to what it still has to ship.
func TestShipFromAnotherBinHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		binZ := f.created(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "Z-01"}), false)
		f.put(t, f.art2, ohBin(f.binA), 4)
		id, o := f.newOrder(t, map[string]any{"number": "Z-1", "details": []any{map[string]any{"articleDetailId": f.art2, "quantity": 4}}})
		d := ohDetailID(t, o, 0)
		requirePicks(t, picks(t, env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", id), nil), id),
			pick(d, f.art2, f.main, f.binA, "A-01", 4))
		f.put(t, f.art2, ohBin(binZ), 3)

		// Z-01 has 3 unreserved: shipping 3 from there leaves 1 to ship, so
		// the reservation on A-01 shrinks from 4 to 1.
		res := ohBatch(t, env.Do(t, "PUT", "/api/orderDetails/ship/z-1", []any{
			map[string]any{"orderDetailId": d, "quantity": 3, "binLocation": map[string]any{"id": binZ}}}))
		if res["success"] != true {
			t.Fatalf("ship: %v", res)
		}
		if s, r := f.mapping(t, f.art2, f.binA); s != 4 || r != 1 {
			t.Errorf("A-01: stock %d reserved %d, want 4 and 1", s, r)
		}
		if s, r := f.mapping(t, f.art2, binZ); s != 0 || r != 0 {
			t.Errorf("Z-01: stock %d reserved %d, want 0", s, r)
		}
		requirePicks(t, picks(t, env.Do(t, "GET", fmt.Sprintf("/api/orders/%d/pickingList", id), nil), id),
			pick(d, f.art2, f.main, f.binA, "A-01", 1))
		if reserved, avail := f.articleFigures(t, f.art2); reserved != 1 || avail != 3 {
			t.Errorf("reservedStock %d availableStock %d, want 1 and 3", reserved, avail)
		}
		// A bin without enough: the position's own reservation counts there, nothing else.
		res = ohBatch(t, env.Do(t, "PUT", "/api/orderDetails/ship/z-2", []any{
			map[string]any{"orderDetailId": d, "quantity": 1, "binLocation": map[string]any{"id": binZ}}}))
		if res["success"] != false {
			t.Errorf("shipped from an empty bin: %v", res)
		}
		ohBatch(t, env.Do(t, "PUT", "/api/orderDetails/ship/z-3", []any{
			map[string]any{"orderDetailId": d, "quantity": 1, "binLocation": map[string]any{"code": "A-01", "warehouseId": fmt.Sprint(f.main)}}}))
		if s, r := f.mapping(t, f.art2, f.binA); s != 3 || r != 0 {
			t.Errorf("A-01 at the end: stock %d reserved %d, want 3 and 0", s, r)
		}
		if got := ohSummary(f.order(t, fmt.Sprintf("/api/orders/%d", id))); got != "Completely delivered: 4/4 Completed" {
			t.Errorf("order %s", got)
		}
	})
}
