package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boombuler/barcode/code128"
	"github.com/chromedp/chromedp"

	"github.com/shopstock/inventory/test/testdb"
)

// TestConsoleGS1ScanFocusesGoodsIn: a GS1 scan in the search opens the
// product's goods in with its lot and best-before filled in, and the
// focus goes to the form's next empty field, the bin, in view; the bin's
// Enter moves on to the quantity, whose Enter books.
func TestConsoleGS1ScanFocusesGoodsIn(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		b := f.b
		page := fmt.Sprintf("/console/products/%d", f.milk)
		b.gun("gs1", "]C1"+"0104012345000009"+"17270531"+"10L-42")
		if got := b.focusSettles(is(page + "/in bin")); got != page+"/in bin" {
			t.Fatalf("after a GS1 scan the focus is on %q, want the goods-in bin", got)
		}
		if !b.inView("#goods-in input[name=bin]") {
			t.Errorf("the bin field is not in view")
		}
		if lot := b.value("#goods-in input[name=lot]"); lot != "L-42" {
			t.Errorf("the lot is %q", lot)
		}
		b.gunStays("scan the bin", "A-03")
		if got := b.focusSettles(is(page + "/in quantity")); got != page+"/in quantity" {
			t.Fatalf("after the bin the focus is on %q", got)
		}
		b.gun("booked", "12")
		b.expect("goods in", ".notice", "Booked 12 of lot L-42 in at A-03.", "/console/search q")
		if got := f.api.stockOn(t, f.milk, "A-03"); got != 12 {
			t.Errorf("A-03 holds %d of MILK-1, want 12", got)
		}
	})
}

// TestConsoleReceivingErrorFocusesTheField: a wrong bin on the receiving
// form comes back with the focus in the bin field, its text selected,
// at the order's own address (a reload stays on the order); an
// over-receipt says how many are still expected.
func TestConsoleReceivingErrorFocusesTheField(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		b := f.b
		page := fmt.Sprintf("/console/receiving/%d", f.po)
		b.visit(page, "order")
		b.expect("the order", "h1", "PO-1", page+" product")
		b.gun("product", "SKU-100")
		b.expect("the product", "#receive label:has(input[name=quantity])", "10 outstanding", page+" quantity")
		b.gunStays("quantity", "4")
		if got := b.focusSettles(is(page + " bin")); got != page+" bin" {
			t.Fatalf("after the quantity the focus is on %q", got)
		}
		b.gun("wrong-bin", "Z-99")
		b.expect("a wrong bin", "#receive input[name=bin] ~ .error", "There is no bin location Z-99", page+" bin")
		if !b.selected() {
			t.Errorf("the wrong bin's text is not selected")
		}
		if path := evalJS[string](b, `location.pathname`); path != page {
			t.Errorf("after the error the address is %s, want %s", path, page)
		}
		if got := f.outstanding(t, f.product); got != 10 {
			t.Fatalf("the wrong bin received: %d outstanding", got)
		}
		b.gun("received", "A-01")
		b.expect("received", ".notice", "Received 4 × SKU-100 on A-01; 6 outstanding on this line.", page+" product")
		if got := f.api.stockOn(t, f.product, "A-01"); got != 4 {
			t.Errorf("A-01 holds %d", got)
		}

		b.tap("#receive input[name=product]")
		b.gun("product-again", "SKU-100")
		b.gunStays("quantity", "7")
		b.gun("over-receipt", "")
		b.expect("over-receipt", "#receive input[name=quantity] ~ .error", "Only 6 more of SKU-100 are expected on this order.", page+" quantity")
		if msg := b.text("#receive input[name=quantity] ~ .error"); strings.Contains(msg, "lines[") || strings.Contains(msg, "lineId") {
			t.Errorf("the over-receipt speaks of internals: %q", msg)
		}
		if got := f.outstanding(t, f.product); got != 6 {
			t.Errorf("after the over-receipt %d outstanding, want 6", got)
		}
	})
}

