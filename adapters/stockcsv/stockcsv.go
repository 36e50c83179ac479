// Package stockcsv is the CSV form of stock, shared by every adapter that
// offers it (the JSON API and the console): the export's columns and the
// import's, read and written with encoding/csv (RFC 4180 quoting; an import
// may end its lines in CRLF or LF, the export ends them in LF). A cell a
// spreadsheet would run as a formula is written with a ' in front, and an
// import takes that ' away again (Escape, Unescape).
//
// Lots are the last two columns of both: lotNumber and bestBefore, empty for
// products that are not lot-tracked.
package stockcsv

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ExportHeader is the first line of an export.
var ExportHeader = []string{"warehouseCode", "binLocationCode", "articleDetailNumber", "articleDetailId",
	"stock", "reservedStock", "defaultMapping", "lastStockTake", "lotNumber", "bestBefore"}

// ImportHeader is the first line of an import without lots.
var ImportHeader = []string{"warehouseCode", "binLocationCode", "articleDetailNumber", "quantity"}

// LotImportHeader is the first line of an import that names lots: stock
// of lot-tracked products needs it.
var LotImportHeader = append(slices.Clip(ImportHeader), "lotNumber", "bestBefore")

// lotColumns are the export's columns that an import of its file reads
// when they are there: a file the export wrote before lots existed has
// none, and imports as a file without lots.
var lotColumns = []string{"lotNumber", "bestBefore"}

// timeLayout is the API's timestamp, always written in UTC.
const timeLayout = "2006-01-02T15:04:05-0700"

// formulaStarts are the first characters that make a spreadsheet read a cell
// as a formula (or, tab and carriage return, hide one behind white space).
// Codes and numbers may begin with any of them.
const formulaStarts = "=+-@\t\r"

// Escape puts a ' in front of a cell that begins with one of =, +, -, @, a
// tab or a carriage return, so that no spreadsheet runs it as a formula: a
// spreadsheet takes a leading ' as "this is text" and shows the rest.
func Escape(cell string) string {
	if cell != "" && strings.IndexByte(formulaStarts, cell[0]) >= 0 {
		return "'" + cell
	}
	return cell
}

// Unescape takes away the ' that Escape put in front: one ' at the start of
// a cell, when one of the characters Escape guards follows it. Any other '
// is part of the text.
func Unescape(cell string) string {
	if len(cell) > 1 && cell[0] == '\'' && strings.IndexByte(formulaStarts, cell[1]) >= 0 {
		return cell[1:]
	}
	return cell
}

// Writer writes an export, one mapping a line, after the header.
type Writer struct {
	csv    *csv.Writer
	record []string
}

// NewWriter writes the header to w and returns a writer for the rows. The
// writer buffers; Flush sends what is left.
func NewWriter(w io.Writer) (*Writer, error) {
	x := &Writer{csv: csv.NewWriter(w), record: make([]string, len(ExportHeader))}
	return x, x.csv.Write(ExportHeader)
}

// Write adds one mapping.
func (x *Writer) Write(r ports.StockExportRow) error {
	last := ""
	if r.LastStockTake != nil {
		last = r.LastStockTake.UTC().Format(timeLayout)
	}
	x.record[0], x.record[1], x.record[2] = r.WarehouseCode, r.BinLocationCode, r.ArticleDetailNumber
	x.record[3] = strconv.FormatInt(r.ArticleDetailID, 10)
	x.record[4], x.record[5] = strconv.Itoa(r.Stock), strconv.Itoa(r.ReservedStock)
	x.record[6], x.record[7] = strconv.FormatBool(r.DefaultMapping), last
	x.record[8], x.record[9] = r.LotNumber, ""
	if r.BestBefore != nil {
		x.record[9] = r.BestBefore.UTC().Format(stock.DateLayout)
	}
	for i, cell := range x.record {
		x.record[i] = Escape(cell) // every cell, so that no reader has to know which columns can begin so
	}
	return x.csv.Write(x.record)
}

// Flush writes what is buffered and reports any error of the writes.
func (x *Writer) Flush() error {
	x.csv.Flush()
	return x.csv.Error()
}

