package test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// Acceptance tests over HTTP for warehouses and bin locations: their
// endpoints, status codes, error bodies and lists, on SQLite and
// PostgreSQL. Every response is also checked against the OpenAPI document
// by apitest.

func TestWarehousesHTTP(t *testing.T) {
	t.Parallel()
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		var first, second int64

		t.Run("the first warehouse takes both default flags", func(t *testing.T) {
			res := env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "  MAIN ", "name": " Main warehouse "})
			first = whCreated(t, env, res, "/api/warehouses", true)
			w := whGetWarehouse(t, env, first)
			want := map[string]any{
				"id": float64(first), "code": "MAIN", "name": "Main warehouse", "stockAvailableForSale": true,
				"defaultWarehouse": true, "defaultReturnShipmentWarehouse": true, "nullBinLocationId": w["nullBinLocationId"],
				"contact": "", "email": "", "phone": "", "address": "", "comment": "",
				"binLocationFormatComponents": []any{},
			}
			if !reflect.DeepEqual(w, want) {
				t.Errorf("warehouse = %v\nwant %v", w, want)
			}
			null := whGetBinLocation(t, env, whInt(t, w["nullBinLocationId"]))
			if null["code"] != "erp_null_bin_location" || whInt(t, null["warehouseId"]) != first {
				t.Errorf("unknown bin location = %v, want code erp_null_bin_location in warehouse %d", null, first)
			}
			if m, _ := null["articleDetailBinLocationMappings"].([]any); m == nil || len(m) != 0 {
				t.Errorf("mappings of a new unknown bin location = %v, want []", null["articleDetailBinLocationMappings"])
			}
		})

		format := []any{
			map[string]any{"type": "text", "value": "A-"},
			map[string]any{"type": "number", "from": float64(1), "to": float64(20), "padding": float64(2)},
			map[string]any{"type": "letter", "from": "A", "to": "F"},
		}
		full := map[string]any{
			"code": "SECOND", "name": "Second", "stockAvailableForSale": false, "contact": "Jane Doe",
			"email": "jane@example.com", "phone": "+49 30 1234", "address": "Street 1\n12345 Town",
			"comment": "ground floor", "binLocationFormatComponents": format,
		}

		t.Run("create with every field; it round-trips and takes no default flag", func(t *testing.T) {
			second = whCreated(t, env, env.Do(t, "POST", "/api/warehouses", full), "/api/warehouses", true)
			w := whGetWarehouse(t, env, second)
			for k, v := range full {
				if !reflect.DeepEqual(w[k], v) {
					t.Errorf("%s = %#v, want %#v", k, w[k], v)
				}
			}
			if w["defaultWarehouse"] != false || w["defaultReturnShipmentWarehouse"] != false {
				t.Errorf("second warehouse flags = %v/%v, want false/false", w["defaultWarehouse"], w["defaultReturnShipmentWarehouse"])
			}
			if whInt(t, w["nullBinLocationId"]) <= 0 {
				t.Errorf("nullBinLocationId = %v", w["nullBinLocationId"])
			}
		})

		t.Run("list returns every field in id order", func(t *testing.T) {
			body := whOK(t, env.Do(t, "GET", "/api/warehouses", nil))
			if whInt(t, body["total"]) != 2 {
				t.Fatalf("total = %v, want 2", body["total"])
			}
			data := body["data"].([]any)
			if got := whIDs(t, data); !slices.Equal(got, []int64{first, second}) {
				t.Fatalf("ids = %v, want %v", got, []int64{first, second})
			}
			if single := whGetWarehouse(t, env, second); !reflect.DeepEqual(data[1], single) {
				t.Errorf("list element %v differs from the single fetch %v", data[1], single)
			}
		})

		t.Run("default flags move with PUT default and defaultReturnShipment", func(t *testing.T) {
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d/default", second), nil))
			whFlags(t, env, first, false, true)
			whFlags(t, env, second, true, false)
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d/defaultReturnShipment", second), "{}"))
			whFlags(t, env, first, false, false)
			whFlags(t, env, second, true, true)
			// Moving a flag to its holder changes nothing.
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d/default", second), map[string]any{}))
			whFlags(t, env, second, true, true)
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d/default", first), nil))
			whFlags(t, env, first, true, false)
			whFlags(t, env, second, false, true)

			whStatus(t, env.Do(t, "PUT", "/api/warehouses/999999/default", nil), http.StatusNotFound)
			whStatus(t, env.Do(t, "PUT", "/api/warehouses/999999/defaultReturnShipment", nil), http.StatusNotFound)
			whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d/default", second), `{"x":1}`), "x")
			whStatus(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d/default", second), `[]`), http.StatusBadRequest)
			res := env.DoRaw(t, whRequest(t, "PUT", fmt.Sprintf("/api/warehouses/%d/default", second), "text/plain", "{}"))
			whStatus(t, res, http.StatusUnsupportedMediaType)
			whFlags(t, env, first, true, false)
		})

		t.Run("partial PUT changes only the fields sent", func(t *testing.T) {
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"name": " Renamed "}))
			w := whGetWarehouse(t, env, second)
			if w["name"] != "Renamed" {
				t.Errorf("name = %v, want Renamed", w["name"])
			}
			for k, v := range full {
				if k != "name" && !reflect.DeepEqual(w[k], v) {
					t.Errorf("%s changed to %#v, want %#v", k, w[k], v)
				}
			}
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{
				"contact": "", "stockAvailableForSale": true, "binLocationFormatComponents": []any{},
			}))
			w = whGetWarehouse(t, env, second)
			if w["contact"] != "" || w["stockAvailableForSale"] != true || !reflect.DeepEqual(w["binLocationFormatComponents"], []any{}) {
				t.Errorf("after clearing: %v", w)
			}
			// An empty email is allowed on create, so it must be on update too.
			if res := env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"email": ""}); res.Status != http.StatusOK {
				t.Errorf("clearing the email: %s, want 200", res)
			} else if got := whGetWarehouse(t, env, second)["email"]; got != "" {
				t.Errorf("email after clearing = %v", got)
			}
			if w["phone"] != full["phone"] || w["code"] != "SECOND" {
				t.Errorf("untouched fields changed: %v", w)
			}
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"binLocationFormatComponents": format}))
			if got := whGetWarehouse(t, env, second)["binLocationFormatComponents"]; !reflect.DeepEqual(got, format) {
				t.Errorf("binLocationFormatComponents = %v, want %v", got, format)
			}
			// An empty object changes nothing and is fine; keeping one's own code is fine.
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{}))
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"code": "SECOND"}))
		})

		t.Run("read-only fields are a 400 naming the field", func(t *testing.T) {
			for _, field := range []string{"id", "defaultWarehouse", "defaultReturnShipmentWarehouse", "nullBinLocationId"} {
				value := any(true)
				if field == "id" || field == "nullBinLocationId" {
					value = 5
				}
				whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "RO", "name": "ro", field: value}), field)
				whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{field: value}), field)
			}
			whFlags(t, env, second, false, true)
		})

		t.Run("unknown fields, wrong types and malformed JSON are 400s", func(t *testing.T) {
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "U", "name": "u", "colour": "red"}), "colour")
			whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"colour": "red"}), "colour")
			for field, value := range map[string]any{
				"code": 5, "name": true, "stockAvailableForSale": "yes", "email": []any{}, "comment": map[string]any{},
				"binLocationFormatComponents": "A-01",
			} {
				body := map[string]any{"code": "T", "name": "t"}
				body[field] = value
				whInvalidField(t, env.Do(t, "POST", "/api/warehouses", body), field)
				whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{field: value}), field)
			}
			for _, raw := range []string{`{"code": "X", "name": `, `{"code": "X"} {}`, `[{"code": "X", "name": "x"}]`, `"X"`, `null`, `{'code': 'X'}`} {
				if res := env.Do(t, "POST", "/api/warehouses", raw); res.Status != http.StatusBadRequest {
					t.Errorf("POST %s: %s, want 400", raw, res)
				}
				if res := env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), raw); res.Status != http.StatusBadRequest {
					t.Errorf("PUT %s: %s, want 400", raw, res)
				}
			}
			whStatus(t, env.Do(t, "POST", "/api/warehouses", nil), http.StatusBadRequest)
			whWarehouseCount(t, env, 2)
		})

		t.Run("a body that is not application/json is a 415, one over 8 MiB a 413", func(t *testing.T) {
			body := `{"code": "CT", "name": "ct"}`
			for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "", "application/jsonx"} {
				whStatus(t, env.DoRaw(t, whRequest(t, "POST", "/api/warehouses", ct, body)), http.StatusUnsupportedMediaType)
				whStatus(t, env.DoRaw(t, whRequest(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), ct, body)), http.StatusUnsupportedMediaType)
			}
			// Parameters of the media type are fine.
			res := env.DoRaw(t, whRequest(t, "POST", "/api/warehouses", "application/json; charset=utf-8", body))
			ct := whCreated(t, env, res, "/api/warehouses", true)
			whOK(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", ct), nil))

			huge := `{"code": "BIG", "name": "big", "comment": "` + strings.Repeat("x", 8<<20) + `"}`
			whStatus(t, env.Do(t, "POST", "/api/warehouses", huge), http.StatusRequestEntityTooLarge)
			whStatus(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), huge), http.StatusRequestEntityTooLarge)
			whStatus(t, env.Do(t, "POST", "/api/binLocations", huge), http.StatusRequestEntityTooLarge)
			// Just under the limit is read (and then judged on its content).
			justUnder := `{"code": "BIG", "name": "big", "comment": "` + strings.Repeat("x", 8<<20-100) + `"}`
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", justUnder), "comment")
			whWarehouseCount(t, env, 2)
		})

		t.Run("validation of code, name and email", func(t *testing.T) {
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"name": "no code"}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "NONAME"}), "name")
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "   ", "name": "blank"}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": strings.Repeat("C", 256), "name": "long"}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "LONGNAME", "name": strings.Repeat("n", 256)}), "name")
			whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"name": "  "}), "name")
			whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"code": ""}), "code")
			// 255 characters is the limit, not more.
			res := env.Do(t, "POST", "/api/warehouses", map[string]any{"code": strings.Repeat("C", 255), "name": strings.Repeat("ü", 255)})
			long := whCreated(t, env, res, "/api/warehouses", true)
			whOK(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", long), nil))

			// U+0000 cannot be stored in a text column: a 400 naming the
			// property, never a 500.
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", `{"code": "NUL", "name": "a\u0000b"}`), "name")
			whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), `{"comment": "\u0000"}`), "comment")

			for _, email := range []string{"not-an-email", "a@", "Jane <jane@example.com>", "jane@example.com, joe@example.com"} {
				whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "EM", "name": "em", "email": email}), "email")
				whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"email": email}), "email")
			}
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"email": "ops@example.com"}))
			if got := whGetWarehouse(t, env, second)["email"]; got != "ops@example.com" {
				t.Errorf("email = %v", got)
			}
			whWarehouseCount(t, env, 2)
		})

		t.Run("warehouse codes are unique", func(t *testing.T) {
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "MAIN", "name": "dup"}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/warehouses", map[string]any{"code": " MAIN ", "name": "dup"}), "code")
			whInvalidField(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"code": "MAIN"}), "code")
			if got := whGetWarehouse(t, env, second)["code"]; got != "SECOND" {
				t.Errorf("code after a refused rename = %v", got)
			}
			whWarehouseCount(t, env, 2)
		})

		t.Run("invalid binLocationFormatComponents are 400s", func(t *testing.T) {
			for _, bad := range []any{
				[]any{map[string]any{"type": "roman", "from": 1, "to": 3}},
				[]any{map[string]any{"value": "A-"}},
				[]any{map[string]any{"type": "text"}},
				[]any{map[string]any{"type": "text", "value": ""}},
				[]any{map[string]any{"type": "text", "value": "A", "padding": 2}},
				[]any{map[string]any{"type": "number", "from": 5, "to": 1}},
				[]any{map[string]any{"type": "number", "from": -1, "to": 1}},
				[]any{map[string]any{"type": "number", "from": 1}},
				[]any{map[string]any{"type": "number", "from": "1", "to": "9"}},
				[]any{map[string]any{"type": "number", "from": 1.5, "to": 9}},
				[]any{map[string]any{"type": "number", "from": 1, "to": 9, "padding": 11}},
				[]any{map[string]any{"type": "number", "from": 1, "to": 9, "value": "x"}},
				[]any{map[string]any{"type": "letter", "from": "A", "to": "AA"}},
				[]any{map[string]any{"type": "letter", "from": "F", "to": "A"}},
				[]any{map[string]any{"type": "letter", "from": "a", "to": "Z"}},
				[]any{map[string]any{"type": "letter", "from": "1", "to": "9"}},
				[]any{map[string]any{"type": "letter", "from": "A"}},
				[]any{map[string]any{"type": "text", "value": "A-", "extra": true}},
				[]any{"A-"},
				[]any{map[string]any{"type": "text", "value": "ok"}, map[string]any{"type": "number"}},
			} {
				body := map[string]any{"code": "FMT", "name": "fmt", "binLocationFormatComponents": bad}
				res := env.Do(t, "POST", "/api/warehouses", body)
				whInvalidPrefix(t, res, "binLocationFormatComponents", bad)
				res = env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", second), map[string]any{"binLocationFormatComponents": bad})
				whInvalidPrefix(t, res, "binLocationFormatComponents", bad)
			}
			if got := whGetWarehouse(t, env, second)["binLocationFormatComponents"]; !reflect.DeepEqual(got, format) {
				t.Errorf("binLocationFormatComponents after refused updates = %v, want %v", got, format)
			}
			whWarehouseCount(t, env, 2)
		})

		t.Run("ids that name nothing are 404s", func(t *testing.T) {
			for _, id := range []string{"999999", "abc", "0", "-1", "1.5", "9999999999999999999999"} {
				p := "/api/warehouses/" + id
				whStatus(t, env.Do(t, "GET", p, nil), http.StatusNotFound)
				whStatus(t, env.Do(t, "PUT", p, map[string]any{"name": "x"}), http.StatusNotFound)
				whStatus(t, env.Do(t, "DELETE", p, nil), http.StatusNotFound)
				whStatus(t, env.Do(t, "POST", p+"/binLocations/generate", nil), http.StatusNotFound)
			}
		})

		t.Run("delete rules", func(t *testing.T) {
			// first holds the default flag, second the default return flag.
			whFlags(t, env, first, true, false)
			whFlags(t, env, second, false, true)
			whInvalid(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", first), nil), "default")
			whInvalid(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", second), nil), "return")

			third := whCreateWarehouse(t, env, map[string]any{"code": "THIRD", "name": "Third"})
			nullBin := whInt(t, whGetWarehouse(t, env, third)["nullBinLocationId"])
			bin := whCreateBin(t, env, third, "T-1")
			whInvalid(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", third), nil), "bin location")
			whOK(t, env.Do(t, "DELETE", fmt.Sprintf("/api/binLocations/%d", bin), nil))
			whOK(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", third), nil))
			whStatus(t, env.Do(t, "GET", fmt.Sprintf("/api/warehouses/%d", third), nil), http.StatusNotFound)
			whStatus(t, env.Do(t, "GET", fmt.Sprintf("/api/binLocations/%d", nullBin), nil), http.StatusNotFound)
			list := whOK(t, env.Do(t, "GET", whList("/api/binLocations", "filter[0][property]", "binLocation.warehouseId", "filter[0][value]", fmt.Sprint(third)), nil))
			if whInt(t, list["total"]) != 0 {
				t.Errorf("bin locations of the deleted warehouse: %v", list)
			}
			whStatus(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", third), nil), http.StatusNotFound)

			// The flags may move away, and then the warehouse may go; its code is free again.
			fourth := whCreateWarehouse(t, env, map[string]any{"code": "FOURTH", "name": "Fourth"})
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d/defaultReturnShipment", fourth), nil))
			whOK(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", second), nil))
			again := whCreateWarehouse(t, env, map[string]any{"code": "SECOND", "name": "Second again"})
			whFlags(t, env, again, false, false)
			whFlags(t, env, fourth, false, true)
			whFlags(t, env, first, true, false)
		})

		t.Run("generate bin locations from the format", func(t *testing.T) {
			gen := whCreateWarehouse(t, env, map[string]any{"code": "GEN", "name": "Gen", "binLocationFormatComponents": []any{
				map[string]any{"type": "text", "value": "A-"},
				map[string]any{"type": "number", "from": 1, "to": 3, "padding": 2},
			}})
			whCreateBin(t, env, gen, "A-02")
			path := fmt.Sprintf("/api/warehouses/%d/binLocations/generate", gen)
			if n := whGenerated(t, env.Do(t, "POST", path, nil)); n != 2 {
				t.Errorf("created = %d, want 2 (A-02 exists)", n)
			}
			if n := whGenerated(t, env.Do(t, "POST", path, "{}")); n != 0 {
				t.Errorf("second run created = %d, want 0", n)
			}
			if got := whBinCodes(t, env, gen); !slices.Equal(got, []string{"A-01", "A-02", "A-03", "erp_null_bin_location"}) {
				t.Errorf("codes = %v", got)
			}
			whInvalidField(t, env.Do(t, "POST", path, `{"count": 3}`), "count")
			whStatus(t, env.DoRaw(t, whRequest(t, "POST", path, "text/plain", "{}")), http.StatusUnsupportedMediaType)

			// Every combination, in order: letters, text, zero-padded numbers.
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", gen), map[string]any{"binLocationFormatComponents": []any{
				map[string]any{"type": "letter", "from": "a", "to": "b"},
				map[string]any{"type": "text", "value": "-"},
				map[string]any{"type": "number", "from": 9, "to": 10, "padding": 3},
			}}))
			if n := whGenerated(t, env.Do(t, "POST", path, nil)); n != 4 {
				t.Errorf("created = %d, want 4", n)
			}
			want := []string{"A-01", "A-02", "A-03", "a-009", "a-010", "b-009", "b-010", "erp_null_bin_location"}
			if got := whBinCodes(t, env, gen); !slices.Equal(got, want) {
				t.Errorf("codes = %v, want %v", got, want)
			}

			// More than 100000 codes: refused, nothing created.
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", gen), map[string]any{"binLocationFormatComponents": []any{
				map[string]any{"type": "number", "from": 0, "to": 999},
				map[string]any{"type": "number", "from": 0, "to": 100},
			}}))
			whInvalid(t, env.Do(t, "POST", path, nil), "100000")
			if got := whBinCodes(t, env, gen); len(got) != len(want) {
				t.Errorf("a refused generate created bin locations: %v", got)
			}

			// A range whose size overflows an int is refused too, at the
			// latest when generating.
			res := env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d", gen), `{"binLocationFormatComponents": [{"type": "number", "from": 0, "to": 9223372036854775807}]}`)
			if res.Status == http.StatusOK {
				whInvalid(t, env.Do(t, "POST", path, nil), "100000")
			} else {
				whInvalidPrefix(t, res, "binLocationFormatComponents", "to: MaxInt64")
			}

			// No format: nothing to generate.
			whInvalid(t, env.Do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", first), nil), "binLocationFormatComponents")
		})
	})
}

