package test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance tests over HTTP for purchase orders and goods receipt, on
// SQLite and PostgreSQL. apitest checks every response
// against the OpenAPI document.

// poFixture is ohFixture (warehouses MAIN and SECOND, bin A-01 in MAIN,
// SKU-1 and SKU-2) with bin B-01 in SECOND and A-01 as SKU-1's default bin.
type poFixture struct {
	*ohFixture
	binB int64
}

func poSetup(t *testing.T, databaseURL string) *poFixture {
	t.Helper()
	f := &poFixture{ohFixture: ohSetup(t, databaseURL)}
	f.binB = f.created(t, f.env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.second, "code": "B-01"}), false)
	ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/binLocations/%d/articleDetails/%d", f.binA, f.art1), map[string]any{"defaultMapping": true}))
	return f
}

func (f *poFixture) create(t testing.TB, body map[string]any) (int64, map[string]any) {
	t.Helper()
	id := f.created(t, f.env.Do(t, "POST", "/api/purchaseOrders", body), false)
	return id, f.get(t, id)
}

func (f *poFixture) get(t testing.TB, id int64) map[string]any {
	t.Helper()
	return ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d", id), nil))["data"].(map[string]any)
}

// lines is "received/quantity" of every line of a purchase order.
func poLines(o map[string]any) string {
	var parts []string
	for _, l := range o["lines"].([]any) {
		lm := l.(map[string]any)
		parts = append(parts, fmt.Sprintf("%v/%v", lm["received"], lm["quantity"]))
	}
	return fmt.Sprintf("%v %s", o["status"], strings.Join(parts, " "))
}

func poLineID(t testing.TB, o map[string]any, i int) int64 {
	t.Helper()
	return ohInt(t, o["lines"].([]any)[i].(map[string]any)["id"])
}

func (f *poFixture) article(t testing.TB, id int64) map[string]any {
	t.Helper()
	return ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", id), nil))["data"].(map[string]any)
}

func (f *poFixture) incoming(t testing.TB, id int64) int64 {
	t.Helper()
	return ohInt(t, f.article(t, id)["incomingStock"])
}

func (f *poFixture) receive(t testing.TB, id int64, key string, lines ...map[string]any) *apitest.Response {
	t.Helper()
	req := poRequest(t, f.env, "POST", fmt.Sprintf("/api/purchaseOrders/%d/receipts", id), map[string]any{"lines": lines})
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	return f.env.DoRaw(t, req)
}