// TestConsoleReceivingTakesEANs: the purchase order's number in the
// search opens its receiving page; the product's EAN (or its GTIN-14)
// chooses its line, and the receipt goes against the order.
func TestConsoleReceivingTakesEANs(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		b := f.b
		page := fmt.Sprintf("/console/receiving/%d", f.po)
		b.gun("purchase-order", "PO-1")
		b.expect("the order's number", "h1", "PO-1", page+" product")
		b.gun("ean", "4006381333931")
		b.expect("an EAN", "#receive label:has(input[name=quantity])", "10 outstanding", page+" quantity")
		if got := b.value("#receive input[name=bin]"); got != "A-02" {
			t.Errorf("the bin offered is %q, want the default bin A-02", got)
		}
		b.gunStays("quantity", "3")
		b.gun("received", "")
		b.expect("received", ".notice", "Received 3 × SKU-100 on A-02; 7 outstanding on this line.", page+" product")
		b.gun("gtin-14", "]C1"+"0104006381333931")
		b.expect("a GTIN-14 under AI 01", "#receive label:has(input[name=quantity])", "7 outstanding", page+" quantity")
		b.gunStays("quantity", "2")
		b.gun("received-again", "")
		b.expect("received again", ".notice", "Received 2 × SKU-100 on A-02; 5 outstanding on this line.", page+" product")
		if got := f.api.stockOn(t, f.product, "A-02"); got != 5 {
			t.Errorf("A-02 holds %d of SKU-100, want 5", got)
		}
		if got := f.outstanding(t, f.product); got != 5 {
			t.Errorf("the order still expects %d, want 5", got)
		}
		if got := f.article(t, f.product)["incomingStock"]; got != 5.0 {
			t.Errorf("incomingStock %v, want 5", got)
		}
	})
}

// TestConsoleReceivingLots: a lot-tracked product is received against
// its purchase order. Its GS1 barcode, with the group separator sent as
// Ctrl+], chooses its line and fills in the lot and best-before; typed
// by its number, the form asks for the lot first.
func TestConsoleReceivingLots(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		b := f.b
		page := fmt.Sprintf("/console/receiving/%d", f.po)
		b.gun("purchase-order", "PO-1")
		b.gun("gs1", "]C1"+"0104012345000009"+"10L-7\x1d"+"17270531")
		b.expect("a GS1 scan", "#receive label:has(input[name=quantity])", "24 outstanding", page+" quantity")
		if lot, date := b.value("#receive input[name=lot]"), b.value("#receive input[name=bestBefore]"); lot != "L-7" || date != "2027-05-31" {
			t.Errorf("after the GS1 scan: lot %q, best-before %q", lot, date)
		}
		b.gunStays("quantity", "20")
		b.gun("received", "A-03")
		b.expect("received", ".notice", "Received 20 × MILK-1 of lot L-7 on A-03; 4 outstanding on this line.", page+" product")

		b.gun("by-number", "MILK-1")
		b.expect("the number of a lot-tracked product", "#receive label:has(input[name=quantity])", "4 outstanding", page+" lot")
		b.gunStays("lot", "L-8")
		if got := b.focusSettles(is(page + " quantity")); got != page+" quantity" {
			t.Fatalf("after the lot the focus is on %q", got)
		}
		b.gunStays("quantity", "4")
		b.gun("received-lot", "A-03")
		b.expect("received", ".notice", "Received 4 × MILK-1 of lot L-8 on A-03; 0 outstanding on this line.", page+" product")

		if got := f.outstanding(t, f.milk); got != 0 {
			t.Errorf("the order still expects %d of MILK-1", got)
		}
		if got := f.article(t, f.milk)["incomingStock"]; got != 0.0 {
			t.Errorf("incomingStock %v, want 0", got)
		}
		lots := f.api.do(t, "GET", fmt.Sprintf("/api/lots?filter[0][property]=lot.articleDetailId&filter[0][value]=%d", f.milk), nil, 200)["data"].([]any)
		got := map[string]string{}
		for _, l := range lots {
			l := l.(map[string]any)
			got[l["number"].(string)] = fmt.Sprint(l["stock"], " ", l["bestBefore"])
		}
		if got["L-7"] != "20 2027-05-31" || got["L-8"] != "4 <nil>" {
			t.Errorf("the lots: %v", got)
		}
		receipts := f.api.do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d/receipts", f.po), nil, 200)["data"].([]any)
		if len(receipts) != 2 || receipts[0].(map[string]any)["lines"].([]any)[0].(map[string]any)["lotNumber"] != "L-7" {
			t.Errorf("the receipts: %v", receipts)
		}
	})
}

