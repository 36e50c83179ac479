package test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// TestShipOrderWarehouseErrorsNameWarehouse: the warehouse of a ship
// request that names nothing, names nothing at all, or names two
// warehouses at once is a 400 whose errors name `warehouse`, as every
// other refused body names its property; the order stays unshipped.
func TestShipOrderWarehouseErrorsNameWarehouse(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		f.env.Do(t, "PUT", "/api/stock/change/ship-wh-errors", []any{
			map[string]any{"articleDetailId": f.art1, "quantity": 5, "binLocation": map[string]any{"id": f.binA}},
		})
		order := f.created(t, f.env.Do(t, "POST", "/api/orders", map[string]any{
			"number": "SHIP-WH-1", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}},
		}), false)
		for name, warehouse := range map[string]map[string]any{
			"unknown code":        {"code": "NOPE"},
			"unknown id":          {"id": 999999},
			"neither id nor code": {},
			"id and code differ":  {"id": f.main, "code": "SECOND"},
		} {
			res := f.env.Do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", order), map[string]any{"warehouse": warehouse})
			ohError(t, res, http.StatusBadRequest)
			if got := errorProperties(t, res); len(got) != 1 || got[0] != "warehouse" {
				t.Errorf("%s: errors name %v, want [warehouse]: %s", name, got, res)
			}
		}
		data := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/orders/%d", order), nil))["data"].(map[string]any)
		if data["status"] != "Open" {
			t.Errorf("order status %v after refused shipments, want Open", data["status"])
		}
	})
}

// TestWarehouseIDZeroInABodyIsOutOfRange: ids are 1..2147483647, so a
// warehouse given as {"id": 0, "code": …} in a body (a ship request, a
// picking list, a transfer, a count, a wave, a purchase order), or a count's
// bin given so, is a 400 naming its id, never what its code names; nothing
// changes.
func TestWarehouseIDZeroInABodyIsOutOfRange(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		f.env.Do(t, "PUT", "/api/stock/change/wh-zero", []any{
			map[string]any{"articleDetailId": f.art1, "quantity": 5, "binLocation": map[string]any{"id": f.binA}},
		})
		order := f.created(t, f.env.Do(t, "POST", "/api/orders", map[string]any{
			"number": "WH-ZERO-1", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}},
		}), false)
		zero := map[string]any{"id": 0, "code": "MAIN"}
		second := map[string]any{"code": "SECOND"}
		line := []any{map[string]any{"articleDetailId": f.art1, "quantity": 1}}
		for _, c := range []struct {
			method, path string
			body         map[string]any
			property     string
		}{
			{"PUT", fmt.Sprintf("/api/orders/%d/ship", order), map[string]any{"warehouse": zero}, "warehouse.id"},
			{"POST", fmt.Sprintf("/api/orders/%d/pickingList", order), map[string]any{"warehouse": zero}, "warehouse.id"},
			{"POST", "/api/transfers", map[string]any{"number": "T-ZERO", "source": zero, "destination": second, "lines": line}, "source.id"},
			{"POST", "/api/counts", map[string]any{"warehouse": zero}, "warehouse.id"},
			{"POST", "/api/counts", map[string]any{"warehouse": map[string]any{"code": "MAIN"},
				"binLocations": []any{map[string]any{"id": 0, "code": "A-01"}}}, "binLocations[0].id"},
			{"POST", "/api/pickingWaves", map[string]any{"warehouse": zero, "orderIds": []any{order}}, "warehouse.id"},
			{"POST", "/api/purchaseOrders", map[string]any{"number": "PO-ZERO", "warehouse": zero, "lines": line}, "warehouse.id"},
		} {
			whInvalidField(t, f.env.Do(t, c.method, c.path, c.body), c.property)
		}
		data := ohOK(t, f.env.Do(t, "GET", fmt.Sprintf("/api/orders/%d", order), nil))["data"].(map[string]any)
		if data["status"] != "Open" {
			t.Errorf("order status %v after refused requests, want Open", data["status"])
		}
	})
}
