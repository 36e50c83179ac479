package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Limits in a batch: an id or quantity out of range, or a string with a
// control character, fails that operation alone with a message naming the
// property (and the range); no mapping's stock may pass 2000000000
// ("stock limit").
func TestLimitsInBatchOperationsHTTP(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		wh := whCreated(t, env, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "LIM", "name": "Limits"}), "/api/warehouses", true)
		article := whCreated(t, env, env.Do(t, "POST", "/api/articleDetails", map[string]any{"id": 5, "number": "SW-5"}), "/api/articleDetails", false)
		at := fmt.Sprintf(`"warehouse":{"id":%d}`, wh)

		res := env.Do(t, "PUT", "/api/stock/change/limits-1", `[
			{"id":1,"articleDetailId":`+fmt.Sprint(article)+`,"quantity":1000000001,`+at+`},
			{"id":2,"articleDetailId":`+fmt.Sprint(article)+`,"quantity":-9007199254740993,`+at+`},
			{"id":3,"articleDetailId":2147483648,"quantity":1,`+at+`},
			{"id":4,"articleDetailId":`+fmt.Sprint(article)+`,"quantity":1,"warehouse":{"id":4294967297}},
			{"id":5,"articleDetailId":`+fmt.Sprint(article)+`,"quantity":1,"warehouse":{"code":"L\u0001M"}},
			{"id":6,"articleDetailId":`+fmt.Sprint(article)+`,"quantity":1000000000,`+at+`},
			{"id":7,"articleDetailId":`+fmt.Sprint(article)+`,"quantity":1000000000,`+at+`},
			{"id":8,"articleDetailId":`+fmt.Sprint(article)+`,"quantity":1,`+at+`}
		]`)
		if res.Status != http.StatusOK {
			t.Fatalf("status %s", res)
		}
		var body struct {
			Success bool
			Results []struct {
				Success bool
				Message string
			}
		}
		res.Decode(t, &body)
		want := []string{
			"quantity: must be an integer from -1000000000 to 1000000000",
			"quantity: must be an integer from -1000000000 to 1000000000",
			"articleDetailId must be an integer from 1 to 2147483647",
			"warehouse.id must be an integer from 1 to 2147483647",
			"warehouse.code",
			"",
			"",
			"stock limit of article detail 5",
		}
		if len(body.Results) != len(want) {
			t.Fatalf("results %+v", body.Results)
		}
		for i, w := range want {
			got := body.Results[i]
			if w == "" {
				if !got.Success {
					t.Errorf("operation %d failed: %s", i+1, got.Message)
				}
				continue
			}
			if got.Success || !strings.Contains(got.Message, w) {
				t.Errorf("operation %d: got %+v, want a failure containing %q", i+1, got, w)
			}
		}
		var stock struct{ Data struct{ PhysicalStock int64 } }
		env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", article), nil).Decode(t, &stock)
		if stock.Data.PhysicalStock != 2000000000 {
			t.Errorf("physical stock %d, want the limit 2000000000", stock.Data.PhysicalStock)
		}
	})
}

// The NUL character (U+0000) in a batch fails its operation like any other
// control character, naming the property; the free-form `id` may hold it.
func TestNULCharacterFailsItsBatchOperationHTTP(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		wh := whCreated(t, env, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "NUL", "name": "NUL"}), "/api/warehouses", true)
		article := whCreated(t, env, env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "NUL-1"}), "/api/articleDetails", false)
		op := func(id, location string) string {
			return fmt.Sprintf(`{"id":%s,"articleDetailId":%d,"quantity":1,%s}`, id, article, location)
		}
		res := env.Do(t, "PUT", "/api/stock/change/nul-1", "["+strings.Join([]string{
			op("1", `"warehouse":{"code":"N\u0000UL"}`),
			op("2", `"binLocation":{"code":"\u0000","warehouseId":`+fmt.Sprint(wh)+`}`),
			op(`"op\u0000"`, fmt.Sprintf(`"warehouse":{"id":%d}`, wh)),
		}, ",")+"]")
		if res.Status != http.StatusOK {
			t.Fatalf("status %s", res)
		}
		var body struct {
			Results []struct {
				OperationID any `json:"operationId"`
				Success     bool
				Message     string
			}
		}
		res.Decode(t, &body)
		want := []string{"warehouse.code must not contain control characters", "binLocation.code must not contain control characters", ""}
		if len(body.Results) != len(want) {
			t.Fatalf("results %s", res.Body)
		}
		for i, w := range want {
			got := body.Results[i]
			if w == "" && !got.Success || w != "" && (got.Success || got.Message != w) {
				t.Errorf("operation %d: got %+v, want %q", i+1, got, w)
			}
		}
		if body.Results[2].OperationID != "op\x00" {
			t.Errorf("the third operation's id came back as %q", body.Results[2].OperationID)
		}
	})
}
