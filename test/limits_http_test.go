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

// Numbers: ids are 1..2147483647 wherever they appear, quantities at most
// 1000000000 in absolute value, so that bad input costs a 4xx, never an
// overflow or a 500.
func TestLimitsNumbersHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		article := whCreated(t, env, env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "SW-1"}), "/api/articleDetails", false)

		t.Run("a path id outside 1..2147483647 names nothing", func(t *testing.T) {
			for _, id := range []string{"0", "-1", "2147483648", "9223372036854775807", "99999999999999999999"} {
				for _, path := range []string{"/api/articleDetails/", "/api/warehouses/", "/api/binLocations/", "/api/orders/"} {
					whStatus(t, env.Do(t, "GET", path+id, nil), http.StatusNotFound)
				}
			}
			whStatus(t, env.Do(t, "PUT", "/api/binLocations/2147483648/articleDetails/1", map[string]any{"defaultMapping": true}), http.StatusNotFound)
		})

		t.Run("id 0 or below on a create is a 400, not a generated id", func(t *testing.T) {
			for _, id := range []any{0, -5, 2147483648, 4294967297} {
				whInvalidField(t, env.Do(t, "POST", "/api/articleDetails", map[string]any{"id": id, "number": fmt.Sprint("A", id)}), "id")
				whInvalidField(t, env.Do(t, "POST", "/api/orders", map[string]any{
					"id": id, "number": fmt.Sprint("O", id), "details": []any{map[string]any{"articleDetailId": article, "quantity": 1}},
				}), "id")
				whInvalidField(t, env.Do(t, "POST", "/api/orders", map[string]any{
					"number": fmt.Sprint("D", id), "details": []any{map[string]any{"id": id, "articleDetailId": article, "quantity": 1}},
				}), "details[0].id")
			}
			whOK(t, env.Do(t, "GET", "/api/articleDetails", nil))
			res := env.Do(t, "GET", whList("/api/articleDetails", "filter[0][property]", "articleDetail.number", "filter[0][value]", "A0"), nil)
			if total := whOK(t, res)["total"]; total != float64(0) {
				t.Errorf("an article was created with id 0: %s", res)
			}
			// An explicit id in range is taken as it is.
			whCreated(t, env, env.Do(t, "POST", "/api/articleDetails", map[string]any{"id": 2147483647, "number": "MAX"}), "/api/articleDetails", false)
		})

		t.Run("quantities and ids in order bodies are bounded", func(t *testing.T) {
			order := func(detail map[string]any) *apitest.Response {
				d := map[string]any{"articleDetailId": article, "quantity": 1}
				for k, v := range detail {
					d[k] = v
				}
				return env.Do(t, "POST", "/api/orders", map[string]any{"number": "Q-" + randomSuffix(), "details": []any{d}})
			}
			for _, q := range []any{2147483648, 4294967297, json9007199254740993{}, 1000000001, -1000000001, 0, -1} {
				whInvalidField(t, order(map[string]any{"quantity": q}), "details[0].quantity")
			}
			for _, q := range []any{2147483648, 1000000001, -1} {
				whInvalidField(t, order(map[string]any{"shipped": q}), "details[0].shipped")
			}
			for _, id := range []any{0, -1, 2147483648} {
				whInvalidField(t, order(map[string]any{"articleDetailId": id}), "details[0].articleDetailId")
			}
			whCreated(t, env, order(map[string]any{"quantity": 1000000000}), "/api/orders", false)
			res := env.Do(t, "PUT", "/api/orders/1/ship", map[string]any{"warehouse": map[string]any{"id": 2147483648}})
			whInvalidField(t, res, "warehouse.id")
		})

		t.Run("ids in other bodies are bounded", func(t *testing.T) {
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": 2147483648, "code": "X"}), "warehouseId")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": -1, "code": "X"}), "warehouseId")
			whInvalidField(t, env.Do(t, "PUT", "/api/binLocations/1", map[string]any{"warehouseId": 4294967297}), "warehouseId")
		})

		t.Run("a filter value on an id property outside the range is a 400", func(t *testing.T) {
			for _, v := range []string{"0", "-3", "2147483648"} {
				whInvalid(t, env.Do(t, "GET", whList("/api/orders", "filter[0][property]", "order.id", "filter[0][value]", v), nil), "filter[0][value]")
				whInvalid(t, env.Do(t, "GET", whList("/api/binLocations", "filter[0][property]", "binLocation.warehouseId",
					"filter[0][expression]", "IN", "filter[0][value]", "1,"+v), nil), "filter[0][value]")
			}
			// A quantity is no id: any integer filters.
			whOK(t, env.Do(t, "GET", whList("/api/stockLedgerEntries", "filter[0][property]", "stockLedgerEntry.quantity", "filter[0][value]", "-5"), nil))
		})
	})
}

