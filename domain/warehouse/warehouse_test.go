package warehouse

import (
	"slices"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

func validDetails() Details {
	return Details{Code: "WH1", Name: "Main", StockAvailableForSale: true}
}

func mustInvalid(t *testing.T, err error, property string) {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid {
		t.Fatalf("want an invalid error, got %v", err)
	}
	if property == "" {
		return
	}
	for _, f := range e.Fields {
		if f.Property == property {
			return
		}
	}
	t.Fatalf("want a complaint about %q, got %+v", property, e.Fields)
}

func TestNewWarehouseTrimsAndDefaultsContactFieldsToEmpty(t *testing.T) {
	w, err := newWarehouse(Details{Code: "  WH1 ", Name: " Main  "})
	if err != nil {
		t.Fatal(err)
	}
	d := w.Details()
	if d.Code != "WH1" || d.Name != "Main" {
		t.Fatalf("code and name are trimmed: %+v", d)
	}
	if d.Contact != "" || d.Email != "" || d.Phone != "" || d.Address != "" || d.Comment != "" {
		t.Fatalf("contact fields default to empty strings: %+v", d)
	}
	if d.BinLocationFormat == nil || len(d.BinLocationFormat) != 0 {
		t.Fatalf("the format defaults to an empty list, got %#v", d.BinLocationFormat)
	}
}

func TestWarehouseCodeAndNameAreRequiredAndBounded(t *testing.T) {
	for _, tc := range []struct {
		name     string
		d        Details
		property string
	}{
		{"empty code", Details{Code: "", Name: "x"}, "code"},
		{"blank code", Details{Code: "   ", Name: "x"}, "code"},
		{"empty name", Details{Code: "x", Name: ""}, "name"},
		{"long code", Details{Code: strings.Repeat("c", 256), Name: "x"}, "code"},
		{"long name", Details{Code: "x", Name: strings.Repeat("n", 256)}, "name"},
		{"bad email", Details{Code: "x", Name: "x", Email: "not-an-address"}, "email"},
		{"named email", Details{Code: "x", Name: "x", Email: "Jane <jane@example.com>"}, "email"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newWarehouse(tc.d)
			mustInvalid(t, err, tc.property)
		})
	}
	if _, err := newWarehouse(Details{Code: strings.Repeat("c", 255), Name: "x", Email: "jane@example.com"}); err != nil {
		t.Fatalf("255 characters and a plain address are fine: %v", err)
	}
}

func TestApplyChangesOnlyTheGivenFieldsAndNothingWhenInvalid(t *testing.T) {
	w, _ := newWarehouse(validDetails())
	name, email := "Renamed", "ops@example.com"
	if err := w.Apply(Patch{Name: &name, Email: &email}); err != nil {
		t.Fatal(err)
	}
	if w.Code() != "WH1" || w.Name() != "Renamed" || w.Details().Email != email {
		t.Fatalf("patch applied wrongly: %+v", w.Details())
	}
	empty, bad := "", "nope"
	mustInvalid(t, w.Apply(Patch{Code: &empty, Email: &bad}), "code")
	if w.Code() != "WH1" || w.Details().Email != email {
		t.Fatalf("a failed patch changes nothing: %+v", w.Details())
	}
}

func TestDefaultWarehousesAndWarehousesHoldingThingsAreNotDeletable(t *testing.T) {
	w, _ := newWarehouse(validDetails())
	if err := w.CheckDeletable(false, false); err != nil {
		t.Fatalf("an empty, ordinary warehouse may go: %v", err)
	}
	if err := w.CheckDeletable(true, false); err != ErrHasBinLocations {
		t.Fatalf("bin locations keep it: %v", err)
	}
	if err := w.CheckDeletable(false, true); err != ErrHasStock {
		t.Fatalf("stock keeps it: %v", err)
	}
	Holders{Default: w, Return: w}.MoveDefaultReturn(w)
	other, _, _ := Holders{Default: w, Return: w}.Create(validDetails())
	Holders{Default: w, Return: w}.MoveDefaultReturn(other)
	if err := other.CheckDeletable(false, false); err != ErrDefaultReturnNotDeletable {
		t.Fatalf("the default return warehouse stays: %v", err)
	}
	Holders{Default: w, Return: other}.MoveDefault(other)
	if err := other.CheckDeletable(false, false); err != ErrDefaultNotDeletable {
		t.Fatalf("the default warehouse stays: %v", err)
	}
}

