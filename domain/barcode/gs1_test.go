package barcode

import (
	"strings"
	"testing"
	"time"
)

var today = time.Date(2026, 11, 25, 17, 0, 0, 0, time.UTC)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestElementStringsAsScannersSendThem(t *testing.T) {
	for _, tc := range []struct {
		name, scan string
		want       ElementString
	}{
		{"brackets", "(01)09501101530003(17)270531(10)ABC123",
			ElementString{GTIN: "09501101530003", Lot: "ABC123", BestBefore: date(2027, 5, 31)}},
		{"brackets, lot before date", "(01)04006381333931(10)L-2026/11(17)261231",
			ElementString{GTIN: "04006381333931", Lot: "L-2026/11", BestBefore: date(2026, 12, 31)}},
		{"raw, the lot last needs no separator", "010950110153000317270531" + "10ABC123",
			ElementString{GTIN: "09501101530003", Lot: "ABC123", BestBefore: date(2027, 5, 31)}},
		{"raw, a separator after the lot", "0109501101530003" + "10ABC123\x1d" + "17270531",
			ElementString{GTIN: "09501101530003", Lot: "ABC123", BestBefore: date(2027, 5, 31)}},
		{"raw, FNC1 in first position sent as a separator", "\x1d0109501101530003" + "10ABC123",
			ElementString{GTIN: "09501101530003", Lot: "ABC123"}},
		{"raw, the separator as its Unicode picture", "0109501101530003" + "10ABC123\u241d" + "17270531",
			ElementString{GTIN: "09501101530003", Lot: "ABC123", BestBefore: date(2027, 5, 31)}},
		{"raw, the separator as <GS>", "0109501101530003" + "10ABC123<GS>" + "17270531",
			ElementString{GTIN: "09501101530003", Lot: "ABC123", BestBefore: date(2027, 5, 31)}},
		{"day 00 is the month's last day", "(01)09501101530003(17)270200",
			ElementString{GTIN: "09501101530003", BestBefore: date(2027, 2, 28)}},
		{"day 00 in a leap year", "0109501101530003" + "17280200",
			ElementString{GTIN: "09501101530003", BestBefore: date(2028, 2, 29)}},
		{"AI 15 when there is no AI 17", "(01)09501101530003(15)270100(10)X",
			ElementString{GTIN: "09501101530003", Lot: "X", BestBefore: date(2027, 1, 31)}},
		{"AI 17 before AI 15", "(01)09501101530003(15)270101(17)270601",
			ElementString{GTIN: "09501101530003", BestBefore: date(2027, 6, 1)}},
		{"other AIs are read past", "0109501101530003" + "11261101" + "3103000250" + "21SERIAL7\x1d" + "10LOT9\x1d" + "400PO-77",
			ElementString{GTIN: "09501101530003", Lot: "LOT9"}},
		{"other AIs in brackets", "(01)10614141000415(3103)000250(21)S1(10)B7",
			ElementString{GTIN: "10614141000415", Lot: "B7"}},
		{"a separator after a fixed-length field", "0109501101530003\x1d" + "10ABC",
			ElementString{GTIN: "09501101530003", Lot: "ABC"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseElementString(tc.scan, today)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestTheCenturyOfADateSlidesWithToday(t *testing.T) {
	for _, tc := range []struct {
		today  time.Time
		yymmdd string
		year   int
	}{
		{today, "261231", 2026},
		{today, "000101", 2000},
		{today, "760101", 2076}, // 50 years ahead: this century
		{today, "770101", 1977}, // 51 years ahead: the last one
		{date(2099, 6, 1), "010101", 2101},
		{date(2099, 6, 1), "490101", 2149}, // 50 years back: the next one
		{date(2099, 6, 1), "500101", 2050},
		{date(2100, 1, 1), "990101", 2099},
	} {
		got, err := ParseElementString("(01)09501101530003(17)"+tc.yymmdd, tc.today)
		if err != nil || got.BestBefore.Year() != tc.year {
			t.Errorf("%s on %s: got %v %v, want %d", tc.yymmdd, tc.today.Format(time.DateOnly), got.BestBefore, err, tc.year)
		}
	}
}

func TestMalformedElementStringsAreRefusedWithTheReason(t *testing.T) {
	for _, tc := range []struct{ scan, says string }{
		{"(01)09501101530004", "AI (01) must be a GTIN of 14 digits"},
		{"(01)4006381333931", "AI (01) must have 14 characters"},
		{"(01)09501101530003(17)271301", "month 13"},
		{"(01)09501101530003(17)270431", "April has 30 days"},
		{"(01)09501101530003(17)2705", "AI (17) must have 6 characters"},
		{"(01)09501101530003(10)" + strings.Repeat("A", 21), "AI (10) must be a lot number of 1 to 20"},
		{"(01)09501101530003(10)", "AI (10) must be a lot number"},
		{"(01)09501101530003(10)A B", "AI (10) must be a lot number"},
		{"(10)ABC(17)270531", "carries no GTIN"},
		{"(01)09501101530003(10)A(10)B", "AI (10) appears twice"},
		{"01095011015300", "AI (01) must have 14 characters"},
		{"0109501101530003" + "1727053", "AI (17) must have 6 characters"},
		{"0109501101530003" + "x", "expected an AI"},
		{"(01)09501101530003)", "AI (01) must have 14 characters"},
		{"(1)5", "expected an AI in brackets"},
	} {
		_, err := ParseElementString(tc.scan, today)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: got %v, want an error saying %q", tc.scan, err, tc.says)
		}
	}
}

func TestWhatAScanMeans(t *testing.T) {
	gs1 := func(g GTIN, lot string, bb time.Time) *ElementString {
		return &ElementString{GTIN: g, Lot: lot, BestBefore: bb}
	}
	for _, tc := range []struct {
		name, scan, text string
		gtin             GTIN
		es               *ElementString
	}{
		{"a product number", "SW-10007", "SW-10007", "", nil},
		{"a bin location code", "A-01-02", "A-01-02", "", nil},
		{"digits that are no GTIN", "10007", "10007", "", nil},
		{"an EAN-13", "4006381333931", "4006381333931", "4006381333931", nil},
		{"a GTIN-14", "04006381333931", "04006381333931", "04006381333931", nil},
		{"a UPC-A", "036000291452", "036000291452", "036000291452", nil},
		{"an EAN-13 with its symbology identifier", "]E04006381333931", "4006381333931", "4006381333931", nil},
		{"an EAN-8 with its symbology identifier", "]E496385074", "96385074", "96385074", nil},
		{"a plain Code 128 with its symbology identifier", "]C0A-01-02", "A-01-02", "", nil},
		{"GS1-128", "]C1" + "0109501101530003" + "17270500" + "10ABC123", "0109501101530003" + "17270500" + "10ABC123",
			"09501101530003", gs1("09501101530003", "ABC123", date(2027, 5, 31))},
		{"GS1 DataMatrix", "]d2" + "0104006381333931" + "10B-7\x1d" + "15270600", "0104006381333931" + "10B-7\x1d" + "15270600",
			"04006381333931", gs1("04006381333931", "B-7", date(2027, 6, 30))},
		{"GS1 QR Code", "]Q3" + "0104006381333931" + "10B-7", "0104006381333931" + "10B-7",
			"04006381333931", gs1("04006381333931", "B-7", time.Time{})},
		{"GS1 DataBar", "]e0" + "0104006381333931" + "17261200", "0104006381333931" + "17261200",
			"04006381333931", gs1("04006381333931", "", date(2026, 12, 31))},
		{"brackets", "(01)04006381333931(10)B-7", "(01)04006381333931(10)B-7",
			"04006381333931", gs1("04006381333931", "B-7", time.Time{})},
		{"raw with a separator and no identifier", "0104006381333931" + "10B-7\x1d" + "17261231", "0104006381333931" + "10B-7\x1d" + "17261231",
			"04006381333931", gs1("04006381333931", "B-7", date(2026, 12, 31))},
		{"raw without identifier or separator", "0104006381333931" + "10B-7", "0104006381333931" + "10B-7",
			"04006381333931", gs1("04006381333931", "B-7", time.Time{})},
		{"digits that open like AI 01 but are no element string", "0104006381333932" + "99", "0104006381333932" + "99", "", nil},
		{"AI 01 and a GTIN-14 followed by no AI", "0104006381333931" + "-X", "0104006381333931" + "-X", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadScan(tc.scan, today)
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != tc.text || got.GTIN != tc.gtin || (got.GS1 == nil) != (tc.es == nil) || got.GS1 != nil && *got.GS1 != *tc.es {
				t.Fatalf("got %q %q %+v, want %q %q %+v", got.Text, got.GTIN, got.GS1, tc.text, tc.gtin, tc.es)
			}
		})
	}
}

func TestAScanMeantAsAnElementStringMustBeOne(t *testing.T) {
	for _, scan := range []string{
		"]C1" + "A-01-02",
		"]d2" + "0104006381333932",
		"(01)04006381333931(17)261301",
		"0104006381333931" + "10B-7\x1d" + "17261301",
		// Recognisably GS1 without identifier or separator: AI 01 with a
		// valid GTIN-14, then another AI.
		"0104006381333931" + "17261301",
		"0104006381333931" + "10" + "L-1234567890123456789",
		// Without identifier, a GTIN-14 with a wrong check digit followed
		// by a lot or a date is a misread element string.
		"0104006381333932" + "17270531" + "10L-42",
		"0104006381333932" + "10L-42",
	} {
		if _, err := ReadScan(scan, today); err == nil || !strings.HasPrefix(err.Error(), "not a GS1 element string: ") {
			t.Errorf("%q: got %v", scan, err)
		}
	}
}

func TestDigitsThatOnlyBeginLikeAnElementStringArePlainText(t *testing.T) {
	for _, scan := range []string{"0104006381333932", "01040063813339329999", "0112345678901234-7"} {
		s, err := ReadScan(scan, today)
		if err != nil || s.GS1 != nil {
			t.Errorf("%q: GS1 %v, error %v; want plain text", scan, s.GS1, err)
		}
	}
}
