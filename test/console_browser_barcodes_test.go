package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/shopstock/inventory/test/testdb"
)

// TestConsoleScanningAGS1BarcodeOpensTheProduct: a handheld scanner types
// a GS1 element string into the focused search field and sends Enter; the
// product it names opens at its goods-in form, in a real browser.
func TestConsoleScanningAGS1BarcodeOpensTheProduct(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		api := apiClient{base: base, user: "admin", key: consoleKey}
		pen := api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "PEN-1", "name": "Fineliner", "ean": "4006381333931"})
		other := api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "CAN-1", "name": "Soda", "ean": "036000291452"})
		wh := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "MAIN", "name": "Main warehouse"})
		bin := api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": wh, "code": "A-01-02"})
		api.do(t, "PUT", "/api/stock/change/bb-1", []any{
			map[string]any{"articleDetailId": pen, "quantity": 5, "binLocation": map[string]any{"id": bin}},
		}, http.StatusOK)
		order := api.id(t, "POST", "/api/orders", map[string]any{"number": "10001", "customerEmail": "jane@example.com",
			"details": []any{map[string]any{"articleDetailId": pen, "quantity": 2}}})
		api.do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", order), nil, http.StatusOK)
		key := api.newUser(t, "olga", "operator")
		b := newBrowser(t, base)
		b.signIn("olga", key)

		// A scanner in keyboard mode types the group separator (FNC1)
		// as Ctrl+].
		groupSeparator := chromedp.KeyEvent("]", chromedp.KeyModifiers(chromedp.ModifierCtrl))
		for _, tc := range []struct {
			name   string
			scan   []string // typed with a group separator between the parts
			number string
			id     int64
			query  string
		}{
			{"brackets", []string{"(01)04006381333931(17)270500(10)L-42"}, "PEN-1", pen, "?bestBefore=2027-05-31&lot=L-42"},
			{"raw with identifier and separator", []string{"]d2" + "0100036000291452" + "10B7", "17261231"}, "CAN-1", other, "?bestBefore=2026-12-31&lot=B7"},
			{"a GTIN-14 in a DataBar without separator", []string{"]e0" + "0104006381333931" + "10L-43"}, "PEN-1", pen, "?lot=L-43"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				b.visit("/console/search", "search")
				if focused := evalJS[string](b, `document.activeElement.name`); focused != "q" {
					t.Fatalf("the focused field is %q, want the search", focused)
				}
				var typing []chromedp.Action[chromedp.Void]
				for i, part := range tc.scan {
					if i > 0 {
						typing = append(typing, groupSeparator)
					}
					typing = append(typing, chromedp.SendKeys(chromedp.CSS(`input[name=q]`), part))
				}
				typing = append(typing, chromedp.SendKeys(chromedp.CSS(`input[name=q]`), kb.Enter))
				b.submit("scanned-"+strings.ReplaceAll(tc.name, " ", "-"), typing...)
				if got := b.text("h1"); !strings.Contains(got, tc.number) {
					t.Fatalf("the scan opened %q, want product %s", got, tc.number)
				}
				want := fmt.Sprintf("%s/console/products/%d%s#goods-in", base, tc.id, tc.query)
				if got := evalJS[string](b, `location.href`); got != want {
					t.Errorf("at %s, want %s", got, want)
				}
			})
		}

		// The label's barcode is drawn in the page, wide enough to scan.
		b.visit(fmt.Sprintf("/console/bins/%d", bin), "bin")
		b.submit("bin-label", click(fmt.Sprintf(`a[href="/console/bins/%d/label"]`, bin)))
		if w := evalJS[float64](b, `document.querySelector("svg.barcode").getBoundingClientRect().width`); w < 150 {
			t.Errorf("the label's barcode is %.0f pixels wide", w)
		}
		if bars := b.count(`svg.barcode g rect`); bars < 10 {
			t.Errorf("the label's barcode has %d bars", bars)
		}
		b.visit(fmt.Sprintf("/console/orders/%d/picking", order), "picking-list")
		if n := b.count(`table.picking svg.barcode`); n != 1 {
			t.Errorf("the picking list shows %d bin barcodes, want 1", n)
		}
	})
}
