package test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// TestBatchIDZeroIsOutOfRange: ids are 1..2147483647, so an id of 0 sent in
// a batch operation (the product, a location's id, a bin's warehouseId, an
// order detail) fails that operation with a message naming the property and
// the range, and an operation whose warehouse gives id 0 beside a good code
// does not run.
func TestBatchIDZeroIsOutOfRange(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		rangeText := "from 1 to 2147483647"
		stockCases := []struct {
			op       map[string]any
			property string
		}{
			{map[string]any{"articleDetailId": 0, "quantity": 1, "binLocation": map[string]any{"id": f.binA}}, "articleDetailId"},
			{map[string]any{"articleDetailId": f.art1, "quantity": 1, "binLocation": map[string]any{"id": 0}}, "binLocation.id"},
			{map[string]any{"articleDetailId": f.art1, "quantity": 1, "warehouse": map[string]any{"id": 0}}, "warehouse.id"},
			{map[string]any{"articleDetailId": f.art1, "quantity": 1, "warehouse": map[string]any{"id": 0, "code": "MAIN"}}, "warehouse.id"},
			{map[string]any{"articleDetailId": f.art1, "quantity": 1, "binLocation": map[string]any{"code": "A-01", "warehouseId": 0}}, "binLocation.warehouseId"},
			{map[string]any{"articleDetailId": f.art1, "quantity": 1, "binLocation": map[string]any{"code": "A-01", "warehouseId": "0"}}, "binLocation.warehouseId"},
		}
		ops := make([]any, len(stockCases))
		for i, c := range stockCases {
			ops[i] = c.op
		}
		body := ohBatch(t, f.env.Do(t, "PUT", "/api/stock/change/zero-ids", ops))
		results := body["results"].([]any)
		for i, c := range stockCases {
			r := results[i].(map[string]any)
			msg := fmt.Sprint(r["message"])
			if r["success"] != false || !strings.Contains(msg, c.property) || !strings.Contains(msg, rangeText) {
				t.Errorf("operation %d (%v): %v, want a failure naming %s and the range", i, c.op, r, c.property)
			}
		}
		if n := ohInt(t, ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", f.art1), nil))["data"].(map[string]any)["physicalStock"]); n != 0 {
			t.Errorf("physicalStock %d after operations that all failed", n)
		}

		relocate := ohBatch(t, f.env.Do(t, "PUT", "/api/stock/relocate/zero-ids-relocate", []any{
			map[string]any{"articleDetailId": f.art1, "quantity": 1, "source": map[string]any{"warehouse": map[string]any{"id": 0}},
				"destination": map[string]any{"binLocation": map[string]any{"id": f.binA}}},
		}))
		if r := relocate["results"].([]any)[0].(map[string]any); r["success"] != false ||
			!strings.Contains(fmt.Sprint(r["message"]), "source.warehouse.id") || !strings.Contains(fmt.Sprint(r["message"]), rangeText) {
			t.Errorf("relocation from warehouse id 0: %v, want a failure naming source.warehouse.id and the range", r)
		}

		ship := ohBatch(t, f.env.Do(t, "PUT", "/api/orderDetails/ship/zero-ids-ship", []any{
			map[string]any{"orderDetailId": 0, "quantity": 1, "warehouse": map[string]any{"id": f.main}},
		}))
		if r := ship["results"].([]any)[0].(map[string]any); r["success"] != false ||
			!strings.Contains(fmt.Sprint(r["message"]), "orderDetailId") || !strings.Contains(fmt.Sprint(r["message"]), rangeText) {
			t.Errorf("order detail 0: %v, want a failure naming orderDetailId and the range", r)
		}
	})
}

// TestBatchIntegersBeyond64BitsNameTheRange: an id or a quantity too large
// for any integer type is out of range like any other, so the operation
// fails with a message naming the property and its range.
func TestBatchIntegersBeyond64BitsNameTheRange(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		huge := json.Number("99999999999999999999")
		bin := map[string]any{"id": f.binA}
		for _, c := range []struct {
			path     string
			op       map[string]any
			property string
			rangeOf  string
		}{
			{"/api/stock/change/huge-1", map[string]any{"articleDetailId": huge, "quantity": 1, "binLocation": bin}, "articleDetailId", "from 1 to 2147483647"},
			{"/api/stock/change/huge-2", map[string]any{"articleDetailId": f.art1, "quantity": huge, "binLocation": bin}, "quantity", "from -1000000000 to 1000000000"},
			{"/api/stock/set/huge-3", map[string]any{"articleDetailId": f.art1, "quantity": json.Number("-99999999999999999999"), "binLocation": bin}, "quantity", "from -1000000000 to 1000000000"},
			{"/api/stock/change/huge-4", map[string]any{"articleDetailId": f.art1, "quantity": 1, "binLocation": map[string]any{"code": "A-01", "warehouseId": "99999999999999999999"}}, "binLocation.warehouseId", "from 1 to 2147483647"},
			{"/api/stock/relocate/huge-5", map[string]any{"articleDetailId": f.art1, "quantity": huge, "source": map[string]any{"binLocation": bin},
				"destination": map[string]any{"warehouse": map[string]any{"code": "SECOND"}}}, "quantity", "from -1000000000 to 1000000000"},
			{"/api/orderDetails/ship/huge-6", map[string]any{"orderDetailId": huge, "quantity": 1, "warehouse": map[string]any{"id": f.main}}, "orderDetailId", "from 1 to 2147483647"},
		} {
			body := ohBatch(t, f.env.Do(t, "PUT", c.path, []any{c.op}))
			r := body["results"].([]any)[0].(map[string]any)
			msg := fmt.Sprint(r["message"])
			if r["success"] != false || !strings.Contains(msg, c.property) || !strings.Contains(msg, c.rangeOf) {
				t.Errorf("%s: %v, want a failure naming %s and %s", c.path, r, c.property, c.rangeOf)
			}
		}
	})
}
