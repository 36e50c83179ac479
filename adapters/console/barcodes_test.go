package console

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/boombuler/barcode/code128"

	"github.com/shopstock/inventory/domain/catalog"
)

// drawn is what an SVG the console drew shows: its bars as modules (true:
// dark) across the whole width, its label for screen readers and its text.
type drawn struct {
	modules []bool
	aria    string
	text    string
}

// readSVG parses the SVG strictly as XML and reads its bars back.
func readSVG(t *testing.T, svg string) drawn {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	dec.Strict = true
	var out drawn
	var inBars, inText bool
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is no well-formed XML: %v\n%s", err, svg)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "svg":
				if el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("the SVG's namespace is %q", el.Name.Space)
				}
				var w, h int
				if _, err := fmt.Sscanf(attr["viewBox"], "0 0 %d %d", &w, &h); err != nil {
					t.Fatalf("viewBox %q", attr["viewBox"])
				}
				out.modules, out.aria = make([]bool, w), attr["aria-label"]
			case "g":
				inBars = true
			case "rect":
				if !inBars {
					continue
				}
				x, err1 := strconv.Atoi(attr["x"])
				width, err2 := strconv.Atoi(attr["width"])
				if err1 != nil || err2 != nil || width < 1 || x < 0 || x+width > len(out.modules) {
					t.Fatalf("a bar at %q wide %q", attr["x"], attr["width"])
				}
				for i := x; i < x+width; i++ {
					out.modules[i] = true
				}
			case "text":
				inText = true
			}
		case xml.EndElement:
			depth--
			switch el.Name.Local {
			case "g":
				inBars = false
			case "text":
				inText = false
			}
		case xml.CharData:
			if inText {
				out.text += string(el)
			}
		}
	}
	if depth != 0 || out.modules == nil {
		t.Fatalf("not one whole SVG: %s", svg)
	}
	return out
}