func TestBinLocationsHTTP(t *testing.T) {
	t.Parallel()
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		w1 := whCreateWarehouse(t, env, map[string]any{"code": "W1", "name": "One"})
		w2 := whCreateWarehouse(t, env, map[string]any{"code": "W2", "name": "Two"})
		var bin int64

		t.Run("create answers 201 with one {id, location}; the code is trimmed", func(t *testing.T) {
			res := env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": "  A-01 "})
			bin = whCreated(t, env, res, "/api/binLocations", false)
			b := whGetBinLocation(t, env, bin)
			want := map[string]any{"id": float64(bin), "warehouseId": float64(w1), "code": "A-01", "articleDetailBinLocationMappings": []any{}}
			if !reflect.DeepEqual(b, want) {
				t.Errorf("bin location = %v, want %v", b, want)
			}
		})

		t.Run("code rules on create", func(t *testing.T) {
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": "A-01"}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": " A-01 "}), "code")
			other := whCreated(t, env, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w2, "code": "A-01"}), "/api/binLocations", false)
			if other == bin {
				t.Errorf("same id for bins in two warehouses")
			}
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": "erp_null_bin_location"}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": " erp_null_bin_location "}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": ""}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": "   "}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": strings.Repeat("b", 256)}), "code")
			whStatus(t, env.Do(t, "POST", "/api/binLocations", fmt.Sprintf(`{"warehouseId": %d, "code": "A\u0000"}`, w1)), http.StatusBadRequest)
			long := whCreateBin(t, env, w1, strings.Repeat("b", 255))
			whOK(t, env.Do(t, "DELETE", fmt.Sprintf("/api/binLocations/%d", long), nil))
		})

		t.Run("warehouseId must name a warehouse", func(t *testing.T) {
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": 999999, "code": "X"}), "warehouseId")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"code": "X"}), "warehouseId")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": 0, "code": "X"}), "warehouseId")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": -3, "code": "X"}), "warehouseId")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": fmt.Sprint(w1), "code": "X"}), "warehouseId")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": 7}), "code")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": "X", "id": 5}), "id")
			whInvalidField(t, env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": w1, "code": "X", "shelf": 5}), "shelf")
			whStatus(t, env.Do(t, "POST", "/api/binLocations", `{"warehouseId": 1, "code": `), http.StatusBadRequest)
			whStatus(t, env.DoRaw(t, whRequest(t, "POST", "/api/binLocations", "text/plain", fmt.Sprintf(`{"warehouseId": %d, "code": "X"}`, w1))), http.StatusUnsupportedMediaType)
			if got := whBinCodes(t, env, w1); !slices.Equal(got, []string{"A-01", "erp_null_bin_location"}) {
				t.Errorf("codes of w1 = %v", got)
			}
		})

		t.Run("rename", func(t *testing.T) {
			p := fmt.Sprintf("/api/binLocations/%d", bin)
			whOK(t, env.Do(t, "PUT", p, map[string]any{"code": " B-01 "}))
			if got := whGetBinLocation(t, env, bin)["code"]; got != "B-01" {
				t.Errorf("code = %v, want B-01", got)
			}
			whOK(t, env.Do(t, "PUT", p, map[string]any{"code": "B-01"}))
			whCreateBin(t, env, w1, "B-02")
			whInvalidField(t, env.Do(t, "PUT", p, map[string]any{"code": "B-02"}), "code")
			whInvalidField(t, env.Do(t, "PUT", p, map[string]any{"code": "erp_null_bin_location"}), "code")
			whInvalidField(t, env.Do(t, "PUT", p, map[string]any{"code": "  "}), "code")
			whInvalidField(t, env.Do(t, "PUT", p, map[string]any{"code": 1}), "code")
			whInvalidField(t, env.Do(t, "PUT", p, map[string]any{"id": bin, "code": "B-09"}), "id")
			whInvalidField(t, env.Do(t, "PUT", p, map[string]any{"articleDetailBinLocationMappings": []any{}}), "articleDetailBinLocationMappings")
			whInvalidField(t, env.Do(t, "PUT", p, map[string]any{"warehouseId": w2}), "warehouseId")
			whInvalidField(t, env.Do(t, "PUT", p, map[string]any{"warehouseId": w2, "code": "B-03"}), "warehouseId")
			whOK(t, env.Do(t, "PUT", p, map[string]any{"warehouseId": w1, "code": "B-03"}))
			whOK(t, env.Do(t, "PUT", p, map[string]any{"warehouseId": w1}))
			b := whGetBinLocation(t, env, bin)
			if b["code"] != "B-03" || whInt(t, b["warehouseId"]) != w1 {
				t.Errorf("bin location = %v, want B-03 in %d", b, w1)
			}
			// The same code in the other warehouse does not collide.
			other := whCreateBin(t, env, w2, "C-01")
			whOK(t, env.Do(t, "PUT", fmt.Sprintf("/api/binLocations/%d", other), map[string]any{"code": "B-03"}))
			whStatus(t, env.Do(t, "PUT", "/api/binLocations/999999", map[string]any{"code": "Z"}), http.StatusNotFound)
			whStatus(t, env.Do(t, "PUT", "/api/binLocations/abc", map[string]any{"code": "Z"}), http.StatusNotFound)
			whStatus(t, env.Do(t, "PUT", p, `{"code": "Z"`), http.StatusBadRequest)
			whStatus(t, env.Do(t, "PUT", p, nil), http.StatusBadRequest)
			whStatus(t, env.Do(t, "PUT", p, "null"), http.StatusBadRequest)
			whStatus(t, env.Do(t, "PUT", p, `{"code": "\u0000"}`), http.StatusBadRequest)
			whStatus(t, env.DoRaw(t, whRequest(t, "PUT", p, "text/plain", `{"code": "Z"}`)), http.StatusUnsupportedMediaType)
		})

		t.Run("the unknown bin location is listed but cannot be renamed or deleted", func(t *testing.T) {
			list := whOK(t, env.Do(t, "GET", whList("/api/binLocations", "filter[0][property]", "binLocation.code", "filter[0][value]", "erp_null_bin_location"), nil))
			if whInt(t, list["total"]) != 2 {
				t.Fatalf("unknown bin locations listed: %v, want one per warehouse", list)
			}
			for _, item := range list["data"].([]any) {
				null := whInt(t, item.(map[string]any)["id"])
				p := fmt.Sprintf("/api/binLocations/%d", null)
				whInvalid(t, env.Do(t, "PUT", p, map[string]any{"code": "RENAMED"}), "erp_null_bin_location")
				whInvalid(t, env.Do(t, "DELETE", p, nil), "erp_null_bin_location")
				if got := whGetBinLocation(t, env, null)["code"]; got != "erp_null_bin_location" {
					t.Errorf("code = %v", got)
				}
			}
		})

		t.Run("delete", func(t *testing.T) {
			gone := whCreateBin(t, env, w2, "GONE")
			p := fmt.Sprintf("/api/binLocations/%d", gone)
			whOK(t, env.Do(t, "DELETE", p, nil))
			whStatus(t, env.Do(t, "GET", p, nil), http.StatusNotFound)
			whStatus(t, env.Do(t, "DELETE", p, nil), http.StatusNotFound)
			whStatus(t, env.Do(t, "DELETE", "/api/binLocations/abc", nil), http.StatusNotFound)
			// The code is free again.
			whCreateBin(t, env, w2, "GONE")
		})

		t.Run("ids that name nothing are 404s", func(t *testing.T) {
			for _, id := range []string{"999999", "abc", "0", "-1"} {
				whStatus(t, env.Do(t, "GET", "/api/binLocations/"+id, nil), http.StatusNotFound)
			}
		})

		t.Run("stock and default mappings keep bin locations and warehouses", func(t *testing.T) {
			whCreated(t, env, env.Do(t, "POST", "/api/articleDetails", map[string]any{"id": 500, "number": "SKU-500"}), "/api/articleDetails", false)
			set := func(t *testing.T, key string, quantity int, location map[string]any) {
				t.Helper()
				op := map[string]any{"articleDetailId": 500, "quantity": quantity}
				for k, v := range location {
					op[k] = v
				}
				if body := whOK(t, env.Do(t, "PUT", "/api/stock/set/"+key, []any{op})); body["success"] != true {
					t.Fatalf("set stock: %v", body)
				}
			}

			stocked := whCreateBin(t, env, w2, "STOCKED")
			p := fmt.Sprintf("/api/binLocations/%d", stocked)
			set(t, "wh-bin-stock-1", 2, map[string]any{"binLocation": map[string]any{"id": stocked}})
			mappings := whGetBinLocation(t, env, stocked)["articleDetailBinLocationMappings"].([]any)
			if len(mappings) != 1 || whInt(t, mappings[0].(map[string]any)["stock"]) != 2 || mappings[0].(map[string]any)["lastStockTake"] == nil {
				t.Errorf("mappings = %v, want one with stock 2 and a stocktake", mappings)
			}
			whInvalid(t, env.Do(t, "DELETE", p, nil), "stock")
			set(t, "wh-bin-stock-2", 0, map[string]any{"binLocation": map[string]any{"id": stocked}})
			whOK(t, env.Do(t, "DELETE", p, nil))

			def := whCreateBin(t, env, w2, "DEFAULT")
			p = fmt.Sprintf("/api/binLocations/%d", def)
			whOK(t, env.Do(t, "PUT", p+"/articleDetails/500", map[string]any{"defaultMapping": true}))
			whInvalid(t, env.Do(t, "DELETE", p, nil), "default")
			whOK(t, env.Do(t, "PUT", p+"/articleDetails/500", map[string]any{"defaultMapping": false}))
			whOK(t, env.Do(t, "DELETE", p, nil))
			whStatus(t, env.Do(t, "PUT", fmt.Sprintf("/api/binLocations/%d/articleDetails/999999", bin), map[string]any{"defaultMapping": true}), http.StatusNotFound)

			// Stock on the unknown bin location alone keeps a warehouse.
			w3 := whCreateWarehouse(t, env, map[string]any{"code": "W3", "name": "Three"})
			set(t, "wh-bin-stock-3", 4, map[string]any{"warehouse": map[string]any{"id": w3}})
			null := whInt(t, whGetWarehouse(t, env, w3)["nullBinLocationId"])
			if m := whGetBinLocation(t, env, null)["articleDetailBinLocationMappings"].([]any); len(m) != 1 {
				t.Errorf("stock of the unknown bin location: %v", m)
			}
			whInvalid(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", w3), nil), "stock")
			set(t, "wh-bin-stock-4", 0, map[string]any{"warehouse": map[string]any{"code": "W3"}})
			whOK(t, env.Do(t, "DELETE", fmt.Sprintf("/api/warehouses/%d", w3), nil))
		})
	})
}

func TestWarehouseListsHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		// Codes sort the same in every collation: upper case letters only.
		seed := []map[string]any{
			{"code": "ALPHA", "name": "Alpha Hall", "stockAvailableForSale": true, "email": "a@example.com", "comment": "100% cotton"},
			{"code": "BETA", "name": "beta hall", "stockAvailableForSale": false, "contact": "Bob"},
			{"code": "GAMMA", "name": "Gamma Depot", "stockAvailableForSale": true, "contact": "Ann"},
			{"code": "DELTA", "name": "Delta_Store", "stockAvailableForSale": false},
			{"code": "EPSILON", "name": "Epsilon", "stockAvailableForSale": true},
		}
		ids := map[string]int64{}
		for _, w := range seed {
			ids[w["code"].(string)] = whCreateWarehouse(t, env, w)
		}
		byCodes := func(codes ...string) []int64 {
			out := make([]int64, len(codes))
			for i, c := range codes {
				out[i] = ids[c]
			}
			return out
		}
		list := func(t *testing.T, kv ...string) (total int64, got []int64) {
			t.Helper()
			body := whOK(t, env.Do(t, "GET", whList("/api/warehouses", kv...), nil))
			return whInt(t, body["total"]), whIDs(t, body["data"].([]any))
		}
		expect := func(t *testing.T, want []int64, kv ...string) {
			t.Helper()
			total, got := list(t, kv...)
			if !slices.Equal(got, want) || total != int64(len(want)) {
				t.Errorf("%v: ids %v (total %d), want %v", kv, got, total, want)
			}
		}
		bad := func(t *testing.T, mentions string, kv ...string) {
			t.Helper()
			res := env.Do(t, "GET", whList("/api/warehouses", kv...), nil)
			whInvalid(t, res, mentions)
		}
		all := byCodes("ALPHA", "BETA", "GAMMA", "DELTA", "EPSILON")

		t.Run("default order is id ascending; start, limit and total", func(t *testing.T) {
			expect(t, all)
			total, got := list(t, "start", "1", "limit", "2")
			if total != 5 || !slices.Equal(got, all[1:3]) {
				t.Errorf("start=1&limit=2: %v (total %d), want %v (total 5)", got, total, all[1:3])
			}
			total, got = list(t, "start", "10")
			if total != 5 || len(got) != 0 {
				t.Errorf("start past the end: %v (total %d)", got, total)
			}
			total, got = list(t, "limit", "10000", "start", "0")
			if total != 5 || len(got) != 5 {
				t.Errorf("limit=10000: %v (total %d)", got, total)
			}
			total, got = list(t, "limit", "1", "filter[0][property]", "warehouse.stockAvailableForSale", "filter[0][value]", "true")
			if total != 3 || !slices.Equal(got, byCodes("ALPHA")) {
				t.Errorf("limited filter: %v (total %d), want total 3", got, total)
			}
		})

		t.Run("bad start and limit are 400s", func(t *testing.T) {
			for _, kv := range [][]string{
				{"start", "-1"}, {"start", "x"}, {"start", "1.5"}, {"limit", "0"}, {"limit", "10001"},
				{"limit", "-5"}, {"limit", "ten"},
			} {
				whInvalidField(t, env.Do(t, "GET", whList("/api/warehouses", kv...), nil), kv[0])
			}
		})

		t.Run("text filters match with case-insensitive LIKE by default", func(t *testing.T) {
			expect(t, byCodes("ALPHA"), "filter[0][property]", "warehouse.code", "filter[0][value]", "alpha")
			expect(t, byCodes("ALPHA", "BETA"), "filter[0][property]", "warehouse.name", "filter[0][value]", "%HALL")
			expect(t, byCodes("ALPHA", "BETA", "GAMMA", "DELTA"), "filter[0][property]", "warehouse.code", "filter[0][value]", "%a%")
			expect(t, byCodes("BETA"), "filter[0][property]", "warehouse.code", "filter[0][value]", "b_t_")
			expect(t, nil, "filter[0][property]", "warehouse.code", "filter[0][value]", "alph")
			expect(t, byCodes("BETA", "GAMMA"), "filter[0][property]", "warehouse.contact", "filter[0][value]", "_%")
			expect(t, byCodes("ALPHA"), "filter[0][property]", "warehouse.email", "filter[0][value]", "A@EXAMPLE.COM")
			// Values are bound, never spliced into SQL.
			expect(t, nil, "filter[0][property]", "warehouse.code", "filter[0][value]", "' OR '1'='1")
			expect(t, nil, "filter[0][property]", "warehouse.name", "filter[0][value]", `x"); DROP TABLE warehouses; --`)
			// A value no row can hold matches nothing or is refused; never a 500.
			if res := env.Do(t, "GET", whList("/api/warehouses", "filter[0][property]", "warehouse.code", "filter[0][value]", "A\x00"), nil); res.Status != http.StatusOK && res.Status != http.StatusBadRequest {
				t.Errorf("filter value with U+0000: %s, want 200 or 400", res)
			}
			expect(t, all)
		})

		t.Run("number and boolean filters match with = by default", func(t *testing.T) {
			expect(t, byCodes("GAMMA"), "filter[0][property]", "warehouse.id", "filter[0][value]", fmt.Sprint(ids["GAMMA"]))
			expect(t, byCodes("BETA", "DELTA"), "filter[0][property]", "warehouse.stockAvailableForSale", "filter[0][value]", "false")
			expect(t, byCodes("BETA", "DELTA"), "filter[0][property]", "warehouse.stockAvailableForSale", "filter[0][value]", "0")
			expect(t, byCodes("ALPHA", "GAMMA", "EPSILON"), "filter[0][property]", "warehouse.stockAvailableForSale", "filter[0][value]", "1")
			expect(t, byCodes("ALPHA"), "filter[0][property]", "warehouse.defaultWarehouse", "filter[0][value]", "true")
			expect(t, byCodes("ALPHA"), "filter[0][property]", "warehouse.defaultReturnShipmentWarehouse", "filter[0][value]", "TRUE")
			bad(t, "integer", "filter[0][property]", "warehouse.id", "filter[0][value]", "abc")
			bad(t, "true", "filter[0][property]", "warehouse.stockAvailableForSale", "filter[0][value]", "yes")
			bad(t, "value", "filter[0][property]", "warehouse.id")
		})

		t.Run("every expression", func(t *testing.T) {
			g := fmt.Sprint(ids["GAMMA"])
			f := func(prop, expr, value string) []string {
				return []string{"filter[0][property]", prop, "filter[0][expression]", expr, "filter[0][value]", value}
			}
			expect(t, byCodes("GAMMA"), f("warehouse.id", "=", g)...)
			expect(t, byCodes("ALPHA", "BETA", "DELTA", "EPSILON"), f("warehouse.id", "<>", g)...)
			expect(t, byCodes("ALPHA", "BETA", "DELTA", "EPSILON"), f("warehouse.id", "!=", g)...)
			expect(t, byCodes("ALPHA", "BETA"), f("warehouse.id", "<", g)...)
			expect(t, byCodes("ALPHA", "BETA", "GAMMA"), f("warehouse.id", "<=", g)...)
			expect(t, byCodes("DELTA", "EPSILON"), f("warehouse.id", ">", g)...)
			expect(t, byCodes("GAMMA", "DELTA", "EPSILON"), f("warehouse.id", ">=", g)...)
			expect(t, byCodes("BETA"), f("warehouse.code", "=", "BETA")...)
			expect(t, byCodes("ALPHA", "GAMMA", "DELTA", "EPSILON"), f("warehouse.code", "<>", "BETA")...)
			expect(t, byCodes("ALPHA", "BETA"), f("warehouse.code", "<", "DELTA")...)
			expect(t, byCodes("GAMMA", "DELTA", "EPSILON"), f("warehouse.code", ">=", "DELTA")...)
			expect(t, byCodes("GAMMA", "DELTA"), f("warehouse.name", "LIKE", "%de%")...)
			expect(t, byCodes("GAMMA", "DELTA"), f("warehouse.name", "like", "%DE%")...)
			expect(t, byCodes("DELTA"), f("warehouse.name", "LIKE", "delta_store")...)
			expect(t, byCodes("ALPHA", "BETA", "EPSILON"), f("warehouse.name", "NOT LIKE", "%de%")...)
			expect(t, byCodes("ALPHA", "BETA", "EPSILON"), f("warehouse.name", "not  like", "%DE%")...)
			expect(t, byCodes("ALPHA", "EPSILON"), f("warehouse.code", "IN", "ALPHA, EPSILON,NOPE")...)
			expect(t, byCodes("BETA", "GAMMA", "DELTA"), f("warehouse.code", "NOT IN", "ALPHA,EPSILON")...)
			expect(t, byCodes("ALPHA", "GAMMA"), "filter[0][property]", "warehouse.id", "filter[0][expression]", "IN",
				"filter[0][value][]", fmt.Sprint(ids["ALPHA"]), "filter[0][value][]", g)
			expect(t, byCodes("BETA", "DELTA", "EPSILON"), "filter[0][property]", "warehouse.id", "filter[0][expression]", "NOT IN",
				"filter[0][value][0]", fmt.Sprint(ids["ALPHA"]), "filter[0][value][1]", g)
			expect(t, nil, "filter[0][property]", "warehouse.email", "filter[0][expression]", "IS NULL")
			expect(t, all, "filter[0][property]", "warehouse.email", "filter[0][expression]", "IS NOT NULL")
			expect(t, byCodes("BETA", "DELTA"), f("warehouse.stockAvailableForSale", "<>", "true")...)
			bad(t, "allowed", f("warehouse.id", "~", "1")...)
			bad(t, "LIKE", f("warehouse.id", "BETWEEN", "1")...)
			bad(t, "integer", f("warehouse.id", "IN", "1,x")...)
		})

		t.Run("operator folds conditions left to right with OR", func(t *testing.T) {
			expect(t, byCodes("ALPHA", "BETA"),
				"filter[0][property]", "warehouse.code", "filter[0][value]", "ALPHA",
				"filter[1][property]", "warehouse.code", "filter[1][value]", "BETA", "filter[1][operator]", "1")
			expect(t, nil,
				"filter[0][property]", "warehouse.code", "filter[0][value]", "ALPHA",
				"filter[1][property]", "warehouse.code", "filter[1][value]", "BETA")
			expect(t, nil,
				"filter[0][property]", "warehouse.code", "filter[0][value]", "ALPHA",
				"filter[1][property]", "warehouse.code", "filter[1][value]", "BETA", "filter[1][operator]", "0")
			// (ALPHA OR BETA) AND not for sale = BETA; ALPHA OR (BETA AND ...) would keep ALPHA.
			expect(t, byCodes("BETA"),
				"filter[0][property]", "warehouse.code", "filter[0][value]", "ALPHA",
				"filter[1][property]", "warehouse.code", "filter[1][value]", "BETA", "filter[1][operator]", "true",
				"filter[2][property]", "warehouse.stockAvailableForSale", "filter[2][value]", "false")
			// (not for sale AND BETA) OR GAMMA.
			expect(t, byCodes("BETA", "GAMMA"),
				"filter[0][property]", "warehouse.stockAvailableForSale", "filter[0][value]", "false",
				"filter[1][property]", "warehouse.code", "filter[1][value]", "BETA",
				"filter[2][property]", "warehouse.code", "filter[2][value]", "GAMMA", "filter[2][operator]", "1")
			// Indexes need not be dense and are read in order.
			expect(t, byCodes("ALPHA", "BETA"),
				"filter[7][property]", "warehouse.code", "filter[7][value]", "BETA", "filter[7][operator]", "1",
				"filter[3][property]", "warehouse.code", "filter[3][value]", "ALPHA")
			bad(t, "operator", "filter[0][property]", "warehouse.code", "filter[0][value]", "ALPHA", "filter[0][operator]", "maybe")
		})

		t.Run("sort", func(t *testing.T) {
			expect(t, byCodes("ALPHA", "BETA", "DELTA", "EPSILON", "GAMMA"), "sort[0][property]", "warehouse.code")
			expect(t, byCodes("ALPHA", "BETA", "DELTA", "EPSILON", "GAMMA"), "sort[0][property]", "warehouse.code", "sort[0][direction]", "ASC")
			expect(t, byCodes("GAMMA", "EPSILON", "DELTA", "BETA", "ALPHA"), "sort[0][property]", "warehouse.code", "sort[0][direction]", "DESC")
			expect(t, byCodes("GAMMA", "EPSILON", "DELTA", "BETA", "ALPHA"), "sort[0][property]", "warehouse.code", "sort[0][direction]", "desc")
			expect(t, byCodes("DELTA", "BETA", "GAMMA", "EPSILON", "ALPHA"),
				"sort[0][property]", "warehouse.stockAvailableForSale",
				"sort[1][property]", "warehouse.code", "sort[1][direction]", "DESC")
			// Ties keep id order.
			expect(t, byCodes("ALPHA", "GAMMA", "EPSILON", "BETA", "DELTA"), "sort[0][property]", "warehouse.stockAvailableForSale", "sort[0][direction]", "DESC")
			total, got := list(t, "sort[0][property]", "warehouse.code", "sort[0][direction]", "DESC", "start", "1", "limit", "2")
			if total != 5 || !slices.Equal(got, byCodes("EPSILON", "DELTA")) {
				t.Errorf("sorted page: %v (total %d)", got, total)
			}
			bad(t, "ASC", "sort[0][property]", "warehouse.code", "sort[0][direction]", "UP")
			bad(t, "allowed", "sort[0][property]", "warehouse.colour")
			bad(t, "property", "sort[0][direction]", "ASC")
		})

		t.Run("unknown properties and malformed parameters are 400s listing what is allowed", func(t *testing.T) {
			res := env.Do(t, "GET", whList("/api/warehouses", "filter[0][property]", "warehouse.colour", "filter[0][value]", "red"), nil)
			whInvalid(t, res, "warehouse.colour")
			msg := whMessage(t, res)
			for _, allowed := range []string{"warehouse.code", "warehouse.name", "warehouse.stockAvailableForSale", "warehouse.nullBinLocationId"} {
				if !strings.Contains(msg, allowed) {
					t.Errorf("message %q does not list %s", msg, allowed)
				}
			}
			bad(t, "allowed", "filter[0][property]", "code", "filter[0][value]", "ALPHA")
			bad(t, "allowed", "filter[0][property]", "binLocation.code", "filter[0][value]", "ALPHA")
			bad(t, "property", "filter[0][value]", "ALPHA")
			bad(t, "filter", "filter", "ALPHA")
			bad(t, "filter", "filter[property]", "warehouse.code")
			bad(t, "allowed", "filter[0][property]", "warehouse.code", "filter[0][value]", "ALPHA", "filter[0][colour]", "red")
			// Parameters of no list syntax are ignored (they may belong to the endpoint).
			expect(t, all, "useNumberAsId", "true")
		})

		t.Run("bin location lists filter by warehouseId and code", func(t *testing.T) {
			a := ids["ALPHA"]
			for _, code := range []string{"R-2", "R-1", "S-1"} {
				whCreateBin(t, env, a, code)
			}
			whCreateBin(t, env, ids["BETA"], "R-1")
			get := func(t *testing.T, kv ...string) (int64, []string) {
				t.Helper()
				body := whOK(t, env.Do(t, "GET", whList("/api/binLocations", kv...), nil))
				var codes []string
				for _, item := range body["data"].([]any) {
					m := item.(map[string]any)
					if len(m) != 3 {
						t.Errorf("list element %v, want exactly id, warehouseId, code", m)
					}
					codes = append(codes, m["code"].(string))
				}
				return whInt(t, body["total"]), codes
			}
			total, codes := get(t, "filter[0][property]", "binLocation.warehouseId", "filter[0][value]", fmt.Sprint(a))
			if total != 4 || !slices.Equal(codes, []string{"erp_null_bin_location", "R-2", "R-1", "S-1"}) {
				t.Errorf("bins of ALPHA: %v (total %d)", codes, total)
			}
			total, codes = get(t, "filter[0][property]", "binLocation.warehouseId", "filter[0][value]", fmt.Sprint(a),
				"filter[1][property]", "binLocation.code", "filter[1][value]", "r-%",
				"sort[0][property]", "binLocation.code")
			if total != 2 || !slices.Equal(codes, []string{"R-1", "R-2"}) {
				t.Errorf("R bins of ALPHA sorted: %v (total %d)", codes, total)
			}
			total, codes = get(t, "filter[0][property]", "binLocation.code", "filter[0][expression]", "=", "filter[0][value]", "R-1")
			if total != 2 || len(codes) != 2 {
				t.Errorf("R-1 everywhere: %v (total %d)", codes, total)
			}
			total, _ = get(t)
			if total != 9 {
				t.Errorf("all bin locations: total %d, want 9 (5 unknown + 4)", total)
			}
			total, codes = get(t, "sort[0][property]", "binLocation.id", "sort[0][direction]", "DESC", "limit", "1")
			if total != 9 || !slices.Equal(codes, []string{"R-1"}) {
				t.Errorf("last bin: %v (total %d)", codes, total)
			}
			whInvalid(t, env.Do(t, "GET", whList("/api/binLocations", "filter[0][property]", "warehouse.code", "filter[0][value]", "ALPHA"), nil), "binLocation.warehouseId")
			whInvalid(t, env.Do(t, "GET", whList("/api/binLocations", "sort[0][property]", "binLocation.code", "sort[0][direction]", "sideways"), nil), "DESC")
			whInvalidField(t, env.Do(t, "GET", whList("/api/binLocations", "limit", "0"), nil), "limit")
		})
	})
}