// TestConsoleQuantityBoxesTellScansFromQuantities: a barcode scanned into
// a count's pieces box is taken as the scan it is; a bin's code
// scanned into goods in's quantity goes to the bin field; a number far
// beyond what the bin holds asks, a stray scan's Enter asks again, and
// only the offered button, tapped, books it.
func TestConsoleQuantityBoxesTellScansFromQuantities(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		b, api := f.b, f.api
		gadget := int64(api.do(t, "GET", "/api/articleDetails?filter[0][property]=articleDetail.number&filter[0][value]=SKU-200", nil, 200)["data"].([]any)[0].(map[string]any)["id"].(float64))
		api.do(t, "PUT", fmt.Sprintf("/api/articleDetails/%d", gadget), map[string]any{"ean": "96385074"}, 200)
		api.do(t, "PUT", "/api/stock/change/seed-a01", []any{map[string]any{"articleDetailId": f.product,
			"binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 40}}, 200)

		// A count of A-01: a barcode scanned into the pieces box is
		// the scan of its product, one piece; a number no bin
		// plausibly holds that names nothing is refused; nothing is
		// booked while counting.
		b.gun("bin", "A-01")
		b.tap(`form[action$="/count"] button`)
		b.submit("count-open", scannerEnter())
		b.tap("input[name=qty]")
		b.gun("count-a-barcode", "96385074")
		if got := b.text(".count-lines"); !strings.Contains(got, "SKU-200") {
			t.Errorf("the barcode in the pieces box counted no SKU-200: %q", got)
		}
		if got := b.text("h2"); !strings.Contains(got, "1 pieces scanned") {
			t.Errorf("after the barcode in the pieces box: %q", got)
		}
		b.tap("input[name=qty]")
		b.gun("count-too-many", "50000")
		if got := b.text("#scan .error"); !strings.Contains(got, "50000") {
			t.Errorf("a number no bin holds says %q", got)
		}
		if got := b.text("h2"); !strings.Contains(got, "1 pieces scanned") {
			t.Errorf("a number no bin holds changed the tally: %q", got)
		}
		if got := api.stockOn(t, f.product, "A-01"); got != 40 {
			t.Fatalf("counting booked something: A-01 holds %d", got)
		}
		b.visit("/console/search", "search")

		page := fmt.Sprintf("/console/products/%d", f.product)
		b.gun("product", "SKU-100")
		b.tap("#goods-in input[name=bin]")
		b.gunStays("bin", "A-02")
		b.gun("goods-in-huge", "1000000000")
		b.expect("a goods in of a billion", "#goods-in input[name=quantity] ~ .error", "1000000000 is far more than plausible here", page+"/in quantity")
		b.gun("bin-in-quantity", "A-03")
		b.expect("a bin code in the quantity", "#goods-in input[name=quantity] ~ .error", "A-03 is a bin location: it is in the bin field now.", page+"/in quantity")
		if got := b.value("#goods-in input[name=bin]"); got != "A-03" {
			t.Errorf("the bin field holds %q", got)
		}
		b.gun("goods-in", "5")
		b.expect("goods in", ".notice", "Booked 5 in at A-03.", "/console/search q")
		if a2, a3 := api.stockOn(t, f.product, "A-02"), api.stockOn(t, f.product, "A-03"); a2 != 0 || a3 != 5 {
			t.Errorf("A-02 holds %d, A-03 %d; want 0 and 5", a2, a3)
		}
	})
}

// TestConsoleMoveAsAScanFlow: the move page is one tap from the menu and
// needs no scrolling on a phone; its fields take the source bin, the
// product, the quantity or "all" and the destination, each scan's Enter
// moving on, and the notice names all four.
func TestConsoleMoveAsAScanFlow(t *testing.T) {
	for _, screen := range consoleScreens {
		t.Run(screen.name, func(t *testing.T) {
			testdb.Each(t, func(t *testing.T, databaseURL string) {
				f := newScanFixtureOn(t, databaseURL, screen.width, screen.height)
				b, api := f.b, f.api
				api.do(t, "PUT", "/api/stock/change/seed-a01", []any{map[string]any{"articleDetailId": f.product,
					"binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 12}}, 200)
				if screen.width < 600 {
					if h := evalJS[float64](b, `document.querySelector("header.top").getBoundingClientRect().height`); h > 100 {
						t.Errorf("the header takes %.0f px of the phone's 844", h)
					}
					b.run("open the menu", click(`details.more > summary`))
				}
				if !b.inView(`nav.menu a[href="/console/move"]`) {
					t.Fatalf("the move page's link is not in view")
				}
				b.submit("move", click(`nav.menu a[href="/console/move"]`))
				b.expect("the move page", "h1", "Move", "/console/move from")
				for _, sel := range []string{"input[name=from]", "input[name=product]", "input[name=quantity]", "input[name=to]", "#move button.primary"} {
					if !b.inView(sel) {
						t.Errorf("%s needs scrolling", sel)
					}
				}
				b.gunStays("from", "A-01")
				b.gunStays("product", "4006381333931")
				b.gunStays("quantity", "5")
				if got := b.focusSettles(is("/console/move to")); got != "/console/move to" {
					t.Fatalf("after the quantity the focus is on %q", got)
				}
				b.gun("moved", "A-03")
				b.expect("moved", ".notice", "Moved 5 × SKU-100 from A-01 to A-03.", "/console/move from")

				b.gunStays("from", "A-01")
				b.gunStays("product", "SKU-100")
				b.gunStays("quantity", "all")
				b.gun("moved-all", "A-02")
				b.expect("moved all", ".notice", "Moved all 7 × SKU-100 from A-01 to A-02.", "/console/move from")

				b.gunStays("from", "A-02")
				b.gunStays("product", "SKU-100")
				b.gunStays("quantity", "2")
				b.gun("same-bin", "A-02")
				b.expect("to the same bin", "#move input[name=to] ~ .error", "That is where the goods are now", "/console/move to")
				if a1, a2, a3 := api.stockOn(t, f.product, "A-01"), api.stockOn(t, f.product, "A-02"), api.stockOn(t, f.product, "A-03"); a1 != 0 || a2 != 7 || a3 != 5 {
					t.Errorf("A-01 %d, A-02 %d, A-03 %d; want 0, 7, 5", a1, a2, a3)
				}
			})
		})
	}
}

// TestConsoleLotRecall: a lot's number in the search, or its GS1 barcode
// on the recall page, shows where the lot lies and which orders received
// it; the ledger names the lot.
func TestConsoleLotRecall(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		b, api := f.b, f.api
		o := api.do(t, "GET", fmt.Sprintf("/api/purchaseOrders/%d", f.po), nil, 200)["data"].(map[string]any)
		var milkLine float64
		for _, l := range o["lines"].([]any) {
			if int64(l.(map[string]any)["articleDetailId"].(float64)) == f.milk {
				milkLine = l.(map[string]any)["id"].(float64)
			}
		}
		for _, at := range []struct {
			bin string
			n   int
		}{{"A-03", 6}, {"A-01", 4}} {
			api.do(t, "POST", fmt.Sprintf("/api/purchaseOrders/%d/receipts", f.po), map[string]any{"lines": []any{map[string]any{
				"lineId": milkLine, "quantity": at.n, "binLocation": map[string]any{"code": at.bin, "warehouseId": f.warehouse},
				"lot": map[string]any{"number": "L-7", "bestBefore": "2027-05-31"}}}}, 201)
		}
		order := api.id(t, "POST", "/api/orders", map[string]any{"number": "10077", "customerEmail": "ann@example.com",
			"details": []any{map[string]any{"articleDetailId": f.milk, "quantity": 3}}})
		api.do(t, "PUT", fmt.Sprintf("/api/orders/%d/ship", order), nil, 200)
		lots := api.do(t, "GET", "/api/lots?filter[0][property]=lot.number&filter[0][value]=L-7", nil, 200)["data"].([]any)
		lot := fmt.Sprintf("/console/lots/%v", lots[0].(map[string]any)["id"])
		stock := lots[0].(map[string]any)["stock"].(float64)

		b.gun("lot-number", "L-7")
		b.expect("a lot's number", "h1", "Lot L-7", "/console/search q")
		if path := evalJS[string](b, `location.pathname`); path != lot {
			t.Errorf("a lot's number opens %s, want %s", path, lot)
		}
		where := b.text("#where")
		if !strings.Contains(where, "A-01") || !strings.Contains(where, "A-03") || stock != 7 {
			t.Errorf("where the lot lies: %q (stock %v)", where, stock)
		}
		if got := b.text("#shipped"); !strings.Contains(got, "10077") || !strings.Contains(got, "3") || !strings.Contains(got, "PO-1") {
			t.Errorf("who received the lot: %q", got)
		}
		if got := b.text("#ledger"); !strings.Contains(got, "lot L-7") {
			t.Errorf("the ledger does not name the lot: %q", got)
		}

		b.visit("/console/lots", "recall")
		b.expect("the recall page", "h1", "Lot recall", "/console/lots q")
		b.gun("recall-gs1", "]C1"+"0104012345000009"+"17270531"+"10L-7")
		b.expect("a lot's GS1 barcode", "h1", "Lot L-7", "/console/search q")
		b.visit("/console/lots", "recall-again")
		b.gun("recall-unknown", "]C1"+"0104012345000009"+"10L-9")
		b.expect("an unknown lot", ".alert", "No lot L-9 is known.", "/console/lots q")
		b.visit(fmt.Sprintf("/console/products/%d", f.milk), "product")
		if got := b.text("#ledger"); !strings.Contains(got, "lot L-7") {
			t.Errorf("the product's ledger does not name the lot: %q", got)
		}

		// The lot's label: GS1-128 with AIs 01, 17 and 10.
		b.visit(lot, "lot")
		b.submit("lot-label", click(`a[href="`+lot+`/label"]`))
		drawn := svgsOf(t, evalJS[string](b, `document.documentElement.outerHTML`))
		if len(drawn) != 1 || drawn[0].label != "GS1-128: (01)04012345000009(17)270531(10)L-7" ||
			!drawn[0].encodes(t, string(code128.FNC1)+"01"+"04012345000009"+"17"+"270531"+"10"+"L-7") {
			t.Errorf("the lot's label draws %+v", drawn)
		}

		// A bin's label names its warehouse where its code repeats in
		// another warehouse.
		bins := api.do(t, "GET", "/api/binLocations?filter[0][property]=binLocation.code&filter[0][value]=A-01", nil, 200)["data"].([]any)
		label := fmt.Sprintf("/console/bins/%v/label", bins[0].(map[string]any)["id"])
		b.visit(label, "bin-label")
		if got := b.text("figcaption .code"); got != "A-01" {
			t.Errorf("the label of a bin whose code is the only one says %q", got)
		}
		second := api.id(t, "POST", "/api/warehouses", map[string]any{"code": "SEC", "name": "Second warehouse",
			"binLocationFormatComponents": []any{
				map[string]any{"type": "text", "value": "A-"},
				map[string]any{"type": "number", "from": 1, "to": 1, "padding": 2},
			}})
		api.do(t, "POST", fmt.Sprintf("/api/warehouses/%d/binLocations/generate", second), nil, 200)
		b.visit(label, "bin-label-repeated")
		if got := b.text("figcaption .code"); got != "MAIN · A-01" {
			t.Errorf("the label of a bin whose code repeats says %q", got)
		}
		b.visit(fmt.Sprintf("/console/warehouses/%d/labels", f.warehouse), "warehouse-labels")
		if got := evalJS[[]string](b, `[...document.querySelectorAll("figcaption .code")].map(e => e.textContent)`); strings.Join(got, ",") != "MAIN · A-01,A-02,A-03" {
			t.Errorf("the warehouse's labels say %q", got)
		}
	})
}

// TestConsoleImportOfAnUnchangedExport: a set import of the export as it
// was changes nothing and stamps no "last counted"; an import's failing
// lines are told in the worker's words.
func TestConsoleImportOfAnUnchangedExport(t *testing.T) {
	eachScanScreen(t, func(t *testing.T, f scanFixture) {
		b, api := f.b, f.api
		api.do(t, "PUT", "/api/stock/change/seed-a01", []any{map[string]any{"articleDetailId": f.product,
			"binLocation": map[string]any{"code": "A-01", "warehouseId": f.warehouse}, "quantity": 5}}, 200)
		var export strings.Builder
		export.WriteString("warehouseCode,binLocationCode,articleDetailNumber,articleDetailId,stock,reservedStock,defaultMapping,lastStockTake,lotNumber,bestBefore\n")
		for _, row := range api.csv(t) {
			export.WriteString(strings.Join(row, ",") + "\n")
		}
		file := t.TempDir() + "/export.csv"
		writeFile(t, file, export.String())
		upload := func(name, path, mode string) {
			t.Helper()
			b.visit("/console/stock", "stock")
			b.submit(name, chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{path}),
				click(`input[name=mode][value=`+mode+`]`), click(`form[action="/console/stock/preview"] button`))
		}
		upload("preview-export", file, "set")
		b.submit("applied", click(`form[action="/console/stock/import"] button`))
		b.expect("the export imported", ".notice", "Imported", "/console/search q")
		for _, row := range api.csv(t) {
			if row[1] == "A-01" && row[7] != "" {
				t.Errorf("importing the unchanged export stamped A-01 as counted at %s", row[7])
			}
		}
		if got := api.stockOn(t, f.product, "A-01"); got != 5 {
			t.Errorf("A-01 holds %d after the import", got)
		}

		bad := t.TempDir() + "/bad.csv"
		writeFile(t, bad, "warehouseCode,binLocationCode,articleDetailNumber,quantity\nMAIN,Z-99,SKU-100,1\nMAIN,A-01,NOPE-1,1\nMAIN,A-01,SKU-100,-9\n")
		upload("preview-bad", bad, "change")
		got := b.text("main")
		for _, says := range []string{"There is no bin location Z-99 in warehouse MAIN.", "There is no product NOPE-1.",
			"Not enough stock: bin A-01 has 5 pieces of SKU-100 free to take."} {
			if !strings.Contains(got, says) {
				t.Errorf("the preview does not say %q:\n%s", says, got)
			}
		}
		if strings.Contains(got, "article detail") {
			t.Errorf("the preview speaks of article details:\n%s", got)
		}
	})
}

// TestConsoleSignInAndMalformedScans: after a wrong key the focus is in
// the key field, the name kept; a GS1 element string without symbology
// identifier whose GTIN's check digit is wrong says what is wrong with it
// rather than that nothing matches.
func TestConsoleSignInAndMalformedScans(t *testing.T) {
	for _, screen := range consoleScreens {
		t.Run(screen.name, func(t *testing.T) {
			testdb.Each(t, func(t *testing.T, databaseURL string) {
				base := consoleService(t, databaseURL)
				f := newConsoleFixture(t, base)
				key := f.api.newUser(t, "olga", "operator")
				b := newBrowser(t, base)
				b.screen(screen.width, screen.height)
				b.visit("/console/", "signin")
				b.run("name", chromedp.Focus(chromedp.CSS(`input[name=name]`)))
				b.gunStays("the name", "olga")
				b.gun("wrong-key", "not-the-key")
				b.expect("a wrong key", "form[action=\"/console/signin\"] .error", "", "/console/signin key")
				if got := b.value("input[name=name]"); got != "olga" {
					t.Errorf("after a wrong key the name is %q", got)
				}
				b.gun("signed-in", key)
				b.expect("signed in", "h1", "Find anything", "/console/search q")

				b.gun("malformed", "0104006381333932"+"17270531"+"10L-42")
				b.expect("a misread GS1 scan", ".alert", "This scan is not a GS1 element string: ", "/console/search q")
				if got := b.text("main"); strings.Contains(got, "Nothing matches") {
					t.Errorf("a misread GS1 scan says: %q", got)
				}
			})
		})
	}
}
