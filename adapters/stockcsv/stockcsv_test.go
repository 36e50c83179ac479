package stockcsv

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/ports"
)

const header = "warehouseCode,binLocationCode,articleDetailNumber,quantity"

func TestReadImportNumbersLinesAsTheFileDoes(t *testing.T) {
	body := "\ufeff" + header + "\r\n" +
		"WH1,A-01,SKU-1,5\r\n" + // 2
		"\r\n" + // 3: blank, skipped
		"\"WH1\",\"B,\"\"02\"\"\", SKU-2 ,-3\r\n" + // 4
		"WH1,\"two\nlines\",SKU-1,1\n" + // 5-6
		"WH1,,SKU-1,+7" // 7, no line end
	lines, err := ReadImport([]byte(body), application.ImportSet)
	if err != nil {
		t.Fatal(err)
	}
	want := []application.ImportLine{
		{Line: 2, WarehouseCode: "WH1", BinLocationCode: "A-01", ArticleDetailNumber: "SKU-1", Quantity: 5},
		{Line: 4, WarehouseCode: "WH1", BinLocationCode: `B,"02"`, ArticleDetailNumber: "SKU-2", Quantity: -3},
		{Line: 5, WarehouseCode: "WH1", ArticleDetailNumber: "SKU-1", Quantity: 1, BinLocationCode: "two\nlines",
			Problem: "binLocationCode must not contain control characters"},
		{Line: 7, WarehouseCode: "WH1", ArticleDetailNumber: "SKU-1", Quantity: 7},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d: %+v", len(lines), len(want), lines)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d\n got %+v\nwant %+v", i, lines[i], want[i])
		}
	}
}

func TestReadImportReportsEveryProblemOfALine(t *testing.T) {
	lines, err := ReadImport([]byte(header+"\n,A-01,,1.5\nWH1,A-01,SKU\nWH1,A\"1,SKU,1\nWH1,A,SKU,-1000000001\n"), application.ImportSet)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{
		`warehouseCode must not be empty; articleDetailNumber must not be empty; quantity must be an integer, not "1.5"`,
		"a line must have 4 fields (warehouseCode,binLocationCode,articleDetailNumber,quantity), not 3",
		"not valid CSV: bare \" in non-quoted-field (line 4, column 6)",
		"quantity: must be an integer from -1000000000 to 1000000000",
	} {
		if lines[i].Problem != want || lines[i].Line != i+2 {
			t.Errorf("line %d: %d %q, want %d %q", i, lines[i].Line, lines[i].Problem, i+2, want)
		}
	}
}

