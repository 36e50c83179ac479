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

// TestConsoleShipsAndReceivesATransfer, on a phone and at a desk, with key
// events alone: an operator at the source opens the transfer from the menu
// and ships as a scanner does, the bin, the product and the quantity each
// followed by Enter; the focus is back in the scan field afterwards. At the
// destination the product is scanned, the quantity typed and the bin
// scanned; too many is an error beside the quantity that books nothing,
// and the right quantity brings the pieces in.
func TestConsoleShipsAndReceivesATransfer(t *testing.T) {
	for _, screen := range consoleScreens {
		t.Run(screen.name, func(t *testing.T) {
			testdb.Each(t, func(t *testing.T, databaseURL string) {
				shipsAndReceivesATransfer(t, databaseURL, screen.width, screen.height)
			})
		})
	}
}

func shipsAndReceivesATransfer(t *testing.T, databaseURL string, width, height int64) {
	base := consoleService(t, databaseURL)
	api := apiClient{base: base, user: "admin", key: consoleKey}
	main := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "MAIN", "name": "Main"})
	store := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "STORE", "name": "Store"})
	api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": main, "code": "A-01"})
	api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": store, "code": "S-01"})
	mug := api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "MUG-1"})
	api.do(t, "PUT", "/api/stock/change/tr-seed", []any{map[string]any{"articleDetailId": mug,
		"binLocation": map[string]any{"code": "A-01", "warehouseCode": "MAIN"}, "quantity": 10}}, http.StatusOK)
	id := api.id(t, "POST", "/api/transfers", map[string]any{"number": "TR-9", "source": map[string]any{"code": "MAIN"},
		"destination": map[string]any{"code": "STORE"}, "lines": []any{map[string]any{"articleDetailId": mug, "quantity": 6}}})

	key := api.newUser(t, "olga", "operator")
	b := newBrowser(t, base)
	b.screen(width, height)
	b.signIn("olga", key)
	if width < 600 {
		b.run("open the menu", click(`details.more > summary`))
	}
	b.submit("transfers", click(`nav.menu a[href="/console/transfers"]`))
	if got := b.text("main table tbody"); !strings.Contains(got, "TR-9") || !strings.Contains(got, "MAIN") || !strings.Contains(got, "STORE") {
		t.Fatalf("the transfers under way: %q", got)
	}
	b.submit("ship-page", click(fmt.Sprintf(`a[href="/console/transfers/%d/ship"]`, id)))
	if focused := evalJS[string](b, `document.activeElement.name`); focused != "bin" {
		t.Errorf("the focused field is %q, want the bin", focused)
	}
	// Each scan goes to whatever has the focus and ends with Enter,
	// which moves on to the next field and sends the form from the last.
	b.keys("scan the bin", "A-01"+kb.Enter)
	if focused := evalJS[string](b, `document.activeElement.name`); focused != "product" {
		t.Fatalf("after the bin the focused field is %q, want the product", focused)
	}
	b.keys("scan the product", "MUG-1"+kb.Enter)
	if focused := evalJS[string](b, `document.activeElement.name`); focused != "quantity" {
		t.Fatalf("after the product the focused field is %q, want the quantity", focused)
	}
	b.scan("shipped", "4")
	if got := b.text(".notice"); got != "Shipped 4 × MUG-1; 2 left to ship on this line." {
		t.Errorf("after shipping: %q", got)
	}
	if path := evalJS[string](b, `location.pathname`); path != fmt.Sprintf("/console/transfers/%d/ship", id) {
		t.Errorf("after the post the browser shows %s", path)
	}
	if focused := evalJS[string](b, `document.activeElement.name`); focused != "bin" {
		t.Errorf("after shipping the focused field is %q, want the bin", focused)
	}
	if got := b.text(`tr[data-line] td[data-label="In transit"]`); got != "4" {
		t.Errorf("the line's pieces in transit: %q", got)
	}

	b.submit("receive-page", chromedp.Navigate(base+fmt.Sprintf("/console/transfers/%d/receive", id)))
	if focused := evalJS[string](b, `document.activeElement.name`); focused != "product" {
		t.Errorf("the focused field is %q, want the product", focused)
	}
	b.keys("scan the product to receive", "MUG-1"+kb.Enter)
	b.keys("type too many", "5"+kb.Enter)
	b.scan("over-receipt", "S-01")
	if got := b.text(`#receive input[name=quantity] ~ .error`); !strings.Contains(got, "4 in transit") {
		t.Errorf("error beside the quantity: %q", got)
	}
	if focused := evalJS[string](b, `document.activeElement.name`); focused != "quantity" {
		t.Errorf("after the error the focused field is %q, want the quantity", focused)
	}
	if n := api.stockOn(t, mug, "S-01"); n != 0 {
		t.Errorf("MUG-1 on S-01 after an over-receipt: %d, want 0", n)
	}
	b.keys("type what arrived", "4"+kb.Enter)
	if focused := evalJS[string](b, `document.activeElement.name`); focused != "bin" {
		t.Fatalf("after the quantity the focused field is %q, want the bin", focused)
	}
	b.scan("received", "")
	if got := b.text(".notice"); got != "Received 4 × MUG-1; 0 still on the road on this line." {
		t.Errorf("after receiving: %q", got)
	}
	if n := api.stockOn(t, mug, "S-01"); n != 4 {
		t.Errorf("MUG-1 on S-01: %d, want 4", n)
	}
	entries := api.do(t, "GET", fmt.Sprintf("/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.transferId&filter[0][value]=%d", id), nil, http.StatusOK)["data"].([]any)
	if len(entries) != 2 || entries[0].(map[string]any)["user"] != "olga" || entries[1].(map[string]any)["type"] != "transferIn" {
		t.Errorf("ledger %v", entries)
	}
}
