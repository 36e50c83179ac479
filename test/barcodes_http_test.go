package test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance test over HTTP for the article details' ean, on SQLite and
// PostgreSQL.

func TestArticleDetailEANHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		create := func(t *testing.T, body map[string]any) int64 {
			t.Helper()
			return whCreated(t, env, env.Do(t, http.MethodPost, "/api/articleDetails", body), "/api/articleDetails", false)
		}
		ean := func(t *testing.T, id int64) any {
			t.Helper()
			return ohOK(t, env.Do(t, http.MethodGet, fmt.Sprintf("/api/articleDetails/%d", id), nil))["data"].(map[string]any)["ean"]
		}
		refusedOnEAN := func(t *testing.T, res *apitest.Response, mentions string) {
			t.Helper()
			ohError(t, res, http.StatusBadRequest, mentions)
			errors, _ := res.JSON(t)["errors"].([]any)
			if len(errors) != 1 || errors[0].(map[string]any)["property"] != "ean" {
				t.Errorf("the 400 lists ean in errors[].property: %s", res)
			}
		}
		listed := func(t *testing.T, value string) []any {
			t.Helper()
			q := url.Values{"filter[0][property]": {"articleDetail.ean"}, "filter[0][value]": {value}}
			body := ohOK(t, env.Do(t, http.MethodGet, "/api/articleDetails?"+q.Encode(), nil))
			var ids []any
			for _, item := range body["data"].([]any) {
				ids = append(ids, item.(map[string]any)["id"])
			}
			return ids
		}

		plain := create(t, map[string]any{"number": "PLAIN"})
		pen := create(t, map[string]any{"number": "PEN", "ean": "4006381333931"})
		t.Run("ean defaults to empty and round-trips as written", func(t *testing.T) {
			if got := ean(t, plain); got != "" {
				t.Errorf("a product created without ean has %#v, want \"\"", got)
			}
			if got := ean(t, pen); got != "4006381333931" {
				t.Errorf("ean = %#v, want 4006381333931", got)
			}
		})

		t.Run("a wrong GTIN is a 400 naming ean, and nothing is stored", func(t *testing.T) {
			for _, bad := range []string{"4006381333932", "12345", "400638133393X", "123456789012345", " 96385074", strings.Repeat("4", 5000), "4006381333931\x00"} {
				refusedOnEAN(t, env.Do(t, http.MethodPost, "/api/articleDetails", map[string]any{"number": "BAD", "ean": bad}), "ean")
				refusedOnEAN(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/articleDetails/%d", plain), map[string]any{"name": "renamed", "ean": bad}), "ean")
			}
			// Not a string at all.
			ohError(t, env.Do(t, http.MethodPost, "/api/articleDetails", map[string]any{"number": "BAD-NUMBER", "ean": 4006381333931}), http.StatusBadRequest, `"property":"ean"`)
			ohError(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/articleDetails/%d", plain), map[string]any{"ean": []any{"4006381333931"}}), http.StatusBadRequest, `"property":"ean"`)
			if got := listed(t, "4006381333932"); len(got) != 0 {
				t.Errorf("a refused create stored something: %v", got)
			}
			got := ohOK(t, env.Do(t, http.MethodGet, fmt.Sprintf("/api/articleDetails/%d", plain), nil))["data"].(map[string]any)
			if got["ean"] != "" || got["name"] != "" {
				t.Errorf("a refused update changed the product: %v", got)
			}
		})

		t.Run("the same GTIN with other leading zeros is taken", func(t *testing.T) {
			refusedOnEAN(t, env.Do(t, http.MethodPost, "/api/articleDetails", map[string]any{"number": "PEN-14", "ean": "04006381333931"}), "already exists")
			refusedOnEAN(t, env.Do(t, http.MethodPost, "/api/articleDetails", map[string]any{"number": "PEN-13", "ean": "4006381333931"}), "already exists")
			refusedOnEAN(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/articleDetails/%d", plain), map[string]any{"ean": "04006381333931"}), "already exists")
			upc := create(t, map[string]any{"number": "CAN", "ean": "036000291452"})
			refusedOnEAN(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/articleDetails/%d", plain), map[string]any{"ean": "00036000291452"}), "already exists")
			// A product keeps its own GTIN in another spelling.
			ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/articleDetails/%d", upc), map[string]any{"ean": "0036000291452"}))
			if got := ean(t, upc); got != "0036000291452" {
				t.Errorf("ean = %#v after the product respelt its own GTIN", got)
			}
		})

		t.Run("an empty ean removes it and frees the GTIN", func(t *testing.T) {
			ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/articleDetails/%d", pen), map[string]any{"ean": ""}))
			if got := ean(t, pen); got != "" {
				t.Fatalf("ean = %#v, want removed", got)
			}
			ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/articleDetails/%d", plain), map[string]any{"ean": "04006381333931"}))
			// Several products without a GTIN are no conflict.
			ohOK(t, env.Do(t, http.MethodPut, fmt.Sprintf("/api/articleDetails/%d", pen), map[string]any{"number": "PEN", "ean": ""}))
			create(t, map[string]any{"number": "NOEAN", "ean": ""})
		})

		t.Run("the list shows ean and filters on the digits as stored", func(t *testing.T) {
			if got := fmt.Sprint(listed(t, "04006381333931")); got != fmt.Sprintf("[%d]", plain) {
				t.Errorf("filter 04006381333931 = %s, want [%d]", got, plain)
			}
			if got := listed(t, "4006381333931"); len(got) != 0 {
				t.Errorf("the filter compares the digits as stored, got %v", got)
			}
			body := ohOK(t, env.Do(t, http.MethodGet, "/api/articleDetails?limit=100", nil))
			for _, item := range body["data"].([]any) {
				if _, ok := item.(map[string]any)["ean"].(string); !ok {
					t.Errorf("a list item without ean: %v", item)
				}
			}
		})

		t.Run("stock.changed carries ean as GET shows it", func(t *testing.T) {
			wh := whCreated(t, env, env.Do(t, http.MethodPost, "/api/warehouses", map[string]any{"code": "EANWH", "name": "EAN"}), "/api/warehouses", true)
			_, before := evFeed(t, env, "after=0&limit=1000")
			ohOK(t, env.Do(t, http.MethodPut, "/api/stock/change/ean-1", []any{
				map[string]any{"articleDetailId": plain, "quantity": 2, "warehouse": map[string]any{"id": wh}},
			}))
			events, _ := evSince(t, env, before)
			if len(events) != 1 {
				t.Fatalf("events = %v, want one stock.changed", evTypes(events))
			}
			if events[0].Data["ean"] != "04006381333931" {
				t.Errorf("stock.changed ean = %#v", events[0].Data["ean"])
			}
			evMatchesFetch(t, env, events[0])
		})
	})
}
