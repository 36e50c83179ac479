package test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/shopstock/inventory/test/testdb"
)

// A handheld scanner in keyboard mode sends its code as one keyDown that
// carries the text, and then Enter: a keyDown whose default (the
// keypress that submits a form) a page's script can prevent. chromedp's
// KeyEvent sends Enter's keypress as an event of its own that submits
// the form whatever the script did, so it is not how a scanner behaves.

// scannerText sends text as a scanner's keyDowns, one a character (the
// browser takes at most four characters of text a key event).
func scannerText(text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, r := range text {
			s := string(r)
			down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: s, Text: s, UnmodifiedText: s}
			if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, down); err != nil {
				return err
			}
			if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Key: s}); err != nil {
				return err
			}
		}
		return nil
	})
}

// scannerKey sends one named key (Enter, Tab) as a keyboard does.
func scannerKey(key, code string, vk int64, text string, modifiers int64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: key, Code: code,
			WindowsVirtualKeyCode: vk, NativeVirtualKeyCode: vk, Text: text, UnmodifiedText: text, Modifiers: modifiers}
		if text == "" {
			down.Type = input.DispatchKeyEventTypeRawKeyDown
		}
		if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, down); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp,
			Key: key, Code: code, WindowsVirtualKeyCode: vk, NativeVirtualKeyCode: vk, Modifiers: modifiers})
		return err
	})
}

func scannerEnter() chromedp.Action[chromedp.Void] { return scannerKey("Enter", "Enter", 13, "\r", 0) }

// scannerGS is the group separator as a scanner in keyboard mode sends
// it: Ctrl+].
func scannerGS() chromedp.Action[chromedp.Void] {
	return scannerKey("]", "BracketRight", 221, "", 2)
}

// scannerCode sends a code as a scanner does; "\x1d" in it is sent as
// the group separator.
func scannerCode(code string) chromedp.Action[chromedp.Void] {
	var steps []chromedp.Action[chromedp.Void]
	for i, part := range strings.Split(code, "\x1d") {
		if i > 0 {
			steps = append(steps, scannerGS())
		}
		steps = append(steps, scannerText(part))
	}
	return chromedp.Steps(steps...)
}

// gun scans code with Enter into whatever has the focus and waits for
// the page that answers.
func (b *browser) gun(name, code string) {
	b.t.Helper()
	b.submit(name, scannerCode(code), scannerEnter())
}

// gunStays scans code with Enter and expects no page to load.
func (b *browser) gunStays(what, code string) {
	b.t.Helper()
	b.run(what, chromedp.Evaluate[chromedp.Void](`window.__stay = true`), scannerCode(code), scannerEnter(), chromedp.Sleep(400*time.Millisecond))
	if !evalJS[bool](b, `window.__stay === true`) {
		b.shot("failed")
		b.t.Fatalf("%s: a page loaded (screenshots in %s)", what, b.shots)
	}
}

// value is the value of the first field matching sel.
func (b *browser) value(sel string) string {
	b.t.Helper()
	return evalJS[string](b, fmt.Sprintf(`(document.querySelector(%q) || {value: "<none>"}).value`, sel))
}

// selected tells whether the focused field's whole text is selected.
func (b *browser) selected() bool {
	b.t.Helper()
	return evalJS[bool](b, `(() => { const e = document.activeElement; return e && e.value !== undefined && e.value.length > 0 && e.selectionStart === 0 && e.selectionEnd === e.value.length; })()`)
}

// scanFixture is a warehouse with bins A-01..A-03, SKU-100 (EAN
// 4006381333931, default bin A-02) and a lot-tracked MILK-1 (EAN
// 4012345000009), and a purchase order PO-1 of both, with an operator
// signed in on a screen.
type scanFixture struct {
	consoleFixture
	milk, po int64
	b        *browser
}

// newScanFixtureOn is the scan fixture on the database at databaseURL.
func newScanFixtureOn(t *testing.T, databaseURL string, width, height int64) scanFixture {
	t.Helper()
	base := consoleService(t, databaseURL)
	f := scanFixture{consoleFixture: newConsoleFixture(t, base)}
	api := f.api
	api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", f.warehouse), nil, http.StatusOK)
	api.do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", f.product), map[string]any{"ean": "4006381333931"}, http.StatusOK)
	bins := api.do(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]=A-02", nil, http.StatusOK)["data"].([]any)
	a02 := int64(bins[0].(map[string]any)["id"].(float64))
	api.do(t, "PUT", fmt.Sprintf("/api/binLocations/%d/articleDetails/%d", a02, f.product), map[string]any{"defaultMapping": true}, http.StatusOK)
	f.milk = api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "MILK-1", "name": "Oat milk", "ean": "4012345000009", "lotTracked": true})
	f.po = api.id(t, "POST", "/api/purchaseOrders", map[string]any{"number": "PO-1", "supplier": "Oats Ltd", "warehouse": map[string]any{"code": "MAIN"},
		"lines": []any{
			map[string]any{"articleDetailId": f.product, "quantity": 10},
			map[string]any{"articleDetailId": f.milk, "quantity": 24},
		}})
	key := api.newUser(t, "olga", "operator")
	f.b = newBrowser(t, base)
	f.b.screen(width, height)
	f.b.visit("/console/", "signin")
	f.b.run("name", chromedp.Focus(chromedp.CSS(`input[name=name]`)))
	f.b.run("type the name", scannerText("olga"), scannerEnter())
	f.b.gun("signed-in", key)
	return f
}

// article is a product's figures over the API.
func (f scanFixture) article(t *testing.T, id int64) map[string]any {
	t.Helper()
	return f.api.do(t, "GET", fmt.Sprintf("/api/articleDetails/%d", id), nil, http.StatusOK)["data"].(map[string]any)
}

// outstanding is what a purchase order line still expects.
func (f scanFixture) outstanding(t *testing.T, article int64) int {
	t.Helper()
	o := f.api.do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d", f.po), nil, http.StatusOK)["data"].(map[string]any)
	for _, l := range o["lines"].([]any) {
		l := l.(map[string]any)
		if int64(l["articleDetailId"].(float64)) == article {
			return int(l["quantity"].(float64) - l["received"].(float64))
		}
	}
	t.Fatalf("no line of %d", article)
	return 0
}

// signOut signs out through the header, opening its menu where a narrow
// screen folds it away.
func (b *browser) signOut() {
	b.t.Helper()
	if evalJS[bool](b, `(() => { const d = document.querySelector("details.more"); return !!d && !d.open && getComputedStyle(d.querySelector("summary")).display !== "none"; })()`) {
		b.run("open the menu", click(`details.more > summary`))
	}
	b.submit("signed-out", click(`form[action="/console/signout"] button`))
}

// eachScanScreen runs fn on a scan fixture at each of consoleScreens'
// sizes, on each database.
func eachScanScreen(t *testing.T, fn func(t *testing.T, f scanFixture)) {
	for _, screen := range consoleScreens {
		t.Run(screen.name, func(t *testing.T) {
			testdb.Each(t, func(t *testing.T, databaseURL string) {
				fn(t, newScanFixtureOn(t, databaseURL, screen.width, screen.height))
			})
		})
	}
}
