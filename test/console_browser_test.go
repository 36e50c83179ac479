package test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/shopstock/inventory/test/testdb"
)

// consoleFixture is a warehouse with a bin format, two products and an
// order, made over the API.
type consoleFixture struct {
	api       apiClient
	warehouse int64
	product   int64
	order     int64
}

func newConsoleFixture(t *testing.T, base string) consoleFixture {
	t.Helper()
	api := apiClient{base: base, user: "admin", key: consoleKey}
	f := consoleFixture{api: api}
	f.warehouse = api.id(t, "POST", "/api/warehouses", map[string]any{"code": "MAIN", "name": "Main warehouse",
		"binLocationFormatComponents": []any{
			map[string]any{"type": "text", "value": "A-"},
			map[string]any{"type": "number", "from": 1, "to": 3, "padding": 2},
		}})
	f.product = api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-100", "name": "Blue widget"})
	api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "SKU-200", "name": "Red gadget"})
	f.order = api.id(t, "POST", "/api/orders", map[string]any{"number": "10001", "customerEmail": "jane@example.com",
		"details": []any{map[string]any{"articleDetailId": f.product, "quantity": 3}}})
	return f
}

// TestConsoleOperatorRunsTheWarehouse: an operator signs in, generates the
// bins, finds a product by number, books goods in, moves them, counts a
// bin and ships the order, all in a real browser on the real service.
func TestConsoleOperatorRunsTheWarehouse(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		key := f.api.newUser(t, "olga", "operator")
		b := newBrowser(t, base)
		b.signIn("olga", key)
		if got := b.text("h1"); !strings.Contains(got, "Find anything") {
			t.Fatalf("after sign-in the page says %q", got)
		}
		for _, c := range b.cookies() {
			if c.Name == "inventory_console_session" && (!c.HTTPOnly || c.SameSite != "Lax" || c.Secure) {
				t.Errorf("session cookie over http: HttpOnly %v, SameSite %q, Secure %v", c.HTTPOnly, c.SameSite, c.Secure)
			}
		}
		if focused := evalJS[string](b, `document.activeElement.name`); focused != "q" {
			t.Errorf("the focused field is %q, want the search", focused)
		}

		b.visit("/console/warehouses", "warehouses")
		b.submit("warehouse-main", click(`a[href="/console/warehouses/`+fmt.Sprint(f.warehouse)+`"]`))
		b.submit("bins-generated", click(`form[action$="/generate"] button`))
		if got := b.text(".notice"); !strings.Contains(got, "Generated 3 new bin locations") {
			t.Errorf("generate: %q", got)
		}

		// A scanner types the number and sends Enter.
		b.submit("product", chromedp.SendKeys(chromedp.CSS(`input[name=q]`), "SKU-100"+kb.Enter))
		if got := b.text("h1"); !strings.Contains(got, "SKU-100") {
			t.Fatalf("search for SKU-100 opened %q", got)
		}
		b.submit("goods-in-bad-quantity", fill(`#goods-in input[name=bin]`, "A-01"), fill(`#goods-in input[name=quantity]`, "a dozen"),
			click(`#goods-in button`))
		if got := b.text(`#goods-in input[name=quantity] ~ .error`); !strings.Contains(got, "whole number") {
			t.Errorf("error beside the quantity: %q", got)
		}
		b.submit("goods-in", fill(`#goods-in input[name=quantity]`, "12"), click(`#goods-in button`))
		if got := b.text(".notice"); got != "Booked 12 in at A-01." {
			t.Errorf("goods in: %q", got)
		}
		b.submit("move", fill(`#move input[name=bin]`, "A-02"), fill(`#move input[name=quantity]`, "5"), click(`#move button`))
		if got := b.text(".notice"); got != "Moved 5 to A-02." {
			t.Errorf("move: %q", got)
		}
		b.submit("move-to-missing-bin", fill(`#move input[name=bin]`, "Z-99"), fill(`#move input[name=quantity]`, "1"), click(`#move button`))
		if got := b.text(`#move input[name=bin] ~ .error`); !strings.Contains(got, "Z-99") {
			t.Errorf("error beside the bin: %q", got)
		}

		b.submit("bin", chromedp.SendKeys(chromedp.CSS(`input[name=q]`), "A-02"+kb.Enter))
		// A count of the bin: each scan adds a piece, a typed quantity adds
		// that many; confirmed, then applied.
		b.submit("count-open", click(`form[action$="/count"] button.primary`))
		b.submit("count-scan", chromedp.SendKeys(chromedp.CSS(`input[name=scan]`), "SKU-100"+kb.Enter))
		b.submit("count-scan-three", fill(`input[name=qty]`, "3"), chromedp.SendKeys(chromedp.CSS(`input[name=scan]`), "SKU-100"+kb.Enter))
		b.submit("bin-counted", click(`form[method=post] button.primary`))
		if got := b.text(".notice"); !strings.Contains(got, "Bin counted: 4 pieces") {
			t.Errorf("count: %q", got)
		}
		b.submit("count-applied", click(`form[action$="/apply"] button`))
		if got := b.text(".notice"); !strings.Contains(got, "Count applied") {
			t.Errorf("apply: %q", got)
		}
		if a1, a2 := f.api.stockOn(t, f.product, "A-01"), f.api.stockOn(t, f.product, "A-02"); a1 != 7 || a2 != 4 {
			t.Errorf("stock A-01 %d, A-02 %d; want 7 and 4", a1, a2)
		}

		// An import, previewed before it applies.
		file := filepath.Join(t.TempDir(), "delivery.csv")
		os.WriteFile(file, []byte("warehouseCode,binLocationCode,articleDetailNumber,quantity\nMAIN,A-03,SKU-200,10\nMAIN,A-03,SKU-100,2\n"), 0o644)
		b.visit("/console/stock", "import-export")
		b.submit("import-preview", chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{file}),
			click(`input[name=mode][value=change]`), click(`form[action^="/console/stock/preview"] button`))
		if got := b.text("#preview .notice"); !strings.Contains(got, "All 2 lines would apply") {
			t.Errorf("preview: %q", got)
		}
		b.submit("import-applied", click(`form[action="/console/stock/import"] button`))
		if got := b.text(".notice"); got != "Imported 2 lines." {
			t.Errorf("import: %q", got)
		}

		b.visit("/console/orders", "orders")
		b.submit("order", click(`a[href="/console/orders/`+fmt.Sprint(f.order)+`"]`))
		b.submit("picking-list-reserved", click(`#picking form.row button`))
		if got := b.text(".notice"); got != "The picking list is reserved." {
			t.Errorf("picking list: %q", got)
		}
		if got := b.text("table.picking tbody"); !strings.Contains(got, "SKU-100") || !strings.Contains(got, "3") {
			t.Errorf("the picking list shows %q", got)
		}
		b.run("print media", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return err
		}))
		b.shot("picking-list-printed")
		if n := evalJS[int](b, `[...document.querySelectorAll("header, form, button")].filter(e => e.getClientRects().length > 0).length`); n != 0 {
			t.Errorf("the printed picking list shows %d header, form or button elements", n)
		}
		b.run("screen media", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: ""})
			return err
		}))
		reserved := f.api.do(t, "GET", fmt.Sprintf("/api/orders/%d/pickingList", f.order), nil, http.StatusOK)["data"].(map[string]any)["picks"].([]any)
		if len(reserved) == 0 {
			t.Error("the API shows no reservations after the console reserved them")
		}
		b.submit("order-again", click(`a[href="/console/orders/`+fmt.Sprint(f.order)+`"]`))
		b.submit("order-ship-confirm", click(fmt.Sprintf(`form[action="/console/orders/%d/ship"] button`, f.order)))
		b.submit("order-shipped", click(fmt.Sprintf(`form[action="/console/orders/%d/ship"] button`, f.order)))
		if got := b.text(".notice"); got != "The order is shipped and the customer is mailed." {
			t.Errorf("ship: %q", got)
		}
		order := f.api.do(t, "GET", fmt.Sprintf("/api/orders/%d", f.order), nil, http.StatusOK)["data"].(map[string]any)
		if order["status"] != "Completely delivered" {
			t.Errorf("order status %v", order["status"])
		}
		detail := order["details"].([]any)[0].(map[string]any)["id"]
		before := f.api.stockOn(t, f.product, "A-01")
		b.submit("return", fill(fmt.Sprintf(`#return input[name=ret_%v]`, detail), "1"), fill(`#return input[name=bin]`, "A-01"),
			click(`#return button`))
		if got := b.text(".notice"); got != "The return is recorded." {
			t.Errorf("return: %q", got)
		}
		if got := f.api.stockOn(t, f.product, "A-01"); got != before+1 {
			t.Errorf("A-01 holds %d after a return of 1 into it, had %d", got, before)
		}
		returns := f.api.do(t, "GET", fmt.Sprintf("/api/returns?filter[0][property]=return.orderId&filter[0][value]=%d", f.order), nil, http.StatusOK)["data"].([]any)
		if len(returns) != 1 || returns[0].(map[string]any)["user"] != "olga" {
			t.Errorf("returns of the order: %v", returns)
		}

		// The ledger names the signed-in user for every change.
		b.visit(fmt.Sprintf("/console/products/%d", f.product), "product-after")
		ledger := f.api.do(t, "GET", fmt.Sprintf("/api/stockLedgerEntries?filter[0][property]=stockLedgerEntry.articleDetailId&filter[0][value]=%d", f.product), nil, http.StatusOK)
		entries := ledger["data"].([]any)
		if len(entries) < 5 {
			t.Errorf("%d ledger entries, want at least 5", len(entries))
		}
		for _, e := range entries {
			if u := e.(map[string]any)["user"]; u != "olga" {
				t.Errorf("ledger entry %v names user %v", e.(map[string]any)["type"], u)
			}
		}

		// On a phone-sized screen nothing runs off to the side.
		b.run("phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
		for _, path := range []string{fmt.Sprintf("/console/products/%d", f.product), fmt.Sprintf("/console/orders/%d", f.order), "/console/search?q=A-0"} {
			b.visit(path, "phone")
			if wide := evalJS[bool](b, `document.documentElement.scrollWidth > 391`); wide {
				t.Errorf("%s is wider than a phone's screen", path)
			}
		}
		b.run("desktop", chromedp.EmulateReset())

		b.signOut()
		b.visit(fmt.Sprintf("/console/products/%d", f.product), "after-sign-out")
		if got := b.text("h1"); got != "Sign in" {
			t.Errorf("after sign-out the product page shows %q", got)
		}
	})
}

