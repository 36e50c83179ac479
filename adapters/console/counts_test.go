package console

import "testing"

// A bin's tally survives its trip through the page's address, whatever
// characters a lot's number has; a tally that was tampered with is no
// tally.
func TestATallyNamesItsProductsAndLots(t *testing.T) {
	in := tally{{Article: 42}: 3, {Article: 42, Lot: "L-1"}: 1, {Article: 7, Lot: "Ä/7\"x,:."}: 0, {Article: 9, Lot: "with spaces"}: 12}
	out, ok := parseTally(in.String())
	if !ok || len(out) != len(in) {
		t.Fatalf("%q read back as %v, %v", in.String(), out, ok)
	}
	for k, n := range in {
		if out[k] != n {
			t.Errorf("%v: %d, want %d", k, out[k], n)
		}
	}
	for _, bad := range []string{"x:1", "42", "42:-1", "0:1", "42.zz:1", "42.:1", "42:1,", "42:99999999999"} {
		if _, ok := parseTally(bad); ok {
			t.Errorf("%q read as a tally", bad)
		}
	}
	if empty, ok := parseTally(""); !ok || len(empty) != 0 {
		t.Errorf("the empty tally: %v %v", empty, ok)
	}
}