// Render runs export, which hands each mapping to its argument, and
// returns the whole CSV. The rows are all read before a byte goes to the
// client: a client that reads slowly, or not at all, then holds no database
// connection, only the text (60 to 75 bytes a mapping: 8 MiB for 100 000).
func Render(export func(each func(ports.StockExportRow) error) error) ([]byte, error) {
	var buf bytes.Buffer
	x, err := NewWriter(&buf)
	if err != nil {
		return nil, err
	}
	if err := export(x.Write); err != nil {
		return nil, err
	}
	if err := x.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// sendChunk is the size of each write of Send.
const sendChunk = 32 << 10

// Send writes a rendered export to w in pieces, so that the server's
// deadline on each write measures whether the client still reads, not how
// long the whole file takes.
func Send(w io.Writer, csv []byte) error {
	for len(csv) > 0 {
		n := min(len(csv), sendChunk)
		if _, err := w.Write(csv[:n]); err != nil {
			return err
		}
		csv = csv[n:]
	}
	return nil
}

// ReadImport reads an import file for mode: the header, then up to
// limit.MaxImportLines lines. The header is the import's, exactly (with or
// without the lot columns), or the export's: a file the export wrote
// imports as it is, its stock read as the quantity of a set (a change by
// what a bin holds is a mistake, and refused), its lot columns read as the
// import's, and its other columns ignored. What makes the file unreadable
// as a whole (no header, another one, no lines, too many) is an Invalid
// error; a line that cannot be read comes back with
// its Problem set, so that the report names every failing line. Line
// numbers are the file's, the header being line 1; a line whose quoted
// field spans several lines of the file has the number of the first.
func ReadImport(body []byte, mode application.ImportMode) ([]application.ImportLine, error) {
	body = bytes.TrimPrefix(body, []byte("\ufeff")) // spreadsheets mark UTF-8 so
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1 // checked per line, so that a short line fails alone
	r.ReuseRecord = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, errs.Invalidf("the import is empty: the first line must be the header %s", headerChoice)
	}
	var cols columns
	if err == nil {
		cols, err = columnsOf(header, mode)
	}
	if err != nil {
		msg := fmt.Sprintf("the first line must be the header %s (or the export's)", headerChoice)
		if e, ok := errs.As(err); ok {
			msg = e.Message
		}
		return nil, errs.InvalidLines(msg, errs.LineError{Line: 1, Message: msg})
	}
	var lines []application.ImportLine
	for {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if len(lines) == limit.MaxImportLines {
			return nil, limit.TooManyImportLines(0)
		}
		var parseErr *csv.ParseError
		switch {
		case errors.As(err, &parseErr):
			lines = append(lines, application.ImportLine{Line: parseErr.StartLine,
				Problem: fmt.Sprintf("not valid CSV: %v (line %d, column %d)", parseErr.Err, parseErr.Line, parseErr.Column)})
			continue
		case err != nil:
			return nil, errs.Invalidf("cannot read the import: %v", err)
		}
		number, _ := r.FieldPos(0)
		lines = append(lines, readLine(number, record, cols))
	}
	if err := limit.CheckImportLines(len(lines)); err != nil {
		return nil, err
	}
	return lines, nil
}

// headerChoice names the headers an import may begin with.
var headerChoice = strings.Join(ImportHeader, ",") + " or " + strings.Join(LotImportHeader, ",")

// columns are where a file's header puts the cells an import reads.
type columns struct {
	warehouse, bin, number, quantity int
	// lot and bestBefore are the lot columns, -1 when the file has none.
	lot, bestBefore int
	// exported: the file is one the export wrote.
	exported bool
	// quantityName is the quantity's column as the header names it.
	quantityName string
	width        int
	header       string
}