func TestProtocolHTTP(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		w := whCreateWarehouse(t, env, map[string]any{"code": "W", "name": "W"})

		t.Run("401 with WWW-Authenticate without or with wrong credentials", func(t *testing.T) {
			for name, auth := range map[string]func(*http.Request){
				"none":        func(*http.Request) {},
				"wrong key":   func(r *http.Request) { r.SetBasicAuth(apitest.User, "wrong") },
				"wrong user":  func(r *http.Request) { r.SetBasicAuth("nobody", apitest.Key) },
				"empty user":  func(r *http.Request) { r.SetBasicAuth("", apitest.Key) },
				"bearer":      func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+apitest.Key) },
				"garbage":     func(r *http.Request) { r.Header.Set("Authorization", "Basic !!!") },
				"key as user": func(r *http.Request) { r.SetBasicAuth(apitest.Key, apitest.User) },
			} {
				t.Run(name, func(t *testing.T) {
					for _, rq := range []struct{ method, path, body string }{
						{"GET", "/api/warehouses", ""},
						{"GET", fmt.Sprintf("/api/warehouses/%d", w), ""},
						{"POST", "/api/warehouses", `{"code": "NOAUTH", "name": "x"}`},
						{"PUT", fmt.Sprintf("/api/warehouses/%d/default", w), ""},
						{"DELETE", fmt.Sprintf("/api/warehouses/%d", w), ""},
						{"GET", "/api/binLocations", ""},
						{"POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", w), ""},
						{"GET", "/api/warehouses/999999", ""},
					} {
						req := whRequest(t, rq.method, rq.path, "application/json", rq.body)
						req.Header.Del("Authorization")
						auth(req)
						res := env.DoRaw(t, req)
						whStatus(t, res, http.StatusUnauthorized)
						if got := res.Header.Get("WWW-Authenticate"); got != `Basic realm="Inventory REST-API"` {
							t.Errorf("%s %s: WWW-Authenticate = %q", rq.method, rq.path, got)
						}
						if msg := whMessage(t, res); msg != "Invalid or missing auth" {
							t.Errorf("%s %s: message = %q", rq.method, rq.path, msg)
						}
					}
				})
			}
			whWarehouseCount(t, env, 1)
		})

		t.Run("the API document, health, readiness and metrics need no auth", func(t *testing.T) {
			res := env.DoRaw(t, whRequest(t, "GET", "/api/openapi.json", "", ""))
			whStatus(t, res, http.StatusOK)
			if !bytes.Equal(res.Body, httpapi.OpenAPIDocument) {
				t.Errorf("GET /api/openapi.json does not serve the embedded document")
			}
			if ct := res.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("openapi.json Content-Type = %q", ct)
			}
			if doc := apitest.Spec(t); doc.Paths.Find("/api/warehouses/{id}") == nil {
				t.Errorf("the document lacks /api/warehouses/{id}")
			}
			whOK(t, env.DoRaw(t, whRequest(t, "GET", "/healthz", "", "")))
			whOK(t, env.DoRaw(t, whRequest(t, "GET", "/readyz", "", "")))
			res = env.DoRaw(t, whRequest(t, "GET", "/metrics", "", ""))
			whStatus(t, res, http.StatusOK)
			if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") || !bytes.Contains(res.Body, []byte("inventory_http_requests_total")) {
				t.Errorf("metrics: %s %s", res.Header.Get("Content-Type"), res.Body)
			}
			if !bytes.Contains(res.Body, []byte(`route="GET /api/warehouses/{id}"`)) {
				t.Errorf("metrics do not count requests by route pattern")
			}
		})

		t.Run("405 on a wrong method, also with a JSON body", func(t *testing.T) {
			for _, rq := range []struct{ method, path string }{
				{"DELETE", "/api/warehouses"},
				{"PATCH", fmt.Sprintf("/api/warehouses/%d", w)},
				{"POST", fmt.Sprintf("/api/warehouses/%d", w)},
				{"GET", fmt.Sprintf("/api/warehouses/%d/default", w)},
				{"GET", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", w)},
				{"PUT", "/api/binLocations"},
				{"POST", "/api/openapi.json"},
				{"POST", "/healthz"},
			} {
				res := env.Do(t, rq.method, rq.path, map[string]any{"code": "X", "name": "y"})
				whStatus(t, res, http.StatusMethodNotAllowed)
				if res.Header.Get("Allow") == "" {
					t.Errorf("%s %s: 405 without Allow", rq.method, rq.path)
				}
			}
			whWarehouseCount(t, env, 1)
		})

		t.Run("404 on an unknown route", func(t *testing.T) {
			for _, p := range []string{"/api/nope", "/api/warehouses/1/nope", "/nope", "/api/warehouse"} {
				whStatus(t, env.Do(t, "GET", p, nil), http.StatusNotFound)
			}
		})

		t.Run("every response carries a request id; a sane one sent is kept", func(t *testing.T) {
			res := env.Do(t, "GET", "/api/warehouses", nil)
			if res.Header.Get("X-Request-Id") == "" {
				t.Errorf("no X-Request-Id")
			}
			req := whRequest(t, "GET", "/healthz", "", "")
			req.Header.Set("X-Request-Id", "trace-123")
			if got := env.DoRaw(t, req).Header.Get("X-Request-Id"); got != "trace-123" {
				t.Errorf("X-Request-Id = %q, want trace-123", got)
			}
			req = whRequest(t, "GET", "/healthz", "", "")
			req.Header.Set("X-Request-Id", "bad id\twith spaces")
			if got := env.DoRaw(t, req).Header.Get("X-Request-Id"); got == "" || strings.ContainsAny(got, " \t") {
				t.Errorf("X-Request-Id = %q, want a fresh one", got)
			}
		})

		t.Run("not ready once the database is closed", func(t *testing.T) {
			down := apitest.New(t, whSecondDatabase(t, databaseURL))
			if err := down.DB.Close(); err != nil {
				t.Fatal(err)
			}
			whStatus(t, down.DoRaw(t, whRequest(t, "GET", "/readyz", "", "")), http.StatusServiceUnavailable)
			whOK(t, down.DoRaw(t, whRequest(t, "GET", "/healthz", "", "")))
		})
	})
}

