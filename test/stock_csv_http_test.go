package test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// The stock CSV over HTTP: the export, and the all-or-nothing import under an
// idempotency key.

const stockImportHeader = "warehouseCode,binLocationCode,articleDetailNumber,quantity"

// stockCSVEnv is a warehouse WH1 with bins whose codes need quoting, and two
// article details, one of whose numbers needs quoting too.
type stockCSVEnv struct {
	*stockEnv
	wh1, null1       int64
	binA, binB, binC int64
	a1, a2           int64
}

const (
	csvBinB    = "B,02"        // a comma
	csvBinC    = `C"03`        // a quote
	csvNumber2 = `SKU,"2"`     // both
	csvQuoted2 = `"SKU,""2"""` // csvNumber2 as RFC 4180 writes it
)

func newStockCSVEnv(t *testing.T, databaseURL string) *stockCSVEnv {
	e := &stockCSVEnv{stockEnv: newStockEnv(t, databaseURL)}
	e.wh1, e.null1 = e.newWarehouse("WH1", true)
	e.binA = e.newBin(e.wh1, "A-01")
	e.binB = e.newBin(e.wh1, csvBinB)
	e.binC = e.newBin(e.wh1, csvBinC)
	e.a1 = e.newArticle(1) // SKU-1
	var err error
	if e.a2, err = e.App.CreateArticleDetail(e.ctx, 2, csvNumber2, "", 0); err != nil {
		t.Fatal(err)
	}
	return e
}

// putCSV sends body to the import endpoint as text/csv.
func (e *stockEnv) putCSV(path, contentType, body string) *apitest.Response {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodPut, path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.SetBasicAuth(apitest.User, apitest.Key)
	return e.DoRaw(e.t, req)
}

func (e *stockEnv) importCSV(mode, key, body string) *apitest.Response {
	e.t.Helper()
	return e.putCSV("/api/stock/import/"+mode+"/"+key, "text/csv", body)
}

// importOK requires a 200 that reports lines applied.
func (e *stockEnv) importOK(mode, key, body string, lines int) *apitest.Response {
	e.t.Helper()
	res := e.importCSV(mode, key, body)
	if res.Status != http.StatusOK {
		e.t.Fatalf("import %s %s: %s", mode, key, res)
	}
	if want := fmt.Sprintf(`{"success":true,"data":{"lines":%d}}`, lines); string(res.Body) != want {
		e.t.Errorf("import %s %s: body %s, want %s", mode, key, res.Body, want)
	}
	return res
}

