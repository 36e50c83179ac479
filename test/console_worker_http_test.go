package test

import (
	"bytes"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// formOn is the form on page whose action is action, from its tag to its
// end.
func formOn(t *testing.T, page, action string) string {
	t.Helper()
	i := strings.Index(page, `action="`+action+`"`)
	if i < 0 {
		t.Fatalf("no form %s on the page:\n%s", action, page)
	}
	i = strings.LastIndex(page[:i], "<form")
	j := strings.Index(page[i:], "</form>")
	return page[i : i+j]
}

// fieldError is the error shown beside the field name of the form: the
// field must be marked invalid and its error must follow it in its label
// (or its cell).
func fieldError(t *testing.T, form, name string) string {
	t.Helper()
	m := regexp.MustCompile(`<input name="` + regexp.QuoteMeta(name) + `"[^>]*>`).FindStringIndex(form)
	if m == nil {
		t.Fatalf("no field %s in the form:\n%s", name, form)
		return ""
	}
	tag := form[m[0]:m[1]]
	rest := form[m[1]:]
	end := len(rest)
	for _, stop := range []string{"</label>", "</td>"} {
		if k := strings.Index(rest, stop); k >= 0 && k < end {
			end = k
		}
	}
	e := regexp.MustCompile(`<span class="error" role="alert">([^<]*)</span>`).FindStringSubmatch(rest[:end])
	if e == nil {
		return ""
	}
	if !strings.Contains(tag, `aria-invalid="true"`) {
		t.Errorf("field %s shows an error but is not marked invalid: %s", name, tag)
	}
	return html.UnescapeString(e[1])
}

// noRedirects makes the client stop at a redirect, to see where it goes.
func (c *consoleClient) noRedirects() func() {
	c.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return func() { c.http.CheckRedirect = nil }
}

// submit posts the form of page at action with its hidden fields and
// values.
func (c *consoleClient) submit(page, action string, values url.Values) (*http.Response, string) {
	c.t.Helper()
	form := formOn(c.t, page, action)
	v := url.Values{"csrf": {hidden(c.t, page, "csrf")}}
	if m := regexp.MustCompile(`<input type="hidden" name="key" value="([^"]*)"`).FindStringSubmatch(form); m != nil {
		v.Set("key", m[1])
	}
	for k, vs := range values {
		v[k] = vs
	}
	return c.post(action, v)
}

// TestConsoleSpeaksTheWorkersLanguage: a refused form says what is wrong
// with product numbers, bin codes and figures, beside every field at
// fault at once, never in the engine's ids.
func TestConsoleSpeaksTheWorkersLanguage(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
		f.api.do(t, "PUT", "/api/stock/change/words-seed", []any{map[string]any{"articleDetailId": f.product,
			"binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 5}}, http.StatusOK)
		c := newConsoleClient(t, base)
		c.signIn("admin", consoleKey)
		product := fmt.Sprintf("/console/products/%d", f.product)
		_, page := c.get(product)

		resp, page := c.submit(page, product+"/out", url.Values{"warehouse": {fmt.Sprint(f.warehouse)}, "bin": {"A-01"}, "quantity": {"6"}})
		got := fieldError(t, formOn(t, page, product+"/out"), "quantity")
		if resp.StatusCode != http.StatusBadRequest || got != "Not enough stock: bin A-01 has 5 pieces of SKU-100 free to take." {
			t.Errorf("goods out of more than there is: %d %q", resp.StatusCode, got)
		}
		if strings.Contains(page, "article detail") || strings.Contains(page, "insufficient") {
			t.Error("the page speaks of article details")
		}

		// Two fields at fault: both are told, the first has the focus.
		resp, page = c.submit(page, product+"/in", url.Values{"warehouse": {fmt.Sprint(f.warehouse)}, "bin": {"Z-99"}, "quantity": {"a dozen"}})
		in := formOn(t, page, product+"/in")
		if resp.StatusCode != http.StatusBadRequest || fieldError(t, in, "bin") != "There is no bin location Z-99 in this warehouse." ||
			fieldError(t, in, "quantity") != "Enter a whole number." {
			t.Errorf("two bad fields: %d bin %q quantity %q", resp.StatusCode, fieldError(t, in, "bin"), fieldError(t, in, "quantity"))
		}
		if strings.Contains(page, `name="q" value="" placeholder="Scan or type a product, bin or order" aria-label="Search" autocomplete="off" enterkeyhint="search" autofocus`) {
			t.Error("the search asks for the focus beside a field in error")
		}
		if !regexp.MustCompile(`<input name="bin"[^>]*aria-invalid="true" autofocus>`).MatchString(in) {
			t.Errorf("the first field in error does not ask for the focus:\n%s", in)
		}

		// A position shipped from a bin that does not exist, more than
		// it has to ship: both at once.
		_, page = c.get(fmt.Sprintf("/console/orders/%d", f.order))
		position := regexp.MustCompile(`action="(/console/orders/\d+/positions/\d+/ship)"`).FindStringSubmatch(page)[1]
		resp, page = c.submit(page, position, url.Values{"quantity": {"9"}, "warehouse": {fmt.Sprint(f.warehouse)}, "bin": {"Z-99"}})
		line := formOn(t, page, position)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(line, "Quantity: Only 3 still to ship.") ||
			!strings.Contains(line, "Bin: There is no bin location Z-99 in this warehouse.") || strings.Count(line, `aria-invalid="true"`) != 2 {
			t.Errorf("a position shipped wrongly twice over: %d\n%s", resp.StatusCode, line)
		}

		// A count below what picking lists hold.
		_, page = c.get(fmt.Sprintf("/console/orders/%d", f.order))
		c.submit(page, fmt.Sprintf("/console/orders/%d/picking", f.order), url.Values{"warehouse": {fmt.Sprint(f.warehouse)}})
		_, page = c.get(product)
		_, page = c.submit(page, product+"/count", url.Values{"warehouse": {fmt.Sprint(f.warehouse)}, "bin": {"A-01"}, "quantity": {"0"}})
		if got := fieldError(t, formOn(t, page, product+"/count"), "quantity"); !strings.HasPrefix(got, "Open orders hold 3 pieces of SKU-100 at bin A-01") {
			t.Errorf("a count below the picking list: %q", got)
		}

		// A return of more than was shipped, in two positions at once.
		other := f.api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-300", "name": "Green thing"})
		f.api.do(t, "PUT", "/api/stock/change/words-seed-2", []any{
			map[string]any{"articleDetailId": other, "warehouse": map[string]any{"code": "MAIN"}, "quantity": 5},
			map[string]any{"articleDetailId": f.product, "warehouse": map[string]any{"code": "MAIN"}, "quantity": 5}}, http.StatusOK)
		o := f.api.id(t, "POST", "/api/orders", map[string]any{"number": "20002", "details": []any{
			map[string]any{"articleDetailId": f.product, "quantity": 1}, map[string]any{"articleDetailId": other, "quantity": 2}}})
		f.api.do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", o), map[string]any{}, http.StatusOK)
		details := f.api.do(t, "GET", fmt.Sprintf("/api/orders/%d", o), nil, http.StatusOK)["data"].(map[string]any)["details"].([]any)
		d0, d1 := details[0].(map[string]any)["id"], details[1].(map[string]any)["id"]
		orderPage := fmt.Sprintf("/console/orders/%d", o)
		_, page = c.get(orderPage)
		resp, page = c.submit(page, orderPage+"/returns", url.Values{fmt.Sprintf("ret_%v", d0): {"4"}, fmt.Sprintf("ret_%v", d1): {"3"},
			"restock": {"1"}, "warehouse": {fmt.Sprint(f.warehouse)}})
		ret := formOn(t, page, orderPage+"/returns")
		if got := fieldError(t, ret, fmt.Sprintf("ret_%v", d0)); resp.StatusCode != http.StatusBadRequest || got != "At most 1 can come back: 1 shipped, 0 already returned." {
			t.Errorf("return of the first position: %d %q", resp.StatusCode, got)
		}
		if got := fieldError(t, ret, fmt.Sprintf("ret_%v", d1)); got != "At most 2 can come back: 2 shipped, 0 already returned." {
			t.Errorf("return of the second position: %q", got)
		}
		if strings.Contains(page, "details[") || strings.Contains(page, "order detail") {
			t.Error("the page speaks of order details")
		}
	})
}

// TestConsoleRedirectsAfterEveryForm: every form that changes something
// answers with a redirect to a page (Post/Redirect/Get), so that Back and
// reload never send it again; shipping a whole order, which mails the
// customer, asks first.
func TestConsoleRedirectsAfterEveryForm(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
		bins := f.api.do(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]=A-02", nil, http.StatusOK)["data"].([]any)
		binA2 := int64(bins[0].(map[string]any)["id"].(float64))
		c := newConsoleClient(t, base)
		c.signIn("admin", consoleKey)
		product := fmt.Sprintf("/console/products/%d", f.product)
		order := fmt.Sprintf("/console/orders/%d", f.order)
		wh := fmt.Sprint(f.warehouse)
		steps := []struct {
			page, action string
			values       url.Values
			to           string
		}{
			{product, product + "/in", url.Values{"warehouse": {wh}, "bin": {"A-01"}, "quantity": {"9"}}, product},
			{product, product + "/out", url.Values{"warehouse": {wh}, "bin": {"A-01"}, "quantity": {"1"}}, product},
			{product, product + "/move", url.Values{"from": {""}, "warehouse": {wh}, "bin": {"A-02"}, "quantity": {"2"}}, product},
			{product, product + "/count", url.Values{"warehouse": {wh}, "bin": {"A-02"}, "quantity": {"2"}}, product},
			{product, product + "/default", url.Values{"warehouse": {wh}, "bin": {"A-01"}}, product},
			{fmt.Sprintf("/console/bins/%d", binA2), fmt.Sprintf("/console/bins/%d/count", binA2), nil, "/console/counts/"},
			{order, order + "/picking", url.Values{"warehouse": {wh}}, order + "/picking"},
			{order, order + "/picking/release", nil, order},
		}
		restore := c.noRedirects()
		for _, s := range steps {
			_, page := c.get(s.page)
			if s.action == product+"/move" {
				s.values.Set("from", regexp.MustCompile(`<select name="from"[^>]*>\s*<option value="(\d+)"`).FindStringSubmatch(page)[1])
			}
			resp, body := c.submit(page, s.action, s.values)
			// A count opens on a page of its own, named by the new count.
			if to := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || (to != s.to && !(s.to == "/console/counts/" && strings.HasPrefix(to, s.to))) {
				t.Errorf("%s: %d to %q, want 303 to %s\n%s", s.action, resp.StatusCode, resp.Header.Get("Location"), s.to, body)
			}
		}

		// Shipping the order: the order page's button asks first.
		_, page := c.get(order)
		ship := formOn(t, page, order+"/ship")
		if !strings.Contains(ship, `method="get"`) {
			t.Errorf("the order page ships without asking:\n%s", ship)
		}
		status, confirm := c.get(order + "/ship?warehouse=" + wh)
		if status != http.StatusOK || !strings.Contains(confirm, "jane@example.com") || !strings.Contains(confirm, "Ship and mail the customer") {
			t.Errorf("the confirmation: %d\n%s", status, confirm)
		}
		resp, body := c.submit(confirm, order+"/ship", url.Values{"warehouse": {wh}, "confirmed": {""}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Ship and mail the customer") {
			t.Errorf("a ship post without the confirmation: %d", resp.StatusCode)
		}
		if s := f.api.do(t, "GET", "/api/orders/"+fmt.Sprint(f.order), nil, http.StatusOK)["data"].(map[string]any)["status"]; s == "Completely delivered" {
			t.Fatal("the order shipped without the confirmation")
		}
		resp, body = c.submit(confirm, order+"/ship", url.Values{"warehouse": {wh}, "confirmed": {"1"}})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != order {
			t.Errorf("ship: %d to %q\n%s", resp.StatusCode, resp.Header.Get("Location"), body)
		}
		restore()
		_, page = c.get(order)
		if !strings.Contains(page, "The order is shipped and the customer is mailed.") || !strings.Contains(page, "Everything is shipped: nothing is left to pick.") {
			t.Errorf("the shipped order says:\n%s", page)
		}
		restore = c.noRedirects()
		details := f.api.do(t, "GET", "/api/orders/"+fmt.Sprint(f.order), nil, http.StatusOK)["data"].(map[string]any)["details"].([]any)
		resp, _ = c.submit(page, order+"/returns", url.Values{fmt.Sprintf("ret_%v", details[0].(map[string]any)["id"]): {"1"}, "restock": {"1"}, "warehouse": {wh}, "bin": {"A-03"}})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != order {
			t.Errorf("return: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		_, page = c.get(product)
		resp, _ = c.submit(page, "/console/signout", nil)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/console/signin" {
			t.Errorf("sign-out: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		restore()
	})
}

// TestConsoleStockCSVRoundTrip: what the export wrote imports again (as a
// set, its stock the quantity), the mode is chosen every time, and the
// template is an empty import.
func TestConsoleStockCSVRoundTrip(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
		f.api.do(t, "PUT", "/api/stock/change/csv-seed", []any{
			map[string]any{"articleDetailId": f.product, "binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 7},
			map[string]any{"articleDetailId": f.product, "warehouse": map[string]any{"code": "MAIN"}, "quantity": 2}}, http.StatusOK)
		c := newConsoleClient(t, base)
		c.signIn("admin", consoleKey)
		_, page := c.get("/console/stock")
		if strings.Contains(page, `value="change" checked`) || strings.Contains(page, `value="set" checked`) {
			t.Error("the import chooses a mode for the worker")
		}
		csrf := hidden(t, page, "csrf")
		upload := func(mode, content string) (int, string) {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			mw.WriteField("csrf", csrf)
			if mode != "" {
				mw.WriteField("mode", mode)
			}
			fw, _ := mw.CreateFormFile("file", "stock.csv")
			fw.Write([]byte(content))
			mw.Close()
			req, _ := http.NewRequest("POST", base+"/console/stock/preview", &body)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			resp, page := c.do(req)
			return resp.StatusCode, page
		}
		_, export := c.get("/console/stock.csv")
		status, page := upload("", export)
		if status != http.StatusBadRequest || !strings.Contains(page, "Choose whether the file sets or changes stock.") {
			t.Errorf("an upload without a mode: %d", status)
		}
		status, page = upload("change", export)
		if status != http.StatusBadRequest || !strings.Contains(html.UnescapeString(page), "import it to set stock, not to change it") {
			t.Errorf("the export as a change: %d\n%s", status, page)
		}
		status, page = upload("set", export)
		if status != http.StatusOK || !strings.Contains(page, "All 2 lines would apply") {
			t.Fatalf("the export as a set: %d\n%s", status, page)
		}
		table := regexp.MustCompile(`(?s)<table>.*?</table>`).FindString(page)
		if strings.Contains(table, "erp_null_bin_location") || !strings.Contains(table, "unassigned") {
			t.Errorf("the preview names the unknown bin by its code:\n%s", table)
		}
		resp, page := c.submit(page, "/console/stock/import", url.Values{"mode": {"set"}, "csv": {export}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Imported 2 lines.") {
			t.Errorf("apply the export: %d\n%s", resp.StatusCode, page)
		}
		if a1, unassigned := f.api.stockOn(t, f.product, "A-01"), f.api.stockOn(t, f.product, "erp_null_bin_location"); a1 != 7 || unassigned != 2 {
			t.Errorf("after the export imported itself: A-01 %d, unassigned %d; want 7 and 2", a1, unassigned)
		}
		status, tmpl := c.get("/console/stock/template.csv")
		if status != http.StatusOK || tmpl != "warehouseCode,binLocationCode,articleDetailNumber,quantity,lotNumber,bestBefore\n" {
			t.Errorf("template: %d %q", status, tmpl)
		}
	})
}

// TestConsoleLedgerPagesNameProductOrderAndUser: the ledger of a product
// and of a bin names the product, the order behind a shipment and the
// user of every entry, a page at a time.
func TestConsoleLedgerPagesNameProductOrderAndUser(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
		for i := 0; i < 18; i++ {
			f.api.do(t, "PUT", fmt.Sprintf("/api/stock/change/ledger-%d", i), []any{map[string]any{"articleDetailId": f.product,
				"binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 1}}, http.StatusOK)
		}
		f.api.do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", f.order), map[string]any{}, http.StatusOK)
		c := newConsoleClient(t, base)
		c.signIn("admin", consoleKey)
		rows := regexp.MustCompile(`(?s)<table class="ledger">.*?<tbody>(.*?)</tbody>`)
		bins := f.api.do(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]=A-01", nil, http.StatusOK)["data"].([]any)
		for _, path := range []string{fmt.Sprintf("/console/products/%d", f.product), fmt.Sprintf("/console/bins/%v", bins[0].(map[string]any)["id"])} {
			_, page := c.get(path)
			m := rows.FindStringSubmatch(page)
			if m == nil {
				t.Fatalf("%s has no ledger:\n%s", path, page)
			}
			first := m[1]
			if n := strings.Count(first, "<tr>"); n != 15 || !strings.Contains(page, "Page 1 of 2") {
				t.Errorf("%s: %d entries on the first page", path, n)
			}
			if !strings.Contains(first, ">SKU-100</a>") || !strings.Contains(first, ">10001</a>") || !strings.Contains(first, "admin") {
				t.Errorf("%s: the newest entries do not name product, order and user:\n%s", path, first)
			}
			if !strings.Contains(page, `href="?ledger=2#ledger"`) {
				t.Fatalf("%s: no link to older entries", path)
			}
			_, page = c.get(path + "?ledger=2")
			if n := strings.Count(rows.FindStringSubmatch(page)[1], "<tr>"); n != 4 || !strings.Contains(page, "Page 2 of 2") {
				t.Errorf("%s: %d entries on the second page, want 4", path, n)
			}
		}
	})
}

// TestConsoleHasNoDeadEnds: a page the role may not see, a page that does
// not exist and a product that does not exist answer inside the console's
// frame, with its menu and search; the unknown bin location is called
// unassigned; the figures say what open orders hold; a bin count is blind.
func TestConsoleHasNoDeadEnds(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "PUT", "/api/stock/change/dead-ends", []any{map[string]any{"articleDetailId": f.product,
			"warehouse": map[string]any{"code": "MAIN"}, "quantity": 110}}, http.StatusOK)
		key := f.api.newUser(t, "rita", "reader")
		c := newConsoleClient(t, base)
		c.signIn("rita", key)
		for path, want := range map[string]int{"/console/webhooks": 403, "/console/nowhere": 404, "/console/products/999999": 404, "/console/bins/0": 404} {
			status, page := c.get(path)
			if status != want || !strings.Contains(page, `<nav class="menu">`) || !strings.Contains(page, `name="q"`) || !strings.Contains(page, `class="alert"`) {
				t.Errorf("%s: %d, want %d inside the frame:\n%s", path, status, want, page)
			}
		}
		c = newConsoleClient(t, base)
		c.signIn("admin", consoleKey)
		_, page := c.get(fmt.Sprintf("/console/products/%d", f.product))
		if strings.Contains(page, "erp_null_bin_location") || !strings.Contains(page, ">unassigned</a>") {
			t.Errorf("the product page names the unknown bin by its code:\n%s", page)
		}
		tile := regexp.MustCompile(`<span class="label">Open orders</span><span class="value">(\d+)</span>`).FindStringSubmatch(page)
		if tile == nil || tile[1] != "3" {
			t.Errorf("the open orders tile: %v", tile)
		}
		bin := regexp.MustCompile(`href="(/console/bins/\d+)" class="code">unassigned</a>`).FindStringSubmatch(page)[1]
		_, page = c.get(bin)
		if strings.Contains(page, "erp_null_bin_location") || !strings.Contains(page, "<title>Unassigned stock in MAIN · Inventory</title>") {
			t.Errorf("the unknown bin's page:\n%s", page)
		}
		// Counting the unassigned stock opens a count page; opening it books
		// nothing.
		resp, body := c.submit(page, bin+"/count", nil)
		if !(resp.StatusCode == http.StatusSeeOther && strings.HasPrefix(resp.Header.Get("Location"), "/console/counts/")) &&
			!(resp.StatusCode == http.StatusOK && strings.Contains(body, "Scan every piece")) {
			t.Errorf("counting the unassigned stock: %d %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		if got := f.api.stockOn(t, f.product, "erp_null_bin_location"); got != 110 {
			t.Errorf("opening a count changed stock to %d", got)
		}
		_, page = c.get(fmt.Sprintf("/console/orders/%d", f.order))
		if !strings.Contains(page, "No picking list yet: 3 still to ship") {
			t.Errorf("the order's picking list says:\n%s", page)
		}
	})
}
