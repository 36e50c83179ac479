package test

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/shopstock/inventory/test/testdb"
)

// pickingFixture is the scan fixture's warehouse with an order 10005 of
// 3 × SKU-100 (EAN 4006381333931) and 1 × SKU-200 (EAN-8 96385074),
// whose stock lies on, on a screen, with the operator
// signed in.
type pickingFixture struct {
	scanFixture
	gadget, order int64
}

func newPickingFixture(t *testing.T, databaseURL string, width, height int64) pickingFixture {
	t.Helper()
	f := pickingFixture{scanFixture: newScanFixtureOn(t, databaseURL, width, height)}
	api := f.api
	f.gadget = int64(api.do(t, "GET", "/api/articleDetails?filter[0][property]=articleDetail.number&filter[0][value]=SKU-200", nil, 200)["data"].([]any)[0].(map[string]any)["id"].(float64))
	api.do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", f.gadget), map[string]any{"ean": "96385074"}, 200)
	api.do(t, "PUT", "/api/stock/change/seed-picking", []any{
		map[string]any{"articleDetailId": f.product, "binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 3},
		map[string]any{"articleDetailId": f.gadget, "binLocation": map[string]any{"code": "A-02", "warehouseId": f.warehouse}, "quantity": 1},
	}, 200)
	f.order = api.id(t, "POST", "/api/orders", map[string]any{"number": "10005", "customerEmail": "kim@example.com",
		"details": []any{map[string]any{"articleDetailId": f.product, "quantity": 3}, map[string]any{"articleDetailId": f.gadget, "quantity": 1}}})
	return f
}

// picks is the order's picking list over the API: "bin product×quantity",
// in walking order.
func (f pickingFixture) picks(t *testing.T) string {
	t.Helper()
	list := f.api.do(t, "GET", fmt.Sprintf("/api/orders/%d/pickingList", f.order), nil, http.StatusOK)["data"].(map[string]any)["picks"].([]any)
	var out []string
	for _, p := range list {
		p := p.(map[string]any)
		name := "SKU-100"
		if int64(p["articleDetailId"].(float64)) == f.gadget {
			name = "SKU-200"
		}
		out = append(out, fmt.Sprintf("%v %s×%v", p["binLocationCode"], name, p["quantity"]))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// TestConsolePicksAnOrderByScanning: a picker walks an order's picking
// list with a scanner, on a phone and at a desk, on both databases, by key
// events alone: the bin, then the product (number, EAN or GS1), one piece
// a scan or a quantity typed first; a code scanned into the quantity box
// is the scan it is and never a quantity; a short bin is a button of its
// own that reserves the rest on another bin and puts the bin up for a
// count; once every pick is done the page leads to shipping, which only
// its own button ships. The books are checked after every step.
func TestConsolePicksAnOrderByScanning(t *testing.T) {
	for _, screen := range consoleScreens {
		t.Run(screen.name, func(t *testing.T) {
			testdb.Each(t, func(t *testing.T, databaseURL string) {
				f := newPickingFixture(t, databaseURL, screen.width, screen.height)
				b, api := f.b, f.api
				order := fmt.Sprintf("/console/orders/%d", f.order)
				scanField := order + "/picking scan"

				// The order by its number; its picking list by the
				// reserve button and Enter.
				b.gun("order", "10005")
				b.expect("the order", "h1", "10005", "/console/search q")
				b.tap(`form[action="` + order + `/picking"] button`)
				b.submit("reserved", chromedp.KeyEvent(kb.Enter))
				b.expect("reserved", ".notice", "The picking list is reserved.", scanField)
				b.expect("the first pick", "#pick-bin", "A-01", scanField)
				b.expect("its product", "#pick-product", "SKU-100", scanField)
				b.expect("the progress", "#progress", "0 of 2 picks done", scanField)
				if got := f.picks(t); got != "A-01 SKU-100×3, A-02 SKU-200×1" {
					t.Fatalf("reserved %s", got)
				}

				// The product before the bin, a wrong product: errors
				// beside the field, nothing confirmed.
				b.gun("product-first", "SKU-100")
				b.expect("the bin first", "#scan input[name=scan] ~ .error", `"SKU-100" is not bin A-01: scan the bin first.`, scanField)
				b.gun("bin", "A-01")
				b.expect("the bin scanned", "#scan label:first-of-type", "Scan the product", scanField)
				b.gun("wrong-product", "96385074")
				b.expect("a wrong product", "#scan input[name=scan] ~ .error", "That is not SKU-100: scan the product on A-01.", scanField)
				b.gun("bin-again", "A-01")
				b.gun("ean", "4006381333931")
				b.expect("one piece by EAN", ".notice", "Picked 1 of 3 × SKU-100 on A-01.", scanField)
				b.expect("one picked", "#pick-left", "2 to pick · 1 picked", scanField)

				// A code scanned into the quantity box: the EAN-13 is the
				// product's scan, one piece; the EAN-8 of another product
				// is an error. Neither is a quantity.
				b.gun("bin-for-the-box", "A-01")
				b.tap("#scan input[name=quantity]")
				b.gun("ean-13-in-the-box", "4006381333931")
				b.expect("an EAN-13 in the quantity box", ".notice", "Picked 2 of 3 × SKU-100 on A-01.", scanField)
				b.gun("bin-for-the-box-again", "A-01")
				b.tap("#scan input[name=quantity]")
				b.gun("ean-8-in-the-box", "96385074")
				b.expect("an EAN-8 in the quantity box", "#scan input[name=scan] ~ .error", "That is not SKU-100", scanField)
				if got := b.text("#pick-left"); got != "1 to pick · 2 picked" {
					t.Errorf("after codes in the quantity box the pick says %q", got)
				}
				if got := api.stockOn(t, f.product, "A-01"); got != 3 {
					t.Errorf("picking booked stock: A-01 holds %d of SKU-100", got)
				}

				// A-01 is short: its last piece is reserved on A-03,
				// where stock has come in since, and A-01 is up for a
				// count.
				api.do(t, "PUT", "/api/stock/change/seed-a03", []any{map[string]any{"articleDetailId": f.product,
					"binLocation": map[string]any{"code": "A-03", "warehouseId": f.warehouse}, "quantity": 5}}, 200)
				b.tap("#short button")
				b.submit("short", chromedp.KeyEvent(kb.Enter))
				b.expect("short", ".notice", "A-01 is short; the bin is put up for a count. 1 piece reserved on other bins.", scanField)
				if got := f.picks(t); got != "A-01 SKU-100×2, A-02 SKU-200×1, A-03 SKU-100×1" {
					t.Errorf("after the short pick the list is %s", got)
				}
				b.expect("the list reflects it", "#progress", "1 of 3 picks done", scanField)
				b.expect("the next pick", "#pick-bin", "A-02", scanField)
				counts := api.do(t, "GET", "/api/counts", nil, http.StatusOK)["data"].([]any)
				if len(counts) != 1 || counts[0].(map[string]any)["status"] != "Open" ||
					fmt.Sprint(counts[0].(map[string]any)["bins"].([]any)[0].(map[string]any)["binLocationCode"]) != "A-01" {
					t.Errorf("the counts after the short pick: %v", counts)
				}

				// A-02 by the EAN-8, A-03 by a quantity typed first and
				// the GS1 barcode.
				b.gun("a-02", "A-02")
				b.gun("ean-8", "96385074")
				b.expect("SKU-200", ".notice", "Picked 1 of 1 × SKU-200 on A-02. The pick is done.", scanField)
				b.expect("the last pick", "#pick-bin", "A-03", scanField)
				b.tap("#scan input[name=quantity]")
				b.gun("quantity", "1")
				b.expect("the quantity waits", "#pick-left", "1 to pick", scanField)
				if got := b.value("#scan input[name=quantity]"); got != "1" {
					t.Errorf("the typed quantity is %q", got)
				}
				b.gun("a-03", "A-03")
				b.gun("gs1", "]C1"+"0104006381333931")
				b.expect("all picked", ".notice", "Picked 1 of 1 × SKU-100 on A-03. The pick is done. Every pick is confirmed", "/console/search q")
				b.expect("done", "#pick-done", "Every pick is confirmed.", "/console/search q")
				if status := api.do(t, "GET", fmt.Sprintf("/api/orders/%d", f.order), nil, http.StatusOK)["data"].(map[string]any)["status"]; status == "Completely delivered" {
					t.Fatalf("confirming the picks shipped the order")
				}

				// Shipping: its link, then its own page's button.
				b.submit("ship-asks", click("#ship-order"))
				b.expect("ship asks", "h1", "Ship order 10005?", "/console/search q")
				b.submit("shipped", click(fmt.Sprintf(`form[action="%s/ship"] button.primary`, order)))
				b.expect("shipped", ".notice", "The order is shipped and the customer is mailed.", "/console/search q")
				if status := api.do(t, "GET", fmt.Sprintf("/api/orders/%d", f.order), nil, http.StatusOK)["data"].(map[string]any)["status"]; status != "Completely delivered" {
					t.Errorf("the order is %v", status)
				}
				if a1, a2, a3 := api.stockOn(t, f.product, "A-01"), api.stockOn(t, f.gadget, "A-02"), api.stockOn(t, f.product, "A-03"); a1 != 1 || a2 != 0 || a3 != 4 {
					t.Errorf("after shipping A-01 holds %d of SKU-100, A-02 %d of SKU-200, A-03 %d of SKU-100; want 1, 0, 4", a1, a2, a3)
				}
				if got := f.picks(t); got != "" {
					t.Errorf("after shipping the list holds %s", got)
				}
			})
		})
	}
}
