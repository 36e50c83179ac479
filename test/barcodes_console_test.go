package test

import (
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/boombuler/barcode/code128"

	"github.com/shopstock/inventory/test/testdb"
)

// Console tests for barcodes and scanning without JavaScript: what the search
// makes of scanned EANs and GS1 element strings, and the barcodes of bin
// labels and the picking list, read back from their SVG.

// barcodeFixture: a warehouse with two bins, a product with an EAN-13 on
// one of them, a product without EAN, an order reserved from the bins,
// and a purchase order.
type barcodeFixture struct {
	api        apiClient
	warehouse  int64
	pen, plain int64
	binA, binB int64
	order      int64
	purchase   int64
	client     *consoleClient
}

func newBarcodeFixture(t *testing.T, databaseURL string) barcodeFixture {
	t.Helper()
	base := consoleService(t, databaseURL)
	api := apiClient{base: base, user: "admin", key: consoleKey}
	f := barcodeFixture{api: api}
	f.warehouse = api.id(t, "POST", "/api/warehouses", map[string]any{"code": "MAIN", "name": "Main warehouse"})
	f.binA = api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.warehouse, "code": "A-01-02"})
	f.binB = api.id(t, "POST", "/api/binLocations", map[string]any{"warehouseId": f.warehouse, "code": "B-07/3"})
	f.pen = api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "PEN-1", "name": "Fineliner", "ean": "4006381333931"})
	f.plain = api.id(t, "POST", "/api/articleDetails", map[string]any{"number": "SW-10007", "name": "Mug"})
	api.do(t, "PUT", "/api/stock/change/bc-1", []any{
		map[string]any{"articleDetailId": f.pen, "quantity": 5, "binLocation": map[string]any{"id": f.binA}},
		map[string]any{"articleDetailId": f.plain, "quantity": 5, "binLocation": map[string]any{"id": f.binB}},
	}, http.StatusOK)
	f.order = api.id(t, "POST", "/api/orders", map[string]any{"number": "10001", "customerEmail": "jane@example.com",
		"details": []any{map[string]any{"articleDetailId": f.pen, "quantity": 2}, map[string]any{"articleDetailId": f.plain, "quantity": 1}}})
	api.do(t, "POST", fmt.Sprintf("/api/orders/%d/pickingList", f.order), nil, http.StatusOK)
	f.purchase = api.id(t, "POST", "/api/purchaseOrders", map[string]any{"number": "PO-7", "warehouse": map[string]any{"code": "MAIN"},
		"lines": []any{map[string]any{"articleDetailId": f.pen, "quantity": 10}}})
	f.client = newConsoleClient(t, base)
	f.client.signIn("admin", consoleKey)
	return f
}

// search sends q as the search field does and returns where it leads:
// the redirect's target, or "" and the results page.
func (f barcodeFixture) search(t *testing.T, q string) (string, string) {
	t.Helper()
	c := f.client
	c.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	defer func() { c.http.CheckRedirect = nil }()
	req, _ := http.NewRequest("GET", c.base+"/console/search?"+url.Values{"q": {q}}.Encode(), nil)
	resp, page := c.do(req)
	switch resp.StatusCode {
	case http.StatusSeeOther:
		return resp.Header.Get("Location"), ""
	case http.StatusOK:
		return "", page
	}
	t.Fatalf("search %q: %d\n%s", q, resp.StatusCode, page)
	return "", ""
}

