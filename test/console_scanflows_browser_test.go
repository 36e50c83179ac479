package test

import (
	"fmt"
	"strings"
	"testing"
)

// TestConsoleGS1ScanFocusesGoodsIn: a GS1 scan in the search opens the
// product's goods in with its lot and best-before filled in, and the
// focus goes to the form's next empty field, the bin, in view; the bin's
// Enter moves on to the quantity, whose Enter books.
func TestConsoleGS1ScanFocusesGoodsIn(t *testing.T) {
	for _, screen := range consoleScreens {
		t.Run(screen.name, func(t *testing.T) {
			f := newScanFixture(t, screen.width, screen.height)
			b := f.b
			page := fmt.Sprintf("/console/products/%d", f.milk)
			b.gun("gs1", "]C1"+"0104012345000009"+"17270531"+"10L-42")
			if got := b.focusSettles(is(page + "/in bin")); got != page+"/in bin" {
				t.Fatalf("after a GS1 scan the focus is on %q, want the goods-in bin", got)
			}
			if !b.inView("#goods-in input[name=bin]") {
				t.Errorf("the bin field is not in view")
			}
			if lot := b.value("#goods-in input[name=lot]"); lot != "L-42" {
				t.Errorf("the lot is %q", lot)
			}
			b.gunStays("scan the bin", "A-03")
			if got := b.focusSettles(is(page + "/in quantity")); got != page+"/in quantity" {
				t.Fatalf("after the bin the focus is on %q", got)
			}
			b.gun("booked", "12")
			b.expect("goods in", ".notice", "Booked 12 of lot L-42 in at A-03.", "/console/search q")
			if got := f.api.stockOn(t, f.milk, "A-03"); got != 12 {
				t.Errorf("A-03 holds %d of MILK-1, want 12", got)
			}
		})
	}
}

// TestConsoleReceivingErrorFocusesTheField: a wrong bin on the receiving
// form comes back with the focus in the bin field, its text selected,
// at the order's own address (a reload stays on the order); an
// over-receipt says how many are still expected.
func TestConsoleReceivingErrorFocusesTheField(t *testing.T) {
	for _, screen := range consoleScreens {
		t.Run(screen.name, func(t *testing.T) {
			f := newScanFixture(t, screen.width, screen.height)
			b := f.b
			page := fmt.Sprintf("/console/receiving/%d", f.po)
			b.visit(page, "order")
			b.expect("the order", "h1", "PO-1", page+" product")
			b.gun("product", "SKU-100")
			b.expect("the product", "#receive", "10 outstanding", page+" quantity")
			b.gunStays("quantity", "4")
			if got := b.focusSettles(is(page + " bin")); got != page+" bin" {
				t.Fatalf("after the quantity the focus is on %q", got)
			}
			b.gun("wrong-bin", "Z-99")
			b.expect("a wrong bin", "#receive input[name=bin] ~ .error", "There is no bin location Z-99", page+" bin")
			if !b.selected() {
				t.Errorf("the wrong bin's text is not selected")
			}
			if path := evalJS[string](b, `location.pathname`); path != page {
				t.Errorf("after the error the address is %s, want %s", path, page)
			}
			if got := f.outstanding(t, f.product); got != 10 {
				t.Fatalf("the wrong bin received: %d outstanding", got)
			}
			b.gun("received", "A-01")
			b.expect("received", ".notice", "Received 4 × SKU-100 on A-01; 6 outstanding on this line.", page+" product")
			if got := f.api.stockOn(t, f.product, "A-01"); got != 4 {
				t.Errorf("A-01 holds %d", got)
			}

			b.tap("#receive input[name=product]")
			b.gun("product-again", "SKU-100")
			b.gunStays("quantity", "7")
			b.gun("over-receipt", "")
			b.expect("over-receipt", "#receive input[name=quantity] ~ .error", "Only 6 more of SKU-100 are expected on this order.", page+" quantity")
			if msg := b.text("#receive input[name=quantity] ~ .error"); strings.Contains(msg, "lines[") || strings.Contains(msg, "lineId") {
				t.Errorf("the over-receipt speaks of internals: %q", msg)
			}
			if got := f.outstanding(t, f.product); got != 6 {
				t.Errorf("after the over-receipt %d outstanding, want 6", got)
			}
		})
	}
}