// TestConsoleRefusesForgedAndRepeatedForms: a post without the form's
// token is refused (the sign-in form's too), and a form sent twice applies
// once.
func TestConsoleRefusesForgedAndRepeatedForms(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)

		resp, err := http.PostForm(base+"/console/signin", url.Values{"name": {"admin"}, "key": {consoleKey}})
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Set-Cookie") != "" {
			t.Errorf("sign-in without its token: %d %s, cookie %q", resp.StatusCode, body, resp.Header.Get("Set-Cookie"))
		}

		b := newBrowser(t, base)
		b.signIn("admin", consoleKey)
		b.visit(fmt.Sprintf("/console/products/%d", f.product), "product")

		status := evalJS[int](b, `(async () => {
			const data = new FormData(document.querySelector('#goods-in form'));
			data.delete('csrf');
			data.set('quantity', '9'); 
			return (await fetch(document.querySelector('#goods-in form').action, {method: 'POST', body: new URLSearchParams(data)})).status;
		})()`)
		if status != http.StatusForbidden {
			t.Errorf("a post without the CSRF token: %d, want 403", status)
		}
		status = evalJS[int](b, `(async () => {
			const data = new FormData(document.querySelector('#goods-in form'));
			data.set('csrf', 'forged'); data.set('quantity', '9'); 
			return (await fetch(document.querySelector('#goods-in form').action, {method: 'POST', body: new URLSearchParams(data)})).status;
		})()`)
		if status != http.StatusForbidden {
			t.Errorf("a post with a wrong CSRF token: %d, want 403", status)
		}
		if got := f.api.stockOn(t, f.product, "A-03"); got != 0 {
			t.Fatalf("refused posts changed stock: %d", got)
		}

		// The same form sent twice, as an impatient double click does.
		notices := evalJS[[]string](b, `(async () => {
			const form = document.querySelector('#goods-in form');
			const data = new FormData(form);
			data.set('bin', 'A-03'); data.set('quantity', '2'); 
			const out = [];
			for (let i = 0; i < 2; i++) {
				const res = await fetch(form.action, {method: 'POST', body: new URLSearchParams(data)});
				const page = new DOMParser().parseFromString(await res.text(), 'text/html');
				out.push(res.status + ' ' + (page.querySelector('.notice') || {textContent: ''}).textContent);
			}
			return out;
		})()`)
		if len(notices) != 2 || notices[0] != "200 Booked 2 in at A-03." || !strings.Contains(notices[1], "applied once") {
			t.Errorf("double submit answered %q", notices)
		}
		b.visit(fmt.Sprintf("/console/products/%d", f.product), "product-after-double-submit")
		if got := f.api.stockOn(t, f.product, "A-03"); got != 2 {
			t.Errorf("after a double submit of 2 pieces the bin holds %d", got)
		}
	})
}

