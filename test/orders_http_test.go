package test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance tests over HTTP for orders and shipping: orders, shipping a
// whole order or positions in a batch, and the status mail, on SQLite and
// PostgreSQL. apitest also checks every response against the OpenAPI
// document.

// ohFixture is a served service with warehouses MAIN (default) and SECOND,
// a bin location A-01 in MAIN and two products.
type ohFixture struct {
	env                *apitest.Env
	main, second, binA int64
	art1, art2         int64
	stockSeq           int
	mu                 sync.Mutex
}

func ohSetup(t *testing.T, databaseURL string) *ohFixture {
	t.Helper()
	f := &ohFixture{env: apitest.New(t, databaseURL)}
	f.main = f.created(t, f.env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "MAIN", "name": "Main"}), true)
	f.second = f.created(t, f.env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "SECOND", "name": "Second"}), true)
	f.binA = f.created(t, f.env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.main, "code": "A-01"}), false)
	f.art1 = f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-1"}), false)
	f.art2 = f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-2"}), false)
	return f
}

// created checks a 201 and returns the new id.
func (f *ohFixture) created(t testing.TB, res *apitest.Response, asArray bool) int64 {
	t.Helper()
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %s, want 201", res)
	}
	body := res.JSON(t)
	data := body["data"]
	if asArray {
		data = data.([]any)[0]
	}
	m := data.(map[string]any)
	id := ohInt(t, m["id"])
	if loc := res.Header.Get("Location"); loc == "" || loc != m["location"] {
		t.Errorf("Location %q, data.location %v", loc, m["location"])
	}
	return id
}

func ohInt(t testing.TB, v any) int64 {
	t.Helper()
	n, ok := v.(float64)
	if !ok || n != float64(int64(n)) {
		t.Fatalf("%#v is not an integer", v)
	}
	return int64(n)
}

func ohOK(t testing.TB, res *apitest.Response) map[string]any {
	t.Helper()
	if res.Status != http.StatusOK {
		t.Fatalf("%s, want 200", res)
	}
	body := res.JSON(t)
	if body["success"] != true {
		t.Fatalf("success = %v: %s", body["success"], res)
	}
	return body
}

// ohBatch checks a processed batch (200, whatever its success).
func ohBatch(t testing.TB, res *apitest.Response) map[string]any {
	t.Helper()
	if res.Status != http.StatusOK {
		t.Fatalf("%s, want 200", res)
	}
	return res.JSON(t)
}

// ohError checks an error status and that the body mentions every string.
func ohError(t testing.TB, res *apitest.Response, status int, mentions ...string) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("%s, want %d", res, status)
	}
	body := res.JSON(t)
	if body["success"] != false {
		t.Errorf("success = %v in an error", body["success"])
	}
	for _, m := range mentions {
		if !strings.Contains(string(res.Body), m) {
			t.Errorf("%s does not mention %q", res, m)
		}
	}
}

// put adds stock through the change batch endpoint.
func (f *ohFixture) put(t testing.TB, article int64, location map[string]any, quantity int) {
	t.Helper()
	f.mu.Lock()
	f.stockSeq++
	key := fmt.Sprintf("put-%d", f.stockSeq)
	f.mu.Unlock()
	op := map[string]any{"articleDetailId": article, "quantity": quantity}
	for k, v := range location {
		op[k] = v
	}
	body := ohOK(t, f.env.Do(t, "PUT", "/api/stock/change/"+key, []any{op}))
	if body["success"] != true {
		t.Fatalf("stock change failed: %v", body)
	}
}

func ohWarehouse(id int64) map[string]any {
	return map[string]any{"warehouse": map[string]any{"id": id}}
}

func (f *ohFixture) stock(t testing.TB, article, warehouseID int64) int64 {
	t.Helper()
	data := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", article), nil))["data"].(map[string]any)
	for _, w := range data["warehouseStocks"].([]any) {
		ws := w.(map[string]any)
		if ohInt(t, ws["warehouseId"]) == warehouseID {
			return ohInt(t, ws["stock"])
		}
	}
	return 0
}

func (f *ohFixture) available(t testing.TB, article int64) int64 {
	t.Helper()
	data := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", article), nil))["data"].(map[string]any)
	return ohInt(t, data["availableStock"])
}

func (f *ohFixture) order(t testing.TB, path string) map[string]any {
	t.Helper()
	return ohOK(t, f.env.Do(t, "GET", path, nil))["data"].(map[string]any)
}

