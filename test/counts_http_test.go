package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance tests over HTTP for counts (cycle counting), on SQLite and
// PostgreSQL; apitest checks every response against the OpenAPI document.

// ctFixture is ohFixture (warehouses MAIN and SECOND, bin A-01 in MAIN,
// SKU-1 and SKU-2) with bins B-01 and C-01 in MAIN, and stock: SKU-1 10
// and SKU-2 4 on A-01, SKU-1 3 on B-01.
type ctFixture struct {
	*ohFixture
	binB, binC int64
}

func ctSetup(t *testing.T, databaseURL string) *ctFixture {
	t.Helper()
	f := &ctFixture{ohFixture: ohSetup(t, databaseURL)}
	f.binB = f.created(t, f.env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "B-01"}), false)
	f.binC = f.created(t, f.env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "C-01"}), false)
	f.put(t, f.art1, ctBin(f.binA), 10)
	f.put(t, f.art2, ctBin(f.binA), 4)
	f.put(t, f.art1, ctBin(f.binB), 3)
	return f
}

func ctBin(id int64) map[string]any { return map[string]any{"binLocation": map[string]any{"id": id}} }

func (f *ctFixture) open(t testing.TB, body map[string]any) int64 {
	t.Helper()
	return f.created(t, f.env.Do(t, "POST", "/api/counts", body), false)
}

func (f *ctFixture) count(t testing.TB, id int64) map[string]any {
	t.Helper()
	return ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/counts/%d", id), nil))["data"].(map[string]any)
}

func (f *ctFixture) countBin(t testing.TB, id, bin int64, lines ...map[string]any) *apitest.Response {
	t.Helper()
	if lines == nil {
		lines = []map[string]any{}
	}
	return f.env.Do(t, "PUT", fmt.Sprintf("/api/counts/%d/bins/%d", id, bin), map[string]any{"lines": lines})
}

func (f *ctFixture) apply(t testing.TB, id int64, key string) *apitest.Response {
	t.Helper()
	req := poRequest(t, f.env, "POST", fmt.Sprintf("/api/counts/%d/apply", id), "{}")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	return f.env.DoRaw(t, req)
}

func found(article int64, quantity int) map[string]any {
	return map[string]any{"articleDetailId": article, "quantity": quantity}
}

// ctLines is "article lot expected/counted moved" of every line of a
// count's bin, as the API shows it.
func ctLines(t testing.TB, c map[string]any, bin int64) string {
	t.Helper()
	for _, b := range c["bins"].([]any) {
		bm := b.(map[string]any)
		if ohInt(t, bm["binLocationId"]) != bin {
			continue
		}
		var parts []string
		for _, l := range bm["lines"].([]any) {
			lm := l.(map[string]any)
			parts = append(parts, fmt.Sprintf("%v %v %v/%v %v", lm["articleDetailId"], lm["lotNumber"], lm["expected"], lm["counted"], lm["movedSince"]))
		}
		return fmt.Sprintf("counted=%v %s", bm["counted"], strings.Join(parts, ", "))
	}
	t.Fatalf("count %v does not cover bin %d", c["id"], bin)
	return ""
}

func TestCountsHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ctSetup(t, databaseURL)
		main := map[string]any{"id": f.main}

		// The forms and their errors.
		ohError(t, f.env.Do(t, "POST", "/api/counts", map[string]any{"warehouse": main, "binLocations": []any{map[string]any{"id": f.binA}},
			"articleDetailIds": []any{f.art1}}), http.StatusBadRequest, "articleDetailIds")
		ohError(t, f.env.Do(t, "POST", "/api/counts", map[string]any{"warehouse": map[string]any{"code": "NOPE"}}), http.StatusBadRequest, "warehouse")
		ohError(t, f.env.Do(t, "POST", "/api/counts", map[string]any{"warehouse": main, "binLocations": []any{map[string]any{"code": "Z-99"}}}),
			http.StatusBadRequest, "binLocations[0]")
		ohError(t, f.env.Do(t, "POST", "/api/counts", map[string]any{"warehouse": main, "articleDetailIds": []any{99999}}),
			http.StatusBadRequest, "articleDetailIds")
		ohError(t, f.env.Do(t, "POST", "/api/counts", map[string]any{"warehouse": map[string]any{"id": f.second}}), http.StatusBadRequest, "no bin")
		ohError(t, f.env.Do(t, "POST", "/api/counts", map[string]any{"warehouse": main, "unknown": 1}), http.StatusBadRequest, "unknown")
		many := make([]any, 10001)
		for i := range many {
			many[i] = map[string]any{"code": fmt.Sprintf("X-%d", i)}
		}
		ohError(t, f.env.Do(t, "POST", "/api/counts", map[string]any{"warehouse": main, "binLocations": many}), http.StatusBadRequest, "10000")

		// A count of bin A-01, by code.
		id := f.open(t, map[string]any{"warehouse": main, "binLocations": []any{map[string]any{"code": "A-01"}}})
		c := f.count(t, id)
		if c["status"] != "Open" || c["blind"] != false || c["lockBins"] != false || ohInt(t, c["warehouseId"]) != f.main || len(c["bins"].([]any)) != 1 {
			t.Fatalf("count %v", c)
		}
		want := fmt.Sprintf("counted=false %d <nil> 10/<nil> 0, %d <nil> 4/<nil> 0", f.art1, f.art2)
		if got := ctLines(t, c, f.binA); got != want {
			t.Fatalf("lines %s, want %s", got, want)
		}

		// One open count per bin, whatever the form.
		ohError(t, f.env.Do(t, "POST", "/api/counts", map[string]any{"warehouse": main, "binLocations": []any{map[string]any{"id": f.binA}}}),
			http.StatusConflict, "A-01", fmt.Sprintf("count %d", id))
		ohError(t, f.env.Do(t, "POST", "/api/counts", map[string]any{"warehouse": main, "articleDetailIds": []any{f.art1}}),
			http.StatusConflict, "A-01", fmt.Sprintf("count %d", id))

		// What moves on the bin since shows; a reservation of SKU-2 there.
		f.put(t, f.art1, ctBin(f.binA), -2)
		orderID, o := f.newOrder(t, map[string]any{"number": "CT-1", "details": []any{map[string]any{"articleDetailId": f.art2, "quantity": 3}}})
		ohOK(t, f.env.Do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", orderID), map[string]any{"warehouse": main}))
		if got := ctLines(t, f.count(t, id), f.binA); !strings.Contains(got, fmt.Sprintf("%d <nil> 10/<nil> -2", f.art1)) {
			t.Fatalf("movedSince: %s", got)
		}

		// Counting: errors, then a count, then one that replaces it.
		ohError(t, f.countBin(t, id, f.binB, found(f.art1, 1)), http.StatusNotFound, "does not cover")
		ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/counts/%d/bins/%d", 99999, f.binA), map[string]any{"lines": []any{}}), http.StatusNotFound)
		ohError(t, f.countBin(t, id, f.binA, found(f.art1, -1)), http.StatusBadRequest, "lines[0].quantity")
		ohError(t, f.countBin(t, id, f.binA, found(99999, 1)), http.StatusBadRequest, "lines[0].articleDetailId")
		ohError(t, f.countBin(t, id, f.binA, found(f.art1, 1), found(f.art1, 2)), http.StatusBadRequest, "twice")
		ohError(t, f.countBin(t, id, f.binA, map[string]any{"articleDetailId": f.art1, "quantity": 1, "lot": map[string]any{"number": "L1"}}),
			http.StatusBadRequest, "lot")
		ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/counts/%d/bins/%d", id, f.binA), map[string]any{"lines": []any{map[string]any{"articleDetailId": f.art1}}}),
			http.StatusBadRequest, "quantity")
		ohOK(t, f.countBin(t, id, f.binA, found(f.art1, 7), found(f.art2, 2)))
		ohOK(t, f.countBin(t, id, f.binA, found(f.art1, 9)))
		want = fmt.Sprintf("counted=true %d <nil> 10/9 -2, %d <nil> 4/0 0", f.art1, f.art2)
		if got := ctLines(t, f.count(t, id), f.binA); got != want {
			t.Fatalf("after counting %s, want %s", got, want)
		}

		// Applying: SKU-1 10 → 8 by the shipment, found 9 of 10: 7; SKU-2
		// found 0 of 4, so its 3 reserved pieces are released.
		after := f.lastEventID(t)
		res := f.apply(t, id, "count-apply-1")
		body := ohOK(t, res)
		data := body["data"].(map[string]any)
		rel := data["released"].([]any)
		if ohInt(t, data["id"]) != id || len(rel) != 1 {
			t.Fatalf("apply: %s", res)
		}
		r0 := rel[0].(map[string]any)
		if ohInt(t, r0["orderId"]) != orderID || ohInt(t, r0["orderDetailId"]) != ohDetailID(t, o, 0) || ohInt(t, r0["binLocationId"]) != f.binA || ohInt(t, r0["quantity"]) != 3 {
			t.Fatalf("released %v", r0)
		}
		if s, r := f.mapping(t, f.art1, f.binA); s != 7 || r != 0 {
			t.Fatalf("SKU-1 on A-01: %d/%d, want 7", s, r)
		}
		if s, r := f.mapping(t, f.art2, f.binA); s != 0 || r != 0 {
			t.Fatalf("SKU-2 on A-01: %d/%d, want 0", s, r)
		}
		picks := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/orders/%d/pickingList", orderID), nil))["data"].(map[string]any)["picks"].([]any)
		if len(picks) != 0 {
			t.Fatalf("picks after the count: %v", picks)
		}
		replay := f.apply(t, id, "count-apply-1")
		if replay.Status != http.StatusOK || replay.Header.Get("Idempotent-Replayed") != "true" || string(replay.Body) != string(res.Body) {
			t.Fatalf("replay: %s %v", replay, replay.Header)
		}
		ohError(t, f.apply(t, id, "count-apply-2"), http.StatusBadRequest, "Applied")
		ohError(t, f.apply(t, id, ""), http.StatusBadRequest, "Applied")
		ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/counts/%d", id), map[string]any{"status": "Cancelled"}), http.StatusBadRequest, "Applied")
		ohError(t, f.countBin(t, id, f.binA, found(f.art1, 1)), http.StatusBadRequest, "Applied")
		ohError(t, f.apply(t, 99999, ""), http.StatusNotFound)
		c = f.count(t, id)
		if c["status"] != "Applied" {
			t.Fatalf("status %v", c["status"])
		}
		if got := ctLines(t, c, f.binA); got != want {
			t.Fatalf("after apply %s, want %s (the count's own booking is not movedSince)", got, want)
		}

		// The ledger names the count; stock.changed names the cause.
		entries := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.countId&filter[0][value]=%d", id), nil))["data"].([]any)
		if len(entries) != 2 {
			t.Fatalf("entries %v", entries)
		}
		for _, e := range entries {
			em := e.(map[string]any)
			if em["type"] != "count" || ohInt(t, em["countId"]) != id || em["idempotencyKey"] != "count-apply-1" {
				t.Fatalf("entry %v", em)
			}
		}
		changed := f.causes(t, after)
		if !changed["counts/apply"] {
			t.Fatalf("causes after the apply: %v", changed)
		}

		// The bins are free again: a count by products covers A-01 and
		// B-01 (SKU-2 has no mapping left; SKU-1 is on both).
		byProduct := f.open(t, map[string]any{"warehouse": main, "articleDetailIds": []any{f.art1}, "blind": true})
		c = f.count(t, byProduct)
		if len(c["bins"].([]any)) != 2 {
			t.Fatalf("a count by products: %v", c)
		}
		// Blind while Open: no expected, no movedSince.
		if got := ctLines(t, c, f.binB); got != fmt.Sprintf("counted=false %d <nil> <nil>/<nil> <nil>", f.art1) {
			t.Fatalf("blind: %s", got)
		}
		ohError(t, f.countBin(t, byProduct, f.binB, found(f.art2, 1)), http.StatusBadRequest, "not counted")
		ohError(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/counts/%d", byProduct), map[string]any{"status": "Applied"}), http.StatusBadRequest, "status")
		ohOK(t, f.env.Do(t, "PUT", fmt.Sprintf("/api/counts/%d", byProduct), map[string]any{"status": "Cancelled"}))
		if got := ctLines(t, f.count(t, byProduct), f.binB); got != fmt.Sprintf("counted=false %d <nil> 3/<nil> 0", f.art1) {
			t.Fatalf("a cancelled blind count shows the books: %s", got)
		}
		if s, _ := f.mapping(t, f.art1, f.binB); s != 3 {
			t.Fatalf("a cancelled count booked: %d", s)
		}

		// The whole warehouse: every bin with stock, the unknown bin
		// location included.
		f.put(t, f.art2, ohWarehouse(f.main), 5)
		whole := f.open(t, map[string]any{"warehouse": map[string]any{"code": "MAIN"}})
		var codes []string
		for _, b := range f.count(t, whole)["bins"].([]any) {
			codes = append(codes, b.(map[string]any)["binLocationCode"].(string))
		}
		if strings.Join(codes, " ") != "A-01 B-01 erp_null_bin_location" {
			t.Fatalf("whole warehouse: %v", codes)
		}

		// Lists.
		list := ohOK(t, f.env.Do(t, "GET", "/api/counts?filter[0][property]=count.status&filter[0][value]=Applied", nil))
		if ohInt(t, list["total"]) != 1 {
			t.Fatalf("Applied counts: %v", list)
		}
		list = ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/counts?filter[0][property]=count.warehouseId&filter[0][value]=%d&sort[0][property]=count.id&sort[0][direction]=DESC", f.main), nil))
		if ohInt(t, list["total"]) != 3 || ohInt(t, list["data"].([]any)[0].(map[string]any)["id"]) != whole {
			t.Fatalf("counts of MAIN: %v", list)
		}
		ohError(t, f.env.Do(t, "GET", "/api/counts?filter[0][property]=count.nope&filter[0][value]=1", nil), http.StatusBadRequest, "count.status")
		ohError(t, f.env.Do(t, "GET", "/api/counts/99999", nil), http.StatusNotFound)
		ohError(t, f.env.Do(t, "GET", "/api/counts/0", nil), http.StatusNotFound)

		// Roles: a reader reads, an operator counts.
		as := f.user(t, "clerk", "reader")
		ohOK(t, as("GET", fmt.Sprintf("/api/counts/%d", whole), nil))
		ohOK(t, as("GET", "/api/counts", nil))
		ohError(t, as("POST", "/api/counts", map[string]any{"warehouse": main}), http.StatusForbidden, "forbidden")
		ohError(t, as("PUT", fmt.Sprintf("/api/counts/%d/bins/%d", whole, f.binA), map[string]any{"lines": []any{}}), http.StatusForbidden)
		ohError(t, as("POST", fmt.Sprintf("/api/counts/%d/apply", whole), "{}"), http.StatusForbidden)
		ohError(t, as("PUT", fmt.Sprintf("/api/counts/%d", whole), map[string]any{"status": "Cancelled"}), http.StatusForbidden)
		op := f.user(t, "counter", "operator")
		ohOK(t, op("PUT", fmt.Sprintf("/api/counts/%d/bins/%d", whole, f.binB), map[string]any{"lines": []any{found(f.art1, 3)}}))
		ohOK(t, op("POST", fmt.Sprintf("/api/counts/%d/apply", whole), "{}"))
	})
}