type importRejection struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Errors  []struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"errors"`
}

// importRejected requires a 400 and returns its report.
func (e *stockEnv) importRejected(mode, key, body string) importRejection {
	e.t.Helper()
	res := e.importCSV(mode, key, body)
	if res.Status != http.StatusBadRequest {
		e.t.Fatalf("import %s %s: %s, want 400", mode, key, res)
	}
	var r importRejection
	res.Decode(e.t, &r)
	if r.Success || r.Message == "" {
		e.t.Errorf("rejection %s", res.Body)
	}
	return r
}

// exportCSV reads the export and parses it, checking the header line.
func (e *stockEnv) exportCSV(query string) (raw string, rows [][]string) {
	e.t.Helper()
	res := e.Do(e.t, http.MethodGet, "/api/stock.csv"+query, nil)
	if res.Status != http.StatusOK {
		e.t.Fatalf("GET /api/stock.csv%s: %s", query, res)
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/csv" {
		e.t.Errorf("Content-Type %q, want text/csv", ct)
	}
	header := "warehouseCode,binLocationCode,articleDetailNumber,articleDetailId,stock,reservedStock,defaultMapping,lastStockTake,lotNumber,bestBefore\n"
	if !strings.HasPrefix(string(res.Body), header) {
		e.t.Fatalf("export does not begin with the header line: %q", res.Body)
	}
	records, err := csv.NewReader(bytes.NewReader(res.Body)).ReadAll()
	if err != nil {
		e.t.Fatalf("export is not valid CSV: %v\n%s", err, res.Body)
	}
	return string(res.Body), records[1:]
}

func TestStockCSVExport(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockCSVEnv(t, databaseURL)
		if _, rows := e.exportCSV(""); len(rows) != 0 {
			t.Errorf("no stock yet, yet the export has rows: %v", rows)
		}
		// A second warehouse whose code sorts first in byte order, and a
		// lower-case bin that sorts after the upper-case ones only so.
		wh2, _ := e.newWarehouse(`W,"2`, true)
		lower := e.newBin(wh2, "a-01")
		upper := e.newBin(wh2, "Z-01")
		e.mustSucceed("set", stockSetOp(e.a1, 5, stockBin(e.binA)), stockSetOp(e.a2, 7, stockBin(e.binB)))
		e.mustSucceed("change", stockChangeOp(e.a1, 3, stockWarehouse(e.wh1)), // no default: the unknown bin
			stockChangeOp(e.a2, 2, stockBin(lower)), stockChangeOp(e.a1, 4, stockBin(upper)))
		if err := e.App.SetDefaultBinLocation(e.ctx, e.binC, e.a1, true); err != nil {
			t.Fatal(err)
		}

		raw, rows := e.exportCSV("")
		stamp := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$`)
		for _, r := range rows {
			if r[7] != "" {
				if !stamp.MatchString(r[7]) {
					t.Errorf("lastStockTake %q is not in the API's format", r[7])
				}
				r[7] = "stamped"
			}
		}
		want := [][]string{
			{`W,"2`, "Z-01", "SKU-1", "1", "4", "0", "false", "", "", ""},
			{`W,"2`, "a-01", csvNumber2, "2", "2", "0", "false", "", "", ""},
			{"WH1", "A-01", "SKU-1", "1", "5", "0", "false", "stamped", "", ""},
			{"WH1", csvBinB, csvNumber2, "2", "7", "0", "false", "stamped", "", ""},
			{"WH1", csvBinC, "SKU-1", "1", "0", "0", "true", "", "", ""},
			{"WH1", "erp_null_bin_location", "SKU-1", "1", "3", "0", "false", "", "", ""},
		}
		if !slices.EqualFunc(rows, want, slices.Equal) {
			t.Errorf("export rows\n got %q\nwant %q", rows, want)
		}
		for _, quoted := range []string{`"W,""2"`, `"B,02"`, `"C""03"`, csvQuoted2} {
			if !strings.Contains(raw, quoted) {
				t.Errorf("export lacks the RFC 4180 quoting %s:\n%s", quoted, raw)
			}
		}

		if _, rows := e.exportCSV("?warehouse=WH1"); len(rows) != 4 || rows[0][0] != "WH1" || rows[3][0] != "WH1" {
			t.Errorf("export of WH1: %q", rows)
		}
		for _, query := range []string{"?warehouse=NOPE", "?warehouse=", "?warehouse=WH1&warehouse=WH1", "?limit=5"} {
			if res := e.Do(t, http.MethodGet, "/api/stock.csv"+query, nil); res.Status != http.StatusBadRequest {
				t.Errorf("GET /api/stock.csv%s: %s, want 400", query, res)
			}
		}
		req, _ := http.NewRequest(http.MethodGet, "/api/stock.csv", nil)
		if res := e.DoRaw(t, req); res.Status != http.StatusUnauthorized {
			t.Errorf("export without credentials: %s", res)
		}
	})
}