func TestFormatComponentsAreValidated(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    FormatComponent
		ok   bool
	}{
		{"text", FormatComponent{Type: ComponentText, Text: "A-"}, true},
		{"empty text", FormatComponent{Type: ComponentText}, false},
		{"number", FormatComponent{Type: ComponentNumber, NumberFrom: 1, NumberTo: 20, Padding: 2}, true},
		{"number reversed", FormatComponent{Type: ComponentNumber, NumberFrom: 5, NumberTo: 1}, false},
		{"number negative", FormatComponent{Type: ComponentNumber, NumberFrom: -1, NumberTo: 1}, false},
		{"padding too wide", FormatComponent{Type: ComponentNumber, NumberFrom: 1, NumberTo: 2, Padding: 11}, false},
		{"letter", FormatComponent{Type: ComponentLetter, LetterFrom: "A", LetterTo: "F"}, true},
		{"letter mixed case", FormatComponent{Type: ComponentLetter, LetterFrom: "a", LetterTo: "F"}, false},
		{"letter reversed", FormatComponent{Type: ComponentLetter, LetterFrom: "F", LetterTo: "A"}, false},
		{"letter not a letter", FormatComponent{Type: ComponentLetter, LetterFrom: "1", LetterTo: "2"}, false},
		{"unknown type", FormatComponent{Type: "roman"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := validDetails()
			d.BinLocationFormat = []FormatComponent{tc.c}
			_, err := newWarehouse(d)
			if tc.ok && err != nil {
				t.Fatalf("want ok, got %v", err)
			}
			if !tc.ok {
				mustInvalid(t, err, "binLocationFormatComponents[0]")
			}
		})
	}
}

func TestBinLocationCodesSpellEveryCombinationInOrder(t *testing.T) {
	d := validDetails()
	d.BinLocationFormat = []FormatComponent{
		{Type: ComponentText, Text: "A-"},
		{Type: ComponentLetter, LetterFrom: "a", LetterTo: "b"},
		{Type: ComponentNumber, NumberFrom: 9, NumberTo: 10, Padding: 3},
	}
	w, err := newWarehouse(d)
	if err != nil {
		t.Fatal(err)
	}
	codes, err := w.BinLocationCodes()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"A-a009", "A-a010", "A-b009", "A-b010"}
	if !slices.Equal(codes, want) {
		t.Fatalf("got %v, want %v", codes, want)
	}
}

func TestBinLocationCodesNeedAFormatOfAtMostTheLimit(t *testing.T) {
	w, _ := newWarehouse(validDetails())
	_, err := w.BinLocationCodes()
	mustInvalid(t, err, "")

	d := validDetails()
	d.BinLocationFormat = []FormatComponent{
		{Type: ComponentNumber, NumberFrom: 1, NumberTo: 1000},
		{Type: ComponentNumber, NumberFrom: 0, NumberTo: 100},
	}
	w, _ = newWarehouse(d)
	_, err = w.BinLocationCodes()
	mustInvalid(t, err, "")

	d.BinLocationFormat[1].NumberTo = 99
	w, _ = newWarehouse(d)
	codes, err := w.BinLocationCodes()
	if err != nil || len(codes) != MaxGeneratedCodes {
		t.Fatalf("exactly the limit is fine: %d codes, %v", len(codes), err)
	}
}

func TestBinLocationCodeRules(t *testing.T) {
	b, err := NewBinLocation(1, "  A-01 ")
	if err != nil || b.Code() != "A-01" {
		t.Fatalf("codes are trimmed: %v %q", err, b.Code())
	}
	_, err = NewBinLocation(1, "")
	mustInvalid(t, err, "code")
	_, err = NewBinLocation(1, strings.Repeat("x", 256))
	mustInvalid(t, err, "code")
	_, err = NewBinLocation(1, NullBinLocationCode)
	mustInvalid(t, err, "code")
	mustInvalid(t, b.Rename(NullBinLocationCode), "code")
	if b.Code() != "A-01" {
		t.Fatal("a failed rename keeps the code")
	}
}

func TestTheUnknownBinLocationCannotBeRenamedOrDeleted(t *testing.T) {
	_, null, err := Holders{}.Create(validDetails())
	if err != nil {
		t.Fatal(err)
	}
	if !null.IsNull() {
		t.Fatal("the unknown bin location knows what it is")
	}
	if err := null.Rename("B"); err != ErrNullBinLocationProtected {
		t.Fatalf("rename: %v", err)
	}
	if err := null.CheckDeletable(false, false); err != ErrNullBinLocationProtected {
		t.Fatalf("delete: %v", err)
	}
}