func TestReadImportRefusesAFileWithoutItsHeaderOrLines(t *testing.T) {
	for name, body := range map[string]string{
		"empty":         "",
		"no header":     "WH1,A-01,SKU-1,5\n",
		"wrong header":  "warehouse,bin,number,quantity\nWH1,A-01,SKU-1,5\n",
		"spaced header": "warehouseCode, binLocationCode, articleDetailNumber, quantity\n",
		"header only":   header + "\n",
		"blank lines":   header + "\n\n\n",
		"too many":      header + "\n" + strings.Repeat("WH1,A,S,1\n", limit.MaxImportLines+1),
	} {
		if _, err := ReadImport([]byte(body), application.ImportSet); errs.KindOf(err) != errs.Invalid {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
	if lines, err := ReadImport([]byte(header+"\n"+strings.Repeat("WH1,A,S,1\n", limit.MaxImportLines)), application.ImportSet); err != nil || len(lines) != limit.MaxImportLines {
		t.Errorf("exactly %d lines: %d, %v", limit.MaxImportLines, len(lines), err)
	}
}

func TestWriterQuotesAndFormats(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 12, 30, 0, 0, time.FixedZone("CET", 3600))
	rows := []ports.StockExportRow{
		{WarehouseCode: "WH1", BinLocationCode: "A,1", ArticleDetailNumber: `say "hi"`, ArticleDetailID: 7, Stock: 5, ReservedStock: 2, DefaultMapping: true, LastStockTake: &at},
		{WarehouseCode: "WH1", BinLocationCode: "erp_null_bin_location", ArticleDetailNumber: "SKU", ArticleDetailID: 8, Stock: 1},
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "warehouseCode,binLocationCode,articleDetailNumber,articleDetailId,stock,reservedStock,defaultMapping,lastStockTake,lotNumber,bestBefore\n" +
		`WH1,"A,1","say ""hi""",7,5,2,true,2026-11-23T11:30:00+0000,,` + "\n" +
		"WH1,erp_null_bin_location,SKU,8,1,0,false,,,\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestEscapePutsAQuoteBeforeWhatASpreadsheetWouldRun(t *testing.T) {
	for cell, want := range map[string]string{
		`=HYPERLINK("http://x","y")`: `'=HYPERLINK("http://x","y")`,
		"+cmd|' /C calc'!A0":         "'+cmd|' /C calc'!A0",
		"-1":                         "'-1",
		"@SUM(A1:A9)":                "'@SUM(A1:A9)",
		"\t=1":                       "'\t=1",
		"\r=1":                       "'\r=1",
		"=":                          "'=",
		"A-01":                       "A-01",
		"SKU=1":                      "SKU=1",
		"'=1":                        "'=1", // begins with ', which a spreadsheet does not run
		" =1":                        " =1",
		"":                           "",
	} {
		if got := Escape(cell); got != want {
			t.Errorf("Escape(%q) = %q, want %q", cell, got, want)
		}
	}
}

func TestUnescapeTakesAwayOneQuoteBeforeWhatASpreadsheetWouldRun(t *testing.T) {
	for cell, want := range map[string]string{
		"'=1":       "=1",
		"'+1":       "+1",
		"'-1":       "-1",
		"'@A":       "@A",
		"'\tA":      "\tA",
		"'\rA":      "\rA",
		"''=1":      "''=1", // the first ' is not before one of them
		"'A":        "'A",
		"'":         "'",
		"A'=1":      "A'=1",
		"O'Neill-1": "O'Neill-1",
		"":          "",
	} {
		if got := Unescape(cell); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", cell, got, want)
		}
	}
	for _, cell := range []string{"=1", "+1", "-1", "@A", "\tA", "\rA", "A-01", "'A", "", "O'Neill"} {
		if got := Unescape(Escape(cell)); got != cell {
			t.Errorf("Unescape(Escape(%q)) = %q", cell, got)
		}
	}
}

func TestAnImportReadsTheCodesAnExportWrote(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	codes := []string{"=WH", "+B1", "-B2", "@B3", "=SUM(1)"}
	if err := w.Write(ports.StockExportRow{WarehouseCode: codes[0], BinLocationCode: codes[1], ArticleDetailNumber: codes[2], Stock: 3, ReservedStock: -1}); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ports.StockExportRow{WarehouseCode: codes[0], BinLocationCode: codes[3], ArticleDetailNumber: codes[4], Stock: 4}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "'=WH,'+B1,'-B2,0,3,'-1,false,,,\n'=WH,'@B3,'=SUM(1),0,4,0,false,,,\n"
	if got := strings.SplitN(buf.String(), "\n", 2)[1]; got != want {
		t.Fatalf("export rows\n%q\nwant\n%q", got, want)
	}
	// The import file a spreadsheet user makes of it: the code cells as they
	// are, the stock as the quantity.
	lines, err := ReadImport([]byte(header+"\n'=WH,'+B1,'-B2,3\n'=WH,'@B3,'=SUM(1),'-4\n"), application.ImportSet)
	if err != nil {
		t.Fatal(err)
	}
	wantLines := []application.ImportLine{
		{Line: 2, WarehouseCode: "=WH", BinLocationCode: "+B1", ArticleDetailNumber: "-B2", Quantity: 3},
		{Line: 3, WarehouseCode: "=WH", BinLocationCode: "@B3", ArticleDetailNumber: "=SUM(1)", Quantity: -4},
	}
	if !slices.Equal(lines, wantLines) {
		t.Errorf("import\n got %+v\nwant %+v", lines, wantLines)
	}
}

// A file the export wrote imports as a set: its stock is the quantity, the
// other columns are ignored; as a change it is refused, for a change by
// what a bin holds is a mistake.
func TestReadImportTakesAFileTheExportWrote(t *testing.T) {
	var buf bytes.Buffer
	x, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	x.Write(ports.StockExportRow{WarehouseCode: "WH1", BinLocationCode: "A-01", ArticleDetailNumber: "SKU-1", ArticleDetailID: 7, Stock: 5, ReservedStock: 2, DefaultMapping: true})
	x.Write(ports.StockExportRow{WarehouseCode: "WH1", BinLocationCode: "-B", ArticleDetailNumber: "SKU-2", ArticleDetailID: 8, Stock: 0})
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	lines, err := ReadImport(buf.Bytes(), application.ImportSet)
	if err != nil {
		t.Fatal(err)
	}
	want := []application.ImportLine{
		{Line: 2, WarehouseCode: "WH1", BinLocationCode: "A-01", ArticleDetailNumber: "SKU-1", Quantity: 5, Exported: true},
		{Line: 3, WarehouseCode: "WH1", BinLocationCode: "-B", ArticleDetailNumber: "SKU-2", Quantity: 0, Exported: true},
	}
	if !slices.Equal(lines, want) {
		t.Errorf("got %+v\nwant %+v", lines, want)
	}
	if _, err := ReadImport(buf.Bytes(), application.ImportChange); errs.KindOf(err) != errs.Invalid {
		t.Errorf("the export as a change: %v, want invalid", err)
	}
	// The export's columns in another order, with one more, are read by
	// their names; a file the export wrote before lots had no lot columns.
	lines, err = ReadImport([]byte("note,stock,articleDetailNumber,binLocationCode,warehouseCode,articleDetailId,reservedStock,defaultMapping,lastStockTake\nx,4,SKU-1,,WH1,1,0,false,\n"), application.ImportSet)
	if err != nil || len(lines) != 1 || lines[0] != (application.ImportLine{Line: 2, WarehouseCode: "WH1", ArticleDetailNumber: "SKU-1", Quantity: 4, Exported: true}) {
		t.Errorf("the export's columns reordered: %+v, %v", lines, err)
	}
	if _, err := ReadImport([]byte("stock,articleDetailNumber,binLocationCode,warehouseCode,articleDetailId,reservedStock,defaultMapping,lastStockTake,lotNumber\n4,SKU-1,,WH1,1,0,false,,L1\n"), application.ImportSet); errs.KindOf(err) != errs.Invalid {
		t.Errorf("an export's header with lotNumber but no bestBefore: %v, want invalid", err)
	}
}

// lotOf is a line's lot as text, to compare: number and date, or "-".
func lotOf(l application.ImportLine) string {
	switch {
	case l.Lot == nil:
		return "-"
	case !l.Lot.BestBeforeGiven:
		return l.Lot.Number
	}
	return l.Lot.Number + " " + l.Lot.BestBefore.Format(time.DateOnly)
}

// The lot columns name the operation's lot: a number, and a best-before
// date when not empty; an empty number names none.
func TestReadImportReadsTheLotColumns(t *testing.T) {
	body := "warehouseCode,binLocationCode,articleDetailNumber,quantity,lotNumber,bestBefore\n" +
		"WH1,A-01,SKU-1,5,L-7,2027-03-31\n" + // 2
		"WH1,A-01,SKU-1,5, L-8 ,\n" + // 3: no date given
		"WH1,A-01,SKU-2,5,,\n" + // 4: no lot
		"WH1,A-01,SKU-1,5,,2027-03-31\n" + // 5: a date without a lot
		"WH1,A-01,SKU-1,5,L-9,31.03.2027\n" + // 6
		"WH1,A-01,SKU-1,5,L-9,2027-02-30\n" + // 7
		"WH1,A-01,SKU-1,5,'=L,\n" + // 8: a number a spreadsheet would run
		"WH1,A-01,SKU-1,5,L-9\n" // 9
	lines, err := ReadImport([]byte(body), application.ImportChange)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ lot, problem string }{
		{"L-7 2027-03-31", ""},
		{"L-8", ""},
		{"-", ""},
		{"-", `bestBefore "2027-03-31" needs a lotNumber`},
		{"L-9", `bestBefore must be a date YYYY-MM-DD, got "31.03.2027"`},
		{"L-9", `bestBefore must be a date YYYY-MM-DD, got "2027-02-30"`},
		{"=L", ""},
		{"-", "a line must have 6 fields (warehouseCode,binLocationCode,articleDetailNumber,quantity,lotNumber,bestBefore), not 5"},
	} {
		if l := lines[i]; lotOf(l) != want.lot || l.Problem != want.problem || l.Exported {
			t.Errorf("line %d: lot %s, problem %q, exported %v; want %s, %q", l.Line, lotOf(l), l.Problem, l.Exported, want.lot, want.problem)
		}
	}
	if d := lines[0].Lot.BestBefore; d.Location() != time.UTC || d.Hour() != 0 {
		t.Errorf("best-before %v, want UTC midnight", d)
	}
}

