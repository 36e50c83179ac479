package test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance test over HTTP for the article details' lotTracked and
// expiredStock, on SQLite and PostgreSQL.

func TestArticleDetailLotTrackedHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		path := func(id int64) string { return fmt.Sprintf("/api/articleDetails/%d", id) }
		get := func(t *testing.T, id int64) map[string]any {
			t.Helper()
			return ohOK(t, env.Do(t, http.MethodGet, path(id), nil))["data"].(map[string]any)
		}
		listed := func(t *testing.T, value string) string {
			t.Helper()
			q := url.Values{"filter[0][property]": {"articleDetail.lotTracked"}, "filter[0][value]": {value}, "limit": {"100"}}
			var ids []any
			for _, item := range ohOK(t, env.Do(t, http.MethodGet, "/api/articleDetails?"+q.Encode(), nil))["data"].([]any) {
				ids = append(ids, item.(map[string]any)["id"])
			}
			return fmt.Sprint(ids...)
		}
		refusedOnLotTracked := func(t *testing.T, res *apitest.Response) {
			t.Helper()
			ohError(t, res, http.StatusBadRequest, "lotTracked")
			errors, _ := res.JSON(t)["errors"].([]any)
			if len(errors) != 1 || errors[0].(map[string]any)["property"] != "lotTracked" {
				t.Errorf("the 400 lists lotTracked in errors[].property: %s", res)
			}
		}
		setStock := func(t *testing.T, key string, article, warehouse int64, quantity int) {
			t.Helper()
			body := ohOK(t, env.Do(t, http.MethodPut, "/api/stock/set/"+key, []any{
				map[string]any{"articleDetailId": article, "quantity": quantity, "warehouse": map[string]any{"id": warehouse}},
			}))
			if body["success"] != true {
				t.Fatalf("stock set: %v", body)
			}
		}

		tracked := f.created(t, env.Do(t, http.MethodPost, "/api/articleDetails", map[string]any{"number": "LOT-1", "lotTracked": true}), false)

		t.Run("lotTracked defaults to false and round-trips in both GETs and the list", func(t *testing.T) {
			if got := get(t, f.art1)["lotTracked"]; got != false {
				t.Errorf("a product created without lotTracked has %#v, want false", got)
			}
			if got := get(t, tracked)["lotTracked"]; got != true {
				t.Errorf("lotTracked = %#v, want true", got)
			}
			for _, item := range ohOK(t, env.Do(t, http.MethodGet, "/api/articleDetails?limit=100", nil))["data"].([]any) {
				m := item.(map[string]any)
				want := m["id"] == float64(tracked)
				if m["lotTracked"] != want {
					t.Errorf("list item %v: lotTracked %#v, want %v", m["id"], m["lotTracked"], want)
				}
				if m["expiredStock"] != float64(0) {
					t.Errorf("list item %v: expiredStock %#v, want 0", m["id"], m["expiredStock"])
				}
			}
			if got := get(t, f.art1)["expiredStock"]; got != float64(0) {
				t.Errorf("expiredStock = %#v, want 0", got)
			}
		})

		t.Run("the list filters on lotTracked", func(t *testing.T) {
			if got, want := listed(t, "true"), fmt.Sprint(float64(tracked)); got != want {
				t.Errorf("lotTracked true: %s, want %s", got, want)
			}
			if got, want := listed(t, "0"), fmt.Sprint(float64(f.art1), float64(f.art2)); got != want {
				t.Errorf("lotTracked 0: %s, want %s", got, want)
			}
			ohError(t, env.Do(t, http.MethodGet, "/api/articleDetails?filter[0][property]=articleDetail.lotTracked&filter[0][value]=maybe", nil), http.StatusBadRequest)
		})

		t.Run("it changes while the product holds nothing", func(t *testing.T) {
			ohOK(t, env.Do(t, http.MethodPut, path(f.art2), map[string]any{"lotTracked": true}))
			if got := get(t, f.art2)["lotTracked"]; got != true {
				t.Fatalf("lotTracked = %#v after the update", got)
			}
			// An update that leaves it out leaves it as it is.
			ohOK(t, env.Do(t, http.MethodPut, path(f.art2), map[string]any{"name": "renamed"}))
			if got := get(t, f.art2); got["lotTracked"] != true || got["name"] != "renamed" {
				t.Fatalf("after an update without lotTracked: %v", got)
			}
			ohOK(t, env.Do(t, http.MethodPut, path(f.art2), map[string]any{"lotTracked": false}))
			if got := get(t, f.art2)["lotTracked"]; got != false {
				t.Fatalf("lotTracked = %#v after untracking", got)
			}
		})

		t.Run("with stock in any warehouse it is refused, and nothing changes", func(t *testing.T) {
			setStock(t, "lt-set-1", f.art1, f.second, 5)
			refusedOnLotTracked(t, env.Do(t, http.MethodPut, path(f.art1), map[string]any{"lotTracked": true}))
			// All or nothing: the name given beside it is not stored either.
			refusedOnLotTracked(t, env.Do(t, http.MethodPut, path(f.art1), map[string]any{"name": "other", "lotTracked": true}))
			if got := get(t, f.art1); got["lotTracked"] != false || got["name"] != "" || got["physicalStock"] != float64(5) {
				t.Errorf("a refused update changed the product: %v", got)
			}
			// The value it already has is no change, and always fine.
			ohOK(t, env.Do(t, http.MethodPut, path(f.art1), map[string]any{"lotTracked": false, "name": "kept"}))
			if got := get(t, f.art1); got["lotTracked"] != false || got["name"] != "kept" {
				t.Errorf("after setting the value it has: %v", got)
			}
			// Once the stock is gone (a default mapping of 0 pieces may stay),
			// it changes.
			setStock(t, "lt-set-2", f.art1, f.second, 0)
			ohOK(t, env.Do(t, http.MethodPut, path(f.art1), map[string]any{"lotTracked": true}))
			ohOK(t, env.Do(t, http.MethodPut, path(f.art1), map[string]any{"lotTracked": false}))
		})

		t.Run("with reservations it is refused", func(t *testing.T) {
			f.put(t, f.art2, map[string]any{"binLocation": map[string]any{"id": f.binA}}, 3)
			order, _ := f.newOrder(t, map[string]any{"number": "LT-1", "details": []any{
				map[string]any{"articleDetailId": f.art2, "quantity": 2},
			}})
			ohOK(t, env.Do(t, http.MethodPost, fmt.Sprintf("/api/orders/%d/pickingList", order), nil))
			if reserved, _ := f.articleFigures(t, f.art2); reserved != 2 {
				t.Fatalf("reserved %d, want 2: the case does not test reservations", reserved)
			}
			refusedOnLotTracked(t, env.Do(t, http.MethodPut, path(f.art2), map[string]any{"lotTracked": true}))
			// The unreserved piece leaves: only the reservations hold it now.
			ohOK(t, env.Do(t, http.MethodPut, "/api/stock/change/lt-out", []any{
				map[string]any{"articleDetailId": f.art2, "quantity": -1, "binLocation": map[string]any{"id": f.binA}},
			}))
			refusedOnLotTracked(t, env.Do(t, http.MethodPut, path(f.art2), map[string]any{"lotTracked": true}))
			// Shipped, it holds nothing: the order still names it, which is no stock.
			ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/orders/%d/ship", order), nil))
			if got := get(t, f.art2); got["physicalStock"] != float64(0) || got["reservedStock"] != float64(0) {
				t.Fatalf("after shipping: %v", got)
			}
			ohOK(t, env.Do(t, http.MethodPut, path(f.art2), map[string]any{"lotTracked": true}))
		})

		t.Run("a wrong type is a 400 naming lotTracked", func(t *testing.T) {
			ohError(t, env.Do(t, http.MethodPost, "/api/articleDetails", map[string]any{"number": "LOT-BAD", "lotTracked": "yes"}), http.StatusBadRequest, `"property":"lotTracked"`)
			ohError(t, env.Do(t, http.MethodPut, path(f.art1), map[string]any{"lotTracked": 1}), http.StatusBadRequest, `"property":"lotTracked"`)
		})
	})
}

// stock.changed carries the article detail as GET shows it, lotTracked and
// expiredStock included.
func TestArticleDetailLotTrackedInStockChangedHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		_, before := evFeed(t, env, "after=0&limit=1000")
		f.put(t, f.art1, ohWarehouse(f.main), 4)
		events, _ := evSince(t, env, before)
		if len(events) != 1 {
			t.Fatalf("events = %v, want one stock.changed", evTypes(events))
		}
		if events[0].Data["lotTracked"] != false || events[0].Data["expiredStock"] != float64(0) {
			t.Errorf("stock.changed lotTracked %#v, expiredStock %#v", events[0].Data["lotTracked"], events[0].Data["expiredStock"])
		}
		evMatchesFetch(t, env, events[0])
	})
}
