package barcode

import (
	"fmt"
	"strings"
	"time"
)

// Scan is what a handheld scanner (or a person) typed into a search: the
// text itself, and what it means as a barcode.
type Scan struct {
	// Text is what was sent, without a symbology identifier.
	Text string
	// GTIN is the trade item the scan names: the text when it is a GTIN
	// alone, or the element string's AI 01.
	GTIN GTIN
	// GS1 is the element string, when the text is one.
	GS1 *ElementString
}

// gs1Symbologies are the symbology identifiers (ISO/IEC 15424) of the
// symbols that carry GS1 element strings: GS1-128, GS1 DataBar and its
// composites, GS1 DataMatrix, GS1 QR Code, GS1 DotCode.
var gs1Symbologies = map[string]bool{"C1": true, "e0": true, "e1": true, "e2": true, "d2": true, "Q3": true, "J1": true}

// ReadScan reads what a scanner sent. A symbology identifier ("]C1",
// "]d2", "]Q3", "]e0", "]E0" …) in front is taken off. The text is a GS1
// element string when the identifier says so, when it opens with an AI in
// brackets, when it holds a group separator, or when it opens with AI 01
// and a valid GTIN-14 followed by nothing or another AI; it is a GTIN when
// it is 8, 12, 13 or 14 digits with a valid check digit. Anything else is
// plain text (a product, bin location or order number). The error tells
// what is wrong with a text that is meant as an element string; today
// resolves the century of its dates.
func ReadScan(s string, today time.Time) (Scan, error) {
	s = strings.TrimSpace(s)
	symbology := ""
	if len(s) >= 3 && s[0] == ']' && isAlpha(s[1]) && (isAlpha(s[2]) || s[2] >= '0' && s[2] <= '9') {
		symbology, s = s[1:3], s[3:]
	}
	out := Scan{Text: s}
	meantAsGS1 := gs1Symbologies[symbology] || strings.HasPrefix(s, "(") && startsWithAI(s) ||
		strings.ContainsRune(s, groupSeparator) || containsAny(s, groupSeparatorSpellings)
	if meantAsGS1 {
		es, err := ParseElementString(s, today)
		if err != nil {
			return out, fmt.Errorf("not a GS1 element string: %w", err)
		}
		out.GS1, out.GTIN = &es, es.GTIN
		out.Text = s
		return out, nil
	}
	if g, err := ParseGTIN(s); err == nil {
		out.GTIN = g
		return out, nil
	}
	// A scanner that sends neither identifier nor separator: AI 01 with a
	// GTIN-14, alone or followed by the digits of another AI, is meant as
	// an element string, and must read as one.
	if recognisablyGS1(s) {
		es, err := ParseElementString(s, today)
		if err != nil {
			return out, fmt.Errorf("not a GS1 element string: %w", err)
		}
		out.GS1, out.GTIN = &es, es.GTIN
	}
	return out, nil
}

// recognisablyGS1 tells whether s opens with AI 01 and a GTIN-14 with the
// right check digit, followed by nothing or by two digits, the start of
// the next AI: no product, bin or order number looks like that by chance.
// Fourteen digits after AI 01 with a wrong check digit, followed by a lot,
// a date or a serial number, are meant as an element string too (a
// misread or a misprint), which reading it then says.
func recognisablyGS1(s string) bool {
	if len(s) < 16 || !strings.HasPrefix(s, "01") || !allDigits(s[2:16]) {
		return false
	}
	rest := s[16:]
	if _, err := ParseGTIN(s[2:16]); err == nil {
		return rest == "" || len(rest) >= 2 && allDigits(rest[:2])
	}
	return len(rest) > 2 && followsGTIN[rest[:2]]
}

// followsGTIN are the AIs that follow AI 01 on goods: lot, production,
// packaging, best-before and expiry dates, serial number.
var followsGTIN = map[string]bool{"10": true, "11": true, "13": true, "15": true, "17": true, "21": true}

func startsWithAI(s string) bool {
	_, _, ok := openingAI(s)
	return ok
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
