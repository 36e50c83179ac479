package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

func TestArticleDetailRules(t *testing.T) {
	a, err := NewArticleDetail(7, " SW10007 ", " Mug ")
	if err != nil || a.ID() != 7 || a.Number() != "SW10007" || a.Name() != "Mug" {
		t.Fatalf("a valid product is trimmed and keeps its id: %v %+v", err, a)
	}
	for _, tc := range []struct {
		name         string
		id           int64
		number, text string
	}{
		{"negative id", -1, "SKU", ""},
		{"missing number", 1, " ", ""},
		{"long number", 1, strings.Repeat("n", 256), ""},
		{"long name", 1, "SKU", strings.Repeat("n", 256)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewArticleDetail(tc.id, tc.number, tc.text); errs.KindOf(err) != errs.Invalid {
				t.Fatalf("want invalid, got %v", err)
			}
		})
	}
	if err := a.Rename("", "x"); errs.KindOf(err) != errs.Invalid || a.Number() != "SW10007" {
		t.Fatal("a failed rename changes nothing")
	}
}

func TestArticleDetailsWithStockOrOpenPositionsStay(t *testing.T) {
	a, _ := NewArticleDetail(0, "SKU", "")
	if err := a.CheckDeletable(false, false); err != nil {
		t.Fatal(err)
	}
	if a.CheckDeletable(true, false) != ErrStillReferenced || a.CheckDeletable(false, true) != ErrStillReferenced {
		t.Fatal("stock or unshipped positions keep a product")
	}
}

func TestReorderPoint(t *testing.T) {
	a, _ := NewArticleDetail(1, "SKU", "")
	if a.ReorderPoint() != 0 || a.BelowReorderPoint(-5) {
		t.Fatalf("a new product has no reorder point and is never below it")
	}
	for _, bad := range []int{-1, MaxReorderPoint + 1} {
		if err := a.SetReorderPoint(bad); errs.KindOf(err) != errs.Invalid {
			t.Errorf("reorder point %d is refused, got %v", bad, err)
		}
	}
	if err := a.SetReorderPoint(10); err != nil || a.ReorderPoint() != 10 {
		t.Fatalf("set 10: %v", err)
	}
	if !a.BelowReorderPoint(9) || a.BelowReorderPoint(10) {
		t.Errorf("below means available stock under the reorder point")
	}
}

func TestAReorderPointIs0To1000000000(t *testing.T) {
	a, _ := NewArticleDetail(1, "SKU", "")
	if err := a.SetReorderPoint(MaxReorderPoint); err != nil {
		t.Errorf("the largest reorder point: %v", err)
	}
	if err := a.SetReorderPoint(MaxReorderPoint + 1); err == nil || err.Error() != "reorderPoint: must be an integer from 0 to 1000000000" {
		t.Errorf("got %v", err)
	}
}

func TestAnEANIsEmptyOrAGTINWithItsCheckDigitRight(t *testing.T) {
	a, _ := NewArticleDetail(1, "SKU", "")
	if a.EAN() != "" {
		t.Fatalf("a new product has no EAN")
	}
	for _, good := range []string{"96385074", "036000291452", "4006381333931", "04006381333931", "4006381333931"} {
		if err := a.SetEAN(good); err != nil || a.EAN().String() != good {
			t.Errorf("%q is an EAN: %v, kept %q", good, err, a.EAN())
		}
	}
	for _, bad := range []string{"4006381333932", "12345", "400638133393A", "123456789012345", " 4006381333931"} {
		err := a.SetEAN(bad)
		if errs.KindOf(err) != errs.Invalid || errs.PropertyOf(err) != "ean" {
			t.Errorf("%q is refused on ean, got %v", bad, err)
		}
		if a.EAN() != "04006381333931" && a.EAN() != "4006381333931" {
			t.Errorf("a refused EAN leaves the one before, got %q", a.EAN())
		}
	}
	if err := a.SetEAN(""); err != nil || a.EAN() != "" {
		t.Errorf("an empty EAN removes it: %v", err)
	}
}

func TestLotTrackingChangesOnlyWhileTheProductHoldsNothing(t *testing.T) {
	a, _ := NewArticleDetail(1, "SKU", "")
	if a.LotTracked() {
		t.Fatal("a new product is not lot-tracked")
	}
	// With stock or reservations in any warehouse, lotTracked stays.
	for _, held := range []struct{ stock, reserved int }{{5, 0}, {5, 5}, {0, 2}, {-1, 0}} {
		err := a.SetLotTracked(true, held.stock, held.reserved)
		if err != ErrLotTrackingFixed || a.LotTracked() {
			t.Errorf("stock %d, reserved %d: got %v, lotTracked %v", held.stock, held.reserved, err, a.LotTracked())
		}
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields) != 1 || e.Fields[0].Property != "lotTracked" {
			t.Errorf("the refusal is a 400 naming lotTracked: %#v", err)
		}
	}
	// With nothing anywhere, it changes both ways.
	if err := a.SetLotTracked(true, 0, 0); err != nil || !a.LotTracked() {
		t.Fatalf("no stock, no reservations: %v", err)
	}
	// Setting the value it already has is no change, and always fine.
	if err := a.SetLotTracked(true, 12, 3); err != nil || !a.LotTracked() {
		t.Errorf("the same value with stock: %v", err)
	}
	if err := a.SetLotTracked(false, 12, 0); err != ErrLotTrackingFixed || !a.LotTracked() {
		t.Errorf("untracking with stock: %v", err)
	}
	if err := a.SetLotTracked(false, 0, 0); err != nil || a.LotTracked() {
		t.Errorf("untracking without stock: %v", err)
	}
	if UnmarshalArticleDetailFromDatabase(2, "B", "", 0, "", true).LotTracked() != true {
		t.Error("a stored lot-tracked product comes back lot-tracked")
	}
}