// ohSummary is "status: shipped/quantity status, …" of an order.
func ohSummary(o map[string]any) string {
	var parts []string
	for _, d := range o["details"].([]any) {
		dm := d.(map[string]any)
		parts = append(parts, fmt.Sprintf("%v/%v %v", dm["shipped"], dm["quantity"], dm["status"]))
	}
	return fmt.Sprintf("%v: %s", o["status"], strings.Join(parts, ", "))
}

func (f *ohFixture) newOrder(t testing.TB, body map[string]any) (int64, map[string]any) {
	t.Helper()
	id := f.created(t, f.env.Do(t, "POST", "/api/orders", body), false)
	return id, f.order(t, fmt.Sprintf("/api/orders/%d", id))
}

func ohDetailID(t testing.TB, o map[string]any, i int) int64 {
	t.Helper()
	return ohInt(t, o["details"].([]any)[i].(map[string]any)["id"])
}

func (f *ohFixture) queuedMails(t testing.TB) int {
	t.Helper()
	n, err := f.env.DB.Bun().NewSelect().Table("mail_outbox").Count(t.Context())
	if err != nil {
		t.Fatalf("count outbox: %v", err)
	}
	return int(n)
}

func TestOrdersHTTP(t *testing.T) {
	t.Parallel()
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env

		t.Run("create with the shop's ids, read by id and by number, list", func(t *testing.T) {
			res := env.Do(t, "POST", "/api/orders", map[string]any{
				"id": 70, "number": "10001", "customerEmail": "jane@example.com", "status": "In process",
				"details": []any{
					map[string]any{"id": 700, "articleDetailId": f.art1, "quantity": 3},
					map[string]any{"articleDetailId": f.art2, "quantity": 2, "shipped": 1, "status": "In progress"},
				},
			})
			if id := f.created(t, res, false); id != 70 {
				t.Fatalf("id = %d, want 70", id)
			}
			if loc := res.Header.Get("Location"); !strings.HasSuffix(loc, "/api/orders/70") {
				t.Errorf("Location = %q", loc)
			}
			o := f.order(t, "/api/orders/70")
			if o["number"] != "10001" || o["customerEmail"] != "jane@example.com" || ohSummary(o) != "In process: 0/3 Open, 1/2 In progress" {
				t.Errorf("order = %v", o)
			}
			d0 := o["details"].([]any)[0].(map[string]any)
			if ohInt(t, d0["id"]) != 700 || ohInt(t, d0["articleDetailId"]) != f.art1 {
				t.Errorf("detail = %v", d0)
			}
			for _, q := range []string{"true", "1"} {
				if got := f.order(t, "/api/orders/10001?useNumberAsId="+q); ohInt(t, got["id"]) != 70 {
					t.Errorf("by number (%s) = %v", q, got)
				}
			}
			list := ohOK(t, env.Do(t, "GET", "/api/orders?filter[0][property]=order.number&filter[0][value]=10001", nil))
			if ohInt(t, list["total"]) != 1 || len(list["data"].([]any)) != 1 {
				t.Errorf("list = %v", list)
			}
			ohError(t, env.Do(t, "GET", "/api/orders?filter[0][property]=order.nope&filter[0][value]=1", nil), http.StatusBadRequest, "order.nope")
		})

		t.Run("unknown orders are 404", func(t *testing.T) {
			ohError(t, env.Do(t, "GET", "/api/orders/9999", nil), http.StatusNotFound)
			ohError(t, env.Do(t, "GET", "/api/orders/abc", nil), http.StatusNotFound)
			ohError(t, env.Do(t, "GET", "/api/orders/abc?useNumberAsId=true", nil), http.StatusNotFound)
			ohError(t, env.Do(t, "PUT", "/api/orders/9999/ship", nil), http.StatusNotFound)
			ohError(t, env.Do(t, "PUT", "/api/orders/nope/ship?useNumberAsId=1", map[string]any{}), http.StatusNotFound)
		})

		t.Run("bad creates are 400 naming the problem", func(t *testing.T) {
			detail := func() []any { return []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}} }
			cases := []struct {
				name     string
				body     any
				mentions []string
			}{
				{"an unknown article detail", map[string]any{"number": "B1", "details": []any{map[string]any{"articleDetailId": 4711, "quantity": 1}}}, []string{"details[0].articleDetailId", "4711"}},
				{"a used id", map[string]any{"id": 70, "number": "B2", "details": detail()}, []string{`"id"`}},
				{"a used number", map[string]any{"number": "10001", "details": detail()}, []string{"number", "10001"}},
				{"a used detail id", map[string]any{"number": "B3", "details": []any{map[string]any{"id": 700, "articleDetailId": f.art1, "quantity": 1}}}, []string{"details[0].id"}},
				{"a negative id", map[string]any{"id": -4, "number": "B4", "details": detail()}, []string{`"id"`}},
				{"an unknown field", map[string]any{"number": "B5", "details": detail(), "foo": 1}, []string{"foo"}},
				{"no details", map[string]any{"number": "B6", "details": []any{}}, []string{"details"}},
				{"a quantity of 0", map[string]any{"number": "B7", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 0}}}, []string{"details[0].quantity"}},
				{"an unknown status", map[string]any{"number": "B8", "status": "Shipped", "details": detail()}, []string{"status"}},
				{"a wrong type", map[string]any{"number": 5, "details": detail()}, []string{"number"}},
				{"a broken body", `{"number": `, []string{"malformed"}},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					ohError(t, env.Do(t, "POST", "/api/orders", c.body), http.StatusBadRequest, c.mentions...)
				})
			}
		})
	})
}

