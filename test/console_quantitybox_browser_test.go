package test

import (
	"fmt"
	"net/http"
	"testing"
)

// TestConsoleTransferQuantityBoxTellsScans: a barcode scanned into the
// quantity box of a transfer's ship or receive form, an EAN-13 or an
// EAN-8, is told as the code it is beside the emptied box and never
// shipped or received as a quantity; a typed quantity then ships and
// receives. On a phone and at a desk, on both databases, by key events.
func TestConsoleTransferQuantityBoxTellsScans(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		b, api := f.b, f.api
		gadget := int64(api.do(t, "GET", "/api/articleDetails?filter[0][property]=articleDetail.number&filter[0][value]=SKU-200", nil, 200)["data"].([]any)[0].(map[string]any)["id"].(float64))
		api.do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", gadget), map[string]any{"ean": "96385074"}, 200)
		store := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "STORE", "name": "Store"})
		api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": store, "code": "S-01"})
		api.do(t, "PUT", "/api/stock/change/tr-seed", []any{map[string]any{"articleDetailId": f.product,
			"binLocation": map[string]any{"code": "A-01", "warehouseCode": "MAIN"}, "quantity": 10}}, http.StatusOK)
		id := api.id(t, "POST", "/api/transfers", map[string]any{"number": "TR-9", "source": map[string]any{"code": "MAIN"},
			"destination": map[string]any{"code": "STORE"}, "lines": []any{map[string]any{"articleDetailId": f.product, "quantity": 6}}})
		shipped := func() float64 {
			t.Helper()
			l := api.do(t, "GET", fmt.Sprintf("/api/transfers/%d", id), nil, http.StatusOK)["data"].(map[string]any)["lines"].([]any)[0].(map[string]any)
			return l["shipped"].(float64)
		}

		ship := fmt.Sprintf("/console/transfers/%d/ship", id)
		b.visit(ship, "ship")
		b.gunStays("bin", "A-01")
		b.gunStays("product", "SKU-100")
		if got := b.focusSettles(is(ship + " quantity")); got != ship+" quantity" {
			t.Fatalf("after the product the focus is on %q", got)
		}
		b.gun("ean-13-in-the-box", "4006381333931")
		b.expect("an EAN-13 in the quantity", "#ship input[name=quantity] ~ .error", "4006381333931 is the barcode of SKU-100, not a quantity.", ship+" quantity")
		if got := b.value("#ship input[name=quantity]"); got != "" {
			t.Errorf("the quantity box kept %q", got)
		}
		b.gun("ean-8-in-the-box", "96385074")
		b.expect("an EAN-8 in the quantity", "#ship input[name=quantity] ~ .error", "96385074 is the barcode of SKU-200, not a quantity.", ship+" quantity")
		if n, a1 := shipped(), api.stockOn(t, f.product, "A-01"); n != 0 || a1 != 10 {
			t.Fatalf("codes in the quantity box shipped %v; A-01 holds %d", n, a1)
		}
		b.gun("shipped", "4")
		b.expect("shipped", ".notice", "Shipped 4 × SKU-100; 2 left to ship on this line.", ship+" bin")
		if n, a1 := shipped(), api.stockOn(t, f.product, "A-01"); n != 4 || a1 != 6 {
			t.Errorf("shipped %v; A-01 holds %d; want 4 and 6", n, a1)
		}

		receive := fmt.Sprintf("/console/transfers/%d/receive", id)
		b.visit(receive, "receive")
		b.gunStays("product", "SKU-100")
		if got := b.focusSettles(is(receive + " quantity")); got != receive+" quantity" {
			t.Fatalf("after the product the focus is on %q", got)
		}
		b.gunStays("ean-13-in-the-box", "4006381333931")
		b.gun("bin", "S-01")
		b.expect("an EAN-13 in the quantity", "#receive input[name=quantity] ~ .error", "4006381333931 is the barcode of SKU-100, not a quantity.", receive+" quantity")
		if got := api.stockOn(t, f.product, "S-01"); got != 0 {
			t.Fatalf("a code in the quantity box received %d", got)
		}
		b.gunStays("quantity", "3")
		if got := b.value("#receive input[name=bin]"); got != "S-01" {
			t.Errorf("after the error the bin is %q", got)
		}
		b.gun("received", "")
		b.expect("received", ".notice", "Received 3 × SKU-100; 1 still on the road on this line.", receive+" product")
		if got := api.stockOn(t, f.product, "S-01"); got != 3 {
			t.Errorf("S-01 holds %d, want 3", got)
		}
	})
}

// TestConsoleRepeatedBinCodeLabelScansToItsBin: where a bin's code is a
// bin of two warehouses, its label's barcode carries the warehouse too,
// and scanning what it carries opens that very bin, not a choice, or
// names it in a bin field; a unique code's label carries the code alone.
func TestConsoleRepeatedBinCodeLabelScansToItsBin(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		b, api := f.b, f.api
		second := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "SEC", "name": "Second warehouse",
			"binLocationFormatComponents": []any{
				map[string]any{"type": "text", "value": "A-"},
				map[string]any{"type": "number", "from": 1, "to": 1, "padding": 2},
			}})
		api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", second), nil, 200)
		binID := func(code string, warehouse int64) int64 {
			t.Helper()
			for _, bin := range api.do(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]="+code, nil, 200)["data"].([]any) {
				bin := bin.(map[string]any)
				if int64(bin["warehouseId"].(float64)) == warehouse {
					return int64(bin["id"].(float64))
				}
			}
			t.Fatalf("no bin %s in warehouse %d", code, warehouse)
			return 0
		}
		for _, c := range []struct {
			code      string
			warehouse int64
			carries   string
		}{{"A-01", f.warehouse, "A-01@MAIN"}, {"A-01", second, "A-01@SEC"}, {"A-02", f.warehouse, "A-02"}} {
			bin := fmt.Sprintf("/console/bins/%d", binID(c.code, c.warehouse))
			b.visit(bin+"/label", "label-"+c.carries)
			drawn := svgsOf(t, evalJS[string](b, `document.documentElement.outerHTML`))
			if len(drawn) != 1 || drawn[0].label != "Code 128: "+c.carries || !drawn[0].encodes(t, c.carries) {
				t.Fatalf("the label of %s in warehouse %d draws %+v, want %q", c.code, c.warehouse, drawn, c.carries)
			}
			b.visit("/console/search", "search")
			b.gun("scan-"+c.carries, c.carries)
			if path := evalJS[string](b, `location.pathname`); path != bin {
				t.Errorf("a scan of %q opens %s, want %s", c.carries, path, bin)
			}
			b.expect("the bin", "h1", c.code, "/console/search q")
		}

		// A bin field takes the label as its bin in the form's
		// warehouse.
		api.do(t, "PUT", "/api/stock/change/seed-a01", []any{map[string]any{"articleDetailId": f.product,
			"binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 3}}, 200)
		b.visit("/console/move", "move")
		b.gunStays("from", "A-01@MAIN")
		b.gunStays("product", "SKU-100")
		b.gunStays("quantity", "2")
		b.gun("moved", "A-02")
		b.expect("moved", ".notice", "Moved 2 × SKU-100 from A-01 to A-02.", "/console/move from")
		if a1, a2 := api.stockOn(t, f.product, "A-01"), api.stockOn(t, f.product, "A-02"); a1 != 1 || a2 != 2 {
			t.Errorf("after the move A-01 holds %d, A-02 %d; want 1 and 2", a1, a2)
		}
	})
}