func TestStockCSVImportQuotingAndModes(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockCSVEnv(t, databaseURL)
		// CRLF line ends, quoted fields with commas and quotes, a byte order
		// mark and blank space around values.
		body := "\ufeff" + stockImportHeader + "\r\n" +
			"WH1,A-01,SKU-1,5\r\n" +
			`WH1,"B,02",` + csvQuoted2 + ",7\r\n" +
			`"WH1","C""03", SKU-1 , 3` + "\r\n"
		e.importOK("set", "set-1", body, 3)
		e.expectStock("set", e.a1, map[int64]int{e.binA: 5, e.binC: 3})
		e.expectStock("set", e.a2, map[int64]int{e.binB: 7})
		for _, bin := range []int64{e.binA, e.binC} {
			if m := e.mapping(e.a1, bin); m == nil || m.LastStockTake == nil {
				t.Errorf("a set import is a stocktake: bin %d has no lastStockTake", bin)
			}
		}
		entries := e.ledger(stockFilter("idempotencyKey", "set-1"))
		var ops []string
		for _, l := range entries {
			ops = append(ops, l.Ref.OperationID)
			if l.Ref.User != apitest.User || l.Type != "stocktake" {
				t.Errorf("ledger entry %+v: want user %s, type stocktake", l, apitest.User)
			}
		}
		if !slices.Equal(ops, []string{"2", "3", "4"}) {
			t.Errorf("operationIds %q, want the line numbers 2, 3, 4", ops)
		}

		// change: LF line ends, a line on the warehouse goes by the default
		// strategy (no default bin: the unknown bin location), later lines
		// see earlier ones.
		e.importOK("change", "change-1", stockImportHeader+"\n"+
			"WH1,,SKU-1,4\n"+
			"WH1,A-01,SKU-1,-5\n"+
			"WH1,A-01,SKU-1,2\n", 3)
		e.expectStock("change", e.a1, map[int64]int{e.null1: 4, e.binA: 2, e.binC: 3})
		if n := len(e.ledger(stockFilter("idempotencyKey", "change-1"), stockFilter("type", "incoming"))); n != 2 {
			t.Errorf("%d incoming entries, want 2", n)
		}

		// set on the warehouse: its total, taken by the default strategy
		// (the unknown bin location last).
		e.importOK("set", "set-2", stockImportHeader+"\nWH1,,SKU-1,4\n", 1)
		e.expectStock("set on the warehouse", e.a1, map[int64]int{e.null1: 4, e.binA: 0, e.binC: 0})
		// The unknown bin location by the code the export gives it.
		e.importOK("set", "set-3", stockImportHeader+"\nWH1,erp_null_bin_location,SKU-1,6\n", 1)
		e.expectStock("set on the unknown bin location", e.a1, map[int64]int{e.null1: 6})
		e.checkLedger()

		// A trailing line without a line end, and text/csv with a charset.
		if res := e.putCSV("/api/stock/import/change/change-2", "text/csv; charset=utf-8", stockImportHeader+"\nWH1,A-01,SKU-1,1"); res.Status != http.StatusOK {
			t.Errorf("charset=utf-8: %s", res)
		}
		e.expectStock("change-2", e.a1, map[int64]int{e.binA: 1})
	})
}

func TestStockCSVImportAllOrNothing(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockCSVEnv(t, databaseURL)
		e.mustSucceed("set", stockSetOp(e.a1, 3, stockBin(e.binA)))
		before, ledger := e.stockState(), e.ledgerCount()
		body := stockImportHeader + "\n" +
			"WH1,A-01,SKU-1,2\n" + // 2: fine
			"WH1,A-01,SKU-404,1\n" + // 3: unknown article
			"NOPE,,SKU-1,1\n" + // 4: unknown warehouse
			"WH1,Z-99,SKU-1,1\n" + // 5: unknown bin
			"WH1,A-01,SKU-1,many\n" + // 6: not an integer
			"WH1,A-01,SKU-1,1000000001\n" + // 7: out of bounds
			"WH1,A-01,SKU-1\n" + // 8: a field short
			"WH1,A-01,SKU-1,-6\n" + // 9: 5 there by now
			"WH1,\"A-01\nB\",SKU-1,1\n" + // 10-11: a control character in a code
			"WH1,A-01,SKU-1,0\n" + // 12: change by 0
			"WH1,A-01,SKU-1,-5\n" + // 13: fine: takes what lines 1 and 2 left
			",A-01,SKU-1,1\n" + // 14: no warehouse
			"WH1,A\"01,SKU-1,1\n" // 15: a bare quote
		r := e.importRejected("change", "all-or-nothing", body)
		want := []struct {
			line     int
			contains string
		}{
			{3, `article detail with number "SKU-404" does not exist`},
			{4, `warehouse with code "NOPE" does not exist`},
			{5, `bin location with code "Z-99" does not exist`},
			{6, `quantity must be an integer`},
			{7, `quantity: must be an integer from -1000000000 to 1000000000`},
			{8, `must have 4 fields`},
			{9, `insufficient stock`},
			{10, `binLocationCode must not contain control characters`},
			{12, `must not be 0`},
			{14, `warehouseCode must not be empty`},
			{15, `not valid CSV`},
		}
		if len(r.Errors) != len(want) {
			t.Fatalf("%d errors, want %d: %+v", len(r.Errors), len(want), r.Errors)
		}
		for i, w := range want {
			if got := r.Errors[i]; got.Line != w.line || !strings.Contains(got.Message, w.contains) {
				t.Errorf("error %d: line %d %q, want line %d containing %q", i, got.Line, got.Message, w.line, w.contains)
			}
		}
		if !strings.Contains(r.Message, "11 of 13 lines failed") {
			t.Errorf("message %q does not count the failures", r.Message)
		}
		if after := e.stockState(); after != before || e.ledgerCount() != ledger {
			t.Errorf("a rejected import changed stock or ledger:\n%s\n%s", before, after)
		}
		// The key was not used up: the corrected file goes through under it.
		e.importOK("change", "all-or-nothing", stockImportHeader+"\nWH1,A-01,SKU-1,2\nWH1,A-01,SKU-1,-5\n", 2)
		e.expectStock("corrected", e.a1, map[int64]int{e.binA: 0})

		// At most 100 failing lines are listed, counted as lines of the file.
		var b strings.Builder
		b.WriteString(stockImportHeader + "\n")
		for i := range 250 {
			if i%5 == 0 {
				b.WriteString("WH1,A-01,SKU-1,1\n")
			} else {
				fmt.Fprintf(&b, "WH1,A-01,SKU-X%d,1\n", i)
			}
		}
		r = e.importRejected("change", "capped", b.String())
		if len(r.Errors) != 100 || r.Errors[0].Line != 3 || r.Errors[99].Line != 126 {
			t.Errorf("%d errors from line %d to %d, want 100 from line 3 to 126", len(r.Errors), r.Errors[0].Line, r.Errors[len(r.Errors)-1].Line)
		}
		if !strings.Contains(r.Message, "200 of 250 lines failed") || !strings.Contains(r.Message, "first 100") {
			t.Errorf("message %q", r.Message)
		}
	})
}

