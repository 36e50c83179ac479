package test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Events and the change feed over HTTP.

type feedEvent struct {
	ID        int64          `json:"id"`
	Type      string         `json:"type"`
	CreatedAt string         `json:"createdAt"`
	Data      map[string]any `json:"data"`
}

// evFeed reads one page of the feed and checks its shape.
func evFeed(t testing.TB, env *apitest.Env, query string) ([]feedEvent, int64) {
	t.Helper()
	res := env.Do(t, http.MethodGet, "/api/events?"+query, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("GET /api/events?%s: %s", query, res)
	}
	var body struct {
		Success bool        `json:"success"`
		Data    []feedEvent `json:"data"`
		Last    int64       `json:"last"`
	}
	res.Decode(t, &body)
	for i, e := range body.Data {
		if i > 0 && e.ID <= body.Data[i-1].ID {
			t.Errorf("events out of order: %d after %d", e.ID, body.Data[i-1].ID)
		}
		if !stockTimestamp.MatchString(e.CreatedAt) {
			t.Errorf("createdAt %q", e.CreatedAt)
		}
	}
	if n := len(body.Data); n > 0 && body.Last != body.Data[n-1].ID {
		t.Errorf("last = %d, want the last id %d", body.Last, body.Data[n-1].ID)
	}
	return body.Data, body.Last
}

// evSince reads every event after the position and returns them and the new position.
func evSince(t testing.TB, env *apitest.Env, after int64) ([]feedEvent, int64) {
	t.Helper()
	var all []feedEvent
	for {
		page, last := evFeed(t, env, fmt.Sprintf("after=%d&limit=2", after))
		if len(page) == 0 {
			if last != after {
				t.Errorf("an empty page has last = %d, want after = %d", last, after)
			}
			return all, after
		}
		all = append(all, page...)
		after = last
	}
}

func evTypes(events []feedEvent) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = fmt.Sprintf("%s:%v", e.Type, firstOf(e.Data, "id", "articleDetailId", "orderId"))
	}
	return out
}

func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

// evMatchesFetch checks that a stock.changed carries the article detail as
// the single fetch shows it now, and returns the cause.
func evMatchesFetch(t testing.TB, env *apitest.Env, e feedEvent) map[string]any {
	t.Helper()
	if e.Type != "stock.changed" {
		t.Fatalf("event %d is %s, want stock.changed", e.ID, e.Type)
	}
	data := map[string]any{}
	for k, v := range e.Data {
		data[k] = v
	}
	cause, _ := data["cause"].(map[string]any)
	delete(data, "cause")
	fetched := ohOK(t, env.Do(t, http.MethodGet, fmt.Sprintf("/api/articleDetails/%v", data["id"]), nil))["data"]
	if !reflect.DeepEqual(data, fetched) {
		t.Errorf("stock.changed data\n%v\nis not what GET shows\n%v", data, fetched)
	}
	return cause
}

