package test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// A feed query the service cannot read is a 400 naming the parameter, never
// a feed that quietly leaves the parameter out: a type filter dropped would
// hand the client every event of every type.
func TestEventFeedQueryErrorsNameTheParameter(t *testing.T) {
	env := apitest.New(t, testdb.SQLite(t))
	for _, q := range []string{
		"type=stock.low", "type=stock.low,order.statusChanged", "type=stock.low&type=order.statusChanged",
		"type=stock.low,%20order.statusChanged", "type=stock%2Elow", "after=0&limit=1000", "other=%41",
	} {
		if res := env.Do(t, http.MethodGet, "/api/events?"+q, nil); res.Status != http.StatusOK {
			t.Errorf("GET /api/events?%s: %s, want 200", q, res)
		}
	}
	for q, parameter := range map[string]string{
		"type=stock%zz":                       "type",
		"type=stock.low%":                     "type",
		"type=":                               "type",
		"type=,":                              "type",
		"type=stock.low,":                     "type",
		"type=stock.low,,order.statusChanged": "type",
		"type=stock.low&type=":                "type",
		"type=%20":                            "type",
		"type=stock.low;after=3":              "type",
		"after=":                              "after",
		"after=%zz":                           "after",
		"after=1&after=2":                     "after",
		"limit=":                              "limit",
		"limit=10&limit=20":                   "limit",
		"limit=1%":                            "limit",
	} {
		res := env.Do(t, http.MethodGet, "/api/events?"+q, nil)
		var body struct {
			Success bool   `json:"success"`
			Message string `json:"message"`
			Errors  []struct {
				Property string `json:"property"`
			} `json:"errors"`
		}
		res.Decode(t, &body)
		if res.Status != http.StatusBadRequest || body.Success || len(body.Errors) != 1 || body.Errors[0].Property != parameter {
			t.Errorf("GET /api/events?%s: %s, want 400 naming %s", q, res, parameter)
		}
	}
	// The stock export reads its query the same way.
	res := env.Do(t, http.MethodGet, "/api/stock.csv?warehouse=%zz", nil)
	if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), "warehouse") {
		t.Errorf("GET /api/stock.csv?warehouse=%%zz: %s, want 400 naming warehouse", res)
	}
}