// columnsOf finds the import's columns in a header: the import's own, or
// one that holds every column of the export's (in any order, with any
// more, which are ignored), whose stock is the quantity of a set.
func columnsOf(header []string, mode application.ImportMode) (columns, error) {
	c := columns{width: len(header), quantityName: "quantity", header: strings.Join(header, ","), lot: -1, bestBefore: -1}
	switch {
	case slices.Equal(header, ImportHeader):
		c.warehouse, c.bin, c.number, c.quantity = 0, 1, 2, 3
		return c, nil
	case slices.Equal(header, LotImportHeader):
		c.warehouse, c.bin, c.number, c.quantity, c.lot, c.bestBefore = 0, 1, 2, 3, 4, 5
		return c, nil
	}
	at := map[string]int{}
	for i, name := range header {
		if _, seen := at[name]; !seen {
			at[name] = i
		}
	}
	for _, name := range ExportHeader {
		if _, ok := at[name]; !ok && !slices.Contains(lotColumns, name) {
			return c, errs.Invalidf("the first line must be the header %s (or the export's), not %s",
				headerChoice, strings.Join(header, ","))
		}
	}
	lot, hasLot := at["lotNumber"]
	bestBefore, hasBestBefore := at["bestBefore"]
	if hasLot != hasBestBefore {
		return c, errs.Invalidf("a file with the export's header has both lot columns, lotNumber and bestBefore, or neither")
	}
	if mode == application.ImportChange {
		return c, errs.Invalidf("this file has the export's header, whose stock is what a bin holds: import it to set stock, not to change it")
	}
	c.warehouse, c.bin, c.number = at["warehouseCode"], at["binLocationCode"], at["articleDetailNumber"]
	c.quantity, c.quantityName = at["stock"], "stock"
	if hasLot {
		c.lot, c.bestBefore = lot, bestBefore
	}
	c.exported = true
	return c, nil
}

// Template is an empty import file: the header that names lots, alone
// (its lot columns stay empty on lines of products that are not
// lot-tracked).
func Template() []byte { return []byte(strings.Join(LotImportHeader, ",") + "\n") }

func readLine(number int, record []string, cols columns) application.ImportLine {
	l := application.ImportLine{Line: number, Exported: cols.exported}
	if len(record) != cols.width {
		l.Problem = fmt.Sprintf("a line must have %d fields (%s), not %d", cols.width, cols.header, len(record))
		return l
	}
	for i, cell := range record {
		record[i] = Unescape(cell)
	}
	var problems []string
	parse := func(property, raw string) string {
		c, err := code.Parse(raw)
		if err != nil {
			problems = append(problems, property+" "+err.Error())
		}
		return c
	}
	l.WarehouseCode = parse("warehouseCode", record[cols.warehouse])
	if strings.TrimSpace(record[cols.bin]) != "" {
		l.BinLocationCode = parse("binLocationCode", record[cols.bin])
	}
	l.ArticleDetailNumber = parse("articleDetailNumber", record[cols.number])
	cell := record[cols.quantity]
	raw := strings.TrimSpace(cell)
	if n, err := strconv.ParseInt(raw, 10, 64); err != nil {
		problems = append(problems, fmt.Sprintf("%s must be an integer, not %q", cols.quantityName, cell))
	} else if q, err := stock.ParseQuantity(cols.quantityName, n); err != nil {
		problems = append(problems, messageOf(err))
	} else {
		l.Quantity = q
	}
	if cols.lot >= 0 {
		lot, problem := readLot(record[cols.lot], record[cols.bestBefore])
		if problem != "" {
			problems = append(problems, problem)
		}
		l.Lot = lot
	}
	l.Problem = strings.Join(problems, "; ")
	return l
}

// readLot reads a line's lot columns: an empty lotNumber names no lot (and
// then bestBefore must be empty too); an empty bestBefore leaves the date
// out, which names an existing lot or makes a new one without a date. The
// number's own rules are the domain's (stock.LotSpec), told when the line
// runs.
func readLot(number, bestBefore string) (*stock.LotSpec, string) {
	number, bestBefore = strings.TrimSpace(number), strings.TrimSpace(bestBefore)
	if number == "" {
		if bestBefore != "" {
			return nil, fmt.Sprintf("bestBefore %q needs a lotNumber", bestBefore)
		}
		return nil, ""
	}
	lot := &stock.LotSpec{Number: number}
	if bestBefore == "" {
		return lot, ""
	}
	date, err := stock.ParseDate(bestBefore)
	if err != nil {
		return lot, "bestBefore " + err.Error()
	}
	lot.BestBefore, lot.BestBeforeGiven = &date, true
	return lot, ""
}

func messageOf(err error) string {
	if e, ok := errs.As(err); ok {
		return e.Message
	}
	return err.Error()
}
