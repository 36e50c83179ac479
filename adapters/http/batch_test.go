package http

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/stock"
)

// batchReadings are bodies with what the batch reader makes of them: the
// 400 that refuses the body as a whole (for a body that is no JSON, only
// that the message says so), or each operation's id and problem as a
// change and as a relocation batch read it.
var batchReadings = []struct {
	body       string
	status     int
	message    string
	change     [][2]string
	relocation [][2]string
}{
	{"", 400, "request body is empty: a JSON array of operations is expected", nil, nil},
	{" ", 400, "request body is empty: a JSON array of operations is expected", nil, nil},
	{"[]", 400, "the batch is empty: send 1 to 1000 operations", nil, nil},
	{"{}", 400, "request body must be a JSON array of operations, not an object", nil, nil},
	{"[1]", 400, "operation 0 is not a JSON object but a number: every element of the array must be an object", nil, nil},
	{"[{}, 2]", 400, "operation 1 is not a JSON object but a number: every element of the array must be an object", nil, nil},
	{"\"x\"", 400, "request body must be a JSON array of operations, not a string", nil, nil},
	{"nul", 400, "malformed JSON", nil, nil},
	{"null", 400, "request body must be a JSON array of operations, not null", nil, nil},
	{"[{\"a\":1}", 400, "malformed JSON", nil, nil},
	{"[{\"a\":1}]]", 400, "malformed JSON", nil, nil},
	{"[{\"a\":1},]", 400, "malformed JSON", nil, nil},
	{"[{,}]", 400, "malformed JSON", nil, nil},
	{"[{\"articleDetailId\":1,\"quantity\":5,\"warehouse\":{\"code\":\"W1\"}}]", 0, "", [][2]string{{"", ""}}, [][2]string{{"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"id\":\"op-1\",\"articleDetailId\":1,\"quantity\":-5,\"binLocation\":{\"code\":\"A\\u0007\"}}]", 0, "", [][2]string{{"\"op-1\"", "binLocation.code must not contain control characters"}}, [][2]string{{"\"op-1\"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"a\":1,\"a\":2}]", 400, "malformed JSON: an object holds the key \"a\" twice", nil, nil},
	{"[{\"a\":1,\"\\u0061\":2}]", 400, "malformed JSON: an object holds the key \"a\" twice", nil, nil},
	{"[{\"\\u0062\":1,\"\\u0062\":2}]", 400, "malformed JSON: an object holds the key \"b\" twice", nil, nil},
	// Keys that differ only in bad UTF-8 read alike (U+FFFD).
	{"[{\"\xff\":1,\"\\ud800\":2}]", 400, "malformed JSON: an object holds the key \"\ufffd\" twice", nil, nil},
	// Keys that differ only in bad UTF-8 read alike (U+FFFD).
	{"[{\"\xff\":1,\"\xfe\":2}]", 400, "malformed JSON: an object holds the key \"\ufffd\" twice", nil, nil},
	{"[{\"\\ud800\":1,\"\\udc00\":2}]", 400, "malformed JSON: an object holds the key \"\xef\xbf\xbd\" twice", nil, nil},
	{"[{\"a\":{\"b\":1,\"b\":2}}]", 400, "malformed JSON: an object holds the key \"b\" twice", nil, nil},
	{"[{\"a\":1,\"a\":2}] x", 400, "malformed JSON", nil, nil},
	{"[{\"a\":1,\"a\":2}, x]", 400, "malformed JSON", nil, nil},
	{"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", 400, "request body is nested deeper than 32 levels", nil, nil},
	{"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", 400, "operation 0 is not a JSON object but an array: every element of the array must be an object", nil, nil},
	{"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", 400, "malformed JSON", nil, nil},
	{"[{\"id\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":1}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}]", 400, "request body is nested deeper than 32 levels", nil, nil},
	{"[{\"id\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":1}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}]", 0, "", [][2]string{{"{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":1}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}", "articleDetailId is required"}}, [][2]string{{"{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":{\"x\":1}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}", "articleDetailId is required"}}},
	{"[{\"quantity\":9007199254740993,\"articleDetailId\":2147483648}]", 0, "", [][2]string{{"", "articleDetailId must be an integer from 1 to 2147483647"}}, [][2]string{{"", "articleDetailId must be an integer from 1 to 2147483647"}}},
	{"[{\"quantity\":1.0,\"articleDetailId\":1e0,\"warehouse\":{\"id\":-0}}]", 0, "", [][2]string{{"", "articleDetailId must be an integer, not 1e0"}}, [][2]string{{"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"quantity\":-0,\"articleDetailId\":0001}]", 400, "malformed JSON", nil, nil},
	{"[{\"quantity\":999999999999999999999,\"articleDetailId\":-999999999999999999}]", 0, "", [][2]string{{"", "articleDetailId must be an integer from 1 to 2147483647"}}, [][2]string{{"", "articleDetailId must be an integer from 1 to 2147483647"}}},
	{"[{\"name\":\"\\ud800\"}]", 0, "", [][2]string{{"", "unknown field \"name\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"name\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"name\":\"\xff\"}]", 0, "", [][2]string{{"", "unknown field \"name\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"name\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[1,2]", 400, "operation 0 is not a JSON object but a number: every element of the array must be an object", nil, nil},
	{"[{\"source\":{\"warehouse\":{\"id\":\"1\"}},\"destination\":{\"binLocation\":{\"code\":\"B\"}},\"quantity\":\"all\",\"articleDetailId\":1}]", 0, "", [][2]string{{"", "unknown field \"source\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "source.warehouse.id must be an integer, not \"1\""}}},
	{"[{\"source\":{\"warehouse\":{\"id\":\"1\"}},\"destination\":{\"binLocation\":{\"code\":\"B\",\"warehouseId\":\" 7 \"}},\"quantity\":\"all\",\"articleDetailId\":1}]", 0, "", [][2]string{{"", "unknown field \"source\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "source.warehouse.id must be an integer, not \"1\""}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"binLocation\":{\"code\":\"B\",\"warehouseId\":\"7\"}}]", 0, "", [][2]string{{"", ""}}, [][2]string{{"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"binLocation\":{\"code\":\"B\\u00e4\",\"warehouseCode\":\"W\\/1\"}}]", 0, "", [][2]string{{"", ""}}, [][2]string{{"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"binLocation\":{\"code\":\"\",\"warehouseCode\":\"W\"}}]", 0, "", [][2]string{{"", "binLocation.code must not be empty"}}, [][2]string{{"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"binLocation\":{\"code\":1,\"warehouseCode\":\"W\"}}]", 0, "", [][2]string{{"", "binLocation.code must be a string, not 1"}}, [][2]string{{"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"binLocation\":[],\"warehouse\":{\"id\":1}}]", 0, "", [][2]string{{"", "binLocation must be an object"}}, [][2]string{{"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"binLocation\":{\"x\":1}}]", 0, "", [][2]string{{"", "binLocation: unknown field \"x\"; allowed: id, code, warehouseId, warehouseCode"}}, [][2]string{{"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"id\": [1, 2 ], \"articleDetailId\":1,\"quantity\":1,\"warehouse\":{\"id\":1}}]", 0, "", [][2]string{{"[1,2]", ""}}, [][2]string{{"[1,2]", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"id\": {\"a\" : \"b\"}, \"articleDetailId\":1,\"quantity\":1,\"foo\":1}]", 0, "", [][2]string{{"{\"a\":\"b\"}", "unknown field \"foo\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"{\"a\":\"b\"}", "unknown field \"foo\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[ { \"quantity\" : 1 , \"articleDetailId\" : 1 , \"warehouse\" : { \"id\" : 1 } } ]", 0, "", [][2]string{{"", ""}}, [][2]string{{"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"comment\":\"a\\tb\",\"name\":\"a\\tb\"}]", 0, "", [][2]string{{"", "unknown field \"comment\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"comment\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"z\":\"\\u0001\",\"a\":\"\\u0002\"}]", 0, "", [][2]string{{"", "unknown field \"z\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"z\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"b\":{\"k\\u0001\":1}}]", 0, "", [][2]string{{"", "unknown field \"b\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"b\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"quantity\":\"all\"}]", 0, "", [][2]string{{"", "articleDetailId is required"}}, [][2]string{{"", "articleDetailId is required"}}},
	{"[{\"quantity\":\"1\"}]", 0, "", [][2]string{{"", "articleDetailId is required"}}, [][2]string{{"", "articleDetailId is required"}}},
	{"[{\"quantity\":true}]", 0, "", [][2]string{{"", "articleDetailId is required"}}, [][2]string{{"", "articleDetailId is required"}}},
	{"[{\"articleDetailId\":null,\"quantity\":null}]", 0, "", [][2]string{{"", "articleDetailId is required"}}, [][2]string{{"", "articleDetailId is required"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"warehouse\":null,\"binLocation\":null}]", 0, "", [][2]string{{"", ""}}, [][2]string{{"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[1.5e+3, -0.0E-0, true, false, null, \"s\"]", 400, "operation 0 is not a JSON object but a number: every element of the array must be an object", nil, nil},
	{"[01]", 400, "malformed JSON", nil, nil},
	{"[1.]", 400, "malformed JSON", nil, nil},
	{"[.5]", 400, "malformed JSON", nil, nil},
	{"[-]", 400, "malformed JSON", nil, nil},
	{"[1e]", 400, "malformed JSON", nil, nil},
	{"[1e+]", 400, "malformed JSON", nil, nil},
	{"[\"\\x\"]", 400, "malformed JSON", nil, nil},
	{"[\"\\u12\"]", 400, "malformed JSON", nil, nil},
	{"[\"\\u12G4\"]", 400, "malformed JSON", nil, nil},
	{"[\"a\x01\"]", 400, "malformed JSON", nil, nil},
	{"[\"a\x7f\"]", 400, "operation 0 is not a JSON object but a string: every element of the array must be an object", nil, nil},
	{"[tru]", 400, "malformed JSON", nil, nil},
	{"[nulll]", 400, "malformed JSON", nil, nil},
	{"[{\"a\"}]", 400, "malformed JSON", nil, nil},
	{"[{\"a\":}]", 400, "malformed JSON", nil, nil},
	{"[{1:2}]", 400, "malformed JSON", nil, nil},
	{"[{\"a\":1 \"b\":2}]", 400, "malformed JSON", nil, nil},
	{"[] []", 400, "malformed JSON", nil, nil},
	{"\t[{\"a\":1}]\r\n", 0, "", [][2]string{{"", "unknown field \"a\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"a\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\":1}]", 0, "", [][2]string{{"", "unknown field \"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"a\":\"\x00\"}]", 400, "malformed JSON", nil, nil},
	{"[{\"a\":\"\\u0000\"}]", 0, "", [][2]string{{"", "unknown field \"a\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"a\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"a\":\"\\U0000\"}]", 400, "malformed JSON", nil, nil},
	{"\x00", 400, "malformed JSON", nil, nil},
	{"[{\"a\":\"x\\\\u0000\"}]", 0, "", [][2]string{{"", "unknown field \"a\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"a\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"a\":1}]\x00", 400, "malformed JSON", nil, nil},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"lot\":{\"number\":\"L1\",\"bestBefore\":\"2026-01-02\"}}]", 0, "", [][2]string{{"", ""}}, [][2]string{{"", "source is required"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"lot\":{\"number\":\"L1\",\"bestBefore\":null}}]", 0, "", [][2]string{{"", ""}}, [][2]string{{"", "source is required"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"lot\":{\"number\":5}}]", 0, "", [][2]string{{"", "lot.number must be a string, not 5"}}, [][2]string{{"", "source is required"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"lot\":{\"bestBefore\":\"x\"}}]", 0, "", [][2]string{{"", "lot.number is required"}}, [][2]string{{"", "source is required"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"lot\":{\"number\":\"L\",\"bestBefore\":\"2026-13-01\"}}]", 0, "", [][2]string{{"", "lot.bestBefore must be a date YYYY-MM-DD or null, not \"2026-13-01\""}}, [][2]string{{"", "source is required"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"lot\":{\"number\":\"L\",\"x\":1}}]", 0, "", [][2]string{{"", "lot: unknown field \"x\"; allowed: number, bestBefore"}}, [][2]string{{"", "source is required"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"lot\":[]}]", 0, "", [][2]string{{"", "lot must be an object"}}, [][2]string{{"", "source is required"}}},
	{"[{\"articleDetailId\":1,\"quantity\":\"all\",\"source\":{\"warehouse\":{\"id\":1},\"x\":2},\"destination\":5}]", 0, "", [][2]string{{"", "unknown field \"source\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "source: unknown field \"x\"; allowed: warehouse, binLocation"}}},
	{"[{\"articleDetailId\":1,\"quantity\":\"all\",\"source\":{\"warehouse\":{\"id\":1,\"y\":1}}}]", 0, "", [][2]string{{"", "unknown field \"source\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "source.warehouse: unknown field \"y\"; allowed: id, code"}}},
	{"[{\"articleDetailId\":1,\"quantity\":\"all\",\"source\":{\"warehouse\":{\"id\":1}},\"destination\":{\"binLocation\":{\"code\":\"x\",\"warehouseCode\":\"W\"}}}]", 0, "", [][2]string{{"", "unknown field \"source\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", ""}}},
	{"[{\"articleDetailId\":1,\"quantity\":0,\"source\":{\"warehouse\":{\"id\":1}},\"destination\":{\"warehouse\":{\"id\":2}}}]", 0, "", [][2]string{{"", "unknown field \"source\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", ""}}},
	{"[{\"articleDetailId\":1,\"quantity\":\"All\",\"source\":{\"warehouse\":{\"id\":1}},\"destination\":{\"warehouse\":{\"id\":2}}}]", 0, "", [][2]string{{"", "unknown field \"source\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "quantity must be a positive integer or \"all\", not \"All\""}}},
	{"[{\"articleDetailId\":1,\"quantity\":-1,\"source\":{\"warehouse\":{\"id\":1}},\"destination\":{\"warehouse\":{\"id\":2}}}]", 0, "", [][2]string{{"", "unknown field \"source\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", ""}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"warehouse\":{\"id\":\"1\"}}]", 0, "", [][2]string{{"", "warehouse.id must be an integer, not \"1\""}}, [][2]string{{"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"warehouse\":{\"id\":1.5}}]", 0, "", [][2]string{{"", "warehouse.id must be an integer, not 1.5"}}, [][2]string{{"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"warehouse\":{\"code\":\"\\u00e4\\u0041\"}}]", 0, "", [][2]string{{"", ""}}, [][2]string{{"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"binLocation\":{\"id\":3,\"warehouseId\":\"x\"}}]", 0, "", [][2]string{{"", "binLocation.warehouseId must be an integer, not \"x\""}}, [][2]string{{"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"binLocation\":{\"id\":3,\"warehouseId\":\"-1\"}}]", 0, "", [][2]string{{"", "binLocation.warehouseId must be an integer from 1 to 2147483647"}}, [][2]string{{"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"binLocation\":{\"id\":3,\"warehouseId\":\"\\u0037\"}}]", 0, "", [][2]string{{"", ""}}, [][2]string{{"", "unknown field \"binLocation\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"orderDetailId\":4,\"quantity\":1,\"warehouse\":{\"id\":1}}]", 0, "", [][2]string{{"", "unknown field \"orderDetailId\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"orderDetailId\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"orderDetailId\":4,\"quantity\":1000000001,\"warehouse\":{\"id\":1}}]", 0, "", [][2]string{{"", "unknown field \"orderDetailId\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"orderDetailId\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"id\":\"<&>\",\"articleDetailId\":1,\"quantity\":1,\"warehouse\":{\"id\":1}}]", 0, "", [][2]string{{"\"<&>\"", ""}}, [][2]string{{"\"<&>\"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"id\":\"\xff\",\"articleDetailId\":1,\"quantity\":1,\"warehouse\":{\"id\":1}}]", 0, "", [][2]string{{"\"\xff\"", ""}}, [][2]string{{"\"\xff\"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"id\":\"\\u2028 \\ud800\",\"articleDetailId\":1,\"quantity\":1,\"warehouse\":{\"id\":1}}]", 0, "", [][2]string{{"\"\\u2028 \\ud800\"", ""}}, [][2]string{{"\"\\u2028 \\ud800\"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"id\": 1.50 ,\"articleDetailId\":1,\"quantity\":1,\"warehouse\":{\"id\":1}}]", 0, "", [][2]string{{"1.50", ""}}, [][2]string{{"1.50", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
	{"[{\"articleDetailId\":1,\"quantity\":1,\"warehouse\":{\"id\":1}},{\"articleDetailId\":1,\"Quantity\":1,\"warehouse\":{\"id\":1}}]", 0, "", [][2]string{{"", ""}, {"", "unknown field \"Quantity\"; allowed: id, articleDetailId, quantity, warehouse, binLocation, lot"}}, [][2]string{{"", "unknown field \"warehouse\"; allowed: id, articleDetailId, quantity, source, destination, lot"}, {"", "unknown field \"Quantity\"; allowed: id, articleDetailId, quantity, source, destination, lot"}}},
}

func TestBatchReaderRefusesOrSplitsEachBody(t *testing.T) {
	change := []string{"articleDetailId", "quantity", "warehouse", "binLocation", "lot"}
	relocation := []string{"articleDetailId", "quantity", "source", "destination", "lot"}
	for _, c := range batchReadings {
		status, message, req := readBody400(t, []byte(c.body))
		if status != c.status {
			t.Errorf("%q: status %d (%s), want %d %s", c.body, status, message, c.status, c.message)
			continue
		}
		if status != 0 {
			if message != c.message && !(c.message == "malformed JSON" && strings.HasPrefix(message, c.message)) {
				t.Errorf("%q: %q, want %q", c.body, message, c.message)
			}
			continue
		}
		for _, e := range []struct {
			allowed []string
			parse   func(jsonFields) (stock.Operation, error)
			want    [][2]string
		}{{change, parseChange, c.change}, {relocation, parseRelocation, c.relocation}} {
			var got [][2]string
			for _, op := range req.operations {
				id, err := op.check(e.allowed)
				if err == nil {
					_, err = e.parse(op.fields)
				}
				problem := ""
				if err != nil {
					problem = err.Error()
				}
				got = append(got, [2]string{string(id), problem})
			}
			if !reflect.DeepEqual(got, e.want) {
				t.Errorf("%q, allowed %v:\n got  %q\n want %q", c.body, e.allowed, got, e.want)
			}
		}
	}
}

// readBody400 reads body as a stock batch: the status and message of a
// refusal, or the request.
func readBody400(t *testing.T, body []byte) (int, string, batchRequest) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPut, "/api/stock/change/k", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	req, err := readBatch(httptest.NewRecorder(), r, "stock/change")
	if err == nil {
		return 0, "", req
	}
	w := httptest.NewRecorder()
	(&Handler{log: zap.NewNop()}).writeError(w, r, err)
	var answer errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil {
		t.Fatalf("%q: answer %s", body, w.Body)
	}
	return w.Code, answer.Message, req
}

func TestMalformedBatchesAreNamedWhereTheyBreak(t *testing.T) {
	for body, want := range map[string]string{
		`[{"articleDetailId":1,"quantity":}]`:    "malformed JSON at [0].quantity",
		`[{"articleDetailId":1},{"quantity":1]`:  "malformed JSON at [1]",
		`[{"articleDetailId":1,"quantity":1}] x`: "malformed JSON at byte 37: invalid character 'x' after top-level value",
		`[{"articleDetailId":1,"quantity":1`:     "malformed JSON at [0] (byte 34): unexpected end of JSON input",
	} {
		if _, got, _ := readBody400(t, []byte(body)); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q…", body, got, want)
		}
	}
	// Nested past the decoder's limit, the path is shortened.
	deep := strings.Repeat(`{"b":`, 10001) + `1` + strings.Repeat(`}`, 10001)
	want := "malformed JSON at b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.….b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b (byte 50000): exceeded max depth"
	if _, got, _ := readBody400(t, []byte(deep)); got != want {
		t.Errorf("10001 levels: %.300q, want %q", got, want)
	}
}

// What the operations of a good batch become.
func TestBatchOperationsAreParsed(t *testing.T) {
	_, _, req := readBody400(t, []byte(`[
		{"id": "a", "articleDetailId": 7, "quantity": -2, "binLocation": {"code": "B\u00e4", "warehouseId": " 3 "}},
		{"articleDetailId": 8, "quantity": 5, "warehouse": {"code": "W\/1"}, "lot": {"number": "L1", "bestBefore": null}},
		{"articleDetailId": 9, "quantity": 1.0, "warehouse": {"id": 1}}
	]`))
	var got []any
	for _, op := range req.operations {
		parsed, err := parseChange(op.fields)
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		got = append(got, parsed)
	}
	want := []any{
		stock.Change{ArticleDetailID: 7, Quantity: -2, At: stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: "Bä", WarehouseID: 3}}},
		stock.Change{ArticleDetailID: 8, Quantity: 5, At: stock.LocationSpec{Warehouse: &stock.WarehouseSpec{Code: "W/1"}}, Lot: &stock.LotSpec{Number: "L1", BestBeforeGiven: true}},
		"quantity must be an integer, not 1.0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
}

// renderedBatches are batch results and the bytes they are stored and
// answered as, written by the hand-made renderer this adapter had before:
// a replay from before an upgrade and a fresh answer after it look alike.
func TestRenderedBatchesStayTheSame(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("X", 3600))
	for _, c := range []struct {
		result application.BatchResult
		want   string
	}{
		{application.BatchResult{Success: true, IdempotencyKey: "k-1", CreatedAt: at, Results: []application.OperationResult{{OperationID: []byte(`1`), Success: true}, {Success: true}}},
			`{"success":true,"idempotencyKey":"k-1","createdAt":"2026-03-04T04:06:07+0000","results":[{"operationId":1,"success":true},{"success":true}]}`},
		{application.BatchResult{Success: false, Message: "1 of 3 operations failed", IdempotencyKey: "key <&> \"q\" ä\u2028", CreatedAt: at,
			Results: []application.OperationResult{
				{OperationID: []byte(`"op-1"`), Success: true},
				{OperationID: []byte(`{"a":[1,2],"b":"<x>"}`), Success: false, Message: "stock of article 7 would go negative\t\x01 \xff"},
				{OperationID: []byte(`null`), Success: true},
			}},
			`{"success":false,"message":"1 of 3 operations failed","idempotencyKey":"key \u003c\u0026\u003e \"q\" ä\u2028","createdAt":"2026-03-04T04:06:07+0000","results":[{"operationId":"op-1","success":true},{"operationId":{"a":[1,2],"b":"\u003cx\u003e"},"success":false,"message":"stock of article 7 would go negative\t\u0001 \ufffd"},{"operationId":null,"success":true}]}`},
		{application.BatchResult{Success: true, IdempotencyKey: "empty", CreatedAt: at},
			`{"success":true,"idempotencyKey":"empty","createdAt":"2026-03-04T04:06:07+0000","results":[]}`},
	} {
		got, err := renderBatch(c.result)
		if err != nil || string(got) != c.want {
			t.Errorf("renderBatch(%+v)\n got  %s (%v)\n want %s", c.result, got, err, c.want)
		}
	}
}
