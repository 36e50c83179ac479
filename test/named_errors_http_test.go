package test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// requireNamed checks a 400 whose errors name the property.
func requireNamed(t testing.TB, res *apitest.Response, property string) {
	t.Helper()
	if res.Status != http.StatusBadRequest {
		t.Errorf("%s, want 400 naming %s", res, property)
		return
	}
	if got := errorProperties(t, res); !slices.Contains(got, property) {
		t.Errorf("%s: errors name %v, want %s", res, got, property)
	}
}

// TestPickingListAndShipWarehouseErrorsNameWarehouse: a picking list or a
// shipment from a warehouse that does not exist, or is named by neither id
// nor code, is a 400 whose errors name warehouse.
func TestPickingListAndShipWarehouseErrorsNameWarehouse(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		f.put(t, f.art1, ohBin(f.binA), 5)
		id, _ := f.newOrder(t, map[string]any{"number": "W-1", "details": []any{map[string]any{"articleDetailId": f.art1, "quantity": 2}}})
		path := fmt.Sprintf("/api/orders/%d", id)
		for name, wh := range map[string]map[string]any{
			"unknown id":     {"id": 999},
			"unknown code":   {"code": "NOPE"},
			"neither":        {},
			"two warehouses": {"id": f.main, "code": "SECOND"},
		} {
			t.Run(name, func(t *testing.T) {
				requireNamed(t, f.env.Do(t, "POST", path+"/pickingList", map[string]any{"warehouse": wh}), "warehouse")
				requireNamed(t, f.env.Do(t, "PUT", path+"/ship", map[string]any{"warehouse": wh}), "warehouse")
			})
		}
		requirePicks(t, picks(t, f.env.Do(t, "GET", path+"/pickingList", nil), id))
		if s := f.order(t, path)["status"]; s != "Open" {
			t.Errorf("refused requests moved the order to %v", s)
		}
	})
}

// TestReturnErrorsNameTheirProperty: every refused return names what is
// wrong in its errors, the location and restock flag of the whole return
// as well as the lot of a line.
func TestReturnErrorsNameTheirProperty(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		env := f.env
		lt := f.created(t, env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "LOT-1", "lotTracked": true}), false)
		res := ohBatch(t, env.Do(t, "PUT", "/api/stock/change/lots-in", []any{
			map[string]any{"articleDetailId": lt, "quantity": 2, "binLocation": map[string]any{"id": f.binA}, "lot": map[string]any{"number": "L1", "bestBefore": "2090-01-01"}},
			map[string]any{"articleDetailId": lt, "quantity": 2, "binLocation": map[string]any{"id": f.binA}, "lot": map[string]any{"number": "L2", "bestBefore": "2091-01-01"}},
			map[string]any{"articleDetailId": f.art1, "quantity": 5, "binLocation": map[string]any{"id": f.binA}},
		}))
		if res["success"] != true {
			t.Fatalf("stock in: %v", res)
		}
		id, o := f.newOrder(t, map[string]any{"number": "R-1", "details": []any{
			map[string]any{"articleDetailId": f.art1, "quantity": 2},
			map[string]any{"articleDetailId": lt, "quantity": 3},
		}})
		plain, lotted := ohDetailID(t, o, 0), ohDetailID(t, o, 1)
		path := fmt.Sprintf("/api/orders/%d", id)
		ohOK(t, env.Do(t, "PUT", path+"/ship", map[string]any{"suppressStatusMail": true}))

		one := func(detail int64, more ...any) []any {
			l := map[string]any{"orderDetailId": detail, "quantity": 1}
			for i := 0; i+1 < len(more); i += 2 {
				l[more[i].(string)] = more[i+1]
			}
			return []any{l}
		}
		for name, c := range map[string]struct {
			body     map[string]any
			property string
		}{
			"unknown warehouse":        {map[string]any{"warehouse": map[string]any{"id": 999}, "details": one(plain)}, "warehouse"},
			"warehouse by nothing":     {map[string]any{"warehouse": map[string]any{}, "details": one(plain)}, "warehouse"},
			"unknown bin location":     {map[string]any{"binLocation": map[string]any{"id": 999}, "details": one(plain)}, "binLocation"},
			"warehouse and bin":        {map[string]any{"warehouse": map[string]any{"id": f.main}, "binLocation": map[string]any{"id": f.binA}, "details": one(plain)}, "binLocation"},
			"a location, no restock":   {map[string]any{"restock": false, "warehouse": map[string]any{"id": f.main}, "details": one(plain)}, "restock"},
			"lot of an untracked":      {map[string]any{"details": one(plain, "lot", map[string]any{"number": "L1"})}, "details[0].lot"},
			"lot without a number":     {map[string]any{"details": one(lotted, "lot", map[string]any{"bestBefore": "2090-01-01"})}, "details[0].lot"},
			"lot of two shipped":       {map[string]any{"details": one(lotted)}, "details[0].lot"},
			"lot with another date":    {map[string]any{"details": one(lotted, "lot", map[string]any{"number": "L1", "bestBefore": "2095-01-01"})}, "details[0].lot.bestBefore"},
			"warehouse not an object":  {map[string]any{"warehouse": "MAIN", "details": one(plain)}, "warehouse"},
			"bin location id a string": {map[string]any{"binLocation": map[string]any{"id": "x"}, "details": one(plain)}, "binLocation"},
			"lot number too long": {map[string]any{"details": one(lotted, "lot", map[string]any{"number": "L123456789012345678901234567890123456789012345678901234567890123456"})},
				"details[0].lot.number"},
		} {
			t.Run(name, func(t *testing.T) {
				requireNamed(t, f.returnRequest(t, path, "", c.body), c.property)
			})
		}
		if n := ohInt(t, ohOK(t, env.Do(t, "GET", "/api/returns", nil))["total"]); n != 0 {
			t.Errorf("%d returns after refused ones", n)
		}
	})
}