func TestEventsAndTheFeed(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		if events, last := evFeed(t, env, ""); len(events) != 0 || last != 0 {
			t.Fatalf("creating warehouses and products without reorder points records nothing: %v", evTypes(events))
		}

		// One batch, three operations on two products: one event each.
		ohOK(t, env.Do(t, "PUT", "/api/stock/change/ev-1", []any{
			map[string]any{"articleDetailId": f.art1, "quantity": 5, "warehouse": map[string]any{"id": f.main}},
			map[string]any{"articleDetailId": f.art1, "quantity": 3, "warehouse": map[string]any{"id": f.second}},
			map[string]any{"articleDetailId": f.art2, "quantity": 2, "warehouse": map[string]any{"id": f.main}},
		}))
		events, pos := evSince(t, env, 0)
		if got := evTypes(events); fmt.Sprint(got) != fmt.Sprintf("[stock.changed:%d stock.changed:%d]", f.art1, f.art2) {
			t.Fatalf("events = %v, want one stock.changed per product", got)
		}
		for _, e := range events {
			cause := evMatchesFetch(t, env, e)
			if cause["type"] != "stock/change" || cause["idempotencyKey"] != "ev-1" || cause["orderId"] != nil {
				t.Errorf("cause = %v", cause)
			}
		}

		// A move between two bins of one warehouse changes no figure; a
		// replay and a failed batch change nothing.
		ohOK(t, env.Do(t, "PUT", "/api/stock/relocate/ev-2", []any{map[string]any{"articleDetailId": f.art1, "quantity": 2,
			"source": map[string]any{"warehouse": map[string]any{"id": f.main}}, "destination": map[string]any{"binLocation": map[string]any{"id": f.binA}}}}))
		ohOK(t, env.Do(t, "PUT", "/api/stock/change/ev-1", []any{
			map[string]any{"articleDetailId": f.art1, "quantity": 5, "warehouse": map[string]any{"id": f.main}},
			map[string]any{"articleDetailId": f.art1, "quantity": 3, "warehouse": map[string]any{"id": f.second}},
			map[string]any{"articleDetailId": f.art2, "quantity": 2, "warehouse": map[string]any{"id": f.main}},
		}))
		ohBatch(t, env.Do(t, "PUT", "/api/stock/change/ev-3", []any{map[string]any{"articleDetailId": f.art2, "quantity": -100, "warehouse": map[string]any{"id": f.main}}}))
		if events, _ := evSince(t, env, pos); len(events) != 0 {
			t.Fatalf("a move inside a warehouse, a replay and a failed batch record nothing: %v", evTypes(events))
		}

		// A raised reorder point makes art2 (2 available) low.
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", f.art2), map[string]any{"reorderPoint": 5}))
		events, pos = evSince(t, env, pos)
		if len(events) != 1 || events[0].Type != "stock.low" {
			t.Fatalf("events = %v, want one stock.low", evTypes(events))
		}
		want := map[string]any{"articleDetailId": float64(f.art2), "articleDetailNumber": "SKU-2", "availableStock": float64(2), "reorderPoint": float64(5)}
		if !reflect.DeepEqual(events[0].Data, want) {
			t.Errorf("stock.low data = %v, want %v", events[0].Data, want)
		}
		// Still below: no second stock.low; back above and below again: one more.
		f.put(t, f.art2, ohWarehouse(f.main), 1)
		f.put(t, f.art2, ohWarehouse(f.main), 10)
		ohOK(t, env.Do(t, "PUT", "/api/stock/change/ev-4", []any{map[string]any{"articleDetailId": f.art2, "quantity": -9, "warehouse": map[string]any{"id": f.main}}}))
		events, pos = evSince(t, env, pos)
		if got := fmt.Sprint(evTypes(events)); got != fmt.Sprintf("[stock.changed:%[1]d stock.changed:%[1]d stock.changed:%[1]d stock.low:%[1]d]", f.art2) {
			t.Fatalf("events = %s", got)
		}

		// An order reserves availableStock; shipping it changes the status.
		orderID, o := f.newOrder(t, map[string]any{"number": "EV-1", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 4}}})
		events, pos = evSince(t, env, pos)
		if len(events) != 1 {
			t.Fatalf("order intake: %v", evTypes(events))
		}
		if cause := evMatchesFetch(t, env, events[0]); cause["type"] != "orders/create" || cause["orderId"] != float64(orderID) || cause["idempotencyKey"] != nil {
			t.Errorf("cause = %v", cause)
		}
		if events[0].Data["availableStock"] != float64(4) {
			t.Errorf("availableStock after the order = %v, want 4", events[0].Data["availableStock"])
		}
		ohOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", orderID), map[string]any{"warehouse": map[string]any{"id": f.main}, "suppressStatusMail": true}))
		events, pos = evSince(t, env, pos)
		if got := fmt.Sprint(evTypes(events)); got != fmt.Sprintf("[stock.changed:%d order.statusChanged:%d]", f.art1, orderID) {
			t.Fatalf("shipping: %s", got)
		}
		if cause := evMatchesFetch(t, env, events[0]); cause["type"] != "orders/ship" || cause["orderId"] != float64(orderID) {
			t.Errorf("cause = %v", cause)
		}
		wantStatus := map[string]any{"orderId": float64(orderID), "number": o["number"], "status": "Completely delivered", "previousStatus": "Open"}
		if !reflect.DeepEqual(events[1].Data, wantStatus) {
			t.Errorf("order.statusChanged = %v, want %v", events[1].Data, wantStatus)
		}
		// A rolled-back shipment (not enough stock) records nothing.
		id2, _ := f.newOrder(t, map[string]any{"number": "EV-2", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 400}}})
		_, pos = evSince(t, env, pos)
		ohError(t, env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", id2), map[string]any{}), http.StatusBadRequest)
		if events, _ := evSince(t, env, pos); len(events) != 0 {
			t.Fatalf("a rolled-back shipment recorded %v", evTypes(events))
		}

		// Filters and bad input.
		low, _ := evFeed(t, env, "type=stock.low")
		both, _ := evFeed(t, env, "type=stock.low,order.statusChanged&limit=1000")
		if len(low) != 2 || len(both) != 3 {
			t.Errorf("type filter: %v / %v", evTypes(low), evTypes(both))
		}
		for _, q := range []string{"after=-1", "after=x", "limit=0", "limit=1001", "limit=x", "type=stock.gone"} {
			ohError(t, env.Do(t, http.MethodGet, "/api/events?"+q, nil), http.StatusBadRequest)
		}

		// Retention: what is purged is gone for a reader behind it.
		all, last := evFeed(t, env, "limit=1000")
		n, err := env.App.PurgeEvents(apitest.Admin(), 0)
		if err != nil || n != len(all) {
			t.Fatalf("purge: %d %v, want %d", n, err, len(all))
		}
		ohError(t, env.Do(t, http.MethodGet, "/api/events?after=0", nil), http.StatusGone, fmt.Sprintf(`"events after 0 have been purged"`))
		if events, l := evFeed(t, env, fmt.Sprintf("after=%d", last)); len(events) != 0 || l != last {
			t.Errorf("a reader that has read everything goes on: %v %d", events, l)
		}
		f.put(t, f.art1, ohWarehouse(f.main), 1)
		if events, _ := evFeed(t, env, fmt.Sprintf("after=%d", last)); len(events) != 1 || events[0].ID <= last {
			t.Errorf("new events follow the purged ones: %v", evTypes(events))
		}
	})
}

