package test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// TestConsoleLots: a lot-tracked product in the console. Goods in asks for
// lot and best-before date, the product page lists the lots per bin with
// expired ones marked, goods out, count and the picking list name lots,
// and the search finds a lot number.
func TestConsoleLots(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
		milk := f.api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "MILK-1", "name": "Oat milk", "lotTracked": true})
		c := newConsoleClient(t, base)
		c.signIn("admin", consoleKey)
		product := fmt.Sprintf("/console/products/%d", milk)
		wh := fmt.Sprint(f.warehouse)

		// An untracked product's forms have no lot fields.
		if _, page := c.get(fmt.Sprintf("/console/products/%d", f.product)); strings.Contains(page, `name="lot"`) {
			t.Error("an untracked product's page asks for a lot")
		}

		_, page := c.get(product)
		for _, action := range []string{"/in", "/out", "/move", "/count"} {
			if !strings.Contains(formOn(t, page, product+action), `name="lot"`) {
				t.Errorf("the form %s of a lot-tracked product has no lot field", action)
			}
		}
		resp, page := c.submit(page, product+"/in", url.Values{"warehouse": {wh}, "bin": {"A-01"}, "quantity": {"2"}})
		if got := fieldError(t, formOn(t, page, product+"/in"), "lot"); resp.StatusCode != http.StatusBadRequest ||
			got != "This product is lot-tracked: enter or scan the lot number." {
			t.Errorf("goods in without a lot: %d %q", resp.StatusCode, got)
		}
		resp, page = c.submit(page, product+"/in", url.Values{"warehouse": {wh}, "bin": {"A-01"}, "quantity": {"2"},
			"lot": {"L-OLD"}, "bestBefore": {"2020-01-31"}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Booked 2 of lot L-OLD in at A-01.") {
			t.Fatalf("goods in of an expired lot: %d\n%s", resp.StatusCode, page)
		}
		resp, page = c.submit(page, product+"/in", url.Values{"warehouse": {wh}, "bin": {"A-02"}, "quantity": {"5"},
			"lot": {"L-NEW"}, "bestBefore": {"2099-12-31"}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Booked 5 of lot L-NEW in at A-02.") {
			t.Fatalf("goods in: %d\n%s", resp.StatusCode, page)
		}
		resp, page = c.submit(page, product+"/in", url.Values{"warehouse": {wh}, "bin": {"A-02"}, "quantity": {"1"},
			"lot": {"L-NEW"}, "bestBefore": {"2099-01-01"}})
		if in := formOn(t, page, product+"/in"); resp.StatusCode != http.StatusBadRequest ||
			!strings.Contains(fieldError(t, in, "lot")+fieldError(t, in, "bestBefore"), "L-NEW") {
			t.Errorf("goods in of an existing lot with another date: %d\n%s", resp.StatusCode, in)
		}
		resp, page = c.submit(page, product+"/in", url.Values{"warehouse": {wh}, "bin": {"A-02"}, "quantity": {"1"},
			"lot": {"L-NEW"}, "bestBefore": {"31.12.2099"}})
		if got := fieldError(t, formOn(t, page, product+"/in"), "bestBefore"); resp.StatusCode != http.StatusBadRequest || got != "Enter a date as YYYY-MM-DD." {
			t.Errorf("a best-before that is no date: %d %q", resp.StatusCode, got)
		}

		// The lots per bin, the expired one marked.
		_, page = c.get(product)
		stock := regexp.MustCompile(`(?s)<h2>Stock by bin location</h2>.*?</table>`).FindString(page)
		old := regexp.MustCompile(`(?s)<tr class="lot expired">\s*<td>Lot <span class="code">L-OLD</span> · <span class="hide-narrow">best before </span><span class="nowrap">2020-01-31</span> <span class="badge bad">expired</span></td>\s*<td class="num">2</td>`)
		fresh := regexp.MustCompile(`(?s)<tr class="lot">\s*<td>Lot <span class="code">L-NEW</span> · <span class="hide-narrow">best before </span><span class="nowrap">2099-12-31</span></td>\s*<td class="num">5</td>`)
		if !old.MatchString(stock) || !fresh.MatchString(stock) || strings.Index(stock, "L-OLD") > strings.Index(stock, "L-NEW") {
			t.Errorf("the lots per bin:\n%s", stock)
		}

		resp, page = c.submit(page, product+"/out", url.Values{"warehouse": {wh}, "bin": {"A-02"}, "quantity": {"1"}, "lot": {"L-NEW"}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Booked 1 of lot L-NEW out of A-02.") {
			t.Errorf("goods out of a lot: %d\n%s", resp.StatusCode, page)
		}
		resp, page = c.submit(page, product+"/count", url.Values{"warehouse": {wh}, "bin": {"A-02"}, "quantity": {"3"}, "lot": {"L-NEW"}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Counted 3 of lot L-NEW at A-02.") {
			t.Errorf("count of a lot: %d\n%s", resp.StatusCode, page)
		}
		if a2 := f.api.stockOn(t, milk, "A-02"); a2 != 3 {
			t.Errorf("MILK-1 on A-02: %d, want 3", a2)
		}
		resp, page = c.submit(page, product+"/out", url.Values{"warehouse": {wh}, "bin": {"A-02"}, "quantity": {"1"}, "lot": {"L-OLD"}})
		if got := fieldError(t, formOn(t, page, product+"/out"), "quantity") + fieldError(t, formOn(t, page, product+"/out"), "lot"); resp.StatusCode != http.StatusBadRequest || got == "" {
			t.Errorf("goods out of a lot the bin does not hold: %d %q", resp.StatusCode, got)
		}

		// A bin's count: a lot's number scanned with a quantity counts that
		// lot; the product scanned without its lot cannot be confirmed.
		bins := f.api.do(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]=A-02", nil, http.StatusOK)["data"].([]any)
		bin := fmt.Sprintf("/console/bins/%v", bins[0].(map[string]any)["id"])
		_, page = c.get(bin)
		resp, page = c.submit(page, bin+"/count", nil)
		countBin := resp.Request.URL.Path
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(countBin, "/console/counts/") {
			t.Fatalf("the bin's count: %d at %s", resp.StatusCode, countBin)
		}
		resp, page = c.get2(countBin + "?qty=4&scan=L-NEW")
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "4 pieces scanned") || !strings.Contains(page, "L-NEW") {
			t.Fatalf("a lot scanned: %d\n%s", resp.StatusCode, page)
		}
		tallyOn := func(page string) string {
			return regexp.MustCompile(`name="t" value="([^"]*)"`).FindStringSubmatch(page)[1]
		}
		tallied := page
		resp, page = c.get2(countBin + "?t=" + url.QueryEscape(tallyOn(page)) + "&scan=MILK-1")
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "5 pieces scanned") {
			t.Fatalf("the product scanned: %d", resp.StatusCode)
		}
		resp, body := c.submit(page, countBin, url.Values{"t": {tallyOn(page)}})
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "lot required") {
			t.Errorf("a lot-tracked product counted without its lot: %d", resp.StatusCode)
		}
		resp, page = c.submit(tallied, countBin, url.Values{"t": {tallyOn(tallied)}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Bin counted: 4 pieces") {
			t.Fatalf("the bin confirmed: %d", resp.StatusCode)
		}
		count := strings.TrimSuffix(countBin[:strings.Index(countBin, "/bins/")], "/")
		resp, page = c.submit(page, count+"/apply", nil)
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Count applied") || f.api.stockOn(t, milk, "A-02") != 4 {
			t.Errorf("a lot counted on its bin: %d, A-02 holds %d", resp.StatusCode, f.api.stockOn(t, milk, "A-02"))
		}

		f.api.do(t, "PUT", "/api/stock/change/lots-found", []any{map[string]any{"articleDetailId": milk, "quantity": 2,
			"binLocation": map[string]any{"code": "A-02", "warehouseId": f.warehouse}, "lot": map[string]any{"number": "L-FOUND", "bestBefore": "2099-06-30"}}}, http.StatusOK)

		// A scan's lot and best-before fill the goods-in form.
		_, page = c.get(product + "?lot=L-9&bestBefore=2027-05-01")
		in := formOn(t, page, product+"/in")
		if !strings.Contains(in, `name="lot" value="L-9"`) || !strings.Contains(in, `name="bestBefore" value="2027-05-01" type="date"`) {
			t.Errorf("the scan's lot in goods in:\n%s", in)
		}

		// The search opens the lot of a lot number: where it lies, who
		// received it.
		c.noRedirects()
		resp, _ = c.get2("/console/search?q=L-NEW")
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/console/lots/") {
			t.Errorf("searching a lot number: %d to %q, want a lot's page", resp.StatusCode, loc)
		}
		c.http.CheckRedirect = nil

		// The picking list names the lot of every pick: the lot that
		// expires first (L-FOUND) is picked, the expired lot never.
		order := f.api.id(t, "POST", "/api/orders", map[string]any{"number": "20001",
			"details": []any{map[string]any{"articleDetailId": milk, "quantity": 2}, map[string]any{"articleDetailId": f.product, "quantity": 1}}})
		f.api.do(t, "PUT", "/api/stock/change/lots-seed", []any{map[string]any{"articleDetailId": f.product,
			"binLocation": map[string]any{"code": "A-03", "warehouseId": f.warehouse}, "quantity": 4}}, http.StatusOK)
		_, page = c.get(fmt.Sprintf("/console/orders/%d", order))
		resp, _ = c.submit(page, fmt.Sprintf("/console/orders/%d/picking", order), url.Values{"warehouse": {wh}})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("reserve the picking list: %d", resp.StatusCode)
		}
		_, page = c.get(fmt.Sprintf("/console/orders/%d/picking", order))
		list := html.UnescapeString(regexp.MustCompile(`(?s)<table class="picking">.*?</table>`).FindString(page))
		if !strings.Contains(list, "<th>Lot</th>") || strings.Count(list, `class="code strong lot"`) != 2 ||
			!strings.Contains(list, `<td class="code strong lot">L-FOUND</td>`) || strings.Contains(list, "L-OLD") {
			t.Errorf("the picking list's lots:\n%s", list)
		}
	})
}

// get2 is get with the response, for its status and headers.
func (c *consoleClient) get2(path string) (*http.Response, string) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.base+path, nil)
	return c.do(req)
}
