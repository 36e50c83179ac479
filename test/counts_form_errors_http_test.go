package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// errorProperties are the properties a 400's errors name.
func errorProperties(t testing.TB, res *apitest.Response) []string {
	t.Helper()
	var out []string
	errors, _ := res.JSON(t)["errors"].([]any)
	for _, e := range errors {
		out = append(out, fmt.Sprint(e.(map[string]any)["property"]))
	}
	return out
}

// TestCountFormErrorsNameTheirProperty: a count that names bins and
// products both, or more bins than a count covers, is a 400 whose errors
// name the property, as every other refused body does.
func TestCountFormErrorsNameTheirProperty(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ctSetup(t, databaseURL)
		main := map[string]any{"id": f.main}
		bins := make([]any, 10001)
		articles := make([]any, 10001)
		for i := range bins {
			bins[i] = map[string]any{"code": fmt.Sprintf("X-%d", i)}
			articles[i] = i + 1
		}
		for name, c := range map[string]struct {
			body     map[string]any
			property string
		}{
			"bins and products": {map[string]any{"warehouse": main, "binLocations": []any{map[string]any{"id": f.binA}}, "articleDetailIds": []any{f.art1}}, "articleDetailIds"},
			"too many bins":     {map[string]any{"warehouse": main, "binLocations": bins}, "binLocations"},
			"too many products": {map[string]any{"warehouse": main, "articleDetailIds": articles}, "articleDetailIds"},
		} {
			res := f.env.Do(t, "POST", "/api/counts", c.body)
			ohError(t, res, http.StatusBadRequest, c.property)
			if got := errorProperties(t, res); len(got) != 1 || got[0] != c.property {
				t.Errorf("%s: errors name %v, want [%s]: %s", name, got, c.property, res)
			}
		}
		if n := ohInt(t, ohOK(t, f.env.Do(t, "GET", "/api/counts", nil))["total"]); n != 0 {
			t.Fatalf("%d counts after refused ones", n)
		}
	})
}

// TestCountsOverTenThousandBinsHTTP: a count by products, or of the whole
// warehouse, that would cover more than 10000 bins is a 400 naming the
// property its form stands on (articleDetailIds, warehouse), and so is one
// that would cover none.
func TestCountsOverTenThousandBinsHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		wh := f.created(t, f.env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "BIG", "name": "Big",
			"binLocationFormatComponents": []any{map[string]any{"type": "text", "value": "X-"}, map[string]any{"type": "number", "from": 1, "to": 10001}}}), true)
		if n := ohInt(t, ohOK(t, f.env.Do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", wh), nil))["data"].(map[string]any)["created"]); n != 10001 {
			t.Fatalf("generated %d bins", n)
		}
		big := map[string]any{"id": wh}
		for name, c := range map[string]struct {
			body     map[string]any
			property string
		}{
			"products on no bin": {map[string]any{"warehouse": big, "articleDetailIds": []any{f.art1}}, "articleDetailIds"},
			"no stock":           {map[string]any{"warehouse": big}, "warehouse"},
		} {
			res := f.env.Do(t, "POST", "/api/counts", c.body)
			ohError(t, res, http.StatusBadRequest, "no bin")
			if got := errorProperties(t, res); len(got) != 1 || got[0] != c.property {
				t.Errorf("%s: errors name %v, want [%s]: %s", name, got, c.property, res)
			}
		}

		var csv strings.Builder
		csv.WriteString("warehouseCode,binLocationCode,articleDetailNumber,quantity\n")
		for i := 1; i <= 10001; i++ {
			fmt.Fprintf(&csv, "BIG,X-%d,SKU-1,1\n", i)
		}
		req, err := http.NewRequest(http.MethodPut, f.env.URL+"/api/stock/import/change/big-1", strings.NewReader(csv.String()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "text/csv")
		req.SetBasicAuth(apitest.User, apitest.Key)
		ohOK(t, f.env.DoRaw(t, req))

		for name, c := range map[string]struct {
			body     map[string]any
			property string
		}{
			"by products":         {map[string]any{"warehouse": big, "articleDetailIds": []any{f.art1}}, "articleDetailIds"},
			"the whole warehouse": {map[string]any{"warehouse": big}, "warehouse"},
		} {
			res := f.env.Do(t, "POST", "/api/counts", c.body)
			ohError(t, res, http.StatusBadRequest, "10001", "10000")
			if got := errorProperties(t, res); len(got) != 1 || got[0] != c.property {
				t.Errorf("%s: errors name %v, want [%s]: %s", name, got, c.property, res)
			}
		}
		if n := ohInt(t, ohOK(t, f.env.Do(t, "GET", "/api/counts", nil))["total"]); n != 0 {
			t.Fatalf("%d counts after refused ones", n)
		}
	})
}
