package barcode

import (
	"testing"
	"time"
)

func TestAGoodsLabelsElementStringReadsBackAsItWasWritten(t *testing.T) {
	es := ElementString{GTIN: "4006381333931", Lot: "L-42", BestBefore: time.Date(2027, 5, 31, 0, 0, 0, 0, time.UTC)}
	raw, brackets, err := es.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if raw != "01"+"04006381333931"+"17"+"270531"+"10"+"L-42" || brackets != "(01)04006381333931(17)270531(10)L-42" {
		t.Fatalf("raw %q, brackets %q", raw, brackets)
	}
	for _, s := range []string{raw, brackets} {
		back, err := ParseElementString(s, today)
		if err != nil || !back.GTIN.Same(es.GTIN) || back.Lot != es.Lot || !back.BestBefore.Equal(es.BestBefore) {
			t.Errorf("%q reads back as %+v, %v", s, back, err)
		}
	}
}

func TestALabelWithoutDateOrLotCarriesTheGTINAlone(t *testing.T) {
	raw, _, err := ElementString{GTIN: "96385074"}.Encode()
	if err != nil || raw != "0100000096385074" {
		t.Errorf("raw %q, %v", raw, err)
	}
}

func TestALotAI10CannotHoldHasNoElementString(t *testing.T) {
	for _, lot := range []string{"L-2027-05-OATS-000001", "LOT #7", "LÖT-1"} {
		if _, _, err := (ElementString{GTIN: "4006381333931", Lot: lot}).Encode(); err == nil {
			t.Errorf("lot %q was encoded", lot)
		}
	}
	if _, _, err := (ElementString{Lot: "L-1"}).Encode(); err == nil {
		t.Errorf("an element string without GTIN was encoded")
	}
}