// TestWarehouseConcurrencyHTTP races creates and flag moves: the default
// flags keep exactly one holder each, and unique codes stay unique without
// a 500.
func TestWarehouseConcurrencyHTTP(t *testing.T) {
	t.Parallel()
	testdb.EachWithPgBouncer(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		const n = 8
		race := func(fn func(i int) *apitest.Response) []*apitest.Response {
			out := make([]*apitest.Response, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() { out[i] = fn(i) })
			}
			wg.Wait()
			return out
		}
		count := func(rs []*apitest.Response, status int) int {
			c := 0
			for _, r := range rs {
				if r.Status == status {
					c++
				}
			}
			return c
		}

		created := race(func(i int) *apitest.Response {
			return env.Do(t, "POST", "/api/warehouses", map[string]any{"code": fmt.Sprintf("C%d", i), "name": "c"})
		})
		if c := count(created, http.StatusCreated); c != n {
			t.Fatalf("%d of %d concurrent creates succeeded: %v", c, n, created)
		}
		ids := make([]int64, n)
		for i, r := range created {
			ids[i] = whInt(t, r.JSON(t)["data"].([]any)[0].(map[string]any)["id"])
		}
		whFlags(t, env, ids[0], ids[0] == whHolder(t, env, "defaultWarehouse"), ids[0] == whHolder(t, env, "defaultReturnShipmentWarehouse"))

		moves := race(func(i int) *apitest.Response {
			suffix := "/default"
			if i%2 == 1 {
				suffix = "/defaultReturnShipment"
			}
			return env.Do(t, "PUT", fmt.Sprintf("/api/warehouses/%d%s", ids[i], suffix), nil)
		})
		if c := count(moves, http.StatusOK); c != n {
			t.Errorf("%d of %d concurrent flag moves succeeded: %v", c, n, moves)
		}
		whFlags(t, env, ids[0], ids[0] == whHolder(t, env, "defaultWarehouse"), ids[0] == whHolder(t, env, "defaultReturnShipmentWarehouse"))

		same := race(func(int) *apitest.Response {
			return env.Do(t, "POST", "/api/warehouses", map[string]any{"code": "SAME", "name": "same"})
		})
		if count(same, http.StatusCreated) != 1 || count(same, http.StatusBadRequest) != n-1 {
			t.Errorf("concurrent creates of one code: %v, want one 201 and 400s", same)
		}

		bins := race(func(int) *apitest.Response {
			return env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": ids[0], "code": "SAME"})
		})
		if count(bins, http.StatusCreated) != 1 || count(bins, http.StatusBadRequest) != n-1 {
			t.Errorf("concurrent creates of one bin code: %v, want one 201 and 400s", bins)
		}
	})
}

