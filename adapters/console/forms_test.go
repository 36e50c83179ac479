package console

import (
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/stock"
)

func TestQuantitiesAreWholeNumbersWithinTheAPIsBounds(t *testing.T) {
	for _, c := range []struct {
		raw      string
		positive bool
		want     int
		err      string
	}{
		{"12", true, 12, ""},
		{"0", false, 0, ""},
		{"0", true, 0, "Must be at least 1."},
		{"", false, 0, "Enter a quantity."},
		{"a dozen", false, 0, "Enter a whole number."},
		{"1.5", false, 0, "Enter a whole number."},
		{"-3", false, 0, "Must not be negative."},
		{"1000000001", false, 0, "Must be a whole number from 0 to 1000000000."},
	} {
		f := &form{Values: map[string]string{"quantity": c.raw}, Errors: map[string]string{}}
		got := f.quantity("quantity", c.positive)
		if f.Err("quantity") != c.err || (c.err == "" && got != c.want) {
			t.Errorf("%q: %d, error %q; want %d, %q", c.raw, got, f.Err("quantity"), c.want, c.err)
		}
	}
}

func TestAMessageGoesBesideTheFieldOfThePropertyItConcerns(t *testing.T) {
	move := locationFields("destination.", "warehouse", "bin").with(fields{"source": "from", "quantity": "quantity"})
	for _, c := range []struct {
		property string
		want     string
	}{
		{"destination.binLocation", "bin"},
		{"destination.binLocation.warehouseId", "warehouse"},
		{"destination.binLocation.code", "bin"},
		{"destination.warehouse", "warehouse"},
		{"source.binLocation", "from"},
		{"quantity", "quantity"},
		{"destination", "quantity"},
		{"articleDetailId", "quantity"},
		{"", "quantity"},
	} {
		f := &form{Values: map[string]string{}, Errors: map[string]string{}}
		f.place("the message", c.property, move, "quantity")
		if f.Err(c.want) != "the message" || len(f.Errors) != 1 {
			t.Errorf("%q went to %v, want %s", c.property, f.Errors, c.want)
		}
	}
}

// A replayed form shows its errors where the first run did: the stored
// result keeps the property.
func TestAStoredResultKeepsThePropertyOfItsError(t *testing.T) {
	body, err := renderResults(application.BatchResult{Results: []application.OperationResult{
		{Message: "insufficient stock", Property: "quantity", Code: stock.InsufficientStock}}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := decodeRun(application.BatchOutcome{Body: body}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := run.Results[0]; r.Property != "quantity" || r.Code != stock.InsufficientStock {
		t.Errorf("stored %+v", r)
	}
}

func TestTheFingerprintIgnoresTokensAndTellsValuesApart(t *testing.T) {
	a := &form{Values: map[string]string{"quantity": "5", "csrf": "x", "key": "k1"}}
	b := &form{Values: map[string]string{"quantity": "5", "csrf": "y", "key": "k2"}}
	c := &form{Values: map[string]string{"quantity": "6", "csrf": "x", "key": "k1"}}
	if a.fingerprint("goods") != b.fingerprint("goods") {
		t.Error("tokens change the fingerprint")
	}
	if a.fingerprint("goods") == c.fingerprint("goods") || a.fingerprint("goods") == a.fingerprint("count") {
		t.Error("other values or another action give the same fingerprint")
	}
}

func TestSignInReturnsOnlyIntoTheConsole(t *testing.T) {
	for next, want := range map[string]string{
		"/console/products/3?x=1": "/console/products/3?x=1",
		"":                        "/console/search",
		"https://evil.example/":   "/console/search",
		"//evil.example/console/": "/console/search",
		"/api/users":              "/console/search",
		"/console/\\evil":         "/console/search",
	} {
		if got := safeNext(next); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", next, got, want)
		}
	}
}