func TestConsoleSearchFindsScannedBarcodes(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := newBarcodeFixture(t, databaseURL)
		pen := fmt.Sprintf("/console/products/%d", f.pen)
		for _, tc := range []struct{ name, scan, to string }{
			{"an EAN-13", "4006381333931", pen},
			{"the same GTIN as a GTIN-14", "04006381333931", pen},
			{"an EAN-13 with its symbology identifier", "]E04006381333931", pen},
			{"a product number", "SW-10007", fmt.Sprintf("/console/products/%d", f.plain)},
			{"a bin code in Code 128 with its symbology identifier", "]C0A-01-02", fmt.Sprintf("/console/bins/%d", f.binA)},
			{"an order number", "10001", fmt.Sprintf("/console/orders/%d", f.order)},
			{"GS1-128 with brackets", "(01)04006381333931(17)270500(10)L-42", pen + "?bestBefore=2027-05-31&lot=L-42#goods-in"},
			{"GS1 DataMatrix with a group separator", "]d2" + "0104006381333931" + "10L-42\x1d" + "17270615", pen + "?bestBefore=2027-06-15&lot=L-42#goods-in"},
			{"GS1-128 from a scanner that sends the separator as <GS>", "]C1" + "0104006381333931" + "10L 42<GS>" + "15270000", ""},
			{"a raw element string without identifier or separator", "0104006381333931" + "17271300", ""},
			{"a purchase order number", "po-7", fmt.Sprintf("/console/receiving/%d", f.purchase)},
			{"GS1 QR without lot or date", "]Q3" + "0104006381333931", pen + "#goods-in"},
			{"GS1 DataBar with AI 15", "]e0" + "0104006381333931" + "15280200", pen + "?bestBefore=2028-02-29#goods-in"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				to, page := f.search(t, tc.scan)
				if tc.to == "" {
					if to != "" || !strings.Contains(page, "not a GS1 element string: ") {
						t.Errorf("a malformed element string (a space in AI 10, month 00 or 13) says why: %q\n%s", to, page)
					}
					return
				}
				if to != tc.to {
					t.Errorf("%q leads to %q, want %q", tc.scan, to, tc.to)
				}
			})
		}

		t.Run("a GTIN that names no product says so", func(t *testing.T) {
			for _, scan := range []string{"96385074", "(01)09501101530003(10)X"} {
				to, page := f.search(t, scan)
				if to != "" || !strings.Contains(html.UnescapeString(page), "No product has the GTIN") {
					t.Errorf("%q: led to %q\n%s", scan, to, page)
				}
			}
		})

		t.Run("the goods-in form opened by a scan is the product page", func(t *testing.T) {
			status, page := f.client.get(pen + "?bestBefore=2027-05-31&lot=L-42")
			if status != http.StatusOK || !strings.Contains(page, `id="goods-in"`) || !strings.Contains(page, "4006381333931") {
				t.Errorf("%d\n%s", status, page)
			}
		})
	})
}

// svgsOf parses every inline SVG on page strictly as XML and reads the
// Code 128 each one draws back into its modules.
type drawnBarcode struct {
	label   string
	modules []bool
}

