package test

import (
	"fmt"
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
				want := fmt.Sprintf("%s/console/products/%d%s#goods", base, tc.id, tc.query)
				if got := evalJS[string](b, `location.href`); got != want {
					t.Errorf("at %s, want %s", got, want)
				}
			})
		}
	})
}