func TestShipOrderHTTP(t *testing.T) {
	t.Parallel()
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env

		t.Run("ship a whole order from a named warehouse", func(t *testing.T) {
			f.put(t, f.art1, ohWarehouse(f.second), 10)
			id, _ := f.newOrder(t, map[string]any{"number": "H1", "customerEmail": "jane@example.com", "details": []any{
				map[string]any{"articleDetailId": f.art1, "quantity": 4},
			}})
			ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id), map[string]any{"warehouse": map[string]any{"code": "SECOND"}}))
			if got := f.stock(t, f.art1, f.second); got != 6 {
				t.Errorf("stock = %d, want 6", got)
			}
			if got := ohSummary(f.order(t, fmt.Sprintf("/api/orders/%d", id))); got != "Completely delivered: 4/4 Completed" {
				t.Errorf("order = %s", got)
			}
			if got := f.queuedMails(t); got != 1 {
				t.Errorf("queued mails = %d, want 1", got)
			}
			// Naturally idempotent: again is 200 without effect.
			ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id), map[string]any{"warehouse": map[string]any{"code": "SECOND"}}))
			if f.stock(t, f.art1, f.second) != 6 || f.queuedMails(t) != 1 {
				t.Errorf("the second ship had an effect")
			}
		})

		t.Run("by number, without a body, from the default warehouse", func(t *testing.T) {
			f.put(t, f.art2, ohWarehouse(f.main), 3)
			f.newOrder(t, map[string]any{"number": "H-2", "details": []any{map[string]any{"articleDetailId": f.art2, "quantity": 3}}})
			ohOK(t, env.Do(t, "PUT", "/api/orders/H-2/ship?useNumberAsId=true", nil))
			if got := f.stock(t, f.art2, f.main); got != 0 {
				t.Errorf("stock = %d, want 0", got)
			}
		})

		t.Run("an empty object and suppressStatusMail", func(t *testing.T) {
			f.put(t, f.art2, ohWarehouse(f.main), 2)
			id1, _ := f.newOrder(t, map[string]any{"number": "H3", "customerEmail": "a@example.com", "details": []any{map[string]any{"articleDetailId": f.art2, "quantity": 1}}})
			id2, _ := f.newOrder(t, map[string]any{"number": "H4", "customerEmail": "b@example.com", "details": []any{map[string]any{"articleDetailId": f.art2, "quantity": 1}}})
			before := f.queuedMails(t)
			ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id1), map[string]any{}))
			ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id2), map[string]any{"suppressStatusMail": true}))
			if got := f.queuedMails(t); got != before+1 {
				t.Errorf("queued mails = %d, want %d", got, before+1)
			}
		})

		t.Run("400s: missing stock names every shortfall and changes nothing; cancelled; bad warehouse; bad body", func(t *testing.T) {
			f.put(t, f.art1, ohWarehouse(f.main), 1)
			id, o := f.newOrder(t, map[string]any{"number": "H5", "customerEmail": "c@example.com", "details": []any{
				map[string]any{"articleDetailId": f.art1, "quantity": 2},
				map[string]any{"articleDetailId": f.art2, "quantity": 5},
			}})
			mails := f.queuedMails(t)
			path := fmt.Sprintf("/api/orders/%d/ship", id)
			ohError(t, env.Do(t, "PUT", path, nil), http.StatusBadRequest,
				"requested 2, available 1", "requested 5, available 0", fmt.Sprintf("order detail %d", ohDetailID(t, o, 1)))
			if f.stock(t, f.art1, f.main) != 1 || f.queuedMails(t) != mails {
				t.Errorf("a refused shipment changed stock or queued mail")
			}
			if got := ohSummary(f.order(t, fmt.Sprintf("/api/orders/%d", id))); got != "Open: 0/2 Open, 0/5 Open" {
				t.Errorf("order = %s", got)
			}
			ohError(t, env.Do(t, "PUT", path, map[string]any{"warehouse": map[string]any{"id": 9999}}), http.StatusBadRequest, "9999")
			ohError(t, env.Do(t, "PUT", path, map[string]any{"warehouse": map[string]any{"code": "NOPE"}}), http.StatusBadRequest, "NOPE")
			ohError(t, env.Do(t, "PUT", path, map[string]any{"warehouse": map[string]any{}}), http.StatusBadRequest, "warehouse")
			ohError(t, env.Do(t, "PUT", path, map[string]any{"suppressStatusMail": "yes"}), http.StatusBadRequest, "suppressStatusMail")
			ohError(t, env.Do(t, "PUT", path, map[string]any{"force": true}), http.StatusBadRequest, "force")
			ohError(t, env.Do(t, "PUT", path+"?useNumberAsId=maybe", nil), http.StatusBadRequest, "useNumberAsId")

			cid, _ := f.newOrder(t, map[string]any{"number": "H6", "status": "Cancelled", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}})
			ohError(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", cid), nil), http.StatusBadRequest, "cancelled")
		})

		t.Run("concurrent ship requests for one order clear its stock once", func(t *testing.T) {
			f.put(t, f.art1, ohWarehouse(f.second), 5)
			id, _ := f.newOrder(t, map[string]any{"number": "H7", "customerEmail": "d@example.com", "details": []any{
				map[string]any{"articleDetailId": f.art1, "quantity": 2},
			}})
			before, mails := f.stock(t, f.art1, f.second), f.queuedMails(t)
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res := env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id), map[string]any{"warehouse": map[string]any{"id": f.second}})
					if res.Status != http.StatusOK {
						t.Errorf("ship: %s", res)
					}
				}()
			}
			wg.Wait()
			if got := f.stock(t, f.art1, f.second); got != before-2 {
				t.Errorf("stock = %d, want %d", got, before-2)
			}
			if got := f.queuedMails(t); got != mails+1 {
				t.Errorf("queued mails = %d, want %d", got, mails+1)
			}
		})
	})
}