// json9007199254740993 marshals as the integer 2^53+1, which a float64
// cannot hold.
type json9007199254740993 struct{}

func (json9007199254740993) MarshalJSON() ([]byte, error) { return []byte("9007199254740993"), nil }

var suffixCounter int

func randomSuffix() string {
	suffixCounter++
	return fmt.Sprint(suffixCounter)
}

// Text: strings are valid UTF-8 without control characters; tab, line feed
// and carriage return only in address and comment.
func TestLimitsTextHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		for _, tc := range []struct {
			name, body, property string
		}{
			{"escaped control character", `{"code":"W\u0007","name":"n"}`, "code"},
			{"escaped line feed outside address", `{"code":"W","name":"a\nb"}`, "name"},
			{"tab outside address", `{"code":"W","name":"a\tb"}`, "name"},
			{"DEL", "{\"code\":\"W\x7f\",\"name\":\"n\"}", "code"},
			{"escaped DEL", `{"code":"W\u007F","name":"n"}`, "code"},
			{"backspace", `{"code":"W","name":"n","contact":"a\bb"}`, "contact"},
			{"lone surrogate", `{"code":"W\ud800","name":"n"}`, "code"},
			{"lone low surrogate", `{"code":"W","name":"\udc00x"}`, "name"},
			{"invalid UTF-8", "{\"code\":\"W\xff\xfe\",\"name\":\"n\"}", "code"},
			{"nested in a format component", `{"code":"W","name":"n","binLocationFormatComponents":[{"type":"text","value":"A\u0001"}]}`, "binLocationFormatComponents[0].value"},
			{"control character in address other than tab, LF, CR", `{"code":"W","name":"n","address":"a\u0001b"}`, "address"},
			{"vertical tab in comment", `{"code":"W","name":"n","comment":"a\u000bb"}`, "comment"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := env.Do(t, "POST", "/api/warehouses", []byte(tc.body))
				if tc.property == "" {
					whStatus(t, res, http.StatusBadRequest)
					return
				}
				whInvalidField(t, res, tc.property)
			})
		}
		t.Run("tab, line feed and carriage return are fine in address and comment", func(t *testing.T) {
			res := env.Do(t, "POST", "/api/warehouses", []byte(`{"code":"ML","name":"n","address":"Street 1\r\nTown\tX","comment":"a\nb","phone":"+49 \ud83d\ude00"}`))
			id := whCreated(t, env, res, "/api/warehouses", true)
			got := whOK(t, env.Do(t, "GET", fmt.Sprintf("/api/warehouses/%d", id), nil))["data"].(map[string]any)
			if got["address"] != "Street 1\r\nTown\tX" || got["phone"] != "+49 😀" {
				t.Errorf("stored %q %q", got["address"], got["phone"])
			}
		})
		t.Run("order details are checked too", func(t *testing.T) {
			whInvalidField(t, env.Do(t, "POST", "/api/orders", []byte(`{"number":"T1","details":[{"articleDetailId":1,"quantity":1,"status":"open\u001b"}]}`)), "details[0].status")
			whInvalidField(t, env.Do(t, "POST", "/api/articleDetails", []byte(`{"number":"N\u0085\u001f"}`)), "number")
		})
	})
}

// Text: the NUL character (U+0000) is a control character like any other,
// reported by the property that holds it.
func TestNULCharacterIsNamedByItsPropertyHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		for _, tc := range []struct {
			method, path, body, property string
		}{
			{"POST", "/api/warehouses", `{"code":"W","name":"a\u0000b"}`, "name"},
			{"POST", "/api/warehouses", `{"code":"W","name":"n","address":"\u0000"}`, "address"},
			{"POST", "/api/warehouses", `{"code":"W","name":"n","binLocationFormatComponents":[{"type":"text","value":"A\u0000"}]}`, "binLocationFormatComponents[0].value"},
			{"POST", "/api/warehouses", `{"code":"W","name":"n","a\u0000":1}`, `property name "a\x00"`},
			{"POST", "/api/articleDetails", `{"number":"N\u0000"}`, "number"},
			{"POST", "/api/orders", `{"number":"T1","details":[{"articleDetailId":1,"quantity":1,"status":"\u0000open"}]}`, "details[0].status"},
		} {
			whInvalidField(t, env.Do(t, tc.method, tc.path, []byte(tc.body)), tc.property)
		}
		// A backslash followed by u0000 is text, not the NUL character.
		id := whCreated(t, env, env.Do(t, "POST", "/api/warehouses", []byte(`{"code":"BS","name":"C:\\u0000"}`)), "/api/warehouses", true)
		if got := whOK(t, env.Do(t, "GET", fmt.Sprintf("/api/warehouses/%d", id), nil))["data"].(map[string]any)["name"]; got != `C:\u0000` {
			t.Errorf("stored name %q, want %q", got, `C:\u0000`)
		}
		// A raw NUL is no JSON at all.
		whInvalid(t, env.Do(t, "POST", "/api/warehouses", []byte("{\"code\":\"W\",\"name\":\"a\x00b\"}")), "malformed JSON")
	})
}