// whHolder is the id of the warehouse holding the flag.
func whHolder(t testing.TB, env *apitest.Env, flag string) int64 {
	t.Helper()
	body := whOK(t, env.Do(t, "GET", whList("/api/warehouses", "filter[0][property]", "warehouse."+flag, "filter[0][value]", "true"), nil))
	data := body["data"].([]any)
	if len(data) != 1 {
		t.Fatalf("%d warehouses hold %s", len(data), flag)
	}
	return whInt(t, data[0].(map[string]any)["id"])
}

// whSecondDatabase is a fresh database of the same kind as databaseURL.
func whSecondDatabase(t *testing.T, databaseURL string) string {
	if strings.HasPrefix(databaseURL, "sqlite:") {
		return testdb.SQLite(t)
	}
	return testdb.Postgres(t)
}

// TestUnreachableDatabaseHTTP runs the service against a PostgreSQL server
// that refuses connections: not ready, and every API call is a 503.
func TestUnreachableDatabaseHTTP(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now
	db, err := bunstore.Open(fmt.Sprintf("postgres://postgres@127.0.0.1:%d/inventory?sslmode=disable&connect_timeout=2", port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h, err := httpapi.NewHandler(application.New(db, whClock{}, apitest.Secrets(t)), zap.NewNop(), httpapi.Config{}, db.Ping, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	env := &apitest.Env{URL: srv.URL}

	whStatus(t, env.DoRaw(t, whRequest(t, "GET", "/readyz", "", "")), http.StatusServiceUnavailable)
	whOK(t, env.DoRaw(t, whRequest(t, "GET", "/healthz", "", "")))
	whStatus(t, env.DoRaw(t, whRequest(t, "GET", "/api/openapi.json", "", "")), http.StatusOK)
	for _, rq := range []struct{ method, path, body string }{
		{"GET", "/api/warehouses", ""},
		{"GET", "/api/warehouses/1", ""},
		{"POST", "/api/warehouses", `{"code": "W", "name": "w"}`},
		{"GET", "/api/binLocations", ""},
	} {
		res := env.DoRaw(t, whRequest(t, rq.method, rq.path, "application/json", rq.body))
		if res.Status != http.StatusServiceUnavailable {
			t.Errorf("%s %s: %s, want 503", rq.method, rq.path, res)
		}
	}
}

type whClock struct{}

func (whClock) Now() time.Time { return time.Now().UTC() }

// Helpers; prefixed because other files of this package have theirs.

func whRequest(t testing.TB, method, path, contentType, body string) *http.Request {
	t.Helper()
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	var req *http.Request
	var err error
	if rd != nil {
		req, err = http.NewRequest(method, path, rd)
	} else {
		req, err = http.NewRequest(method, path, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" && body != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if strings.HasPrefix(path, "/api/") && path != "/api/openapi.json" {
		req.SetBasicAuth(apitest.User, apitest.Key)
	}
	return req
}

// whList builds path?k=v&… from pairs, keeping their order.
func whList(path string, kv ...string) string {
	if len(kv) == 0 {
		return path
	}
	parts := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		parts = append(parts, url.QueryEscape(kv[i])+"="+url.QueryEscape(kv[i+1]))
	}
	return path + "?" + strings.Join(parts, "&")
}

func whInt(t testing.TB, v any) int64 {
	t.Helper()
	f, ok := v.(float64)
	if !ok || f != float64(int64(f)) {
		t.Fatalf("%#v is not an integer", v)
	}
	return int64(f)
}

func whIDs(t testing.TB, data []any) []int64 {
	t.Helper()
	var out []int64
	for _, item := range data {
		out = append(out, whInt(t, item.(map[string]any)["id"]))
	}
	return out
}

func whStatus(t testing.TB, res *apitest.Response, want int) {
	t.Helper()
	if res.Status != want {
		t.Errorf("status %s, want %d", res, want)
	}
}

// whOK checks a 200 with success true and returns the body.
func whOK(t testing.TB, res *apitest.Response) map[string]any {
	t.Helper()
	if res.Status != http.StatusOK {
		t.Fatalf("status %s, want 200", res)
	}
	body := res.JSON(t)
	if body["success"] != true {
		t.Fatalf("success = %v in %s", body["success"], res)
	}
	return body
}

func whMessage(t testing.TB, res *apitest.Response) string {
	t.Helper()
	body := res.JSON(t)
	if body["success"] != false {
		t.Errorf("error body with success %v: %s", body["success"], res)
	}
	msg, _ := body["message"].(string)
	if msg == "" {
		t.Errorf("error body without message: %s", res)
	}
	return msg
}

// whInvalid checks a 400 whose message mentions the given text.
func whInvalid(t testing.TB, res *apitest.Response, mentions string) {
	t.Helper()
	if res.Status != http.StatusBadRequest {
		t.Errorf("status %s, want 400 mentioning %q", res, mentions)
		return
	}
	if msg := whMessage(t, res); !strings.Contains(strings.ToLower(msg), strings.ToLower(mentions)) {
		t.Errorf("400 message %q does not mention %q", msg, mentions)
	}
}

// whInvalidField checks a 400 whose errors name the property.
func whInvalidField(t testing.TB, res *apitest.Response, property string) {
	t.Helper()
	if res.Status != http.StatusBadRequest {
		t.Errorf("status %s, want 400 naming %q", res, property)
		return
	}
	var body struct {
		Errors []struct{ Property, Message string }
	}
	res.Decode(t, &body)
	for _, e := range body.Errors {
		if e.Property == property && e.Message != "" {
			return
		}
	}
	t.Errorf("400 does not name property %q: %s", property, res.Body)
}

// whInvalidPrefix checks a 400 whose errors name a property starting with prefix.
func whInvalidPrefix(t testing.TB, res *apitest.Response, prefix string, sent any) {
	t.Helper()
	if res.Status != http.StatusBadRequest {
		raw, _ := json.Marshal(sent)
		t.Errorf("%s: status %s, want 400", raw, res)
		return
	}
	var body struct {
		Errors []struct{ Property, Message string }
	}
	res.Decode(t, &body)
	for _, e := range body.Errors {
		if strings.HasPrefix(e.Property, prefix) {
			return
		}
	}
	raw, _ := json.Marshal(sent)
	if bytes.Contains(raw, []byte(`"extra"`)) && len(body.Errors) == 1 && body.Errors[0].Property == "extra" {
		// An unknown field is a 400 that names it; inside a component it
		// is named without its path, which still tells the client.
		return
	}
	t.Errorf("%s: 400 does not name a property %s…: %s", raw, prefix, res.Body)
}

// whCreated checks a 201 answer of a create and returns the new id.
func whCreated(t testing.TB, env *apitest.Env, res *apitest.Response, collection string, asArray bool) int64 {
	t.Helper()
	if res.Status != http.StatusCreated {
		t.Fatalf("create: status %s, want 201", res)
	}
	body := res.JSON(t)
	data := body["data"]
	if asArray {
		arr, ok := data.([]any)
		if !ok || len(arr) != 1 {
			t.Fatalf("create: data = %v, want an array of one {id, location}", data)
		}
		data = arr[0]
	}
	created, ok := data.(map[string]any)
	if !ok || body["success"] != true {
		t.Fatalf("create: body %s", res.Body)
	}
	id := whInt(t, created["id"])
	want := fmt.Sprintf("%s%s/%d", env.URL, collection, id)
	if created["location"] != want || res.Header.Get("Location") != want {
		t.Errorf("create: location %v, header %q, want %s", created["location"], res.Header.Get("Location"), want)
	}
	return id
}

func whCreateWarehouse(t testing.TB, env *apitest.Env, body map[string]any) int64 {
	t.Helper()
	return whCreated(t, env, env.Do(t, "POST", "/api/warehouses", body), "/api/warehouses", true)
}

func whCreateBin(t testing.TB, env *apitest.Env, warehouseID int64, code string) int64 {
	t.Helper()
	res := env.Do(t, "POST", "/api/binLocations", map[string]any{"warehouseId": warehouseID, "code": code})
	return whCreated(t, env, res, "/api/binLocations", false)
}

func whGetWarehouse(t testing.TB, env *apitest.Env, id int64) map[string]any {
	t.Helper()
	data, _ := whOK(t, env.Do(t, "GET", fmt.Sprintf("/api/warehouses/%d", id), nil))["data"].(map[string]any)
	return data
}

func whGetBinLocation(t testing.TB, env *apitest.Env, id int64) map[string]any {
	t.Helper()
	data, _ := whOK(t, env.Do(t, "GET", fmt.Sprintf("/api/binLocations/%d", id), nil))["data"].(map[string]any)
	return data
}

func whFlags(t testing.TB, env *apitest.Env, id int64, isDefault, isDefaultReturn bool) {
	t.Helper()
	w := whGetWarehouse(t, env, id)
	if w["defaultWarehouse"] != isDefault || w["defaultReturnShipmentWarehouse"] != isDefaultReturn {
		t.Errorf("warehouse %d: defaultWarehouse %v, defaultReturnShipmentWarehouse %v; want %v, %v",
			id, w["defaultWarehouse"], w["defaultReturnShipmentWarehouse"], isDefault, isDefaultReturn)
	}
	// Exactly one warehouse holds each flag.
	for _, flag := range []string{"defaultWarehouse", "defaultReturnShipmentWarehouse"} {
		body := whOK(t, env.Do(t, "GET", whList("/api/warehouses", "filter[0][property]", "warehouse."+flag, "filter[0][value]", "true"), nil))
		if whInt(t, body["total"]) != 1 {
			t.Errorf("%d warehouses hold %s", whInt(t, body["total"]), flag)
		}
	}
}

func whWarehouseCount(t testing.TB, env *apitest.Env, want int64) {
	t.Helper()
	if got := whInt(t, whOK(t, env.Do(t, "GET", "/api/warehouses", nil))["total"]); got != want {
		t.Errorf("%d warehouses, want %d", got, want)
	}
}

func whGenerated(t testing.TB, res *apitest.Response) int64 {
	t.Helper()
	data, _ := whOK(t, res)["data"].(map[string]any)
	return whInt(t, data["created"])
}

// whBinCodes lists the codes of a warehouse's bin locations, in byte order
// (sorted here: the database's collation may order case differently).
func whBinCodes(t testing.TB, env *apitest.Env, warehouseID int64) []string {
	t.Helper()
	body := whOK(t, env.Do(t, "GET", whList("/api/binLocations",
		"filter[0][property]", "binLocation.warehouseId", "filter[0][value]", fmt.Sprint(warehouseID)), nil))
	var codes []string
	for _, item := range body["data"].([]any) {
		codes = append(codes, item.(map[string]any)["code"].(string))
	}
	slices.Sort(codes)
	return codes
}
