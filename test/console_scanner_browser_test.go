package test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/shopstock/inventory/test/testdb"
)

// The screens the scanner tests run on: a phone held in the hand and a
// desk.
var consoleScreens = []struct {
	name          string
	width, height int64
}{{"phone", 390, 844}, {"desk", 1280, 900}}

// screen makes the browser's window the size of a screen.
func (b *browser) screen(width, height int64) {
	b.t.Helper()
	if width < 600 {
		b.run("screen", chromedp.EmulateViewport(width, height, chromedp.EmulateMobile))
		return
	}
	b.run("screen", chromedp.EmulateViewport(width, height))
}

// keys sends keystrokes to whatever has the focus, as a scanner does, and
// expects no page to load. A closing Enter is the scanner's: one keyDown
// that carries the text, so that a page that moves the focus on at the key
// does not see a second Enter in the next field.
func (b *browser) keys(what, keys string) {
	b.t.Helper()
	if code, ok := strings.CutSuffix(keys, kb.Enter); ok {
		b.gunStays(what, code)
		return
	}
	b.run(what, chromedp.KeyEvent(keys), chromedp.Sleep(150*time.Millisecond))
}

// scan sends a code and Enter to whatever has the focus, as a scanner
// does, and waits for the page that answers.
func (b *browser) scan(name, code string) {
	b.t.Helper()
	b.gun(name, code)
}

// tap puts the focus on a field, as a finger on a touch screen does.
func (b *browser) tap(sel string) {
	b.t.Helper()
	b.run("tap "+sel, chromedp.Focus(chromedp.CSS(sel)))
}

// focused describes the element that has the focus: its form's action (or
// "-") and its name, or its text for a button.
func (b *browser) focused() string {
	b.t.Helper()
	return evalJS[string](b, focusedJS)
}

const focusedJS = `(() => {
	const e = document.activeElement;
	if (!e || e === document.body) return "body";
	const form = e.form ? new URL(e.form.action).pathname : "-";
	return form + " " + (e.name || e.textContent.trim());
})()`

