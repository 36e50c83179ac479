package test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/shopstock/inventory/test/testdb"
)

// TestConsolePicksAWaveByScanning: a picker with a scanner walks a wave on
// a phone and at a desk, by key events alone (each scan is the code's keys
// and Enter): the bin, then the product, confirms a piece; a wrong scan
// says so beside the field and confirms nothing; "Next task" moves on;
// "short" is a button of its own that no scan sends; a quantity typed
// before the scans confirms that many. After every step the scan field has
// the focus and the progress is counted.
func TestConsolePicksAWaveByScanning(t *testing.T) {
	for _, screen := range consoleScreens {
		t.Run(screen.name, func(t *testing.T) {
			testdb.Each(t, func(t *testing.T, databaseURL string) {
				base := consoleService(t, databaseURL)
				f := newConsoleFixture(t, base)
				api := f.api
				a2 := api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.warehouse, "code": "A-2"})
				a10 := api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.warehouse, "code": "A-10"})
				gadget := int64(api.do(t, "GET", "/api/articleDetails?filter[0][property]=articleDetail.number&filter[0][value]=SKU-200", nil, http.StatusOK)["data"].([]any)[0].(map[string]any)["id"].(float64))
				api.do(t, "PUT", "/api/stock/change/wave-browser", []any{
					map[string]any{"articleDetailId": f.product, "quantity": 2, "binLocation": map[string]any{"id": a2}},
					map[string]any{"articleDetailId": f.product, "quantity": 1, "binLocation": map[string]any{"id": a10}},
					map[string]any{"articleDetailId": gadget, "quantity": 2, "binLocation": map[string]any{"id": a10}},
				}, http.StatusOK)
				second := api.id(t, "POST", "/api/orders", map[string]any{"number": "10002",
					"details": []any{map[string]any{"articleDetailId": gadget, "quantity": 2}}})
				wave := api.id(t, "POST", "/api/pickingWaves", map[string]any{"warehouse": map[string]any{"id": f.warehouse}, "orderIds": []any{f.order, second}})
				page := fmt.Sprintf("/console/waves/%d", wave)
				scanField := page + "/scan scan"

				key := api.newUser(t, "pia", "operator")
				b := newBrowser(t, base)
				b.screen(screen.width, screen.height)
				b.signIn("pia", key)
				b.visit(page, "wave")
				b.expect("the first task", "#task-bin", "A-2", scanField)
				b.expect("its product", "#task-product", "SKU-100", scanField)
				b.expect("the progress", "#progress", "0 of 3 tasks done", scanField)

				// Bin, then product: one piece. A wrong product confirms nothing.
				b.scan("bin", "A-2")
				b.expect("the bin scanned", "#scan label:last-of-type", "Scan the product", scanField)
				b.scan("wrong-product", "SKU-200")
				b.expect("a wrong product", "#scan input[name=scan] ~ .error", "That is not SKU-100", scanField)
				b.scan("product", "SKU-100")
				b.expect("one piece", ".notice", "Picked 1 of 2 × SKU-100 on A-2.", scanField)
				b.scan("wrong-bin", "A-10")
				b.expect("a wrong bin", "#scan input[name=scan] ~ .error", "is not bin A-2", scanField)
				b.scan("bin-again", "A-2")
				b.scan("product-again", "SKU-100")
				b.expect("the task picked", ".notice", "Picked 2 of 2 × SKU-100 on A-2. The task is done.", scanField)
				b.expect("the walk goes on", "#task-bin", "A-10", scanField)
				b.expect("one done", "#progress", "1 of 3 tasks done", scanField)

				// Next task: SKU-200 on A-10, which holds none after all.
				b.tap("#next")
				b.submit("next", chromedp.KeyEvent(kb.Enter))
				b.expect("the next task", "#task-product", "SKU-200", scanField)
				b.scan("stray", "SOMETHING")
				b.expect("a stray scan", "#scan input[name=scan] ~ .error", "is not bin A-10", scanField)
				if got := b.text("#task-left"); got != "2 to pick" {
					t.Errorf("after a stray scan the task says %q", got)
				}
				b.tap("#short button")
				b.submit("short", chromedp.KeyEvent(kb.Enter))
				b.expect("short", ".notice", "A-10 is short; the bin is put up for a count. 2 piece(s) found nowhere.", scanField)
				b.expect("short counted", "#progress", "2 of 3 tasks done · 1 short", scanField)

				// A quantity typed first, then bin and product.
				b.expect("the last task", "#task-product", "SKU-100", scanField)
				b.tap("#scan input[name=quantity]")
				b.keys("type the quantity", "1"+kb.Enter)
				if got := b.focused(); got != scanField {
					t.Errorf("Enter after the quantity: focus on %q, want the scan field", got)
				}
				b.scan("last-bin", "A-10")
				b.scan("last-product", "SKU-100")
				b.expect("all done", ".notice", "Picked 1 of 1 × SKU-100 on A-10. The task is done.", "/console/search q")
				b.expect("nothing left", "#task", "Every task of this wave is done.", "/console/search q")

				w := api.do(t, "GET", fmt.Sprintf("/api/pickingWaves/%d", wave), nil, http.StatusOK)["data"].(map[string]any)
				if p := fmt.Sprint(w["progress"]); p != "map[picked:2 short:1 tasks:3]" {
					t.Errorf("the wave's progress: %s", p)
				}
				shipped := api.do(t, "POST", fmt.Sprintf("/api/pickingWaves/%d/ship", wave), nil, http.StatusOK)["data"].(map[string]any)
				if fmt.Sprint(shipped["shipped"]) != fmt.Sprintf("[%d]", f.order) {
					t.Errorf("shipped %v", shipped)
				}
			})
		})
	}
}
