package console

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/code128"
	"github.com/boombuler/barcode/ean"

	domainbarcode "github.com/shopstock/inventory/domain/barcode"
	"github.com/shopstock/inventory/domain/catalog"
)

// The barcodes the console prints are drawn here as SVG, one rectangle per
// bar of the modules boombuler/barcode encodes: nothing is loaded from
// elsewhere, a page embeds them as they are, and they print sharp at any
// size.

// barcodeFuncs are the template functions that draw barcodes in a page:
// code128 draws a code at the height of a list's barcodes.
func barcodeFuncs() template.FuncMap {
	return template.FuncMap{
		"code128": func(content string) template.HTML { return code128SVG(content, smallBarHeight) },
	}
}

// The height of the bars, in modules: a label's, and the smaller one of a
// list where many barcodes stand one under the other.
const (
	labelBarHeight = 60
	smallBarHeight = 36
)

// svgModule is how many CSS pixels one module is wide on the page: a
// handheld scanner reads 0.5 mm modules from a screen and from paper.
const svgModule = 2

// symbol is an encoded barcode with what to print under it.
type symbol struct {
	bars barcode.Barcode
	// kind names the symbology to people and tests (aria-label).
	kind, text string
	// quietLeft and quietRight are the light margins in modules that
	// the symbology asks for.
	quietLeft, quietRight int
}

// code128Symbol encodes content in Code 128 (a bin location's code, a
// product's number).
func code128Symbol(content string) (symbol, error) {
	b, err := code128.Encode(content)
	if err != nil {
		return symbol{}, err
	}
	return symbol{bars: b, kind: "Code 128", text: content, quietLeft: 10, quietRight: 10}, nil
}

// gtinSymbol encodes a GTIN as retail scanners expect it: EAN-8 and
// EAN-13 as they are, a UPC-A as the EAN-13 with a zero in front (the same
// bars), a GTIN-14 with a zero in front as its EAN-13, and any other
// GTIN-14 in GS1-128 under AI 01 (a scanner sends it back as "]C101…").
func gtinSymbol(g domainbarcode.GTIN) (symbol, error) {
	s := g.String()
	switch {
	case len(s) == 8:
		b, err := ean.Encode(s)
		return symbol{bars: b, kind: "EAN-8", text: s, quietLeft: 7, quietRight: 7}, err
	case len(s) == 13:
		b, err := ean.Encode(s)
		return symbol{bars: b, kind: "EAN-13", text: s, quietLeft: 11, quietRight: 7}, err
	case len(s) == 12:
		b, err := ean.Encode("0" + s)
		return symbol{bars: b, kind: "UPC-A", text: s, quietLeft: 11, quietRight: 7}, err
	case len(s) == 14 && s[0] == '0':
		b, err := ean.Encode(s[1:])
		return symbol{bars: b, kind: "EAN-13", text: s[1:], quietLeft: 11, quietRight: 7}, err
	}
	b, err := code128.Encode(string(code128.FNC1) + "01" + s)
	return symbol{bars: b, kind: "GS1-128", text: "(01)" + s, quietLeft: 10, quietRight: 10}, err
}

// gs1Symbol encodes an element string (raw, as Encode writes it) in
// GS1-128: FNC1 first, the string's brackets under the bars.
func gs1Symbol(raw, brackets string) (symbol, error) {
	b, err := code128.Encode(string(code128.FNC1) + raw)
	return symbol{bars: b, kind: "GS1-128", text: brackets, quietLeft: 10, quietRight: 10}, err
}

// productSymbol is a product's barcode: its EAN, else its number in Code 128.
func productSymbol(a *catalog.ArticleDetail) (symbol, error) {
	if a.EAN() != "" {
		return gtinSymbol(a.EAN())
	}
	return code128Symbol(a.Number())
}

// code128SVG draws content in Code 128, or says why it cannot be drawn.
func code128SVG(content string, barHeight int) template.HTML {
	s, err := code128Symbol(content)
	if err != nil {
		return undrawable(content, "Code 128")
	}
	return s.svg(barHeight)
}

// undrawable stands where a barcode cannot: Code 128 holds ASCII only, and
// a code may hold any text.
func undrawable(content, kind string) template.HTML {
	return template.HTML(`<span class="barcode-none">` + template.HTMLEscapeString(content) +
		` cannot be drawn in ` + kind + `</span>`)
}

// svg draws the bars, one rectangle per run of dark modules, and the text
// under them; the SVG is well-formed XML as well as HTML.
func (s symbol) svg(barHeight int) template.HTML {
	modules := s.bars.Bounds().Dx()
	width := s.quietLeft + modules + s.quietRight
	textSize := 10
	height := barHeight + textSize + 3
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="barcode" role="img" aria-label="%s: %s" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges">`,
		s.kind, template.HTMLEscapeString(s.text), width*svgModule, height*svgModule, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><g fill="#000">`, width, height)
	left := s.bars.Bounds().Min.X
	for x := 0; x < modules; {
		if !dark(s.bars, left+x) {
			x++
			continue
		}
		start := x
		for x < modules && dark(s.bars, left+x) {
			x++
		}
		fmt.Fprintf(&b, `<rect x="%d" width="%d" height="%d"/>`, s.quietLeft+start, x-start, barHeight)
	}
	fmt.Fprintf(&b, `</g><text x="%d" y="%d" text-anchor="middle" font-family="monospace" font-size="%d">%s</text></svg>`,
		width/2, barHeight+textSize+1, textSize, template.HTMLEscapeString(s.text))
	return template.HTML(b.String())
}

func dark(b barcode.Barcode, x int) bool {
	r, _, _, _ := b.At(x, b.Bounds().Min.Y).RGBA()
	return r < 0x8000
}