// An export lists a lot-tracked product's lots, one line each, and a file
// it wrote imports with them: the same lots, their dates, their stock.
func TestAnExportWithLotsImportsAsItWasWritten(t *testing.T) {
	march := time.Date(2027, 3, 31, 0, 0, 0, 0, time.UTC)
	body, err := Render(func(each func(ports.StockExportRow) error) error {
		for _, r := range []ports.StockExportRow{
			{WarehouseCode: "WH1", BinLocationCode: "A-01", ArticleDetailNumber: "FOOD", ArticleDetailID: 1, Stock: 4, ReservedStock: 1, LotNumber: "L-1", BestBefore: &march},
			{WarehouseCode: "WH1", BinLocationCode: "A-01", ArticleDetailNumber: "FOOD", ArticleDetailID: 1, Stock: 2, LotNumber: "-L2"},
			{WarehouseCode: "WH1", BinLocationCode: "B-01", ArticleDetailNumber: "FOOD", ArticleDetailID: 1, DefaultMapping: true},
			{WarehouseCode: "WH1", BinLocationCode: "B-01", ArticleDetailNumber: "TOOL", ArticleDetailID: 2, Stock: 3},
		} {
			if err := each(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "warehouseCode,binLocationCode,articleDetailNumber,articleDetailId,stock,reservedStock,defaultMapping,lastStockTake,lotNumber,bestBefore\n" +
		"WH1,A-01,FOOD,1,4,1,false,,L-1,2027-03-31\n" +
		"WH1,A-01,FOOD,1,2,0,false,,'-L2,\n" +
		"WH1,B-01,FOOD,1,0,0,true,,,\n" +
		"WH1,B-01,TOOL,2,3,0,false,,,\n"
	if string(body) != want {
		t.Fatalf("export\n%s\nwant\n%s", body, want)
	}
	lines, err := ReadImport(body, application.ImportSet)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		lot      string
		quantity int
	}{{"L-1 2027-03-31", 4}, {"-L2", 2}, {"-", 0}, {"-", 3}} {
		if l := lines[i]; lotOf(l) != want.lot || l.Quantity != want.quantity || l.Problem != "" || !l.Exported {
			t.Errorf("line %d: %+v, lot %s; want lot %s, quantity %d, exported", l.Line, l, lotOf(l), want.lot, want.quantity)
		}
	}
}
