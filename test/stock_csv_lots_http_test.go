package test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/test/testdb"
)

// The stock CSV with lots: the export's lot columns, one line per mapping
// and lot, and the import's six-column header, on both databases.

const stockLotImportHeader = stockImportHeader + ",lotNumber,bestBefore"

// newLotTracked creates the lot-tracked product MILK-1 over the API.
func (e *stockCSVEnv) newLotTracked() int64 {
	e.t.Helper()
	res := e.Do(e.t, http.MethodPost, "/api/articleDetails", map[string]any{"number": "MILK-1", "lotTracked": true})
	if res.Status != http.StatusCreated && res.Status != http.StatusOK {
		e.t.Fatalf("create a lot-tracked product: %s", res)
	}
	data, _ := res.JSON(e.t)["data"].(map[string]any)
	id, _ := data["id"].(float64)
	if id <= 0 {
		e.t.Fatalf("create a lot-tracked product: no id in %s", res)
	}
	return int64(id)
}

// lotRows are the export's rows of one product number.
func lotRows(rows [][]string, number string) [][]string {
	var out [][]string
	for _, r := range rows {
		if r[2] == number {
			out = append(out, r)
		}
	}
	return out
}

func TestStockCSVLots(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockCSVEnv(t, databaseURL)
		milk := e.newLotTracked()

		// Stock in needs a lot: the four-column header cannot name one.
		r := e.importRejected("change", "four", stockImportHeader+"\nWH1,A-01,MILK-1,5\nWH1,A-01,SKU-1,1\n")
		if len(r.Errors) != 1 || r.Errors[0].Line != 2 || !strings.Contains(r.Errors[0].Message, "lot") {
			t.Errorf("a tracked product's line without a lot: %+v", r)
		}
		// A lot on a product that is not lot-tracked fails; a bad date is
		// told with the line.
		r = e.importRejected("change", "untracked", stockLotImportHeader+"\nWH1,A-01,SKU-1,1,L-1,\nWH1,A-01,MILK-1,1,L-1,2027-02-30\n")
		if len(r.Errors) != 2 || r.Errors[0].Line != 2 || !strings.Contains(r.Errors[0].Message, "lot") ||
			r.Errors[1].Line != 3 || !strings.Contains(r.Errors[1].Message, "bestBefore") {
			t.Errorf("a lot on an untracked product, a bad date: %+v", r)
		}

		e.importOK("change", "lots", stockLotImportHeader+"\n"+
			"WH1,A-01,MILK-1,3,L-LATE,\n"+ // a new lot without a date
			"WH1,A-01,MILK-1,5,L-EARLY,2027-01-31\n"+
			"WH1,A-01,MILK-1,2,L-EARLY,\n"+ // an existing lot, named without its date
			"WH1,A-01,MILK-1,4,'=L,2027-06-30\n"+ // a number a spreadsheet would run
			"WH1,A-01,SKU-1,6,,\n", 5)
		if got := e.stockOn(milk, e.binA); got != 14 {
			t.Errorf("MILK-1 on A-01: %d, want 14", got)
		}
		r = e.importRejected("change", "mismatch", stockLotImportHeader+"\nWH1,A-01,MILK-1,1,L-EARLY,2027-02-01\n")
		if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Message, "L-EARLY") {
			t.Errorf("an existing lot with another date: %+v", r)
		}
		if err := e.App.SetDefaultBinLocation(e.ctx, e.binB, milk, true); err != nil {
			t.Fatal(err)
		}

		raw, rows := e.exportCSV("")
		want := [][]string{
			{"WH1", "A-01", "MILK-1", "7", "0", "false", "", "L-EARLY", "2027-01-31"},
			{"WH1", "A-01", "MILK-1", "4", "0", "false", "", "'=L", "2027-06-30"},
			{"WH1", "A-01", "MILK-1", "3", "0", "false", "", "L-LATE", ""},
			{"WH1", csvBinB, "MILK-1", "0", "0", "true", "", "", ""},
		}
		var got [][]string
		for _, r := range lotRows(rows, "MILK-1") {
			got = append(got, append(r[:3:3], r[4:]...)) // without the id
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("MILK-1 in the export\n got %q\nwant %q", got, want)
		}
		if sku := lotRows(rows, "SKU-1"); len(sku) != 1 || sku[0][8] != "" || sku[0][9] != "" {
			t.Errorf("an untracked product's lot columns: %q", sku)
		}

		// The export imports as it is: every lot set to what it holds, the
		// empty default mapping, which has no lot to set, skipped.
		e.importOK("set", "export", raw, len(rows))
		if got := e.stockOn(milk, e.binA); got != 14 {
			t.Errorf("MILK-1 on A-01 after the export imported itself: %d, want 14", got)
		}
		// A line of the export that names no lot but holds stock is not a
		// default mapping holding nothing: it fails.
		r = e.importRejected("set", "export-nolot", strings.Replace(raw, "L-LATE", "", 1))
		if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Message, "lot") {
			t.Errorf("an exported line of stock without its lot: %+v", r)
		}

		// The preview tells the skipped line.
		lines := []application.ImportLine{
			{Line: 2, WarehouseCode: "WH1", BinLocationCode: csvBinB, ArticleDetailNumber: "MILK-1", Exported: true},
			{Line: 3, WarehouseCode: "WH1", BinLocationCode: "A-01", ArticleDetailNumber: "MILK-1", Quantity: 1, Lot: &stock.LotSpec{Number: "L-LATE"}, Exported: true},
		}
		p, err := e.App.PreviewStockImport(e.ctx, "tester", application.ImportSet, lines)
		if err != nil {
			t.Fatal(err)
		}
		if p.Failed != 0 || !p.Lines[0].Skipped || p.Lines[1].Skipped || !p.Lines[1].Located || p.Lines[1].Before != 14 || p.Lines[1].After != 12 {
			t.Errorf("preview: %+v", p)
		}
	})
}