// TestReceiptLotErrorsNameTheLine: a receipt line whose lot or bin location
// is not of the form they take names that line's lot or bin location.
func TestReceiptLotErrorsNameTheLine(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := poSetup(t, databaseURL)
		lt := f.created(t, f.env.Do(t, "POST", "/api/articleDetails", map[string]any{"number": "LOT-1", "lotTracked": true}), false)
		id, po := f.create(t, map[string]any{"number": "PO-L", "warehouse": map[string]any{"id": f.main},
			"lines": []any{map[string]any{"articleDetailId": lt, "quantity": 5}}})
		l := poLineID(t, po, 0)
		for name, lot := range map[string]any{
			"a date that is none": map[string]any{"number": "L1", "bestBefore": "2026-02-30"},
			"no number":           map[string]any{"bestBefore": "2090-01-01"},
			"not an object":       "L1",
		} {
			t.Run(name, func(t *testing.T) {
				requireNamed(t, f.receive(t, id, "", line(l, 1, "lot", lot)), "lines[0].lot")
			})
		}
		for name, bin := range map[string]any{
			"a bin that is no object": "A-01",
			"a bin id that is text":   map[string]any{"id": "x"},
		} {
			t.Run(name, func(t *testing.T) {
				requireNamed(t, f.receive(t, id, "", line(l, 1, "lot", map[string]any{"number": "L1"}, "binLocation", bin)), "lines[0].binLocation")
			})
		}
		if got := poLines(f.get(t, id)); got != "Open 0/5" {
			t.Errorf("after refused receipts: %s", got)
		}
	})
}

// TestLastAdminChangeNamesRoleOrEnabled: demoting or disabling the last
// enabled admin is a 400 whose errors name what would have taken the role
// away.
func TestLastAdminChangeNamesRoleOrEnabled(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		var admin int64
		for _, u := range ohOK(t, env.Do(t, "GET", "/api/users", nil))["data"].([]any) {
			if um := u.(map[string]any); um["name"] == apitest.User {
				admin = ohInt(t, um["id"])
			}
		}
		path := fmt.Sprintf("/api/users/%d", admin)
		requireNamed(t, env.Do(t, "PUT", path, map[string]any{"role": "operator"}), "role")
		requireNamed(t, env.Do(t, "PUT", path, map[string]any{"enabled": false}), "enabled")
		both := env.Do(t, "PUT", path, map[string]any{"role": "reader", "enabled": false})
		requireNamed(t, both, "role")
		requireNamed(t, both, "enabled")
		// Sending what it is already is no change, and answers 200.
		ohOK(t, env.Do(t, "PUT", path, map[string]any{"role": "admin", "enabled": true}))
		ohError(t, env.Do(t, "DELETE", path, nil), http.StatusBadRequest, "last enabled admin")
	})
}

// TestForbiddenSaysTheRole: a 403 says "forbidden: …" with the role the
// route needs and the one the user has, in plain words.
func TestForbiddenSaysTheRole(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		as := func(role string) string {
			res := env.Do(t, "POST", "/api/users", map[string]any{"name": "u-" + role, "role": role})
			if res.Status != http.StatusCreated {
				t.Fatalf("create %s: %s", role, res)
			}
			key := res.JSON(t)["data"].(map[string]any)["key"].(string)
			req, _ := http.NewRequest("GET", "/api/users", nil)
			req.SetBasicAuth("u-"+role, key)
			res = env.DoRaw(t, req)
			if res.Status != http.StatusForbidden {
				t.Fatalf("%s lists users: %s, want 403", role, res)
			}
			return res.JSON(t)["message"].(string)
		}
		if got, want := as("operator"), `forbidden: GET /api/users needs the admin role, user "u-operator" is an operator`; got != want {
			t.Errorf("message %q, want %q", got, want)
		}
		if got, want := as("reader"), `forbidden: GET /api/users needs the admin role, user "u-reader" is a reader`; got != want {
			t.Errorf("message %q, want %q", got, want)
		}
	})
}

// TestStockExportWarehouseErrorsNameWarehouse: an export of a warehouse
// that does not exist, named empty or twice, is a 400 whose errors name
// the query's warehouse.
func TestStockExportWarehouseErrorsNameWarehouse(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := ohSetup(t, databaseURL)
		for _, query := range []string{"warehouse=NOPE", "warehouse=", "warehouse=MAIN&warehouse=SECOND"} {
			requireNamed(t, f.env.Do(t, "GET", "/api/stock.csv?"+query, nil), "warehouse")
		}
		requireNamed(t, f.env.Do(t, "GET", "/api/stock.csv?colour=red", nil), "colour")
		if res := f.env.Do(t, "GET", "/api/stock.csv?warehouse=MAIN", nil); res.Status != http.StatusOK || res.Header.Get("Content-Type") != "text/csv" {
			t.Errorf("export of MAIN: %s", res)
		}
	})
}
