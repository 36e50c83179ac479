package stock

import (
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

func TestAStoredMappingMustKeepZeroAtMostReservedAtMostStock(t *testing.T) {
	tests := []struct {
		name            string
		stock, reserved int
		ok              bool
	}{
		{"reserved below stock", 5, 2, true},
		{"all stock reserved", 5, 5, true},
		{"empty", 0, 0, true},
		{"more reserved than stock", 2, 3, false},
		{"negative stock", -1, 0, false},
		{"negative reserved", 3, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := UnmarshalMappingFromDatabase(1, shelfA, wh1, article, tt.stock, tt.reserved, false, nil)
			if tt.ok {
				mustNot(t, err)
				eq(t, "stock", m.Stock(), tt.stock)
				eq(t, "available", m.Available(), tt.stock-tt.reserved)
				return
			}
			if err == nil || errs.KindOf(err) != errs.Internal {
				t.Errorf("want an internal error for a corrupt row, got %v", err)
			}
		})
	}
}

func TestAStoredMappingNeedsItsReferences(t *testing.T) {
	if _, err := UnmarshalMappingFromDatabase(0, shelfA, wh1, article, 1, 0, false, nil); err == nil {
		t.Error("a stored mapping without id was accepted")
	}
	if _, err := UnmarshalMappingFromDatabase(1, 0, wh1, article, 1, 0, false, nil); err == nil {
		t.Error("a stored mapping without bin location was accepted")
	}
}

func TestAMappingIsRemovableOnlyWhenEmptyUnreservedAndNotDefault(t *testing.T) {
	tests := []struct {
		name            string
		stock, reserved int
		def             bool
		removable       bool
	}{
		{"empty", 0, 0, false, true},
		{"has stock", 1, 0, false, false},
		{"has reserved stock", 1, 1, false, false},
		{"empty default", 0, 0, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := UnmarshalMappingFromDatabase(1, shelfA, wh1, article, tt.stock, tt.reserved, tt.def, nil)
			mustNot(t, err)
			eq(t, "removable", m.Removable(), tt.removable)
		})
	}
}

func TestLastStockTakeCannotBeMovedFromOutside(t *testing.T) {
	stamp := earlier
	m, err := UnmarshalMappingFromDatabase(1, shelfA, wh1, article, 1, 0, false, &stamp)
	mustNot(t, err)
	stamp = now
	*m.LastStockTake() = now
	eq(t, "last stocktake", *m.LastStockTake(), earlier)
}

func TestANewMappingIsEmptyAndUnsaved(t *testing.T) {
	m := NewMapping(shelfA, wh1, article)
	eq(t, "id", m.ID(), int64(0))
	eq(t, "where", [3]int64{m.BinLocationID(), m.WarehouseID(), m.ArticleDetailID()}, [3]int64{shelfA, wh1, article})
	eq(t, "removable", m.Removable(), true)
	if m.LastStockTake() != nil {
		t.Error("a new mapping has a stocktake")
	}
}

func TestReservedPiecesAreNeitherTakenNorMoved(t *testing.T) {
	m, err := UnmarshalMappingFromDatabase(1, shelfA, wh1, article, 5, 2, false, nil)
	mustNot(t, err)
	if got := Unreserved(5, 2); got != 3 || m.Available() != got {
		t.Errorf("5 in stock with 2 reserved: %d unreserved, %d available; want 3", got, m.Available())
	}
}