func TestStockCSVImportRejectedAsAWhole(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockCSVEnv(t, databaseURL)
		good := stockImportHeader + "\nWH1,A-01,SKU-1,1\n"
		for _, c := range []struct {
			name, body string
			line1      bool // the report names line 1, the header
		}{
			{"empty", "", false},
			{"no header", "WH1,A-01,SKU-1,1\n", true},
			{"columns in another order", "binLocationCode,warehouseCode,articleDetailNumber,quantity\nA-01,WH1,SKU-1,1\n", true},
			{"an extra column", stockImportHeader + ",comment\nWH1,A-01,SKU-1,1,x\n", true},
			{"upper case", strings.ToUpper(stockImportHeader) + "\nWH1,A-01,SKU-1,1\n", true},
			{"header alone", stockImportHeader + "\n", false},
		} {
			r := e.importRejected("set", "whole", c.body)
			if c.line1 && (len(r.Errors) != 1 || r.Errors[0].Line != 1) {
				t.Errorf("%s: errors %+v, want one for line 1", c.name, r.Errors)
			}
		}
		var b strings.Builder
		b.WriteString(stockImportHeader + "\n")
		for range limit.MaxImportLines + 1 {
			b.WriteString("WH1,A-01,SKU-1,1\n")
		}
		if r := e.importRejected("change", "whole", b.String()); !strings.Contains(r.Message, "more than 100000 lines") {
			t.Errorf("100001 lines: %q", r.Message)
		}
		for _, ct := range []string{"application/json", "", "text/plain", "text/csv; charset=iso-8859-1"} {
			if res := e.putCSV("/api/stock/import/set/whole", ct, good); res.Status != http.StatusUnsupportedMediaType {
				t.Errorf("Content-Type %q: %s, want 415", ct, res)
			}
		}
		for _, mode := range []string{"relocate", "SET", "x"} {
			if res := e.importCSV(mode, "whole", good); res.Status != http.StatusNotFound {
				t.Errorf("mode %q: %s, want 404", mode, res)
			}
		}
		if res := e.Do(t, http.MethodGet, "/api/stock/import/set/whole", nil); res.Status != http.StatusMethodNotAllowed {
			t.Errorf("GET on the import: %s, want 405", res)
		}
		if res := e.importCSV("set", strings.Repeat("k", 256), good); res.Status != http.StatusBadRequest {
			t.Errorf("a 256-character key: %s, want 400", res)
		}
		req, _ := http.NewRequest(http.MethodPut, "/api/stock/import/set/whole", strings.NewReader(good))
		req.Header.Set("Content-Type", "text/csv")
		if res := e.DoRaw(t, req); res.Status != http.StatusUnauthorized {
			t.Errorf("without credentials: %s, want 401", res)
		}
		if e.ledgerCount() != 0 {
			t.Errorf("rejected imports wrote the ledger")
		}
		// None of that used up the key.
		e.importOK("set", "whole", good, 1)
	})
}

