// Package barcode holds what a barcode means: the GTIN that names a trade
// item (EAN-8, UPC-A, EAN-13, GTIN-14) with its GS1 check digit, and the GS1
// element strings a handheld scanner sends for GS1-128, GS1 DataMatrix, GS1
// QR and GS1 DataBar symbols.
package barcode

import (
	"errors"
	"strings"
)

// GTIN is a Global Trade Item Number as it was written: 8, 12, 13 or 14
// digits, the last one the GS1 check digit. GTINs that differ only in
// leading zeros name the same item (GS1 General Specifications 3.3.2: a
// GTIN-8, -12 or -13 is stored as a GTIN-14 right-justified with zeros).
type GTIN string

var (
	errGTINLength     = errors.New("must be a GTIN of 8, 12, 13 or 14 digits")
	errGTINCheckDigit = errors.New("has a wrong GS1 check digit")
)

// ParseGTIN reads a GTIN of 8, 12, 13 or 14 digits and checks its check
// digit. Its error is a message for the property it came in.
func ParseGTIN(s string) (GTIN, error) {
	switch len(s) {
	case 8, 12, 13, 14:
	default:
		return "", errGTINLength
	}
	if !allDigits(s) {
		return "", errGTINLength
	}
	if CheckDigit(s[:len(s)-1]) != s[len(s)-1] {
		return "", errGTINCheckDigit
	}
	return GTIN(s), nil
}

// CheckDigit is the GS1 check digit (as an ASCII digit) of the digits
// before it: from the right, the digits are weighted 3, 1, 3, …, and the
// check digit takes their sum to the next multiple of ten.
func CheckDigit(digits string) byte {
	sum := 0
	for i := 0; i < len(digits); i++ {
		d := int(digits[len(digits)-1-i] - '0')
		if i%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return byte('0' + (10-sum%10)%10)
}

// String is the GTIN as it was written.
func (g GTIN) String() string { return string(g) }

// GTIN14 is the GTIN right-justified to 14 digits with zeros: the form in
// which two GTINs are the same when they name the same item.
func (g GTIN) GTIN14() string {
	return strings.Repeat("0", 14-len(g)) + string(g)
}

// Same tells whether g and o name the same item.
func (g GTIN) Same(o GTIN) bool { return g != "" && g.GTIN14() == o.GTIN14() }

// Spellings are the ways of writing g as a GTIN of 14, 13, 12 or 8 digits
// that leading zeros allow, longest first: the texts a product's ean may
// hold and still be g.
func (g GTIN) Spellings() []string {
	full := g.GTIN14()
	out := []string{full}
	for _, n := range []int{13, 12, 8} {
		if strings.Trim(full[:14-n], "0") == "" {
			out = append(out, full[14-n:])
		}
	}
	return out
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
