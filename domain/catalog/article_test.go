package catalog

import (
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
