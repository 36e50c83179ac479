package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

func TestZZProbe5(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		if strings.HasPrefix(databaseURL, "postgres") {
			t.Skip()
		}
		f := poSetup(t, databaseURL)
		env := f.env
		show := func(label string, method, path string, body any) *apitest.Response {
			r := env.Do(t, method, path, body)
			t.Logf("%s: %s %s -> %s", label, method, path, r)
			return r
		}
		var bins []int64
		for _, c := range []string{"a-1", "A-10", "A-2", "B-1"} {
			bins = append(bins, f.created(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": c}), false))
		}
		for _, b := range bins {
			f.put(t, f.art2, ohBin(b), 1)
		}
		id, o := f.newOrder(t, map[string]any{"number": "S-1", "status": "Clarification required", "details": []any{
			map[string]any{"articleDetailId": f.art2, "quantity": 2},
			map[string]any{"articleDetailId": f.art2, "quantity": 2},
		}})
		_ = o
		path := fmt.Sprintf("/api/orders/%d", id)
		show("pick sort", "POST", path+"/pickingList", nil)
		show("order status after pick (was Clarification)", "GET", path, nil)
		// partial ship then pick again
		id2, o2 := f.newOrder(t, map[string]any{"number": "S-2", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 5, "shipped": 2}}})
		f.put(t, f.art1, ohBin(f.binA), 10)
		show("pick partially shipped", "POST", fmt.Sprintf("/api/orders/%d/pickingList", id2), nil)
		_ = o2
		show("return by number", "POST", "/api/orders/S-2/returns?useNumberAsId=true", map[string]any{"details": []any{map[string]any{"orderDetailId": ohDetailID(t, o2, 0), "quantity": 1}}})
		// roles
		body := ohOK(t, env.Do(t, "GET", "/api/users", nil))
		_ = body
		cr := env.Do(t, "POST", "/api/users", map[string]any{"name": "reader1", "role": "reader"})
		key := cr.JSON(t)["data"].(map[string]any)["key"].(string)
		uid := ohInt(t, cr.JSON(t)["data"].(map[string]any)["id"])
		t.Logf("create user headers: %v", cr.Header.Get("Cache-Control"))
		as := func(label, method, p string, body string) {
			req, _ := http.NewRequest(method, env.URL+p, strings.NewReader(body))
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			req.SetBasicAuth("reader1", key)
			r := env.DoRaw(t, req)
			t.Logf("%s: %s %s -> %s %v", label, method, p, r, r.Header.Get("WWW-Authenticate"))
		}
		as("reader get", "GET", "/api/orders", "")
		as("reader post", "POST", "/api/orders", `{"number":"X","details":[]}`)
		as("reader users", "GET", "/api/users", "")
		as("reader csv", "GET", "/api/stock.csv", "")
		as("reader import", "PUT", "/api/stock/import/set/k", "x")
		as("reader events", "GET", "/api/events", "")
		as("reader picking get", "GET", path+"/pickingList", "")
		as("reader picking post", "POST", path+"/pickingList", "")
		as("reader bad route", "GET", "/api/nope", "")
		as("reader PUT nope route", "PUT", "/api/nope", "")
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/users/%d", uid), map[string]any{"enabled": false}))
		as("disabled get", "GET", "/api/orders", "")
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/users/%d", uid), map[string]any{"enabled": true, "role": "operator"}))
		as("operator users", "GET", "/api/users", "")
		as("operator webhooks", "GET", "/api/webhooks", "")
		as("operator webhooks post", "POST", "/api/webhooks", `{"url":"http://x","events":["stock.low"]}`)
		as("operator pick", "DELETE", path+"/pickingList", "")
		r := env.Do(t, "POST", fmt.Sprintf("/api/users/%d/rotateKey", uid), nil)
		t.Logf("rotate: %s %v", r, r.Header.Get("Cache-Control"))
		as("old key", "GET", "/api/orders", "")
		show("delete user", "DELETE", fmt.Sprintf("/api/users/%d", uid), nil)
		show("get deleted user", "GET", fmt.Sprintf("/api/users/%d", uid), nil)
		// PO partial cancel
		pid, po := f.create(t, map[string]any{"number": "PO-1", "warehouse": map[string]any{"code": "MAIN"},
			"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 10}}})
		f.created(t, f.receive(t, pid, "", line(poLineID(t, po, 0), 4)), false)
		t.Logf("incoming before cancel %d", f.incoming(t, f.art1))
		show("cancel partial", "PUT", fmt.Sprintf("/api/purchaseOrders/%d", pid), map[string]any{"status": "Cancelled"})
		t.Logf("incoming after cancel %d", f.incoming(t, f.art1))
		show("po after cancel", "GET", fmt.Sprintf("/api/purchaseOrders/%d", pid), nil)
		show("po put empty", "PUT", fmt.Sprintf("/api/purchaseOrders/%d", pid), map[string]any{})
		pid2, _ := f.create(t, map[string]any{"number": "PO-2", "warehouse": map[string]any{"code": "MAIN"},
			"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 10}}})
		show("po2 put empty", "PUT", fmt.Sprintf("/api/purchaseOrders/%d", pid2), map[string]any{})
		show("po2 put same status", "PUT", fmt.Sprintf("/api/purchaseOrders/%d", pid2), map[string]any{"status": "Open"})
		show("po2 put status null", "PUT", fmt.Sprintf("/api/purchaseOrders/%d", pid2), map[string]any{"status": nil})
		show("po2 put supplier null", "PUT", fmt.Sprintf("/api/purchaseOrders/%d", pid2), map[string]any{"supplier": nil})
		show("po create supplier null", "POST", "/api/purchaseOrders", map[string]any{"number": "PO-3", "supplier": nil, "warehouse": map[string]any{"code": "MAIN"}, "lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
		show("po create expectedAt null", "POST", "/api/purchaseOrders", map[string]any{"number": "PO-4", "expectedAt": nil, "warehouse": map[string]any{"code": "MAIN"}, "lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
		show("po number trim", "POST", "/api/purchaseOrders", map[string]any{"number": "  ", "warehouse": map[string]any{"code": "MAIN"}, "lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
		show("po receipt wrong po id in path", "GET", "/api/purchaseOrders/9999/receipts/1", nil)
		show("ret list filter", "GET", "/api/returns?filter[0][property]=return.orderId&filter[0][value]=abc", nil)
		show("order put detail twice", "PUT", path, map[string]any{"details": []any{map[string]any{"id": ohDetailID(t, o, 0), "status": "Cancelled"}, map[string]any{"id": ohDetailID(t, o, 0), "status": "Open"}}})
		show("order put detail status missing", "PUT", path, map[string]any{"details": []any{map[string]any{"id": ohDetailID(t, o, 0)}}})
		show("order put status cancelled with reservations", "PUT", path, map[string]any{"status": "Cancelled"})
		show("bin after cancel", "GET", fmt.Sprintf("/api/binLocations/%d", bins[0]), nil)
	})
}
