package warehouse

import (
	"reflect"
	"testing"
)

func TestALabelCarriesTheWarehouseOnlyWhereTheCodeRepeats(t *testing.T) {
	if got := LabelText("A-01", "MAIN", false); got != "A-01" {
		t.Errorf("a unique code's label carries %q", got)
	}
	if got := LabelText("A-01", "MAIN", true); got != "A-01@MAIN" {
		t.Errorf("a repeated code's label carries %q", got)
	}
}

func TestALabelReadsBackToItsBinAndWarehouse(t *testing.T) {
	if got := ReadLabel(LabelText("A-01", "MAIN", true)); !reflect.DeepEqual(got, []LabelReading{{"A-01", "MAIN"}}) {
		t.Errorf("read %v", got)
	}
	// Either code may hold the separator: every split is a reading.
	want := []LabelReading{{"B@1", "W@X"}, {"B@1@W", "X"}}
	if got := ReadLabel("B@1@W@X"); !reflect.DeepEqual(got, append([]LabelReading{{"B", "1@W@X"}}, want...)) {
		t.Errorf("read %v", got)
	}
	for _, text := range []string{"A-01", "@MAIN", "A-01@", ""} {
		if got := ReadLabel(text); len(got) != 0 {
			t.Errorf("%q reads as %v", text, got)
		}
	}
}
