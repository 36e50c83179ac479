package barcode

import (
	"slices"
	"testing"
)

func TestTheCheckDigitOfRealGTINs(t *testing.T) {
	for _, gtin := range []string{
		"96385074",       // EAN-8
		"036000291452",   // UPC-A
		"4006381333931",  // EAN-13
		"09501101530003", // GTIN-14 of the GS1 examples
		"10614141000415", // GTIN-14 with packaging indicator 1
	} {
		body, check := gtin[:len(gtin)-1], gtin[len(gtin)-1]
		if got := CheckDigit(body); got != check {
			t.Errorf("check digit of %s: got %c, want %c", body, got, check)
		}
		if g, err := ParseGTIN(gtin); err != nil || g.String() != gtin {
			t.Errorf("%s is a GTIN: %v", gtin, err)
		}
	}
}

func TestAGTINIs8_12_13Or14DigitsWithTheRightCheckDigit(t *testing.T) {
	for _, bad := range []string{
		"", "4006381333932", "4006381333930", "400638133393", "40063813339", "123456789", "0",
		"400638133393a", "4006381333931 ", " 4006381333931", "+006381333931", "000000000000000",
		"96385075", "036000291453", "09501101530004",
	} {
		if _, err := ParseGTIN(bad); err == nil {
			t.Errorf("%q is no GTIN", bad)
		}
	}
	if _, err := ParseGTIN("4006381333932"); err == nil || err.Error() != "has a wrong GS1 check digit" {
		t.Errorf("a wrong check digit says so: %v", err)
	}
	if _, err := ParseGTIN("12345"); err == nil || err.Error() != "must be a GTIN of 8, 12, 13 or 14 digits" {
		t.Errorf("a wrong length says so: %v", err)
	}
}

func TestLeadingZerosDoNotCount(t *testing.T) {
	ean13, _ := ParseGTIN("4006381333931")
	gtin14, _ := ParseGTIN("04006381333931")
	if !ean13.Same(gtin14) || ean13.GTIN14() != "04006381333931" {
		t.Errorf("04006381333931 is 4006381333931")
	}
	upc, _ := ParseGTIN("036000291452")
	if !upc.Same("0036000291452") || !upc.Same("00036000291452") || upc.Same(ean13) {
		t.Errorf("a UPC-A is the same GTIN with one or two zeros in front, and no other")
	}
	if GTIN("").Same("") {
		t.Errorf("no GTIN is the same as nothing")
	}
}

func TestTheSpellingsOfAGTINAreTheLengthsItsLeadingZerosAllow(t *testing.T) {
	for gtin, want := range map[GTIN][]string{
		"10614141000415": {"10614141000415"},
		"4006381333931":  {"04006381333931", "4006381333931"},
		"036000291452":   {"00036000291452", "0036000291452", "036000291452"},
		"96385074":       {"00000096385074", "0000096385074", "000096385074", "96385074"},
	} {
		if got := gtin.Spellings(); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", gtin, got, want)
		}
	}
}