// widths are the run lengths of the modules between the quiet zones, and
// how wide the quiet zones are.
func widths(modules []bool) (runs []int, left, right int) {
	first, last := -1, -1
	for i, m := range modules {
		if m {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return nil, len(modules), 0
	}
	for i := first; i <= last; {
		j := i
		for j <= last && modules[j] == modules[i] {
			j++
		}
		runs = append(runs, j-i)
		i = j
	}
	return runs, first, len(modules) - 1 - last
}

func runsString(runs []int) string {
	var b strings.Builder
	for _, r := range runs {
		b.WriteString(strconv.Itoa(r))
	}
	return b.String()
}

// decodeEAN13 reads the digits of an EAN-13 from its modules, by the
// symbology's own tables.
func decodeEAN13(t *testing.T, modules []bool) string {
	t.Helper()
	_, left, _ := widths(modules)
	bits := make([]byte, 0, 95)
	for _, m := range modules[left:] {
		if len(bits) == 95 {
			break
		}
		bits = append(bits, map[bool]byte{true: '1', false: '0'}[m])
	}
	s := string(bits)
	if len(s) != 95 || s[:3] != "101" || s[45:50] != "01010" || s[92:] != "101" {
		t.Fatalf("no EAN-13 guard pattern: %s", s)
	}
	l := []string{"0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"}
	complement := func(p string) string {
		return strings.Map(func(r rune) rune { return map[rune]rune{'0': '1', '1': '0'}[r] }, p)
	}
	reverse := func(p string) string {
		b := []byte(p)
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return string(b)
	}
	parities := []string{"LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"}
	digit := func(p string, kinds string) (int, byte) {
		for d := range l {
			for _, k := range kinds {
				var code string
				switch k {
				case 'L':
					code = l[d]
				case 'G':
					code = reverse(complement(l[d]))
				case 'R':
					code = complement(l[d])
				}
				if code == p {
					return d, byte(k)
				}
			}
		}
		t.Fatalf("no EAN digit is drawn %s", p)
		return 0, 0
	}
	var digits, parity []byte
	for i := 0; i < 6; i++ {
		d, k := digit(s[3+7*i:10+7*i], "LG")
		digits, parity = append(digits, byte('0'+d)), append(parity, k)
	}
	for i := 0; i < 6; i++ {
		d, _ := digit(s[50+7*i:57+7*i], "R")
		digits = append(digits, byte('0'+d))
	}
	for d, p := range parities {
		if p == string(parity) {
			return strconv.Itoa(d) + string(digits)
		}
	}
	t.Fatalf("no first digit has the parities %s", parity)
	return ""
}

func TestABinCodeIsDrawnAsTheBarsOfItsCode128(t *testing.T) {
	for _, code := range []string{"A-01-02", "HALL 3/R12/F4", "0042", `<&"'>`} {
		t.Run(code, func(t *testing.T) {
			got := readSVG(t, string(code128SVG(code, labelBarHeight)))
			want, err := code128.Encode(code)
			if err != nil {
				t.Fatal(err)
			}
			runs, left, right := widths(got.modules)
			if left != 10 || right != 10 {
				t.Errorf("quiet zones of %d and %d modules, want 10", left, right)
			}
			drawnBars := make([]bool, want.Bounds().Dx())
			copy(drawnBars, got.modules[left:])
			for x := range drawnBars {
				if r, _, _, _ := want.At(x, 0).RGBA(); drawnBars[x] != (r < 0x8000) {
					t.Fatalf("module %d differs from the Code 128 of %q", x, code)
				}
			}
			// Code 128's own frame: a start symbol (A, B or C) and the stop symbol.
			s := runsString(runs)
			start := strings.HasPrefix(s, "211412") || strings.HasPrefix(s, "211214") || strings.HasPrefix(s, "211232")
			if !start || !strings.HasSuffix(s, "2331112") || len(runs)%6 != 1 {
				t.Errorf("no Code 128 start and stop symbols: %s", s)
			}
			if got.text != code || got.aria != "Code 128: "+code {
				t.Errorf("text %q, label %q, want %q", got.text, got.aria, code)
			}
		})
	}
}

func TestACodeOutsideCode128SaysItCannotBeDrawn(t *testing.T) {
	got := string(code128SVG("Lager-Ü", labelBarHeight))
	if strings.Contains(got, "<svg") || !strings.Contains(got, "Lager-Ü cannot be drawn in Code 128") {
		t.Errorf("got %s", got)
	}
}

func TestAProductLabelDrawsItsEANElseItsNumber(t *testing.T) {
	product := func(number, ean string) *catalog.ArticleDetail {
		return catalog.UnmarshalArticleDetailFromDatabase(1, number, "", 0, ean, false)
	}
	for _, tc := range []struct{ ean, kind, digits string }{
		{"4006381333931", "EAN-13", "4006381333931"},
		{"04006381333931", "EAN-13", "4006381333931"},
		{"036000291452", "UPC-A", "0036000291452"},
	} {
		s, err := productSymbol(product("SKU", tc.ean))
		if err != nil {
			t.Fatal(err)
		}
		got := readSVG(t, string(s.svg(labelBarHeight)))
		if d := decodeEAN13(t, got.modules); d != tc.digits || !strings.HasPrefix(got.aria, tc.kind+": ") {
			t.Errorf("%s: drawn as %s %q, want %s %s", tc.ean, got.aria, d, tc.kind, tc.digits)
		}
	}

	s, err := productSymbol(product("SKU", "96385074"))
	if err != nil {
		t.Fatal(err)
	}
	got := readSVG(t, string(s.svg(labelBarHeight)))
	if runs, _, _ := widths(got.modules); got.aria != "EAN-8: 96385074" || len(got.modules) != 7+67+7 || runs[0] != 1 {
		t.Errorf("an EAN-8 is drawn in EAN-8: %s, %d modules", got.aria, len(got.modules))
	}

	// A GTIN-14 with a packaging indicator is GS1-128: start C, FNC1, AI 01.
	s, err = productSymbol(product("SKU", "10614141000415"))
	if err != nil {
		t.Fatal(err)
	}
	got = readSVG(t, string(s.svg(labelBarHeight)))
	if runs, _, _ := widths(got.modules); !strings.HasPrefix(runsString(runs), "211232"+"411131") || got.text != "(01)10614141000415" {
		t.Errorf("GS1-128 of (01)10614141000415: %s %q", runsString(runs), got.text)
	}

	s, err = productSymbol(product("SW-10007", ""))
	if err != nil {
		t.Fatal(err)
	}
	if got := readSVG(t, string(s.svg(labelBarHeight))); got.aria != "Code 128: SW-10007" {
		t.Errorf("a product without EAN is drawn by its number: %s", got.aria)
	}
}
