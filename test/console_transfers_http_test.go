package test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// autofocused is the name of the field of the form that has the focus.
func autofocused(t *testing.T, form string) string {
	t.Helper()
	m := regexp.MustCompile(`<input name="([^"]+)"[^>]*\bautofocus\b`).FindStringSubmatch(form)
	if m == nil {
		t.Fatalf("no field of the form has the focus:\n%s", form)
	}
	return m[1]
}

// TestConsoleTransfers: the transfers under way, a transfer's page at the
// source that ships by scanning bin and product, and at the destination one
// that receives by scanning the product; the scan field has the focus on
// each, a refused form says why beside the field, and a reader sees the
// pages without forms.
func TestConsoleTransfers(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		api := apiClient{base: base, user: "admin", key: consoleKey}
		main := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "MAIN", "name": "Main"})
		store := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "STORE", "name": "Store"})
		api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": main, "code": "A-01"})
		api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": store, "code": "S-01"})
		mug := api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "MUG-1"})
		api.do(t, "PUT", "/api/stock/change/tr-seed", []any{map[string]any{"articleDetailId": mug,
			"binLocation": map[string]any{"code": "A-01", "warehouseCode": "MAIN"}, "quantity": 10}}, http.StatusOK)
		id := api.id(t, "POST", "/api/transfers", map[string]any{"number": "TR-1", "source": map[string]any{"code": "MAIN"},
			"destination": map[string]any{"code": "STORE"}, "lines": []any{map[string]any{"articleDetailId": mug, "quantity": 6}}})
		c := newConsoleClient(t, base)
		c.signIn("admin", consoleKey)

		_, page := c.get("/console/transfers")
		if !strings.Contains(page, `href="/console/transfers">Transfers</a>`) && !strings.Contains(page, `href="/console/transfers" class="on">Transfers</a>`) {
			t.Errorf("no Transfers in the menu:\n%s", page)
		}
		if !strings.Contains(page, ">TR-1</a>") || !strings.Contains(page, fmt.Sprintf(`href="/console/transfers/%d/ship"`, id)) ||
			strings.Contains(page, fmt.Sprintf(`href="/console/transfers/%d/receive"`, id)) {
			t.Fatalf("the list of transfers:\n%s", page)
		}

		ship := fmt.Sprintf("/console/transfers/%d/ship", id)
		_, page = c.get(ship)
		if got := autofocused(t, formOn(t, page, ship)); got != "bin" || strings.Contains(page, `name="q" value="" placeholder="Scan or type a product, bin or order" aria-label="Search" autocomplete="off" enterkeyhint="search" autofocus`) {
			t.Fatalf("the ship page focuses %s", got)
		}
		// A bin of the destination, then too many pieces: each beside its field.
		resp, body := c.submit(page, ship, url.Values{"bin": {"S-01"}, "product": {"MUG-1"}, "quantity": {"2"}})
		if resp.StatusCode != http.StatusBadRequest || fieldError(t, formOn(t, body, ship), "bin") == "" || autofocused(t, formOn(t, body, ship)) != "bin" {
			t.Fatalf("a bin of the destination: %d\n%s", resp.StatusCode, body)
		}
		resp, body = c.submit(body, ship, url.Values{"bin": {"A-01"}, "product": {"MUG-1"}, "quantity": {"7"}})
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(fieldError(t, formOn(t, body, ship), "quantity"), "at most 6") ||
			autofocused(t, formOn(t, body, ship)) != "quantity" {
			t.Fatalf("too many pieces: %d\n%s", resp.StatusCode, body)
		}
		resp, body = c.submit(body, ship, url.Values{"bin": {"A-01"}, "product": {"NOPE"}, "quantity": {"1"}})
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(fieldError(t, formOn(t, body, ship), "product"), "not on this transfer") {
			t.Fatalf("a product not on the transfer: %d\n%s", resp.StatusCode, body)
		}
		resp, body = c.submit(body, ship, url.Values{"bin": {"A-01"}, "product": {"MUG-1"}, "quantity": {"4"}})
		if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != ship || !strings.Contains(body, "Shipped 4 × MUG-1; 2 left to ship on this line.") ||
			autofocused(t, formOn(t, body, ship)) != "bin" {
			t.Fatalf("shipping: %d %s\n%s", resp.StatusCode, resp.Request.URL, body)
		}
		if !strings.Contains(body, `<td class="num strong" data-label="In transit">4</td>`) {
			t.Errorf("the line does not show 4 in transit:\n%s", body)
		}

		receive := fmt.Sprintf("/console/transfers/%d/receive", id)
		_, page = c.get(receive)
		if got := autofocused(t, formOn(t, page, receive)); got != "product" {
			t.Fatalf("the receive page focuses %s", got)
		}
		resp, body = c.submit(page, receive, url.Values{"product": {"MUG-1"}, "quantity": {"5"}})
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(fieldError(t, formOn(t, body, receive), "quantity"), "4 in transit") {
			t.Fatalf("more than in transit: %d\n%s", resp.StatusCode, body)
		}
		resp, body = c.submit(body, receive, url.Values{"product": {"MUG-1"}, "quantity": {"3"}, "bin": {"S-01"}})
		if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != receive || !strings.Contains(body, "Received 3 × MUG-1; 1 still on the road on this line.") {
			t.Fatalf("receiving: %d\n%s", resp.StatusCode, body)
		}
		tr := api.do(t, "GET", fmt.Sprintf("/api/transfers/%d", id), nil, http.StatusOK)["data"].(map[string]any)
		l := tr["lines"].([]any)[0].(map[string]any)
		if tr["status"] != "Partially received" || l["shipped"] != float64(4) || l["received"] != float64(3) || api.stockOn(t, mug, "S-01") != 3 {
			t.Fatalf("the transfer after the console: %v", tr)
		}

		// The product's ledger links the transfer its entries moved.
		if _, page := c.get(fmt.Sprintf("/console/products/%d", mug)); !strings.Contains(page, fmt.Sprintf(`<a href="/console/transfers/%d">transfer #%d</a>`, id, id)) {
			t.Errorf("the product's ledger does not link the transfer:\n%s", page)
		}
		// The transfer's own page shows it from neither end, with both ends linked.
		if _, page := c.get(fmt.Sprintf("/console/transfers/%d", id)); strings.Contains(page, `<form method="post" action="/console/transfers/`) ||
			!strings.Contains(page, fmt.Sprintf(`href="%s">Ship at MAIN</a>`, ship)) || !strings.Contains(page, fmt.Sprintf(`href="%s">Receive at STORE</a>`, receive)) {
			t.Errorf("the transfer's page:\n%s", page)
		}

		key := api.newUser(t, "rita", "reader")
		r := newConsoleClient(t, base)
		r.signIn("rita", key)
		_, page = r.get(ship)
		if strings.Contains(page, `<form method="post" action="`+ship) || !strings.Contains(page, "MUG-1") {
			t.Errorf("a reader's ship page:\n%s", page)
		}
		if resp, _ := r.post(ship, url.Values{"csrf": {hidden(t, page, "csrf")}, "product": {"MUG-1"}, "quantity": {"1"}}); resp.StatusCode != http.StatusForbidden {
			t.Errorf("a reader's shipment: %d", resp.StatusCode)
		}
		if status, _ := c.get("/console/transfers/999999/ship"); status != http.StatusNotFound {
			t.Errorf("an unknown transfer: %d", status)
		}
	})
}
