package test

import (
	"fmt"
	"net/http"
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