// JSON: deeper than 32 levels or a key twice is a 400, for every body, batch
// bodies included.
func TestLimitsJSONShapeHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		nested := func(levels int) string {
			// levels-1 arrays inside the outermost object's "name".
			return `{"code":"W","name":` + strings.Repeat("[", levels-1) + strings.Repeat("]", levels-1) + `}`
		}
		// 32 levels get past the shape check (and fail on the type).
		res := env.Do(t, "POST", "/api/warehouses", nested(32))
		whInvalidField(t, res, "name")
		whInvalid(t, env.Do(t, "POST", "/api/warehouses", nested(33)), "nested deeper than 32")
		whInvalid(t, env.Do(t, "POST", "/api/warehouses", `{"code":"W","name":"a","name":"b"}`), `"name" twice`)
		whInvalid(t, env.Do(t, "POST", "/api/warehouses", `{"code":"W","name":"a","n\u0061me":"b"}`), `twice`)
		whInvalid(t, env.Do(t, "POST", "/api/warehouses", `{"code":"W","name":"a","binLocationFormatComponents":[{"type":"text","type":"text","value":"x"}]}`), "twice")

		batch := func(body string) *apitest.Response {
			return env.Do(t, "PUT", "/api/stock/change/shape-"+randomSuffix(), body)
		}
		whInvalid(t, batch(`[{"articleDetailId":1,"quantity":1,"quantity":2}]`), `"quantity" twice`)
		deep := `[{"articleDetailId":1,"quantity":1,"id":` + strings.Repeat("[", 31) + strings.Repeat("]", 31) + `}]`
		whInvalid(t, batch(deep), "nested deeper than 32")
		ok := `[{"articleDetailId":1,"quantity":1,"id":` + strings.Repeat("[", 30) + strings.Repeat("]", 30) + `}]`
		whStatus(t, batch(ok), http.StatusOK)
		// Keys of sibling objects may repeat.
		whStatus(t, batch(`[{"articleDetailId":1,"quantity":1},{"articleDetailId":1,"quantity":1}]`), http.StatusOK)
	})
}

// Idempotency keys are 1..255 characters of valid UTF-8 without control
// characters.
func TestLimitsIdempotencyKeysHTTP(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, testdb.SQLite(t))
	body := `[{"articleDetailId":1,"quantity":1}]`
	for _, key := range []string{strings.Repeat("k", 256), "a%01b", "a%7Fb", "%FF%FE", "a%0Ab", strings.Repeat("é", 256)} {
		for _, endpoint := range []string{"stock/set", "stock/change", "stock/relocate", "orderDetails/ship"} {
			whInvalidField(t, env.Do(t, "PUT", "/api/"+endpoint+"/"+key, body), "idempotencyKey")
		}
	}
	for _, key := range []string{strings.Repeat("k", 255), strings.Repeat("é", 255), url.PathEscape("käse 1")} {
		whStatus(t, env.Do(t, "PUT", "/api/stock/change/"+key, body), http.StatusOK)
	}
}