func TestEventDataIsTheJSONOfTheSingleFetch(t *testing.T) {
	t.Parallel()
	f := ohSetup(t, testdb.SQLite(t))
	f.put(t, f.art1, ohWarehouse(f.main), 7)
	events, _ := evFeed(t, f.env, "")
	raw, _ := json.Marshal(events[0].Data)
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(raw, &keys)
	for _, k := range []string{"id", "number", "name", "reorderPoint", "physicalStock", "physicalStockForSale", "reservedStock", "availableStock", "warehouseStocks", "cause"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("stock.changed lacks %q: %s", k, raw)
		}
	}
}

func TestPartialShipmentsRecordTheirCauseAndTheStatus(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		f.put(t, f.art1, ohWarehouse(f.main), 5)
		orderID, o := f.newOrder(t, map[string]any{"number": "PS-1", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}}})
		_, pos := evFeed(t, f.env, "limit=1000")
		ohOK(t, f.env.Do(t, "PUT", "/api/orderDetails/ship/ps-1", []any{map[string]any{"orderDetailId": ohDetailID(t, o, 0), "quantity": 1, "warehouse": map[string]any{"id": f.main}}}))
		events, _ := evSince(t, f.env, pos)
		if got := fmt.Sprint(evTypes(events)); got != fmt.Sprintf("[stock.changed:%d order.statusChanged:%d]", f.art1, orderID) {
			t.Fatalf("events = %s", got)
		}
		if cause := evMatchesFetch(t, f.env, events[0]); cause["type"] != "orderDetails/ship" || cause["idempotencyKey"] != "ps-1" {
			t.Errorf("cause = %v", cause)
		}
		if events[1].Data["status"] != "Partially delivered" || events[1].Data["previousStatus"] != "Open" {
			t.Errorf("status change = %v", events[1].Data)
		}
	})
}
