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

// TestConsoleReceivesAPurchaseOrder: an operator opens the receiving page,
// picks an open purchase order, scans a product, types the quantity, takes
// the default bin offered or names another, and sees what was received and
// what is outstanding; an over-receipt is an error beside the quantity
// that says how many pieces are still expected.
func TestConsoleReceivesAPurchaseOrder(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		api := f.api
		api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
		bins := api.do(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]=A-02", nil, http.StatusOK)["data"].([]any)
		a02 := int64(bins[0].(map[string]any)["id"].(float64))
		api.do(t, "PUT", fmt.Sprintf("/api/binLocations/%d/articleDetails/%d", a02, f.product), map[string]any{"defaultMapping": true}, http.StatusOK)
		gadget := int64(api.do(t, "GET", "/api/articleDetails?filter[0][property]=articleDetail.number&filter[0][value]=SKU-200", nil, http.StatusOK)["data"].([]any)[0].(map[string]any)["id"].(float64))
		po := api.id(t, "POST", "/api/purchaseOrders", map[string]any{"number": "PO-7", "supplier": "Widgets Ltd", "warehouse": map[string]any{"code": "MAIN"},
			"expectedAt": "2026-12-01", "lines": []any{
				map[string]any{"articleDetailId": f.product, "quantity": 10},
				map[string]any{"articleDetailId": gadget, "quantity": 4},
			}})
		cancelled := api.id(t, "POST", "/api/purchaseOrders", map[string]any{"number": "PO-8", "warehouse": map[string]any{"code": "MAIN"},
			"lines": []any{map[string]any{"articleDetailId": gadget, "quantity": 1}}})
		api.do(t, "PUT", fmt.Sprintf("/api/purchaseOrders/%d", cancelled), map[string]any{"status": "Cancelled"}, http.StatusOK)

		key := api.newUser(t, "rita", "operator")
		b := newBrowser(t, base)
		b.signIn("rita", key)
		b.submit("receiving", click(`nav.menu a[href="/console/receiving"]`))
		if got := b.text("main table tbody"); !strings.Contains(got, "PO-7") || strings.Contains(got, "PO-8") || !strings.Contains(got, "14") {
			t.Fatalf("the open purchase orders: %q", got)
		}
		b.submit("purchase-order", click(fmt.Sprintf(`a[href="/console/receiving/%d"]`, po)))
		if focused := evalJS[string](b, `document.activeElement.name`); focused != "product" {
			t.Errorf("the focused field is %q, want the product", focused)
		}

		// A scanner types the number and sends Enter: the line is chosen,
		// its default bin offered, and the quantity is next.
		b.submit("scanned", chromedp.SendKeys(chromedp.CSS(`input[name=product]`), "SKU-100"+kb.Enter))
		if focused := evalJS[string](b, `document.activeElement.name`); focused != "quantity" {
			t.Errorf("after the scan the focused field is %q, want the quantity", focused)
		}
		if bin := evalJS[string](b, `document.querySelector("#receive input[name=bin]").value`); bin != "A-02" {
			t.Errorf("the bin offered is %q, want the default bin A-02", bin)
		}
		b.submit("received", chromedp.SendKeys(chromedp.CSS(`input[name=quantity]`), "4"+kb.Enter))
		if got := b.text(".notice"); got != "Received 4 × SKU-100 on A-02; 6 outstanding on this line." {
			t.Errorf("after receiving: %q", got)
		}
		// Post/Redirect/Get: the answer is the order's page, fetched anew.
		if path := evalJS[string](b, `location.pathname`); path != fmt.Sprintf("/console/receiving/%d", po) {
			t.Errorf("after the post the browser shows %s", path)
		}
		if got := b.text(fmt.Sprintf(`tr[data-line] td[data-label=Outstanding]`)); got != "6" {
			t.Errorf("the line's outstanding pieces: %q", got)
		}

		b.submit("not-on-the-order", fill(`input[name=product]`, "SKU-999"+kb.Enter))
		if got := b.text(`#receive input[name=product] ~ .error`); !strings.Contains(got, "SKU-999 is not on this purchase order") {
			t.Errorf("error beside the product: %q", got)
		}
		b.submit("gadget", fill(`input[name=product]`, "SKU-200"+kb.Enter))
		b.submit("over-receipt", fill(`input[name=quantity]`, "9"), fill(`#receive input[name=bin]`, "A-03"), click(`#receive button`))
		if got := b.text(`#receive input[name=quantity] ~ .error`); !strings.Contains(got, "Only 4 more of SKU-200 are expected on this order.") {
			t.Errorf("error beside the quantity: %q", got)
		}
		if n := api.stockOn(t, gadget, "A-03"); n != 0 {
			t.Fatalf("the over-receipt booked %d", n)
		}
		b.submit("received-rest", fill(`input[name=quantity]`, "4"), click(`#receive button`))
		if got := b.text(".notice"); got != "Received 4 × SKU-200 on A-03; 0 outstanding on this line." {
			t.Errorf("after receiving: %q", got)
		}
		if n := api.stockOn(t, gadget, "A-03"); n != 4 {
			t.Errorf("SKU-200 on A-03: %d, want 4", n)
		}
		got := api.do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d", po), nil, http.StatusOK)["data"].(map[string]any)
		if got["status"] != "Partially received" {
			t.Errorf("status %v", got["status"])
		}
		entries := api.do(t, "GET", fmt.Sprintf("/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.purchaseOrderId&filter[0][value]=%d", po), nil, http.StatusOK)["data"].([]any)
		if len(entries) != 2 || entries[0].(map[string]any)["user"] != "rita" || entries[0].(map[string]any)["type"] != "receipt" {
			t.Errorf("ledger %v", entries)
		}
	})
}
