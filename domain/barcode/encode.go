package barcode

import (
	"fmt"
	"strings"
)

// Encode writes the element string a label of goods carries: AI 01 (the
// GTIN as a GTIN-14), AI 17 (the best-before date, when there is one) and
// AI 10 (the lot, when there is one) last, where a variable-length field
// needs no separator after it. It answers the raw string a GS1-128 symbol
// encodes after its FNC1, and the same in brackets for people to read. A
// lot that AI 10 cannot hold (more than 20 characters, or one outside GS1
// character set 82) is an error: such a lot has no GS1 label.
func (es ElementString) Encode() (raw, brackets string, err error) {
	if es.GTIN == "" {
		return "", "", fmt.Errorf("a GS1 element string of goods needs their GTIN (AI 01)")
	}
	var r, b strings.Builder
	gtin := es.GTIN.GTIN14()
	r.WriteString("01" + gtin)
	b.WriteString("(01)" + gtin)
	if !es.BestBefore.IsZero() {
		d := es.BestBefore.UTC().Format("060102")
		r.WriteString("17" + d)
		b.WriteString("(17)" + d)
	}
	if es.Lot != "" {
		if len(es.Lot) > maxLot || strings.Trim(es.Lot, set82) != "" {
			return "", "", fmt.Errorf("lot %q cannot stand in AI (10): at most %d characters of GS1 character set 82", es.Lot, maxLot)
		}
		r.WriteString("10" + es.Lot)
		b.WriteString("(10)" + es.Lot)
	}
	return r.String(), b.String(), nil
}