// Lists: a query string that does not parse is a 400, never a list without
// its filters, and filters, sorts and IN values are capped.
func TestLimitsListsHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		whCreated(t, env, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "W1", "name": "One"}), "/api/warehouses", true)
		for _, raw := range []string{
			"filter[0][property]=warehouse.code&filter[0][value]=%zz",
			"filter[0][property]=warehouse.code;filter[0][value]=W1",
			"filter%5B0%5D%5Bproperty%5D=warehouse.code&filter[0][value]=W1&x=%",
		} {
			res := env.Do(t, "GET", "/api/warehouses?"+raw, nil)
			whInvalid(t, res, "query string")
		}
		// More than 10000 parameters (url.ParseQuery's limit), in well
		// under 64 KiB.
		whInvalid(t, env.Do(t, "GET", "/api/warehouses?"+strings.Repeat("a=&", 10001), nil), "query string")
		whInvalid(t, env.Do(t, "GET", "/api/orders/1?useNumberAsId=1&x=%zz", nil), "query string")

		filters := func(n int) string {
			var kv []string
			for i := range n {
				kv = append(kv, fmt.Sprintf("filter[%d][property]", i), "warehouse.code", fmt.Sprintf("filter[%d][value]", i), "W1")
			}
			return whList("/api/warehouses", kv...)
		}
		whOK(t, env.Do(t, "GET", filters(50), nil))
		whInvalid(t, env.Do(t, "GET", filters(51), nil), "at most 50")
		sorts := func(n int) string {
			var kv []string
			for i := range n {
				kv = append(kv, fmt.Sprintf("sort[%d][property]", i), "warehouse.code")
			}
			return whList("/api/warehouses", kv...)
		}
		whOK(t, env.Do(t, "GET", sorts(10), nil))
		whInvalid(t, env.Do(t, "GET", sorts(11), nil), "at most 10")
		in := func(n int) string {
			values := make([]string, n)
			for i := range values {
				values[i] = fmt.Sprint(i + 1)
			}
			return whList("/api/warehouses", "filter[0][property]", "warehouse.id", "filter[0][expression]", "IN", "filter[0][value]", strings.Join(values, ","))
		}
		whOK(t, env.Do(t, "GET", in(1000), nil))
		whInvalid(t, env.Do(t, "GET", in(1001), nil), "at most 1000")
	})
}

// Bin location formats: the limits hold over HTTP on create and update.
func TestLimitsFormatsHTTP(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, testdb.SQLite(t))
	text := func(v string) map[string]any { return map[string]any{"type": "text", "value": v} }
	eleven := make([]any, 11)
	for i := range eleven {
		eleven[i] = text("A")
	}
	whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "F1", "name": "n", "binLocationFormatComponents": eleven}), "binLocationFormatComponents")
	long := []any{text(strings.Repeat("x", 250)), map[string]any{"type": "number", "from": 0, "to": 999999}}
	whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "F2", "name": "n", "binLocationFormatComponents": long}), "binLocationFormatComponents")
	id := whCreated(t, env, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "F3", "name": "n"}), "/api/warehouses", true)
	whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", id), map[string]any{"binLocationFormatComponents": long}), "binLocationFormatComponents")
	for _, c := range []map[string]any{
		{"type": "number", "from": 0, "to": 1000000000},
		{"type": "number", "from": 0, "to": 1, "padding": 10},
		{"type": "number", "from": 2, "to": 1},
		{"type": "number", "from": 0, "to": 9007199254740993},
		{"type": "letter", "from": "b", "to": "a"},
		{"type": "letter", "from": "Ä", "to": "Ö"},
		{"type": "text", "value": strings.Repeat("ü", 256)},
		{"type": "text", "value": ""},
	} {
		res := env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", id), map[string]any{"binLocationFormatComponents": []any{c}})
		whInvalidPrefix(t, res, "binLocationFormatComponents[0]", c)
	}
}

// Found by TestHTTPFuzz: a product whose order positions are all shipped
// passed the domain's check and then failed on the foreign key (500); an
// order number with a NUL in the path reached the database (500).
func TestFuzzFindingsHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		article := whCreated(t, env, env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "SHIPPED"}), "/api/articleDetails", false)
		whCreated(t, env, env.Do(t, "POST", "/api/orders", map[string]any{
			"number": "DONE", "details": []any{map[string]any{"articleDetailId": article, "quantity": 2, "shipped": 2}},
		}), "/api/orders", false)
		whInvalid(t, env.Do(t, "DELETE", fmt.Sprintf("/api/articleDetails/%d", article), nil), "order positions")
		whOK(t, env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", article), nil))

		for _, number := range []string{"%00", "A%01", "%FF", strings.Repeat("n", 256)} {
			whStatus(t, env.Do(t, "GET", "/api/orders/"+number+"?useNumberAsId=true", nil), http.StatusNotFound)
			whStatus(t, env.Do(t, "PUT", "/api/orders/"+number+"/ship?useNumberAsId=1", nil), http.StatusNotFound)
		}
		whOK(t, env.Do(t, "GET", "/api/orders/DONE?useNumberAsId=true", nil))
	})
}