func poRequest(t testing.TB, env *apitest.Env, method, path string, body any) *http.Request {
	t.Helper()
	raw := "null"
	if s, ok := body.(string); ok {
		raw = s
	} else if body != nil {
		raw = mustJSON(t, body)
	}
	req, err := http.NewRequest(method, env.URL+path, strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(apitest.User, apitest.Key)
	return req
}

func line(id int64, quantity int, more ...any) map[string]any {
	l := map[string]any{"lineId": id, "quantity": quantity}
	for i := 0; i+1 < len(more); i += 2 {
		l[more[i].(string)] = more[i+1]
	}
	return l
}

// events are the feed's events of a type after a position, and the last
// position.
func (f *poFixture) events(t testing.TB, after int64, typ string) ([]map[string]any, int64) {
	t.Helper()
	body := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/events?after=%d&type=%s", after, typ), nil))
	var out []map[string]any
	for _, e := range body["data"].([]any) {
		out = append(out, e.(map[string]any)["data"].(map[string]any))
	}
	return out, ohInt(t, body["last"])
}

func (f *poFixture) lastEvent(t testing.TB) int64 {
	t.Helper()
	_, last := f.events(t, 0, "stock.changed,stock.low,order.statusChanged,purchaseOrder.statusChanged")
	return last
}

// stockChanged is the product's stock.changed after the position: its
// incomingStock and cause; it fails when there is not exactly one.
func (f *poFixture) stockChanged(t testing.TB, after, article int64) (int64, map[string]any) {
	t.Helper()
	evs, _ := f.events(t, after, "stock.changed")
	var found []map[string]any
	for _, e := range evs {
		if ohInt(t, e["id"]) == article {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d stock.changed of article %d after %d: %v", len(found), article, after, evs)
	}
	return ohInt(t, found[0]["incomingStock"]), found[0]["cause"].(map[string]any)
}

func TestPurchaseOrdersHTTP(t *testing.T) {
	t.Parallel()
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		f := poSetup(t, databaseURL)
		before := f.lastEvent(t)

		id, po := f.create(t, map[string]any{"number": "PO-1", "warehouse": map[string]any{"code": "MAIN"}, "expectedAt": "2026-12-01",
			"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 10}, map[string]any{"id": 77, "articleDetailId": f.art2, "quantity": 5}}})
		if po["status"] != "Open" || po["supplier"] != "" || po["expectedAt"] != "2026-12-01" || ohInt(t, po["warehouseId"]) != f.main ||
			po["number"] != "PO-1" || poLines(po) != "Open 0/10 0/5" || poLineID(t, po, 1) != 77 || po["createdAt"] == "" {
			t.Fatalf("created %v", po)
		}
		l1, l2 := poLineID(t, po, 0), poLineID(t, po, 1)

		t.Run("incomingStock counts what open purchase orders bring", func(t *testing.T) {
			if f.incoming(t, f.art1) != 10 || f.incoming(t, f.art2) != 5 {
				t.Fatalf("incoming %d %d", f.incoming(t, f.art1), f.incoming(t, f.art2))
			}
			a := f.article(t, f.art1)
			if ohInt(t, a["availableStock"]) != 0 || ohInt(t, a["physicalStock"]) != 0 {
				t.Fatalf("incoming counted as stock: %v", a)
			}
			list := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/articleDetails?filter[0][property]=articleDetail.id&filter[0][value]=%d", f.art2), nil))
			if item := list["data"].([]any)[0].(map[string]any); ohInt(t, item["incomingStock"]) != 5 {
				t.Fatalf("list item %v", item)
			}
			in, cause := f.stockChanged(t, before, f.art1)
			if in != 10 || cause["type"] != "purchaseOrders/create" || cause["orderId"] != nil {
				t.Fatalf("stock.changed incoming %d, cause %v", in, cause)
			}
		})

		t.Run("a product on a purchase order stays", func(t *testing.T) {
			ohError(t, f.env.Do(t, "DELETE", fmt.Sprintf("/api/articleDetails/%d", f.art2), nil), http.StatusBadRequest, "purchase order")
		})

		t.Run("bad purchase orders are a 400 naming what is wrong", func(t *testing.T) {
			good := func() map[string]any {
				return map[string]any{"number": "PO-X", "warehouse": map[string]any{"id": f.main},
					"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}}
			}
			for name, c := range map[string]struct {
				change  func(b map[string]any)
				mention string
			}{
				"number taken":      {func(b map[string]any) { b["number"] = "PO-1" }, `number`},
				"no lines":          {func(b map[string]any) { b["lines"] = []any{} }, `lines`},
				"two lines of one":  {func(b map[string]any) { b["lines"] = []any{b["lines"].([]any)[0], b["lines"].([]any)[0]} }, `lines[1].articleDetailId`},
				"unknown warehouse": {func(b map[string]any) { b["warehouse"] = map[string]any{"code": "NOPE"} }, `warehouse`},
				"unknown article":   {func(b map[string]any) { b["lines"] = []any{map[string]any{"articleDetailId": 999, "quantity": 1}} }, `lines[0].articleDetailId`},
				"quantity 0":        {func(b map[string]any) { b["lines"] = []any{map[string]any{"articleDetailId": f.art1, "quantity": 0}} }, `lines[0].quantity`},
				"too many pieces": {func(b map[string]any) {
					b["lines"] = []any{map[string]any{"articleDetailId": f.art1, "quantity": 1000000001}}
				}, `lines[0].quantity`},
				"line id taken": {func(b map[string]any) {
					b["lines"] = []any{map[string]any{"id": 77, "articleDetailId": f.art1, "quantity": 1}}
				}, `lines[0].id`},
				"id 0":          {func(b map[string]any) { b["id"] = 0 }, `id`},
				"bad date":      {func(b map[string]any) { b["expectedAt"] = "2026-02-30" }, `expectedAt`},
				"status":        {func(b map[string]any) { b["status"] = "Received" }, `status`},
				"unknown field": {func(b map[string]any) { b["colour"] = "red" }, `colour`},
			} {
				b := good()
				c.change(b)
				res := f.env.Do(t, "POST", "/api/purchaseOrders", b)
				if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), c.mention) {
					t.Errorf("%s: %s, want 400 naming %s", name, res, c.mention)
				}
			}
			if n := ohInt(t, ohOK(t, f.env.Do(t, "GET", "/api/purchaseOrders", nil))["total"]); n != 1 {
				t.Fatalf("%d purchase orders after refused ones", n)
			}
		})

		t.Run("a receipt is all lines or none and names the failing line", func(t *testing.T) {
			at := ohInt(t, ohOK(t, f.env.Do(t, "GET", "/api/stockLedgerEntries", nil))["total"])
			// The second line asks for more than is outstanding.
			res := f.receive(t, id, "rcpt-1", line(l1, 4), line(l2, 6))
			ohError(t, res, http.StatusBadRequest, fmt.Sprintf("line %d", l2), "lines[1].quantity")
			// A bin of another warehouse.
			res = f.receive(t, id, "rcpt-1", line(l1, 4), line(l2, 1, "binLocation", map[string]any{"id": f.binB}))
			ohError(t, res, http.StatusBadRequest, fmt.Sprintf("line %d", l2), "lines[1].binLocation")
			// An unknown line, a line twice, a lot (lots do not exist yet).
			ohError(t, f.receive(t, id, "", line(l1, 1), line(999, 1)), http.StatusBadRequest, "lines[1].lineId")
			ohError(t, f.receive(t, id, "", line(l1, 1), line(l1, 1)), http.StatusBadRequest, "lines[1].lineId")
			ohError(t, f.receive(t, id, "", line(l1, 1, "lot", map[string]any{"number": "L1"})), http.StatusBadRequest, "lot")
			ohError(t, f.receive(t, id, "", line(l1, 0)), http.StatusBadRequest, "lines[0].quantity")
			ohError(t, f.receive(t, id, ""), http.StatusBadRequest, "lines")
			if got := poLines(f.get(t, id)); got != "Open 0/10 0/5" {
				t.Fatalf("after refused receipts: %s", got)
			}
			if n := ohInt(t, ohOK(t, f.env.Do(t, "GET", "/api/stockLedgerEntries", nil))["total"]); n != at {
				t.Fatalf("ledger grew from %d to %d", at, n)
			}
			if f.stock(t, f.art1, f.main) != 0 || f.incoming(t, f.art1) != 10 {
				t.Fatal("a refused receipt moved stock")
			}
			ohError(t, f.receive(t, 999999, "", line(l1, 1)), http.StatusNotFound)
		})

		t.Run("receiving books stock, moves the order on, and replays under its key", func(t *testing.T) {
			after := f.lastEvent(t)
			// rcpt-1 was refused above: a refused receipt does not use up its key.
			res := f.receive(t, id, "rcpt-1", line(l1, 4), line(l2, 2))
			rid := f.created(t, res, false)
			if want := fmt.Sprintf("/api/purchaseOrders/%d/receipts/%d", id, rid); !strings.HasSuffix(res.Header.Get("Location"), want) {
				t.Fatalf("Location %q", res.Header.Get("Location"))
			}
			replay := f.receive(t, id, "rcpt-1", line(l1, 4), line(l2, 2))
			if replay.Status != http.StatusCreated || replay.Header.Get("Idempotent-Replayed") != "true" || string(replay.Body) != string(res.Body) {
				t.Fatalf("replay %s", replay)
			}
			ohError(t, f.receive(t, id, "rcpt-1", line(l1, 1)), http.StatusConflict)
			if got := poLines(f.get(t, id)); got != "Partially received 4/10 2/5" {
				t.Fatalf("after the receipt: %s", got)
			}
			// SKU-1 onto its default bin A-01, SKU-2 (no default) onto the unknown bin.
			if f.stock(t, f.art1, f.main) != 4 || f.stock(t, f.art2, f.main) != 2 || f.incoming(t, f.art1) != 6 || f.incoming(t, f.art2) != 3 {
				t.Fatalf("stock %d %d, incoming %d %d", f.stock(t, f.art1, f.main), f.stock(t, f.art2, f.main), f.incoming(t, f.art1), f.incoming(t, f.art2))
			}
			in, cause := f.stockChanged(t, after, f.art1)
			if in != 6 || cause["type"] != "purchaseOrders/receive" || cause["idempotencyKey"] != "rcpt-1" || cause["orderId"] != nil {
				t.Fatalf("stock.changed incoming %d, cause %v", in, cause)
			}
			changes, _ := f.events(t, after, "purchaseOrder.statusChanged")
			if len(changes) != 1 || changes[0]["status"] != "Partially received" || changes[0]["previousStatus"] != "Open" ||
				ohInt(t, changes[0]["purchaseOrderId"]) != id || changes[0]["number"] != "PO-1" {
				t.Fatalf("purchaseOrder.statusChanged %v", changes)
			}

			ledger := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.purchaseOrderId&filter[0][value]=%d&sort[0][property]=stockLedgerEntry.articleDetailId", id), nil))
			entries := ledger["data"].([]any)
			if len(entries) != 2 {
				t.Fatalf("ledger %v", entries)
			}
			e := entries[0].(map[string]any)
			if e["type"] != "receipt" || ohInt(t, e["purchaseOrderId"]) != id || ohInt(t, e["binLocationId"]) != f.binA || ohInt(t, e["quantity"]) != 4 ||
				e["idempotencyKey"] != "rcpt-1" || e["orderId"] != nil {
				t.Fatalf("ledger entry %v", e)
			}
			other := ohOK(t, f.env.Do(t, "GET", "/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.type&filter[0][value]=receipt", nil))
			if ohInt(t, other["total"]) != 2 {
				t.Fatalf("receipt entries %v", other)
			}

			rec := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d/receipts/%d", id, rid), nil))["data"].(map[string]any)
			rl := rec["lines"].([]any)
			first := rl[0].(map[string]any)
			if ohInt(t, rec["purchaseOrderId"]) != id || rec["user"] != apitest.User || len(rl) != 2 || ohInt(t, first["lineId"]) != l1 ||
				ohInt(t, first["binLocationId"]) != f.binA || ohInt(t, first["warehouseId"]) != f.main || first["lotNumber"] != nil ||
				ohInt(t, first["articleDetailId"]) != f.art1 {
				t.Fatalf("receipt %v", rec)
			}
			list := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d/receipts?filter[0][property]=receipt.user&filter[0][value]=%s", id, apitest.User), nil))
			if ohInt(t, list["total"]) != 1 {
				t.Fatalf("receipts %v", list)
			}
			ohError(t, f.env.Do(t, "GET", "/api/purchaseOrders/999999/receipts", nil), http.StatusNotFound)
			ohError(t, f.env.Do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d/receipts?filter[0][property]=receipt.colour", id), nil), http.StatusBadRequest, "receipt.user")

			// A receipt of another order is not one of this order's.
			other2, po2 := f.create(t, map[string]any{"number": "PO-2", "warehouse": map[string]any{"id": f.second},
				"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 3}}})
			r2 := f.created(t, f.receive(t, other2, "", line(poLineID(t, po2, 0), 1, "binLocation", map[string]any{"code": "B-01", "warehouseCode": "SECOND"})), false)
			ohError(t, f.env.Do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d/receipts/%d", id, r2), nil), http.StatusNotFound)
			if f.stock(t, f.art1, f.second) != 1 {
				t.Fatal("the receipt into B-01 is not there")
			}
		})

		t.Run("the last pieces make the order Received, which takes no receipt", func(t *testing.T) {
			after := f.lastEvent(t)
			f.created(t, f.receive(t, id, "", line(l2, 3), line(l1, 6, "binLocation", map[string]any{"id": f.binA})), false)
			if got := poLines(f.get(t, id)); got != "Received 10/10 5/5" {
				t.Fatalf("%s", got)
			}
			changes, _ := f.events(t, after, "purchaseOrder.statusChanged")
			if len(changes) != 1 || changes[0]["status"] != "Received" || changes[0]["previousStatus"] != "Partially received" {
				t.Fatalf("purchaseOrder.statusChanged %v", changes)
			}
			ohError(t, f.receive(t, id, "", line(l1, 1)), http.StatusBadRequest, "Received")
			ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/purchaseOrders/%d", id), map[string]any{"status": "Cancelled"}), http.StatusBadRequest, "status")
			ohError(t, f.env.Do(t, "DELETE", fmt.Sprintf("/api/purchaseOrders/%d", id), nil), http.StatusBadRequest)
		})

		t.Run("changes, cancellation and deletion", func(t *testing.T) {
			pid, po := f.create(t, map[string]any{"id": 500, "number": "PO-3", "supplier": "ACME", "warehouse": map[string]any{"id": f.main},
				"lines": []any{map[string]any{"articleDetailId": f.art2, "quantity": 7}}})
			if pid != 500 || po["expectedAt"] != nil || po["supplier"] != "ACME" {
				t.Fatalf("created %v", po)
			}
			base := f.incoming(t, f.art2)
			path := fmt.Sprintf("/api/purchaseOrders/%d", pid)
			ohOK(t, f.env.Do(t, "PUT", path, map[string]any{"expectedAt": "2027-01-15", "supplier": "Other"}))
			if got := f.get(t, pid); got["expectedAt"] != "2027-01-15" || got["supplier"] != "Other" || got["status"] != "Open" {
				t.Fatalf("changed %v", got)
			}
			ohOK(t, f.env.Do(t, "PUT", path, map[string]any{"expectedAt": nil}))
			if got := f.get(t, pid); got["expectedAt"] != nil {
				t.Fatalf("expectedAt %v", got["expectedAt"])
			}
			for _, s := range []string{"Open", "Received", "Partially received", "Gone"} {
				ohError(t, f.env.Do(t, "PUT", path, map[string]any{"status": s}), http.StatusBadRequest, "status")
			}
			ohError(t, f.env.Do(t, "PUT", path, map[string]any{"number": "X"}), http.StatusBadRequest, "number")
			after := f.lastEvent(t)
			ohOK(t, f.env.Do(t, "PUT", path, map[string]any{"status": "Cancelled"}))
			if f.incoming(t, f.art2) != base-7 {
				t.Fatalf("incoming %d after cancelling, want %d", f.incoming(t, f.art2), base-7)
			}
			_, cause := f.stockChanged(t, after, f.art2)
			changes, _ := f.events(t, after, "purchaseOrder.statusChanged")
			if cause["type"] != "purchaseOrders/update" || len(changes) != 1 || changes[0]["status"] != "Cancelled" || changes[0]["previousStatus"] != "Open" {
				t.Fatalf("cause %v, changes %v", cause, changes)
			}
			ohError(t, f.receive(t, pid, "", line(poLineID(t, po, 0), 1)), http.StatusBadRequest, "Cancelled")
			ohError(t, f.env.Do(t, "PUT", path, map[string]any{"supplier": "Late"}), http.StatusBadRequest, "status")
			ohError(t, f.env.Do(t, "DELETE", path, nil), http.StatusBadRequest)

			did, _ := f.create(t, map[string]any{"number": "PO-4", "warehouse": map[string]any{"id": f.main},
				"lines": []any{map[string]any{"articleDetailId": f.art2, "quantity": 2}}})
			after = f.lastEvent(t)
			ohOK(t, f.env.Do(t, "DELETE", fmt.Sprintf("/api/purchaseOrders/%d", did), nil))
			ohError(t, f.env.Do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d", did), nil), http.StatusNotFound)
			in, cause := f.stockChanged(t, after, f.art2)
			if in != base-7 || cause["type"] != "purchaseOrders/update" {
				t.Fatalf("after deleting: incoming %d, cause %v", in, cause)
			}
			if changes, _ := f.events(t, after, "purchaseOrder.statusChanged"); len(changes) != 0 {
				t.Fatalf("deleting changed a status: %v", changes)
			}
		})

		t.Run("the list filters and sorts by the list rules", func(t *testing.T) {
			list := func(query string) []string {
				body := ohOK(t, f.env.Do(t, "GET", "/api/purchaseOrders?"+query, nil))
				var numbers []string
				for _, o := range body["data"].([]any) {
					numbers = append(numbers, o.(map[string]any)["number"].(string))
				}
				return numbers
			}
			check := func(query, want string) {
				t.Helper()
				if got := strings.Join(list(query), ","); got != want {
					t.Errorf("%s: %s, want %s", query, got, want)
				}
			}
			check("filter[0][property]=purchaseOrder.status&filter[0][value]=Received", "PO-1")
			check("filter[0][property]=purchaseOrder.status&filter[0][expression]=IN&filter[0][value]=Open,Partially%20received", "PO-2")
			check("filter[0][property]=purchaseOrder.supplier&filter[0][value]=oth%25", "PO-3")
			check(fmt.Sprintf("filter[0][property]=purchaseOrder.warehouseId&filter[0][value]=%d&sort[0][property]=purchaseOrder.number&sort[0][direction]=DESC", f.main), "PO-3,PO-1")
			check("filter[0][property]=purchaseOrder.expectedAt&filter[0][expression]=%3C&filter[0][value]=2026-12-02", "PO-1")
			check("filter[0][property]=purchaseOrder.expectedAt&filter[0][expression]=IS%20NULL", "PO-2,PO-3")
			check("filter[0][property]=purchaseOrder.number&filter[0][value]=PO-2", "PO-2")
			check("sort[0][property]=purchaseOrder.id&sort[0][direction]=DESC&limit=2", "PO-3,PO-2")
			ohError(t, f.env.Do(t, "GET", "/api/purchaseOrders?filter[0][property]=purchaseOrder.colour", nil), http.StatusBadRequest, "purchaseOrder.expectedAt")
			ohError(t, f.env.Do(t, "GET", "/api/purchaseOrders?sort[0][property]=purchaseOrder.id&sort[0][direction]=UP", nil), http.StatusBadRequest)
		})
	})
}

// purchaseOrder.statusChanged reaches webhooks like the other types, and a
// reader reads purchase orders but neither creates nor receives them.
func TestPurchaseOrderWebhooksAndRolesHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := poSetup(t, databaseURL)
		hook := f.created(t, f.env.Do(t, "POST", "/api/webhooks", map[string]any{"url": "http://127.0.0.1:1/hook", "events": []any{"purchaseOrder.statusChanged"}}), false)
		id, po := f.create(t, map[string]any{"number": "PO-W", "warehouse": map[string]any{"id": f.main},
			"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}}})
		f.created(t, f.receive(t, id, "", line(poLineID(t, po, 0), 1)), false)
		deliveries := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/webhooks/%d/deliveries", hook), nil))["data"].([]any)
		if len(deliveries) != 1 || deliveries[0].(map[string]any)["type"] != "purchaseOrder.statusChanged" {
			t.Fatalf("deliveries %v", deliveries)
		}

		res := f.env.Do(t, "POST", "/api/users", map[string]any{"name": "clerk", "role": "reader"})
		if res.Status != http.StatusCreated {
			t.Fatalf("create reader: %s", res)
		}
		key := res.JSON(t)["data"].(map[string]any)["key"].(string)
		as := func(method, path string, body any) *apitest.Response {
			req := poRequest(t, f.env, method, path, body)
			req.SetBasicAuth("clerk", key)
			return f.env.DoRaw(t, req)
		}
		ohOK(t, as("GET", fmt.Sprintf("/api/purchaseOrders/%d", id), nil))
		ohOK(t, as("GET", "/api/purchaseOrders", nil))
		ohOK(t, as("GET", fmt.Sprintf("/api/purchaseOrders/%d/receipts", id), nil))
		ohError(t, as("POST", "/api/purchaseOrders", map[string]any{"number": "PO-R", "warehouse": map[string]any{"id": f.main},
			"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}}}), http.StatusForbidden, "forbidden")
		ohError(t, as("POST", fmt.Sprintf("/api/purchaseOrders/%d/receipts", id), map[string]any{"lines": []any{line(poLineID(t, po, 0), 1)}}), http.StatusForbidden)
		ohError(t, as("PUT", fmt.Sprintf("/api/purchaseOrders/%d", id), map[string]any{"status": "Cancelled"}), http.StatusForbidden)
		ohError(t, as("DELETE", fmt.Sprintf("/api/purchaseOrders/%d", id), nil), http.StatusForbidden)
		if got := poLines(f.get(t, id)); got != "Partially received 1/2" {
			t.Fatalf("a reader changed the order: %s", got)
		}
	})
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestTwoClientsReceivingTheLastPiecesOfALine: one receipt succeeds, the
// other is a 400, and the line is never received beyond its quantity.
func TestTwoClientsReceivingTheLastPiecesOfALine(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := poSetup(t, databaseURL)
		for round := range 5 {
			id, po := f.create(t, map[string]any{"number": fmt.Sprintf("PO-C%d", round), "warehouse": map[string]any{"id": f.main},
				"lines": []any{map[string]any{"articleDetailId": f.art1, "quantity": 5}}})
			l := poLineID(t, po, 0)
			f.created(t, f.receive(t, id, "", line(l, 2)), false)
			var wg sync.WaitGroup
			statuses := make([]int, 2)
			for i := range statuses {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses[i] = f.receive(t, id, "", line(l, 3)).Status
				}()
			}
			wg.Wait()
			created, refused := 0, 0
			for _, s := range statuses {
				switch s {
				case http.StatusCreated:
					created++
				case http.StatusBadRequest:
					refused++
				}
			}
			if created != 1 || refused != 1 {
				t.Fatalf("round %d: statuses %v, want one 201 and one 400", round, statuses)
			}
			if got := poLines(f.get(t, id)); got != "Received 5/5" {
				t.Fatalf("round %d: %s", round, got)
			}
		}
		if got := f.stock(t, f.art1, f.main); got != 25 {
			t.Fatalf("stock %d, want 25", got)
		}
	})
}

// incomingStock is kept by the transactions that change it, as the domain
// computes it. Whatever purchase orders are created, received, cancelled
// and deleted, it equals what their lines still bring, and the last
// stock.changed of each product says the same.
func TestIncomingStockFollowsThePurchaseOrders(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := poSetup(t, databaseURL)
		articles := []int64{f.art1, f.art2}
		rng := rand.New(rand.NewPCG(3, 4))
		var open []int64
		for i := range 30 {
			switch step := rng.IntN(5); {
			case step <= 1 || len(open) == 0:
				var lines []any
				for _, a := range articles[:1+rng.IntN(2)] {
					lines = append(lines, map[string]any{"articleDetailId": a, "quantity": 1 + rng.IntN(9)})
				}
				id, _ := f.create(t, map[string]any{"number": fmt.Sprintf("PO-R%d", i), "warehouse": map[string]any{"id": f.main}, "lines": lines})
				open = append(open, id)
			case step == 2:
				id := open[rng.IntN(len(open))]
				po := f.get(t, id)
				if po["status"] == "Cancelled" || po["status"] == "Received" {
					continue
				}
				var lines []map[string]any
				for _, l := range po["lines"].([]any) {
					lm := l.(map[string]any)
					if left := ohInt(t, lm["quantity"]) - ohInt(t, lm["received"]); left > 0 {
						lines = append(lines, line(ohInt(t, lm["id"]), 1+rng.IntN(int(left))))
					}
				}
				if len(lines) > 0 {
					f.created(t, f.receive(t, id, "", lines...), false)
				}
			case step == 3:
				// Received and cancelled orders refuse: 400.
				res := f.env.Do(t, "PUT", fmt.Sprintf("/api/purchaseOrders/%d", open[rng.IntN(len(open))]), map[string]any{"status": "Cancelled"})
				if res.Status != http.StatusOK && res.Status != http.StatusBadRequest {
					t.Fatalf("cancel: %s", res)
				}
			default:
				k := rng.IntN(len(open))
				res := f.env.Do(t, "DELETE", fmt.Sprintf("/api/purchaseOrders/%d", open[k]), nil)
				switch res.Status {
				case http.StatusOK:
					open = append(open[:k], open[k+1:]...)
				case http.StatusBadRequest: // something was received, or it is cancelled
				default:
					t.Fatalf("delete: %s", res)
				}
			}
			want := map[int64]int64{}
			for _, o := range ohOK(t, f.env.Do(t, "GET", "/api/purchaseOrders", nil))["data"].([]any) {
				om := o.(map[string]any)
				if om["status"] != "Open" && om["status"] != "Partially received" {
					continue
				}
				for _, l := range om["lines"].([]any) {
					lm := l.(map[string]any)
					want[ohInt(t, lm["articleDetailId"])] += ohInt(t, lm["quantity"]) - ohInt(t, lm["received"])
				}
			}
			evs, _ := f.events(t, 0, "stock.changed")
			for _, a := range articles {
				if got := f.incoming(t, a); got != want[a] {
					t.Fatalf("step %d: article %d incomingStock %d, the purchase orders bring %d", i, a, got, want[a])
				}
				var last int64 = -1
				for _, e := range evs {
					if ohInt(t, e["id"]) == a {
						last = ohInt(t, e["incomingStock"])
					}
				}
				if last != want[a] && !(last == -1 && want[a] == 0) {
					t.Fatalf("step %d: article %d's last stock.changed says incomingStock %d, want %d", i, a, last, want[a])
				}
			}
		}
	})
}
