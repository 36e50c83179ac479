package stock

import (
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

// An error names the property of the operation it concerns, as the API
// spells it, and the rule it breaks, so that an interface can put it
// beside its own field and say it in its own words.
func TestAnErrorNamesThePropertyAndTheRuleItBreaks(t *testing.T) {
	missing := int64(99)
	for _, c := range []struct {
		name     string
		op       Operation
		rows     []row
		property string
		code     errs.Code
		subject  errs.Subject
	}{
		{"taking more than there is is about the quantity",
			Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: -5}, []row{{bin: shelfA, stock: 2}},
			"quantity", InsufficientStock, errs.Subject{ArticleDetail: article, Warehouse: wh1, BinLocation: shelfA}},
		{"a bin that does not exist is about the bin location",
			Change{ArticleDetailID: article, At: binSpec(missing), Quantity: 1}, nil,
			"binLocation", UnknownBinLocation, errs.Subject{BinLocation: missing}},
		{"a bin code that does not exist in its warehouse is about the bin location",
			Change{ArticleDetailID: article, At: binCodeSpec(wh1, "Z-9"), Quantity: 1}, nil,
			"binLocation", UnknownBinLocation, errs.Subject{Warehouse: wh1}},
		{"the warehouse of a bin that does not exist is about its warehouseId",
			Change{ArticleDetailID: article, At: binCodeSpec(missing, "A-01"), Quantity: 1}, nil,
			"binLocation.warehouseId", UnknownWarehouse, errs.Subject{Warehouse: missing}},
		{"a warehouse that does not exist is about the warehouse",
			Set{ArticleDetailID: article, At: whSpec(missing), Quantity: 1}, nil,
			"warehouse", UnknownWarehouse, errs.Subject{Warehouse: missing}},
		{"a warehouse code that does not exist is about the warehouse",
			Set{ArticleDetailID: article, At: LocationSpec{Warehouse: &WarehouseSpec{Code: "NOPE"}}, Quantity: 1}, nil,
			"warehouse", UnknownWarehouse, errs.Subject{}},
		{"a bin outside the warehouse named with it is about the bin location",
			Change{ArticleDetailID: article, At: LocationSpec{BinLocation: &BinLocationSpec{ID: shelfD, WarehouseID: wh1}}, Quantity: 1}, nil,
			"binLocation", LocationMismatch, errs.Subject{BinLocation: shelfD, Warehouse: wh1}},
		{"a location that is missing is about the location",
			Change{ArticleDetailID: article, Quantity: 1}, nil,
			"binLocation", LocationMissing, errs.Subject{}},
		{"a relocation's destination that does not exist is about the destination",
			Relocate{ArticleDetailID: article, From: binSpec(shelfA), To: binSpec(missing), Quantity: 1}, []row{{bin: shelfA, stock: 2}},
			"destination.binLocation", UnknownBinLocation, errs.Subject{BinLocation: missing}},
		{"a relocation's source that does not exist is about the source",
			Relocate{ArticleDetailID: article, From: whSpec(missing), To: binSpec(shelfA), Quantity: 1}, nil,
			"source.warehouse", UnknownWarehouse, errs.Subject{Warehouse: missing}},
		{"a relocation onto its own source is about the destination",
			Relocate{ArticleDetailID: article, From: binSpec(shelfA), To: binSpec(shelfA), Quantity: 1}, []row{{bin: shelfA, stock: 2}},
			"destination", SameLocation, errs.Subject{ArticleDetail: article, Warehouse: wh1, BinLocation: shelfA}},
		{"a stocktake below what is reserved is about the quantity",
			Set{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 1}, []row{{bin: shelfA, stock: 3, reserved: 2}},
			"quantity", BelowReserved, errs.Subject{ArticleDetail: article, Warehouse: wh1, BinLocation: shelfA}},
		{"a change of nothing is about the quantity",
			Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 0}, nil,
			"quantity", QuantityOutOfRange, errs.Subject{ArticleDetail: article, Warehouse: wh1, BinLocation: shelfA}},
		{"more than a mapping may hold is about the quantity",
			Change{ArticleDetailID: article, At: binSpec(shelfA), Quantity: 1}, []row{{bin: shelfA, stock: MaxStock}},
			"quantity", StockLimit, errs.Subject{ArticleDetail: article, Warehouse: wh1, BinLocation: shelfA}},
		{"an article detail that does not exist is about the articleDetailId",
			Change{ArticleDetailID: missing, At: binSpec(shelfA), Quantity: 1}, nil,
			"articleDetailId", UnknownArticleDetail, errs.Subject{ArticleDetail: missing}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := loadFor(t, []Operation{c.op}, c.rows...)
			err := ws.Apply(c.op, ref)
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.Invalid {
				t.Fatalf("want an invalid error, got %v", err)
			}
			if e.Property != c.property || e.Code != c.code || e.Subject != c.subject {
				t.Errorf("%q: property %q, code %q, subject %+v; want %q, %q, %+v",
					e.Message, e.Property, e.Code, e.Subject, c.property, c.code, c.subject)
			}
		})
	}
}

// An error that several operations share (a location resolved once for
// all of them) is named for each operation without changing the others'.
func TestAnErrorSharedByOperationsIsNamedForEach(t *testing.T) {
	missing := binSpec(99)
	ops := []Operation{
		Relocate{ArticleDetailID: article, From: missing, To: binSpec(shelfA), Quantity: 1},
		Change{ArticleDetailID: article, At: missing, Quantity: 1},
		Relocate{ArticleDetailID: article, From: binSpec(shelfA), To: missing, Quantity: 1},
	}
	ws := loadFor(t, ops, row{bin: shelfA, stock: 5})
	for i, want := range []string{"source.binLocation", "binLocation", "destination.binLocation"} {
		if got := errs.PropertyOf(ws.Apply(ops[i], ref)); got != want {
			t.Errorf("operation %d: property %q, want %q", i, got, want)
		}
	}
}

func TestAQuantityOutOfBoundsIsAboutItsProperty(t *testing.T) {
	_, err := ParseQuantity("quantity", MaxQuantity+1)
	if errs.PropertyOf(err) != "quantity" || errs.CodeOf(err) != QuantityOutOfRange {
		t.Errorf("got %v, property %q, code %q", err, errs.PropertyOf(err), errs.CodeOf(err))
	}
}
