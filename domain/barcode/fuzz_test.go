package barcode

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadScan: whatever a scanner or a person types, reading it never
// panics, keeps valid UTF-8 valid, and an element string it accepts says
// the same when written again in brackets.
func FuzzReadScan(f *testing.F) {
	for _, s := range []string{
		"", "SW-10007", "4006381333931", "]E04006381333931", "]C1010950110153000317270531" + "10ABC123",
		"]d2" + "0104006381333931" + "10B-7\x1d" + "15270600", "(01)09501101530003(17)270200(10)X",
		"0109501101530003" + "11261101" + "3103000250" + "21SERIAL7\x1d" + "10LOT9\x1d" + "400PO-77",
		"]Aü", "(01", "(99)", "01", "\x1d\x1d", "]C1\u241d0109501101530003",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		scan, err := ReadScan(s, today)
		if utf8.ValidString(s) && !utf8.ValidString(scan.Text) {
			t.Fatalf("%q read as invalid UTF-8 %q", s, scan.Text)
		}
		if err != nil || scan.GS1 == nil {
			return
		}
		es := *scan.GS1
		if _, err := ParseGTIN(string(es.GTIN)); err != nil || len(es.GTIN) != 14 || scan.GTIN != es.GTIN {
			t.Fatalf("%q: GTIN %q", s, es.GTIN)
		}
		if len(es.Lot) > maxLot || strings.Trim(es.Lot, set82) != "" {
			t.Fatalf("%q: lot %q", s, es.Lot)
		}
		if strings.Contains(es.Lot, "(") {
			return // brackets in a lot are ambiguous in the bracketed form, not in a scan
		}
		again := "(01)" + string(es.GTIN)
		if !es.BestBefore.IsZero() {
			again += "(17)" + es.BestBefore.Format("060102")
		}
		if es.Lot != "" {
			again += "(10)" + es.Lot
		}
		got, err := ParseElementString(again, today)
		if err != nil || got != es {
			t.Fatalf("%q read as %+v; written again as %q it reads %+v, %v", s, es, again, got, err)
		}
	})
}