func TestStockCSVImportKey(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockCSVEnv(t, databaseURL)
		body := stockImportHeader + "\nWH1,A-01,SKU-1,2\n"
		first := e.importOK("change", "k1", body, 1)
		ledger := e.ledgerCount()
		again := e.importCSV("change", "k1", body)
		if again.Status != http.StatusOK || again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Body, first.Body) {
			t.Errorf("replay: %s, Idempotent-Replayed %q", again, again.Header.Get("Idempotent-Replayed"))
		}
		if first.Header.Get("Idempotent-Replayed") != "" {
			t.Errorf("a fresh import is marked replayed")
		}
		if e.ledgerCount() != ledger || e.stockOn(e.a1, e.binA) != 2 {
			t.Errorf("the replay ran again")
		}
		for _, c := range []struct{ name, mode, body string }{
			{"another body", "change", stockImportHeader + "\nWH1,A-01,SKU-1,3\n"},
			{"the same lines with CRLF", "change", strings.ReplaceAll(body, "\n", "\r\n")},
			{"another mode", "set", body},
		} {
			if res := e.importCSV(c.mode, "k1", c.body); res.Status != http.StatusConflict {
				t.Errorf("%s under a used key: %s, want 409", c.name, res)
			}
		}
		// Keys are shared with the batches.
		if res := e.Do(t, http.MethodPut, "/api/stock/change/k1", []map[string]any{{"articleDetailId": e.a1, "quantity": 1, "binLocation": map[string]any{"id": e.binA}}}); res.Status != http.StatusConflict {
			t.Errorf("a batch under an import's key: %s, want 409", res)
		}
		e.stockPut("change", "batch-key", []map[string]any{{"articleDetailId": e.a1, "quantity": 1, "binLocation": map[string]any{"id": e.binA}}})
		if res := e.importCSV("change", "batch-key", body); res.Status != http.StatusConflict {
			t.Errorf("an import under a batch's key: %s, want 409", res)
		}
		if e.stockOn(e.a1, e.binA) != 3 {
			t.Errorf("stock %d, want 3", e.stockOn(e.a1, e.binA))
		}
	})
}

func TestStockCSVImportPreview(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockCSVEnv(t, databaseURL)
		e.mustSucceed("set", stockSetOp(e.a1, 3, stockBin(e.binA)), stockSetOp(e.a1, 2, stockBin(e.binB)))
		before, ledger := e.stockState(), e.ledgerCount()
		lines := []application.ImportLine{
			{Line: 2, WarehouseCode: "WH1", BinLocationCode: "A-01", ArticleDetailNumber: "SKU-1", Quantity: 4},
			{Line: 3, WarehouseCode: "WH1", ArticleDetailNumber: "SKU-1", Quantity: -6},
			{Line: 4, WarehouseCode: "WH1", ArticleDetailNumber: "SKU-1", Quantity: -9},
			{Line: 5, WarehouseCode: "WH1", BinLocationCode: "A-01", ArticleDetailNumber: "SKU-404", Quantity: 1},
			{Line: 6, Problem: "quantity must be an integer"},
		}
		p, err := e.App.PreviewStockImport(e.ctx, "tester", application.ImportChange, lines)
		if err != nil {
			t.Fatal(err)
		}
		type view struct {
			Line             int
			Success, Located bool
			Before, After    int
		}
		var got []view
		for _, l := range p.Lines {
			got = append(got, view{l.Line, l.Success, l.Located, l.Before, l.After})
			if l.Success != (l.Message == "") {
				t.Errorf("line %d: success %v with message %q", l.Line, l.Success, l.Message)
			}
		}
		want := []view{
			{2, true, true, 3, 7},   // 3 + 4
			{3, true, true, 9, 3},   // the warehouse: 7 + 2 - 6
			{4, false, true, 3, 3},  // 9 more than there is: unchanged
			{5, false, false, 0, 0}, // unknown article
			{6, false, false, 0, 0},
		}
		if !slices.Equal(got, want) {
			t.Errorf("preview\n got %+v\nwant %+v", got, want)
		}
		if p.Failed != 3 || !strings.Contains(p.Lines[2].Message, "insufficient stock") {
			t.Errorf("failed %d, line 4 %q", p.Failed, p.Lines[2].Message)
		}
		if after := e.stockState(); after != before || e.ledgerCount() != ledger {
			t.Errorf("a preview changed stock or ledger:\n%s\n%s", before, after)
		}
		if _, err := e.App.PreviewStockImport(e.ctx, "tester", application.ImportMode("move"), lines); err == nil {
			t.Errorf("a preview in an unknown mode succeeded")
		}
	})
}