func TestShipOrderDetailsHTTP(t *testing.T) {
	t.Parallel()
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		f.put(t, f.art1, map[string]any{"binLocation": map[string]any{"id": f.binA}}, 10)
		f.put(t, f.art2, ohWarehouse(f.second), 10)
		id, o := f.newOrder(t, map[string]any{"number": "P1", "customerEmail": "jane@example.com", "details": []any{
			map[string]any{"articleDetailId": f.art1, "quantity": 3},
			map[string]any{"articleDetailId": f.art2, "quantity": 2},
		}})
		d1, d2 := ohDetailID(t, o, 0), ohDetailID(t, o, 1)
		orderPath := fmt.Sprintf("/api/orders/%d", id)
		if got := f.available(t, f.art1); got != 7 {
			t.Errorf("availableStock = %d, want 10 - 3", got)
		}

		t.Run("partial shipment from a bin location, then over-shipping and broken operations fail alone", func(t *testing.T) {
			body := ohBatch(t, env.Do(t, "PUT", "/api/orderDetails/ship/p-1", []any{
				map[string]any{"id": "op-1", "orderDetailId": d1, "quantity": 1, "binLocation": map[string]any{"code": "A-01", "warehouseCode": "MAIN"}},
				map[string]any{"id": 2, "orderDetailId": d1, "quantity": 3, "binLocation": map[string]any{"id": f.binA}},
				map[string]any{"orderDetailId": 987654, "quantity": 1, "warehouse": map[string]any{"id": f.second}},
				map[string]any{"orderDetailId": d2, "quantity": "x", "warehouse": map[string]any{"id": f.second}},
				map[string]any{"orderDetailId": d2, "quantity": 1, "warehouse": map[string]any{"id": f.second}, "extra": true},
				map[string]any{"orderDetailId": d2, "quantity": 1},
			}))
			if body["success"] != false || body["message"] != "5 of 6 operations failed" || body["idempotencyKey"] != "p-1" {
				t.Fatalf("batch = %v", body)
			}
			results := body["results"].([]any)
			want := []struct {
				ok       bool
				mentions string
			}{{true, ""}, {false, "exceeds the remaining quantity 2"}, {false, "987654"}, {false, "quantity"}, {false, "extra"}, {false, "warehouse or binLocation"}}
			for i, w := range want {
				r := results[i].(map[string]any)
				msg, _ := r["message"].(string)
				if r["success"] != w.ok || !strings.Contains(msg, w.mentions) {
					t.Errorf("result %d = %v, want success %v mentioning %q", i, r, w.ok, w.mentions)
				}
			}
			if results[0].(map[string]any)["operationId"] != "op-1" || results[1].(map[string]any)["operationId"] != float64(2) {
				t.Errorf("operation ids not echoed: %v", results)
			}
			if got := ohSummary(f.order(t, orderPath)); got != "Partially delivered: 1/3 Open, 0/2 Open" {
				t.Errorf("order = %s", got)
			}
			if got := f.stock(t, f.art1, f.main); got != 9 {
				t.Errorf("stock = %d, want 9", got)
			}
			if got := f.available(t, f.art1); got != 7 {
				t.Errorf("availableStock = %d, want 9 - 2", got)
			}
		})

		complete := []any{
			map[string]any{"orderDetailId": d1, "quantity": 2, "warehouse": map[string]any{"code": "MAIN"}},
			map[string]any{"orderDetailId": d2, "quantity": 2, "warehouse": map[string]any{"id": f.second}},
		}
		t.Run("completing it; a replay ships once; another body under the key is 409", func(t *testing.T) {
			first := env.Do(t, "PUT", "/api/orderDetails/ship/p-2", complete)
			if b := ohOK(t, first); b["success"] != true {
				t.Fatalf("batch = %v", b)
			}
			if first.Header.Get("Idempotent-Replayed") != "" {
				t.Errorf("a fresh batch is marked replayed")
			}
			replay := env.Do(t, "PUT", "/api/orderDetails/ship/p-2", complete)
			if replay.Status != http.StatusOK || replay.Header.Get("Idempotent-Replayed") != "true" || string(replay.Body) != string(first.Body) {
				t.Errorf("replay = %s %v", replay, replay.Header)
			}
			if got := ohSummary(f.order(t, orderPath)); got != "Completely delivered: 3/3 Completed, 2/2 Completed" {
				t.Errorf("order = %s", got)
			}
			if a, b := f.stock(t, f.art1, f.main), f.stock(t, f.art2, f.second); a != 7 || b != 8 {
				t.Errorf("stock = %d, %d; want 7, 8", a, b)
			}
			if got := f.queuedMails(t); got != 0 {
				t.Errorf("the batch queued %d mails", got)
			}
			ohError(t, env.Do(t, "PUT", "/api/orderDetails/ship/p-2", complete[:1]), http.StatusConflict)
			ohError(t, env.Do(t, "PUT", "/api/stock/change/p-2", complete), http.StatusConflict)
		})

		t.Run("whole-batch problems are 400 and use up no key", func(t *testing.T) {
			ohError(t, env.Do(t, "PUT", "/api/orderDetails/ship/p-3", map[string]any{"orderDetailId": d1}), http.StatusBadRequest, "array")
			ohError(t, env.Do(t, "PUT", "/api/orderDetails/ship/p-3", []any{}), http.StatusBadRequest, "empty")
			ohError(t, env.Do(t, "PUT", "/api/orderDetails/ship/p-3", []any{1}), http.StatusBadRequest, "not a JSON object")
			body := ohBatch(t, env.Do(t, "PUT", "/api/orderDetails/ship/p-3", []any{map[string]any{"orderDetailId": d1, "quantity": 1, "warehouse": map[string]any{"id": f.main}}}))
			if body["success"] != false {
				t.Errorf("shipping a completed position = %v", body)
			}
		})
	})
}