func TestBinLocationsWithStockOrADefaultMappingStay(t *testing.T) {
	b, _ := NewBinLocation(1, "A")
	if err := b.CheckDeletable(false, false); err != nil {
		t.Fatal(err)
	}
	if err := b.CheckDeletable(true, false); err != ErrBinHasStock {
		t.Fatalf("stock: %v", err)
	}
	if err := b.CheckDeletable(false, true); err != ErrBinIsDefault {
		t.Fatalf("default: %v", err)
	}
}

func TestNumberRangesAreBoundedSoCountsCannotOverflow(t *testing.T) {
	d := validDetails()
	d.BinLocationFormat = []FormatComponent{{Type: ComponentNumber, NumberFrom: 0, NumberTo: 1 << 62}}
	_, err := newWarehouse(d)
	mustInvalid(t, err, "binLocationFormatComponents[0]")
}

func TestBinLocationsStayInTheirWarehouse(t *testing.T) {
	b, _ := NewBinLocation(1, "A")
	if err := b.StayIn(1); err != nil {
		t.Fatalf("its own warehouse is fine: %v", err)
	}
	mustInvalid(t, b.StayIn(2), "warehouseId")
}

// newWarehouse creates an ordinary warehouse: another one holds the flags.
func newWarehouse(d Details) (*Warehouse, error) {
	holder := &Warehouse{id: 99}
	w, _, err := Holders{Default: holder, Return: holder}.Create(d)
	return w, err
}

func TestTheFirstWarehouseTakesBothFlagsAndComesWithItsUnknownBinLocation(t *testing.T) {
	first, unknown, err := Holders{}.Create(validDetails())
	if err != nil {
		t.Fatal(err)
	}
	if !first.IsDefault() || !first.IsDefaultReturn() {
		t.Fatal("the first warehouse holds both flags")
	}
	if !unknown.IsNull() || unknown.Code() != NullBinLocationCode {
		t.Fatalf("creating a warehouse yields its unknown bin location, got %q", unknown.Code())
	}
	first.Assign(1, unknown)
	if unknown.WarehouseID() != 1 || first.NullBinLocationID() != unknown.ID() {
		t.Fatal("storing them ties the unknown bin location to its warehouse")
	}
	second, _, err := Holders{Default: first, Return: first}.Create(validDetails())
	if err != nil || second.IsDefault() || second.IsDefaultReturn() {
		t.Fatalf("a later warehouse takes no flag: %v", err)
	}
}

func TestEachDefaultFlagMovesAndExactlyOneWarehouseHoldsIt(t *testing.T) {
	a, _, _ := Holders{}.Create(validDetails())
	a.id = 1
	b, _, _ := Holders{Default: a, Return: a}.Create(validDetails())
	b.id = 2
	changed := Holders{Default: a, Return: a}.MoveDefault(b)
	if len(changed) != 2 || changed[0] != a || changed[1] != b {
		t.Fatalf("the old holder is cleared first, then the new one set: %v", changed)
	}
	if a.IsDefault() || !b.IsDefault() || !a.IsDefaultReturn() || b.IsDefaultReturn() {
		t.Fatal("only the default flag moved, to b")
	}
	changed = Holders{Default: b, Return: a}.MoveDefaultReturn(a)
	if len(changed) != 1 || changed[0] != a || !a.IsDefaultReturn() {
		t.Fatalf("moving a flag to its holder changes only the holder: %v", changed)
	}
}

func TestAStoredWarehouseTellsWhetherItsForSaleFlagChangedSinceItWasLoaded(t *testing.T) {
	d := validDetails()
	d.StockAvailableForSale = true
	w := UnmarshalFromDatabase(3, d, false, false, 30)
	same := true
	if err := w.Apply(Patch{StockAvailableForSale: &same}); err != nil || w.ForSaleChanged() {
		t.Fatalf("setting the flag it has changed it: %v", err)
	}
	off := false
	if err := w.Apply(Patch{StockAvailableForSale: &off}); err != nil || !w.ForSaleChanged() {
		t.Fatalf("turning the flag off changed nothing: %v", err)
	}
	if err := w.Apply(Patch{StockAvailableForSale: &same}); err != nil || w.ForSaleChanged() {
		t.Fatalf("turning it back on still counts as a change: %v", err)
	}
}
