package test

import (
	"slices"
	"strings"
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The warehouse and bin location rules (unique codes, the default
// warehouses, the unknown bin location, generated bin codes), driven
// through the use cases directly, on SQLite and PostgreSQL.
func TestWarehouseUseCases(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		app := apitest.New(t, databaseURL).App
		ctx := apitest.Admin()
		var main, second int64

		t.Run("the first warehouse becomes default and default return warehouse", func(t *testing.T) {
			main = ucCreate(t, app, warehouse.Details{Code: " MAIN ", Name: "Main", StockAvailableForSale: true})
			second = ucCreate(t, app, warehouse.Details{Code: "SECOND", Name: "Second", Email: "ops@example.com"})
			m := ucWarehouse(t, app, main)
			if !m.IsDefault() || !m.IsDefaultReturn() || m.Code() != "MAIN" {
				t.Errorf("first warehouse: default %v, default return %v, code %q", m.IsDefault(), m.IsDefaultReturn(), m.Code())
			}
			s := ucWarehouse(t, app, second)
			if s.IsDefault() || s.IsDefaultReturn() {
				t.Errorf("second warehouse holds a default flag")
			}
			if d := s.Details(); d.Contact != "" || d.Email != "ops@example.com" || d.BinLocationFormat == nil {
				t.Errorf("details = %+v", d)
			}
			null, err := app.BinLocation(ctx, m.NullBinLocationID())
			if err != nil {
				t.Fatal(err)
			}
			if !null.BinLocation.IsNull() || null.BinLocation.WarehouseID() != main || len(null.Mappings) != 0 {
				t.Errorf("unknown bin location = %+v", null)
			}
		})

		t.Run("invalid details and duplicate codes are refused", func(t *testing.T) {
			for _, d := range []warehouse.Details{
				{Code: "", Name: "no code"},
				{Code: "X", Name: "  "},
				{Code: "MAIN", Name: "duplicate"},
				{Code: "Y", Name: "y", Email: "not-an-email"},
				{Code: strings.Repeat("c", 256), Name: "long"},
				{Code: "Z", Name: "z", BinLocationFormat: []warehouse.FormatComponent{{Type: "roman"}}},
				{Code: "Z", Name: "z", BinLocationFormat: []warehouse.FormatComponent{{Type: warehouse.ComponentNumber, NumberFrom: 3, NumberTo: 1}}},
				{Code: "Z", Name: "z", BinLocationFormat: []warehouse.FormatComponent{{Type: warehouse.ComponentLetter, LetterFrom: "A", LetterTo: "zz"}}},
			} {
				if _, err := app.CreateWarehouse(ctx, d); errs.KindOf(err) != errs.Invalid {
					t.Errorf("create %+v: %v, want invalid", d, err)
				}
			}
			code := "MAIN"
			if err := app.UpdateWarehouse(ctx, second, warehouse.Patch{Code: &code}); errs.KindOf(err) != errs.Invalid {
				t.Errorf("rename to a taken code: %v, want invalid", err)
			}
			if err := app.UpdateWarehouse(ctx, 999999, warehouse.Patch{}); errs.KindOf(err) != errs.NotFound {
				t.Errorf("update of an unknown warehouse: %v, want not found", err)
			}
			if _, err := app.Warehouse(ctx, 999999); errs.KindOf(err) != errs.NotFound {
				t.Errorf("unknown warehouse: %v, want not found", err)
			}
			if n := ucWarehouseCount(t, app); n != 2 {
				t.Errorf("%d warehouses, want 2", n)
			}
		})

		t.Run("default flags move, exactly one holder each", func(t *testing.T) {
			if err := app.MakeDefaultWarehouse(ctx, second); err != nil {
				t.Fatal(err)
			}
			ucFlags(t, app, main, false, true)
			ucFlags(t, app, second, true, false)
			if err := app.MakeDefaultReturnWarehouse(ctx, second); err != nil {
				t.Fatal(err)
			}
			ucFlags(t, app, main, false, false)
			ucFlags(t, app, second, true, true)
			if err := app.MakeDefaultWarehouse(ctx, main); err != nil {
				t.Fatal(err)
			}
			ucFlags(t, app, main, true, false)
			ucFlags(t, app, second, false, true)
			if err := app.MakeDefaultWarehouse(ctx, 999999); errs.KindOf(err) != errs.NotFound {
				t.Errorf("unknown warehouse: %v, want not found", err)
			}
			ucFlags(t, app, main, true, false)
		})

		t.Run("delete rules", func(t *testing.T) {
			if err := app.DeleteWarehouse(ctx, main); err != warehouse.ErrDefaultNotDeletable {
				t.Errorf("delete default: %v", err)
			}
			if err := app.DeleteWarehouse(ctx, second); err != warehouse.ErrDefaultReturnNotDeletable {
				t.Errorf("delete default return: %v", err)
			}
			third := ucCreate(t, app, warehouse.Details{Code: "THIRD", Name: "Third"})
			bin, err := app.CreateBinLocation(ctx, third, "T-1")
			if err != nil {
				t.Fatal(err)
			}
			if err := app.DeleteWarehouse(ctx, third); err != warehouse.ErrHasBinLocations {
				t.Errorf("delete with bin locations: %v", err)
			}
			if err := app.DeleteBinLocation(ctx, bin); err != nil {
				t.Fatal(err)
			}
			null := ucWarehouse(t, app, third).NullBinLocationID()
			if err := app.DeleteWarehouse(ctx, third); err != nil {
				t.Fatalf("delete an empty warehouse: %v", err)
			}
			if _, err := app.Warehouse(ctx, third); errs.KindOf(err) != errs.NotFound {
				t.Errorf("deleted warehouse: %v, want not found", err)
			}
			if _, err := app.BinLocation(ctx, null); errs.KindOf(err) != errs.NotFound {
				t.Errorf("unknown bin location of the deleted warehouse: %v, want not found", err)
			}
			if err := app.DeleteWarehouse(ctx, third); errs.KindOf(err) != errs.NotFound {
				t.Errorf("delete again: %v, want not found", err)
			}
		})

		t.Run("bin location codes", func(t *testing.T) {
			a, err := app.CreateBinLocation(ctx, main, " A-1 ")
			if err != nil {
				t.Fatal(err)
			}
			if b := ucBin(t, app, a); b.Code() != "A-1" || b.WarehouseID() != main {
				t.Errorf("bin = %q in %d", b.Code(), b.WarehouseID())
			}
			if _, err := app.CreateBinLocation(ctx, second, "A-1"); err != nil {
				t.Errorf("same code in another warehouse: %v", err)
			}
			for _, code := range []string{"A-1", "erp_null_bin_location", "", "  ", strings.Repeat("b", 256)} {
				if _, err := app.CreateBinLocation(ctx, main, code); errs.KindOf(err) != errs.Invalid {
					t.Errorf("create code %q: %v, want invalid", code, err)
				}
			}
			if _, err := app.CreateBinLocation(ctx, 999999, "X"); errs.KindOf(err) != errs.Invalid {
				t.Errorf("unknown warehouse: %v, want invalid", err)
			}
			b2, err := app.CreateBinLocation(ctx, main, "A-2")
			if err != nil {
				t.Fatal(err)
			}
			for _, code := range []string{"A-1", "erp_null_bin_location", " "} {
				if err := app.UpdateBinLocation(ctx, b2, &code, nil); errs.KindOf(err) != errs.Invalid {
					t.Errorf("rename to %q: %v, want invalid", code, err)
				}
			}
			code, own, other := " A-3 ", main, second
			if err := app.UpdateBinLocation(ctx, b2, &code, &own); err != nil {
				t.Errorf("rename with its own warehouse: %v", err)
			}
			if got := ucBin(t, app, b2).Code(); got != "A-3" {
				t.Errorf("code = %q, want A-3", got)
			}
			if err := app.UpdateBinLocation(ctx, b2, nil, &other); errs.KindOf(err) != errs.Invalid {
				t.Errorf("move to another warehouse: %v, want invalid", err)
			}
			null := ucWarehouse(t, app, main).NullBinLocationID()
			rename := "RENAMED"
			if err := app.UpdateBinLocation(ctx, null, &rename, nil); err != warehouse.ErrNullBinLocationProtected {
				t.Errorf("rename the unknown bin location: %v", err)
			}
			if err := app.DeleteBinLocation(ctx, null); err != warehouse.ErrNullBinLocationProtected {
				t.Errorf("delete the unknown bin location: %v", err)
			}
			page, err := app.BinLocations(ctx, ports.ListQuery{Limit: 100, Filters: []ports.Filter{
				{Property: "binLocation.warehouseId", Values: []any{main}},
			}})
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, b := range page.Items {
				codes = append(codes, b.Code())
			}
			if want := []string{"erp_null_bin_location", "A-1", "A-3"}; !slices.Equal(codes, want) || page.Total != 3 {
				t.Errorf("bins of main: %v (total %d), want %v", codes, page.Total, want)
			}
			if err := app.DeleteBinLocation(ctx, b2); err != nil {
				t.Errorf("delete: %v", err)
			}
			if _, err := app.BinLocation(ctx, b2); errs.KindOf(err) != errs.NotFound {
				t.Errorf("deleted bin: %v, want not found", err)
			}
		})

		t.Run("generate bin locations", func(t *testing.T) {
			gen := ucCreate(t, app, warehouse.Details{Code: "GEN", Name: "Gen", BinLocationFormat: []warehouse.FormatComponent{
				{Type: warehouse.ComponentLetter, LetterFrom: "A", LetterTo: "B"},
				{Type: warehouse.ComponentText, Text: "-"},
				{Type: warehouse.ComponentNumber, NumberFrom: 1, NumberTo: 2, Padding: 2},
			}})
			if _, err := app.CreateBinLocation(ctx, gen, "B-01"); err != nil {
				t.Fatal(err)
			}
			if n, err := app.GenerateBinLocations(ctx, gen); err != nil || n != 3 {
				t.Errorf("generate: %d, %v; want 3 (B-01 exists)", n, err)
			}
			if n, err := app.GenerateBinLocations(ctx, gen); err != nil || n != 0 {
				t.Errorf("generate again: %d, %v; want 0", n, err)
			}
			page, err := app.BinLocations(ctx, ports.ListQuery{Limit: 100,
				Filters: []ports.Filter{{Property: "binLocation.warehouseId", Values: []any{gen}}}})
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, b := range page.Items {
				codes = append(codes, b.Code())
			}
			slices.Sort(codes)
			if want := []string{"A-01", "A-02", "B-01", "B-02", "erp_null_bin_location"}; !slices.Equal(codes, want) {
				t.Errorf("codes = %v, want %v", codes, want)
			}

			huge := []warehouse.FormatComponent{
				{Type: warehouse.ComponentNumber, NumberFrom: 0, NumberTo: 999},
				{Type: warehouse.ComponentNumber, NumberFrom: 0, NumberTo: 100},
			}
			if err := app.UpdateWarehouse(ctx, gen, warehouse.Patch{BinLocationFormat: &huge}); err != nil {
				t.Fatal(err)
			}
			if _, err := app.GenerateBinLocations(ctx, gen); errs.KindOf(err) != errs.Invalid {
				t.Errorf("more than 100000 codes: %v, want invalid", err)
			}
			if _, err := app.GenerateBinLocations(ctx, main); errs.KindOf(err) != errs.Invalid {
				t.Errorf("no format: %v, want invalid", err)
			}
			if _, err := app.GenerateBinLocations(ctx, 999999); errs.KindOf(err) != errs.NotFound {
				t.Errorf("unknown warehouse: %v, want not found", err)
			}
		})
	})
}