// focusSettles is where the focus is once it is where want says, or after
// five seconds: an Enter may send a form, and the page that comes back puts
// the focus where the next scan goes, later on a loaded machine. While the
// page changes, a look may fail; it is tried again.
func (b *browser) focusSettles(want func(string) bool) string {
	b.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](focusedJS))
		cancel()
		if (err == nil && want(got)) || time.Now().After(deadline) {
			if err != nil {
				return b.focused()
			}
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func is(want string) func(string) bool { return func(got string) bool { return got == want } }

// inView tells whether the first element matching sel is wholly inside the
// visible part of the page.
func (b *browser) inView(sel string) bool {
	b.t.Helper()
	return evalJS[bool](b, fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) return false;
		const r = e.getBoundingClientRect();
		return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= document.documentElement.clientWidth;
	})()`, sel))
}

// expect checks what the page says and where the focus is after an
// action: the message where the eye is, the focus where the next scan
// goes.
func (b *browser) expect(step, sel, says, focus string) {
	b.t.Helper()
	if got := b.text(sel); !strings.Contains(got, says) {
		b.shot("failed")
		b.t.Errorf("%s: %s says %q, want %q (screenshots in %s)", step, sel, got, says, b.shots)
	}
	if !b.inView(sel) {
		b.shot("failed")
		b.t.Errorf("%s: %s is not in view (screenshots in %s)", step, sel, b.shots)
	}
	if got := b.focusSettles(is(focus)); got != focus {
		b.shot("failed")
		b.t.Errorf("%s: the focus is on %q, want %q (screenshots in %s)", step, got, focus, b.shots)
	}
}

// TestConsoleScannerFlows drives the console as a worker with a handheld
// scanner does, on a phone and at a desk: codes typed with Enter after
// each, no mouse. After every action the page says what happened where the
// eye is, and the focus is where the next scan belongs; an Enter after a
// bin code moves on to the quantity and books nothing.
func TestConsoleScannerFlows(t *testing.T) {
	for _, screen := range consoleScreens {
		t.Run(screen.name, func(t *testing.T) {
			testdb.Each(t, func(t *testing.T, databaseURL string) {
				base := consoleService(t, databaseURL)
				f := newConsoleFixture(t, base)
				f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
				key := f.api.newUser(t, "olga", "operator")
				b := newBrowser(t, base)
				b.screen(screen.width, screen.height)
				search := "/console/search q"

				// Signing in by keyboard: Enter after the name moves to the key.
				b.visit("/console/", "signin")
				b.keys("type the name", "olga"+kb.Enter)
				if got := b.focused(); got != "/console/signin key" {
					t.Fatalf("Enter after the name: focus on %q", got)
				}
				b.scan("signed-in", key)
				b.expect("sign-in", "h1", "Find anything", search)

				product := fmt.Sprintf("/console/products/%d", f.product)
				b.scan("product", "SKU-100")
				b.expect("scan a product", "h1", "SKU-100", search)

				// Goods in: the bin's Enter moves on, the quantity's books in.
				b.tap("#goods-in input[name=bin]")
				b.keys("scan the bin", "A-01"+kb.Enter)
				if got := b.focusSettles(is(product + "/in quantity")); got != product+"/in quantity" {
					t.Errorf("Enter after the bin code: focus on %q, want the quantity", got)
				}
				if got := f.api.stockOn(t, f.product, "A-01"); got != 0 {
					t.Fatalf("Enter after the bin code booked %d in", got)
				}
				b.scan("goods-in", "12")
				b.expect("goods in", ".notice", "Booked 12 in at A-01.", search)
				if got := f.api.stockOn(t, f.product, "A-01"); got != 12 {
					t.Errorf("after goods in A-01 holds %d", got)
				}

				// Goods out, once too many: the error is beside the quantity,
				// which has the focus for the corrected number.
				b.tap("#goods-out input[name=bin]")
				b.keys("scan the bin", "A-01"+kb.Enter)
				b.scan("goods-out-too-many", "50")
				b.expect("goods out of too many", "#goods-out input[name=quantity] ~ .error",
					"Not enough stock: bin A-01 has 12 pieces of SKU-100 free to take.", product+"/out quantity")
				b.scan("goods-out", "2")
				b.expect("goods out", ".notice", "Booked 2 out of A-01.", search)

				// A move from A-01 (the only bin with stock) to A-02.
				b.tap("#move input[name=bin]")
				b.keys("scan the destination", "A-02"+kb.Enter)
				b.scan("move", "3")
				b.expect("move", ".notice", "Moved 3 to A-02.", search)

				// A count of A-02 on the count page: the bin's button opens it
				// with the focus in the scan field. Each scan adds a piece; a
				// quantity typed first (its Enter waits for the scan) adds that
				// many; something not expected may turn up. Confirmed, then
				// applied.
				b.scan("bin", "A-02")
				b.expect("scan a bin", "h1", "A-02", search)
				b.tap(`form[action$="/count"] button`)
				b.submit("count-open", chromedp.KeyEvent(kb.Enter))
				countScan := b.focusSettles(func(got string) bool {
					return strings.HasPrefix(got, "/console/counts/") && strings.HasSuffix(got, " scan")
				})
				if !strings.HasPrefix(countScan, "/console/counts/") || !strings.HasSuffix(countScan, " scan") {
					t.Fatalf("the count opens with the focus on %q, want its scan field", countScan)
				}
				if got := b.text(".count-lines thead"); !strings.Contains(strings.ToLower(got), "stock") {
					t.Errorf("a count that is not blind hides the stock: %q", got)
				}
				b.scan("count-one", "SKU-100")
				b.expect("a piece scanned", "h2", "1 pieces scanned", countScan)
				b.tap("input[name=qty]")
				b.scan("count-quantity", "4")
				if got := b.focusSettles(is(countScan)); got != countScan {
					t.Errorf("after a typed quantity the focus is on %q, want the scan field", got)
				}
				b.scan("count-found", "SKU-200")
				b.expect("four found", "h2", "5 pieces scanned", countScan)
				b.scan("count-two", "SKU-100")
				b.expect("another piece", "h2", "6 pieces scanned", countScan)
				b.scan("count-unknown", "NO-SUCH-THING")
				b.expect("a scan that names nothing", "#scan .error", "NO-SUCH-THING", countScan)
				// A barcode scanned into the pieces box counts no millions.
				b.tap("input[name=qty]")
				b.scan("count-code-in-pieces", "96385075")
				if got := b.text("#scan .error"); !strings.Contains(got, "96385075") {
					t.Errorf("a code in the pieces box says %q", got)
				}
				if got := b.text("h2"); !strings.Contains(got, "6 pieces scanned") {
					t.Errorf("a code in the pieces box changed the tally: %q", got)
				}
				if a2 := f.api.stockOn(t, f.product, "A-02"); a2 != 3 {
					t.Errorf("scanning booked something: A-02 holds %d", a2)
				}
				b.tap(`form[method=post][action*="/bins/"] button`)
				b.submit("count-confirmed", chromedp.KeyEvent(kb.Enter))
				countBins := b.focusSettles(func(got string) bool { return strings.HasSuffix(got, "/scan bin") })
				b.expect("bin confirmed", ".notice", "Bin counted: 6 pieces", countBins)
				b.tap(`form[action$="/apply"] button`)
				b.submit("count-applied", chromedp.KeyEvent(kb.Enter))
				b.expect("count applied", ".notice", "Count applied", search)
				// A blind count shows no stock.
				blind := f.api.do(t, "POST", "/api/counts", map[string]any{"warehouse": map[string]any{"id": f.warehouse},
					"binLocations": []any{map[string]any{"code": "A-02"}}, "blind": true}, http.StatusCreated)["data"].(map[string]any)["id"]
				b.visit(fmt.Sprintf("/console/counts/%v", blind), "blind-count")
				b.scan("blind-bin", "A-02")
				blindScan := b.focusSettles(func(got string) bool { return strings.HasSuffix(got, " scan") })
				b.scan("blind-scan", "SKU-100")
				b.expect("blind scan", "h2", "1 pieces scanned", blindScan)
				if got := b.text(".count-lines thead"); strings.Contains(strings.ToLower(got), "stock") {
					t.Errorf("a blind count shows the stock: %q", got)
				}
				f.api.do(t, "PUT", fmt.Sprintf("/api/counts/%v", blind), map[string]any{"status": "Cancelled"}, http.StatusOK)
				b.visit("/console/search", "search-after-the-counts")
				if a2 := f.api.stockOn(t, f.product, "A-02"); a2 != 2 {
					t.Errorf("A-02 holds %d of SKU-100 after a count of 2", a2)
				}

				// Picking: the order by its number, its picking list by Enter
				// on its button.
				order := fmt.Sprintf("/console/orders/%d", f.order)
				b.scan("order", "10001")
				b.expect("scan an order", "h1", "10001", search)
				b.tap(`form[action="` + order + `/picking"] button`)
				b.submit("picking-list", chromedp.KeyEvent(kb.Enter))
				b.expect("pick", ".notice", "The picking list is reserved.", order+"/picking scan")

				// Shipping asks first, and only the question's button, tapped,
				// ships: the focus stays where a scan goes, so a stray scan
				// on the question searches and ships nothing.
				b.visit("/console/search", "search-again")
				b.scan("order-again", "10001")
				b.tap(`form[action="` + order + `/ship"] button`)
				b.submit("ship-confirm", chromedp.KeyEvent(kb.Enter))
				b.expect("ship asks", "h1", "Ship order 10001?", search)
				b.scan("stray-scan", "SKU-200")
				b.expect("a stray scan on the question", "h1", "SKU-200", search)
				if status := f.api.do(t, "GET", fmt.Sprintf("/api/orders/%d", f.order), nil, http.StatusOK)["data"].(map[string]any)["status"]; status == "Completely delivered" {
					t.Errorf("a stray scan on the question shipped the order")
				}
				b.scan("order-once-more", "10001")
				b.tap(`form[action="` + order + `/ship"] button`)
				b.submit("ship-confirm-again", chromedp.KeyEvent(kb.Enter))
				b.expect("ship asks again", "h1", "Ship order 10001?", search)
				b.tap(`form[action="` + order + `/ship"] button.primary`)
				b.submit("shipped", chromedp.KeyEvent(kb.Enter))
				b.expect("ship", ".notice", "The order is shipped and the customer is mailed.", search)
				status := f.api.do(t, "GET", fmt.Sprintf("/api/orders/%d", f.order), nil, http.StatusOK)["data"].(map[string]any)["status"]
				if status != "Completely delivered" {
					t.Errorf("order status %v", status)
				}

				// A page that does not exist says so inside the frame, and the
				// next scan goes to the search.
				b.visit("/console/products/999999", "product-not-found")
				b.expect("a product that does not exist", ".alert", "There is no", search)
				b.scan("after-not-found", "SKU-200")
				b.expect("a scan after an error page", "h1", "SKU-200", search)

				// A lot-tracked product arrives: the GS1 scan of its label
				// opens goods in with the lot and the best-before filled in
				// and the focus in the bin; the bin's Enter moves on to the
				// quantity, which books in.
				milk := f.api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "MILK-1", "name": "Oat milk",
					"ean": "4006381333931", "lotTracked": true})
				milkPage := fmt.Sprintf("/console/products/%d", milk)
				b.scan("gs1-scan", "(01)04006381333931(17)270531(10)L-42")
				b.expect("a GS1 scan", "#goods-in label:has(input[name=bin])", "Bin location", milkPage+"/in bin")
				if got := b.text("h1"); !strings.Contains(got, "MILK-1") {
					t.Errorf("a GS1 scan opens %q", got)
				}
				if lot, date := evalJS[string](b, `document.querySelector("#goods-in input[name=lot]").value`),
					evalJS[string](b, `document.querySelector("#goods-in input[name=bestBefore]").value`); lot != "L-42" || date != "2027-05-31" {
					t.Errorf("goods in after the GS1 scan: lot %q, best-before %q", lot, date)
				}
				b.tap("#goods-in input[name=bin]")
				b.keys("scan the bin", "A-03"+kb.Enter)
				if got := b.focusSettles(is(milkPage + "/in quantity")); got != milkPage+"/in quantity" {
					t.Errorf("Enter after the bin code: focus on %q, want the quantity", got)
				}
				b.scan("goods-in-lot", "6")
				b.expect("goods in of a lot", ".notice", "Booked 6 of lot L-42 in at A-03.", search)
				if got := b.text("tr.lot"); !strings.Contains(got, "L-42") || !strings.Contains(got, "2027-05-31") {
					t.Errorf("the lot on its bin: %q", got)
				}
				// Goods out names the lot.
				b.tap("#goods-out input[name=bin]")
				b.keys("scan the bin", "A-03")
				b.tap("#goods-out input[name=lot]")
				b.keys("scan the lot", "L-42")
				b.tap("#goods-out input[name=quantity]")
				b.scan("goods-out-lot", "1")
				b.expect("goods out of a lot", ".notice", "Booked 1 of lot L-42 out of A-03.", search)
				if got := f.api.stockOn(t, milk, "A-03"); got != 5 {
					t.Errorf("A-03 holds %d of MILK-1, want 5", got)
				}
				// The lot's number finds the lot, of its product.
				b.scan("lot-search", "L-42")
				b.expect("a lot number", "h1", "Lot L-42", search)
				if got := b.text(".title p"); !strings.Contains(got, "MILK-1") {
					t.Errorf("the lot's page names %q", got)
				}
			})
		})
	}
}

// TestConsoleBackAfterAFormNeverResends: Back to a page that answered a
// form (a form in error, an import's preview) shows the page the form is
// on, never the browser's "confirm form resubmission".
func TestConsoleBackAfterAFormNeverResends(t *testing.T) {
	base := consoleService(t, testdb.SQLite(t))
	f := newConsoleFixture(t, base)
	f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
	b := newBrowser(t, base)
	b.signIn("admin", consoleKey)
	back := func(name, want, says string) {
		t.Helper()
		b.run("back", chromedp.NavigateBack())
		b.run("settle", chromedp.Sleep(500*time.Millisecond))
		b.shot(name)
		got := evalJS[string](b, `location.href + " " + document.body.innerText`)
		if !strings.HasPrefix(got, b.base+want+" ") || !strings.Contains(got, says) {
			t.Errorf("%s: Back shows %.200q, want %s saying %q (screenshots in %s)", name, got, want, says, b.shots)
		}
	}
	product := fmt.Sprintf("/console/products/%d", f.product)
	b.visit(product, "product")
	b.tap("#goods-in input[name=quantity]")
	b.scan("goods-in-error", "none")
	b.visit("/console/orders", "orders")
	back("back-to-form-in-error", product, "SKU-100")

	b.visit("/console/stock", "stock")
	file := t.TempDir() + "/stock.csv"
	if err := os.WriteFile(file, []byte("warehouseCode,binLocationCode,articleDetailNumber,quantity\nMAIN,A-01,SKU-100,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.submit("import-preview", chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{file}),
		click(`input[name=mode][value=change]`), click(`form[action="/console/stock/preview"] button`))
	b.submit("import-applied", click(`form[action="/console/stock/import"] button`))
	back("back-after-import", "/console/stock", "Import")
	if got := f.api.stockOn(t, f.product, "A-01"); got != 5 {
		t.Errorf("after an import of 5 and Back A-01 holds %d", got)
	}
}

// TestConsolePagesFitAPhone walks every console page, in its normal and its
// error states, on a phone's screen (and the pages of no form at a desk): nothing is wider than the screen, no
// control is cut off by its card, what a finger taps is 44 px high, and
// text (placeholders too) contrasts at least 4.5:1 with what is behind it.
func TestConsolePagesFitAPhone(t *testing.T) {
	base := consoleService(t, testdb.SQLite(t))
	f := newConsoleFixture(t, base)
	api := f.api
	api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
	api.do(t, "PUT", "/api/stock/change/fit-seed", []any{
		map[string]any{"articleDetailId": f.product, "binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 4},
		map[string]any{"articleDetailId": f.product, "warehouse": map[string]any{"code": "MAIN"}, "quantity": 2}}, http.StatusOK)
	for i := 0; i < 17; i++ {
		api.do(t, "PUT", fmt.Sprintf("/api/stock/change/fit-%d", i), []any{map[string]any{"articleDetailId": f.product,
			"binLocation": map[string]any{"code": "A-02", "warehouseId": f.warehouse}, "quantity": 1}}, http.StatusOK)
	}
	// A lot-tracked product with a lot of a long number and an expired
	// one, on a picking list (before the webhook, whose deliveries the
	// webhook page lists).
	milk := api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "MILK-1", "name": "Oat milk", "lotTracked": true})
	api.do(t, "PUT", "/api/stock/change/fit-lots", []any{
		map[string]any{"articleDetailId": milk, "binLocation": map[string]any{"code": "A-03", "warehouseId": f.warehouse}, "quantity": 5,
			"lot": map[string]any{"number": "L-2027-05-OATS-0001", "bestBefore": "2027-05-31"}},
		map[string]any{"articleDetailId": milk, "binLocation": map[string]any{"code": "A-03", "warehouseId": f.warehouse}, "quantity": 2,
			"lot": map[string]any{"number": "L-OLD", "bestBefore": "2020-01-31"}}}, http.StatusOK)
	milkOrder := api.id(t, "POST", "/api/orders", map[string]any{"number": "10002",
		"details": []any{map[string]any{"articleDetailId": milk, "quantity": 2}, map[string]any{"articleDetailId": f.product, "quantity": 1}}})
	api.do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", milkOrder), nil, http.StatusOK)
	// A transfer to a second warehouse with pieces on the road, so that
	// both of its ends show their forms.
	api.id(t, "POST", "/api/warehouses", map[string]any{"code": "STORE-NORTH", "name": "Store north"})
	transfer := api.id(t, "POST", "/api/transfers", map[string]any{"number": "TR-2027-NORTH-0001", "source": map[string]any{"code": "MAIN"},
		"destination": map[string]any{"code": "STORE-NORTH"}, "lines": []any{map[string]any{"articleDetailId": f.product, "quantity": 3},
			map[string]any{"articleDetailId": milk, "quantity": 2, "lot": map[string]any{"number": "L-2027-05-OATS-0001"}}}})
	api.do(t, "POST", fmt.Sprintf("/api/transfers/%d/shipments", transfer), map[string]any{"lines": []any{
		map[string]any{"lineId": api.do(t, "GET", fmt.Sprintf("/api/transfers/%d", transfer), nil, http.StatusOK)["data"].(map[string]any)["lines"].([]any)[0].(map[string]any)["id"], "quantity": 1}}},
		http.StatusCreated)

	api.id(t, "POST", "/api/webhooks", map[string]any{"url": "https://shop.example/hooks/a-rather-long-path/for/stock/changes",
		"events": []any{"stock.changed"}, "description": "shop stock sync"})
	webhooks := api.do(t, "GET", "/api/webhooks", nil, http.StatusOK)["data"].([]any)
	bins := api.do(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]=A-02", nil, http.StatusOK)["data"].([]any)
	binA2 := fmt.Sprintf("/console/bins/%v", bins[0].(map[string]any)["id"])
	readerKey := api.newUser(t, "rita", "reader")
	b := newBrowser(t, base)
	width := int64(390)
	b.screen(width, 844)
	check := func(name string) {
		t.Helper()
		bad := evalJS[[]string](b, `((width) => {
			const vw = document.documentElement.clientWidth;
			if (vw !== width) return ["the screen is " + vw + " px wide, not " + width];
			const name = e => e.tagName.toLowerCase() + (e.name ? "[name=" + e.name + "]" : "") + (e.className ? "." + String(e.className).split(" ").join(".") : "") + " «" + (e.textContent || e.value || "").trim().slice(0, 30) + "»";
			const bad = [];
			if (document.documentElement.scrollWidth > vw) bad.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + vw);
			for (const e of document.querySelectorAll("body *")) {
				const r = e.getBoundingClientRect();
				if (r.width === 0 || r.height === 0 || e.closest(".skip")) continue;
				if (r.left < -1 || r.right > vw + 1) bad.push("wider than the screen: " + name(e) + " " + Math.round(r.left) + ".." + Math.round(r.right));
			}
			for (const c of document.querySelectorAll(".card")) {
				if (c.scrollWidth > c.clientWidth + 1) bad.push("cut off by its card (which scrolls sideways): " + name(c.firstElementChild || c) + " " + c.scrollWidth + " > " + c.clientWidth);
			}
			for (const e of document.querySelectorAll("input:not([type=hidden]), select, textarea, button, a.button")) {
				const card = e.closest(".card, .tile");
				const r = e.getBoundingClientRect();
				if (!card || r.width === 0) continue;
				const c = card.getBoundingClientRect();
				if (r.left < c.left - 1 || r.right > c.right + 1) bad.push("cut off by its card: " + name(e));
			}
			for (const e of document.querySelectorAll("input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, button, a.button, .menu a, td > a, label.check")) {
				const r = e.getBoundingClientRect();
				if (r.width > 0 && r.height < 44) bad.push("a tap target lower than 44 px: " + name(e) + " " + Math.round(r.height));
			}
			// Text, placeholders included, against what lies behind it.
			const rgb = c => c.match(/[\d.]+/g).map(Number);
			const lum = c => rgb(c).slice(0, 3).map(v => (v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4))
				.reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
			const behind = e => {
				for (let x = e; x; x = x.parentElement) {
					const c = getComputedStyle(x).backgroundColor, a = rgb(c);
					if (a.length < 4 || a[3] > 0) return c;
				}
				return "rgb(255, 255, 255)";
			};
			const contrast = (fg, bg) => { const x = lum(fg), y = lum(bg); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
			for (const e of document.querySelectorAll("body *")) {
				if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) || e.closest(".skip, option")) continue;
				const r = e.getBoundingClientRect();
				if (r.width === 0 || getComputedStyle(e).visibility === "hidden") continue;
				const k = contrast(getComputedStyle(e).color, behind(e));
				if (k < 4.5) bad.push("text contrast " + k.toFixed(2) + ": " + name(e));
			}
			for (const e of document.querySelectorAll("input[placeholder]")) {
				const k = contrast(getComputedStyle(e, "::placeholder").color, behind(e));
				if (k < 4.5) bad.push("placeholder contrast " + k.toFixed(2) + ": " + name(e));
			}
			return bad;
		})(`+fmt.Sprint(width)+`)`)
		b.shot(name)
		if len(bad) > 0 {
			if len(bad) > 8 {
				bad = append(bad[:8], fmt.Sprintf("… and %d more", len(bad)-8))
			}
			t.Errorf("%s at %d px (screenshots in %s):\n  %s", name, width, b.shots, strings.Join(bad, "\n  "))
		}
	}
	visit := func(path, name string) {
		t.Helper()
		b.visit(path, name)
		check(name)
	}

	visit("/console/signin", "signin")
	b.submit("signin-failed", fill(`input[name=name]`, "admin"), fill(`input[name=key]`, "wrong"), click(`form[action="/console/signin"] button`))
	check("signin-failed")
	b.signIn("admin", consoleKey)
	check("search-start")
	product := fmt.Sprintf("/console/products/%d", f.product)
	order := fmt.Sprintf("/console/orders/%d", f.order)
	pages := []struct{ path, name string }{
		{"/console/search?q=A-0", "search-results"},
		{"/console/search?q=nothing-like-it", "search-nothing"},
		{product, "product"},
		{product + "?ledger=2", "product-ledger-older"},
		{binA2, "bin"},
		{"/console/warehouses", "warehouses"},
		{fmt.Sprintf("/console/warehouses/%d", f.warehouse), "warehouse"},
		{"/console/orders", "orders"},
		{order, "order"},
		{"/console/low-stock", "low-stock"},
		{"/console/move", "move"},
		{"/console/lots", "recall"},
		{"/console/search?q=L-2027-05-OATS-0001", "lot"},
		{"/console/stock", "stock"},
		{"/console/webhooks", "webhooks"},
		{fmt.Sprintf("/console/webhooks/%v", webhooks[0].(map[string]any)["id"]), "webhook"},
		{"/console/nowhere", "not-found"},
		{"/console/products/999999", "product-not-found"},
		{fmt.Sprintf("%s/ship?warehouse=%d", order, f.warehouse), "ship-confirm"},
		{fmt.Sprintf("/console/products/%d?lot=L-2027-06-OATS-0002&bestBefore=2027-06-30", milk), "lot-product"},
		{fmt.Sprintf("/console/orders/%d/picking", milkOrder), "lot-picking"},
		{fmt.Sprintf("/console/bins/%v", api.do(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]=A-03", nil, http.StatusOK)["data"].([]any)[0].(map[string]any)["id"]), "lot-bin"},
		{"/console/transfers", "transfers"},
		{fmt.Sprintf("/console/transfers/%d/ship", transfer), "transfer-ship"},
		{fmt.Sprintf("/console/transfers/%d/receive", transfer), "transfer-receive"},
	}
	for _, p := range pages {
		visit(p.path, p.name)
	}
	// The same pages hold at a desk.
	width = 1280
	b.screen(width, 900)
	for _, p := range pages {
		visit(p.path, "desk-"+p.name)
	}
	width = 390
	b.screen(width, 844)
	b.visit("/console/search?q=", "search")
	b.submit("unassigned", chromedp.Navigate(b.base+product), chromedp.WaitReady(chromedp.CSS("body")))
	b.submit("unassigned-bin", click(`a.code[href^="/console/bins/"]`))
	check("unassigned-bin")

	// Error states.
	b.visit(product, "product")
	b.submit("product-errors", fill(`#goods-out input[name=bin]`, "NO-SUCH-BIN-WITH-A-LONG-CODE"), fill(`#goods-out input[name=quantity]`, "a dozen and more"), click(`#goods-out button`))
	check("product-errors")
	b.submit("product-out-too-many", fill(`#goods-out input[name=bin]`, "A-01"), fill(`#goods-out input[name=quantity]`, "400"), click(`#goods-out button`))
	check("product-out-too-many")
	b.visit(binA2, "bin")
	b.submit("count", click(`form[action$="/count"] button`))
	check("count")
	b.submit("count-scan-errors", fill(`input[name=qty]`, "minus one"), fill(`input[name=scan]`, "NO-SUCH-PRODUCT-NUMBER"), click(`#scan button`))
	check("count-scan-errors")
	b.submit("count-scanned", fill(`input[name=qty]`, "12"), fill(`input[name=scan]`, "SKU-100"), click(`#scan button`))
	check("count-scanned")
	b.submit("count-confirmed", click(`form[method=post][action*="/bins/"] button`))
	check("count-bins")
	b.visit(order, "order")
	b.submit("ship-position-errors", fill(`.ship-line input[name=quantity]`, "300"), fill(`.ship-line input[name=bin]`, "A-01"), click(`.ship-line button`))
	check("ship-position-errors")
	b.submit("ship-position-bad-bin", fill(`.ship-line input[name=quantity]`, "1"), fill(`.ship-line input[name=bin]`, "NO-SUCH-BIN-WITH-A-LONG-CODE"), click(`.ship-line button`))
	check("ship-position-bad-bin")
	b.submit("picking", click(`#picking form.row button`))
	check("picking")
	b.visit(order, "order-reserved")
	b.submit("ship-confirm", click(fmt.Sprintf(`form[action="%s/ship"] button`, order)))
	b.submit("shipped", click(fmt.Sprintf(`form[action="%s/ship"] button`, order)))
	check("order-shipped")
	b.submit("return-errors", fill(`#return input[name^=ret_]`, "9"), fill(`#return input[name=bin]`, "NO-SUCH-BIN"), click(`#return button`))
	check("return-errors")
	b.visit("/console/stock", "stock")
	file := t.TempDir() + "/stock.csv"
	writeFile(t, file, "warehouseCode,binLocationCode,articleDetailNumber,quantity\nMAIN,A-01,SKU-100,-100\nMAIN,NO-SUCH-BIN-WITH-A-LONG-CODE,SKU-100,1\nMAIN,A-01,NO-SUCH-PRODUCT-NUMBER-AT-ALL,1\n")
	b.submit("import-preview-failing", chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{file}),
		click(`input[name=mode][value=change]`), click(`form[action="/console/stock/preview"] button`))
	check("import-preview-failing")
	b.submit("import-without-mode", chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{file}), click(`form[action="/console/stock/preview"] button`))
	check("import-without-mode")

	// A reader's forbidden page. On a phone, signing out is in the menu.
	b.run("open the menu", click(`details.more > summary`))
	check("menu-open")
	b.submit("signed-out", click(`form[action="/console/signout"] button`))
	check("signed-out")
	b.signIn("rita", readerKey)
	visit("/console/webhooks", "forbidden")
	visit(binA2, "bin-reader")
}

// writeFile writes a test's file.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