// user creates an API user with a role and returns a way to send requests
// as that user.
func (f *ctFixture) user(t *testing.T, name, role string) func(method, path string, body any) *apitest.Response {
	t.Helper()
	res := f.env.Do(t, "POST", "/api/users", map[string]any{"name": name, "role": role})
	if res.Status != http.StatusCreated {
		t.Fatalf("create %s: %s", role, res)
	}
	key := res.JSON(t)["data"].(map[string]any)["key"].(string)
	return func(method, path string, body any) *apitest.Response {
		req := poRequest(t, f.env, method, path, body)
		req.SetBasicAuth(name, key)
		return f.env.DoRaw(t, req)
	}
}

func (f *ctFixture) lastEventID(t testing.TB) int64 {
	t.Helper()
	return ohInt(t, ohOK(t, f.env.Do(t, "GET", "/api/events?after=0&limit=1000&type=stock.changed", nil))["last"])
}

// causes are the cause types of the stock.changed events after a position.
func (f *ctFixture) causes(t testing.TB, after int64) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, e := range ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/events?after=%d&type=stock.changed", after), nil))["data"].([]any) {
		cause := e.(map[string]any)["data"].(map[string]any)["cause"].(map[string]any)
		out[cause["type"].(string)] = true
	}
	return out
}