func TestStockCSVImportRacingDuplicates(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockCSVEnv(t, databaseURL)
		var b strings.Builder
		b.WriteString(stockImportHeader + "\n")
		for range 500 {
			b.WriteString("WH1,A-01,SKU-1,1\n")
		}
		body := b.String()
		results := make(chan *apitest.Response, 2)
		for range 2 {
			go func() {
				req, _ := http.NewRequest(http.MethodPut, "/api/stock/import/change/race", strings.NewReader(body))
				req.Header.Set("Content-Type", "text/csv")
				req.SetBasicAuth(apitest.User, apitest.Key)
				results <- e.DoRaw(t, req)
			}()
		}
		replayed := 0
		for range 2 {
			res := <-results
			if res.Status != http.StatusOK {
				t.Fatalf("racing import: %s", res)
			}
			if res.Header.Get("Idempotent-Replayed") == "true" {
				replayed++
			}
		}
		if replayed != 1 || e.stockOn(e.a1, e.binA) != 500 {
			t.Errorf("%d replays, stock %d: want one run and one replay, stock 500", replayed, e.stockOn(e.a1, e.binA))
		}
	})
}

// A code that begins as a formula does is written with a ' in front, so that
// no spreadsheet runs it, and an import of the export's cells takes the '
// away again: the round trip finds the same warehouse, bins and products.
func TestStockCSVEscapesFormulas(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newStockEnv(t, databaseURL)
		wh, _ := e.newWarehouse("=WH", true)
		bins := map[string]int64{}
		for _, c := range []string{"+B1", "-B2", "@B3", "=B4"} {
			bins[c] = e.newBin(wh, c)
		}
		numbers := []string{`=HYPERLINK("http://evil.example","x")`, "@SUM(A1:A9)", "-7", "+cmd|' /C calc'!A0"}
		var articles []int64
		for i, n := range numbers {
			id, err := e.App.CreateArticleDetail(e.ctx, int64(11+i), n, "", 0)
			if err != nil {
				t.Fatal(err)
			}
			articles = append(articles, id)
		}
		order := []string{"+B1", "-B2", "=B4", "@B3"} // the export's byte order
		e.mustSucceed("set", stockSetOp(articles[0], 1, stockBin(bins["+B1"])), stockSetOp(articles[1], 2, stockBin(bins["-B2"])),
			stockSetOp(articles[2], 3, stockBin(bins["=B4"])), stockSetOp(articles[3], 4, stockBin(bins["@B3"])))

		raw, rows := e.exportCSV("")
		if len(rows) != 4 {
			t.Fatalf("export rows %q", rows)
		}
		for i, r := range rows {
			for _, cell := range r {
				if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
					t.Errorf("export cell %q would run as a formula:\n%s", cell, raw)
				}
			}
			if want := []string{"'=WH", "'" + order[i], "'" + numbers[i]}; !slices.Equal(r[:3], want) {
				t.Errorf("export row %d: %q, want %q", i+2, r[:3], want)
			}
		}

		// The export's cells as they are, with other quantities.
		body := stockImportHeader + "\n"
		for i, r := range rows {
			body += fmt.Sprintf("%s,%s,%s,%d\n", csvCell(r[0]), csvCell(r[1]), csvCell(r[2]), 10+i)
		}
		e.importOK("set", "formulas", body, 4)
		for i, a := range articles {
			e.expectStock("after the import", a, map[int64]int{bins[order[i]]: 10 + i})
		}
		if _, again := e.exportCSV(""); !slices.EqualFunc(again, rows, func(a, b []string) bool { return slices.Equal(a[:3], b[:3]) }) {
			t.Errorf("codes after the round trip\n got %q\nwant %q", again, rows)
		}
	})
}

// csvCell quotes a cell as RFC 4180 does when it has to.
func csvCell(s string) string {
	if strings.ContainsAny(s, "\",\r\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