func svgsOf(t *testing.T, page string) []drawnBarcode {
	t.Helper()
	var out []drawnBarcode
	for _, svg := range regexp.MustCompile(`(?s)<svg xmlns="http://www.w3.org/2000/svg" class="barcode".*?</svg>`).FindAllString(page, -1) {
		dec := xml.NewDecoder(strings.NewReader(svg))
		dec.Strict = true
		var d drawnBarcode
		inBars := false
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("a barcode is no well-formed SVG: %v\n%s", err, svg)
			}
			switch el := tok.(type) {
			case xml.StartElement:
				attr := map[string]string{}
				for _, a := range el.Attr {
					attr[a.Name.Local] = a.Value
				}
				switch {
				case el.Name.Local == "svg":
					var w, h int
					fmt.Sscanf(attr["viewBox"], "0 0 %d %d", &w, &h)
					d.label, d.modules = attr["aria-label"], make([]bool, w)
				case el.Name.Local == "g":
					inBars = true
				case el.Name.Local == "rect" && inBars:
					var x, w int
					fmt.Sscan(attr["x"], &x)
					fmt.Sscan(attr["width"], &w)
					for i := x; i < x+w && i < len(d.modules); i++ {
						d.modules[i] = true
					}
				}
			case xml.EndElement:
				if el.Name.Local == "g" {
					inBars = false
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// encodes tells whether the drawn modules are the Code 128 of content
// after a quiet zone of 10 modules.
func (d drawnBarcode) encodes(t *testing.T, content string) bool {
	t.Helper()
	want, err := code128.Encode(content)
	if err != nil {
		t.Fatal(err)
	}
	n := want.Bounds().Dx()
	if len(d.modules) != 10+n+10 {
		return false
	}
	for x := 0; x < n; x++ {
		r, _, _, _ := want.At(x, 0).RGBA()
		if d.modules[10+x] != (r < 0x8000) {
			return false
		}
	}
	return true
}

func TestConsoleBinLabelsAndThePickingListCarryCode128(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		f := newBarcodeFixture(t, databaseURL)

		t.Run("a bin's label", func(t *testing.T) {
			_, binPage := f.client.get(fmt.Sprintf("/console/bins/%d", f.binB))
			link := fmt.Sprintf(`href="/console/bins/%d/label"`, f.binB)
			if !strings.Contains(binPage, link) {
				t.Errorf("the bin page links its label")
			}
			status, page := f.client.get(fmt.Sprintf("/console/bins/%d/label", f.binB))
			svgs := svgsOf(t, page)
			if status != http.StatusOK || len(svgs) != 1 || svgs[0].label != "Code 128: B-07/3" || !svgs[0].encodes(t, "B-07/3") {
				t.Fatalf("label page %d, barcodes %+v\n%s", status, svgs, page)
			}
			if !strings.Contains(page, "MAIN · Main warehouse") || !strings.Contains(page, "data-print") {
				t.Errorf("a label names its warehouse and prints")
			}
		})

		t.Run("the labels of a warehouse's bins", func(t *testing.T) {
			_, whPage := f.client.get(fmt.Sprintf("/console/warehouses/%d?q=A-", f.warehouse))
			if !strings.Contains(whPage, fmt.Sprintf(`href="/console/warehouses/%d/labels?page=1&amp;q=A-"`, f.warehouse)) {
				t.Errorf("the bin list links the labels of the bins it shows\n%s", whPage)
			}
			_, page := f.client.get(fmt.Sprintf("/console/warehouses/%d/labels?q=A-", f.warehouse))
			svgs := svgsOf(t, page)
			if len(svgs) != 1 || !svgs[0].encodes(t, "A-01-02") {
				t.Errorf("labels of the bins matching A-: %+v", svgs)
			}
			_, page = f.client.get(fmt.Sprintf("/console/warehouses/%d/labels", f.warehouse))
			if svgs := svgsOf(t, page); len(svgs) != 2 {
				t.Errorf("every bin but the unknown one gets a label: %d", len(svgs))
			}
		})

		t.Run("a product's label shows its EAN", func(t *testing.T) {
			_, page := f.client.get(fmt.Sprintf("/console/products/%d/label", f.pen))
			if svgs := svgsOf(t, page); len(svgs) != 1 || svgs[0].label != "EAN-13: 4006381333931" {
				t.Errorf("product label: %+v", svgs)
			}
			_, page = f.client.get(fmt.Sprintf("/console/products/%d/label", f.plain))
			if svgs := svgsOf(t, page); len(svgs) != 1 || !svgs[0].encodes(t, "SW-10007") {
				t.Errorf("a product without EAN is labelled with its number: %+v", svgs)
			}
		})

		t.Run("the picking list shows every bin's barcode", func(t *testing.T) {
			status, page := f.client.get(fmt.Sprintf("/console/orders/%d/picking", f.order))
			svgs := svgsOf(t, page)
			if status != http.StatusOK || len(svgs) != 2 {
				t.Fatalf("picking list %d with %d barcodes\n%s", status, len(svgs), page)
			}
			if !svgs[0].encodes(t, "A-01-02") || !svgs[1].encodes(t, "B-07/3") {
				t.Errorf("the picks' barcodes are not their bins' codes: %+v", svgs)
			}
		})
	})
}
