package test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// TestListErrorsNameTheirParameter: a list query refused for a filter or a
// sort is a 400 whose errors name the parameter at fault, as start and
// limit do, and an unknown property or expression still lists the allowed
// ones.
func TestListErrorsNameTheirParameter(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		if res := env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "W1", "name": "One"}); res.Status != http.StatusCreated {
			t.Fatalf("create: %s", res)
		}
		manyFilters := url.Values{}
		for i := range 51 {
			manyFilters.Set("filter["+strconv.Itoa(i)+"][property]", "warehouse.code")
			manyFilters.Set("filter["+strconv.Itoa(i)+"][value]", "W%")
		}
		manyIn := make([]string, 1001)
		for i := range manyIn {
			manyIn[i] = strconv.Itoa(i + 1)
		}
		for _, c := range []struct {
			query, property, mentions string
		}{
			{"filter[0][property]=warehouse.bogus&filter[0][value]=1", "filter[0][property]", "warehouse.code"},
			{"filter[0][value]=1", "filter[0][property]", ""},
			{"filter[0][property]=warehouse.code&filter[0][value]=W1&filter[0][expression]=~", "filter[0][expression]", "NOT LIKE"},
			{"filter[0][property]=warehouse.code&filter[0][value]=W1&filter[0][operator]=maybe", "filter[0][operator]", ""},
			{"filter[0][property]=warehouse.code&filter[0][value]=W1&filter[0][color]=red", "filter[0][color]", ""},
			{"filter[0][property]=warehouse.id&filter[0][value]=abc", "filter[0][value]", ""},
			{"filter[0][property]=warehouse.id&filter[0][value]=0", "filter[0][value]", "2147483647"},
			{"filter[0][property]=warehouse.stockAvailableForSale&filter[0][value]=yes", "filter[0][value]", ""},
			{"filter[0][property]=warehouse.code", "filter[0][value]", ""},
			{"filter[0][property]=warehouse.id&filter[0][value]=1&filter[0][expression]=LIKE", "filter[0][expression]", ""},
			{"filter[0][property]=warehouse.id&filter[0][expression]=IN&filter[0][value]=" + strings.Join(manyIn, ","), "filter[0][value]", "1000"},
			{manyFilters.Encode(), "filter", "50"},
			{"sort[0][property]=warehouse.code&sort[0][direction]=up", "sort[0][direction]", "ASC"},
			{"sort[0][property]=code", "sort[0][property]", "warehouse.code"},
			{"sort[0][direction]=ASC", "sort[0][property]", ""},
			{"filter=abc", "filter", ""},
		} {
			res := env.Do(t, "GET", "/api/warehouses?"+c.query, nil)
			ohError(t, res, http.StatusBadRequest, c.mentions)
			if got := errorProperties(t, res); len(got) != 1 || got[0] != c.property {
				t.Errorf("%.80s: errors name %v, want [%s]: %s", c.query, got, c.property, res)
			}
		}
	})
}