func ucCreate(t *testing.T, app *application.App, d warehouse.Details) int64 {
	t.Helper()
	id, err := app.CreateWarehouse(apitest.Admin(), d)
	if err != nil {
		t.Fatalf("create warehouse %q: %v", d.Code, err)
	}
	return id
}

func ucWarehouse(t *testing.T, app *application.App, id int64) *warehouse.Warehouse {
	t.Helper()
	w, err := app.Warehouse(apitest.Admin(), id)
	if err != nil {
		t.Fatalf("warehouse %d: %v", id, err)
	}
	return w
}

func ucBin(t *testing.T, app *application.App, id int64) *warehouse.BinLocation {
	t.Helper()
	v, err := app.BinLocation(apitest.Admin(), id)
	if err != nil {
		t.Fatalf("bin location %d: %v", id, err)
	}
	return v.BinLocation
}

func ucWarehouseCount(t *testing.T, app *application.App) int {
	t.Helper()
	p, err := app.Warehouses(apitest.Admin(), ports.ListQuery{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p.Total
}

// ucFlags checks the warehouse's flags and that one warehouse holds each.
func ucFlags(t *testing.T, app *application.App, id int64, isDefault, isDefaultReturn bool) {
	t.Helper()
	w := ucWarehouse(t, app, id)
	if w.IsDefault() != isDefault || w.IsDefaultReturn() != isDefaultReturn {
		t.Errorf("warehouse %d: default %v, default return %v; want %v, %v", id, w.IsDefault(), w.IsDefaultReturn(), isDefault, isDefaultReturn)
	}
	p, err := app.Warehouses(apitest.Admin(), ports.ListQuery{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var defaults, returns int
	for _, w := range p.Items {
		if w.IsDefault() {
			defaults++
		}
		if w.IsDefaultReturn() {
			returns++
		}
	}
	if defaults != 1 || returns != 1 {
		t.Errorf("%d default and %d default return warehouses, want one each", defaults, returns)
	}
}