// TestConsoleReaderSeesButCannotAct: a reader sees every page with its
// figures, but no form that changes anything, and a post is refused.
func TestConsoleReaderSeesButCannotAct(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
		f.api.do(t, "PUT", "/api/stock/change/reader-seed", []any{map[string]any{"articleDetailId": f.product,
			"binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 6}}, http.StatusOK)
		key := f.api.newUser(t, "rita", "reader")
		b := newBrowser(t, base)
		b.signIn("rita", key)
		if got := b.text(".who .role"); !strings.EqualFold(got, "reader") {
			t.Errorf("role shown: %q", got)
		}
		actions := `form[method=post]:not([action="/console/signout"])`
		pages := map[string]string{
			"product":    fmt.Sprintf("/console/products/%d", f.product),
			"warehouses": "/console/warehouses",
			"warehouse":  fmt.Sprintf("/console/warehouses/%d", f.warehouse),
			"orders":     "/console/orders",
			"order":      fmt.Sprintf("/console/orders/%d", f.order),
			"stock":      "/console/stock",
			"low":        "/console/low-stock",
			"picking":    fmt.Sprintf("/console/orders/%d/picking", f.order),
		}
		for _, name := range []string{"product", "warehouses", "warehouse", "orders", "order", "stock", "low", "picking"} {
			b.visit(pages[name], "reader-"+name)
			if n := b.count(actions); n != 0 {
				t.Errorf("%s shows a reader %d forms that change something", name, n)
			}
		}
		b.visit(pages["product"], "reader-product-figures")
		if got := b.text(".tiles"); !strings.Contains(got, "6") {
			t.Errorf("the reader does not see the stock: %q", got)
		}
		b.submit("reader-bin", chromedp.SendKeys(chromedp.CSS(`input[name=q]`), "A-01"+kb.Enter))
		if n := b.count(actions); n != 0 {
			t.Errorf("the bin page shows a reader %d forms that change something", n)
		}
		if n := b.count(`form[action$="/count"]`); n != 0 {
			t.Errorf("the bin page offers a reader %d counts", n)
		}
		// A post with the reader's own valid token is still refused.
		status := evalJS[int](b, fmt.Sprintf(`(async () => {
			const csrf = document.querySelector('form[action="/console/signout"] input[name=csrf]').value;
			const body = new URLSearchParams({csrf, key: 'reader-try-1', warehouse: '%d', bin: 'A-01', quantity: '5'});
			return (await fetch('/console/products/%d/in', {method: 'POST', body})).status;
		})()`, f.warehouse, f.product))
		if status != http.StatusForbidden {
			t.Errorf("a reader's post: %d, want 403", status)
		}
		if got := f.api.stockOn(t, f.product, "A-01"); got != 6 {
			t.Errorf("a reader's post changed stock to %d", got)
		}
	})
}

// TestConsoleLowStockAndWebhooks: everyone sees what is below its reorder
// point; only an admin sees the webhooks and their deliveries.
func TestConsoleLowStockAndWebhooks(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		base := consoleService(t, databaseURL)
		f := newConsoleFixture(t, base)
		f.api.do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", f.product), map[string]any{"reorderPoint": 5}, http.StatusOK)
		f.api.id(t, "POST", "/api/webhooks", map[string]any{"url": "https://shop.example/hooks/stock",
			"events": []any{"stock.changed", "stock.low"}, "description": "shop stock sync"})
		f.api.do(t, "PUT", "/api/stock/change/webhook-event", []any{map[string]any{"articleDetailId": f.product,
			"warehouse": map[string]any{"code": "MAIN"}, "quantity": 1}}, http.StatusOK)
		key := f.api.newUser(t, "rita", "reader")

		b := newBrowser(t, base)
		b.signIn("rita", key)
		b.visit("/console/low-stock", "low-stock")
		if got := b.text("table tbody"); !strings.Contains(got, "SKU-100") || strings.Contains(got, "SKU-200") {
			t.Errorf("low stock lists %q, want SKU-100 (available -3, reorder point 5) only", got)
		}
		if n := b.count(`a[href="/console/webhooks"]`); n != 0 {
			t.Error("a reader is offered the webhooks")
		}
		status := evalJS[int](b, `fetch('/console/webhooks').then(r => r.status)`)
		if status != http.StatusForbidden {
			t.Errorf("webhooks for a reader: %d, want 403", status)
		}
		b.submit("signed-out", click(`form[action="/console/signout"] button`))

		b.signIn("admin", consoleKey)
		b.submit("webhooks", click(`a[href="/console/webhooks"]`))
		if got := b.text("table tbody"); !strings.Contains(got, "https://shop.example/hooks/stock") || !strings.Contains(got, "shop stock sync") {
			t.Errorf("webhooks: %q", got)
		}
		b.submit("webhook-deliveries", click(`table tbody a`))
		if got := b.text("h2"); !strings.Contains(got, "Deliveries") {
			t.Errorf("deliveries page: %q", got)
		}
		if got := b.text("table tbody"); !strings.Contains(got, "stock.changed") {
			t.Errorf("the deliveries do not list the stock.changed event: %q", got)
		}
	})
}
