package application

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/idempotency"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ImportMode says what the quantity of an import line means.
type ImportMode string

const (
	// ImportSet is a stocktake: the quantity is the new stock (stock.Set).
	ImportSet ImportMode = "set"
	// ImportChange adds the quantity, or takes it away when negative
	// (stock.Change).
	ImportChange ImportMode = "change"
)

// ImportLine is one line of a stock import as an adapter read it. Line is
// its number in the file (the header is line 1). An empty BinLocationCode
// means the warehouse, by the default strategy. Problem, when set, is why
// the adapter could not read the line: it then fails with that message.
type ImportLine struct {
	Line                int
	WarehouseCode       string
	BinLocationCode     string
	ArticleDetailNumber string
	Quantity            int
	// Lot is the lot the line names, nil for none: the operation's lot.
	Lot *stock.LotSpec
	// Exported: the line comes from a file the export wrote, whose lines
	// of lot-tracked products without a lot and with stock 0 (a default
	// mapping that holds nothing) are skipped.
	Exported bool
	Problem  string
}

// ImportResult is the outcome of an applied import.
type ImportResult struct {
	Lines int
}

// RenderImport turns an import's result into the bytes stored for replay
// and sent.
type RenderImport func(ImportResult) ([]byte, error)

// ImportStock applies every line of a stock import in one transaction, or
// none: when any line fails (it cannot be read, names nothing, or breaks a
// stock rule at the point of the file where it comes), the import is an
// Invalid error listing up to limit.MaxImportErrors failing lines, and nothing is
// kept, not even the claim of the idempotency key. Lines apply in order
// through the batch loop, so a line sees the effects of the lines before it;
// ledger entries carry the key, the API user and the line number as the
// operationId.
func (a *App) ImportStock(ctx context.Context, meta BatchMeta, mode ImportMode, lines []ImportLine, render RenderImport) (BatchOutcome, error) {
	if err := permit(ctx, access.WriteStock); err != nil {
		return BatchOutcome{}, err
	}
	if _, err := idempotency.ParseKey(meta.Key); err != nil {
		return BatchOutcome{}, err
	}
	if err := checkImport(mode, lines); err != nil {
		return BatchOutcome{}, err
	}
	return a.idempotent(ctx, meta, func(ctx context.Context, s ports.Store, now time.Time) ([]byte, func() error, error) {
		ops, err := importOperations(ctx, s, mode, lines)
		if err != nil {
			return nil, nil, err
		}
		ws, results, err := runOperations(ctx, s, now, meta, ops, skipping(lines, ops, nil))
		if err != nil {
			return nil, nil, err
		}
		if err := rejection(lines, results); err != nil {
			return nil, nil, err
		}
		body, err := render(ImportResult{Lines: len(lines)})
		return body, func() error { return s.Stock().Save(ctx, ws) }, err
	})
}

func checkImport(mode ImportMode, lines []ImportLine) error {
	if mode != ImportSet && mode != ImportChange {
		return errs.Invalidf("import mode %q is unknown: use %q or %q", mode, ImportSet, ImportChange)
	}
	return limit.CheckImportLines(len(lines))
}

// importOperations turns lines into the operations of the batch loop, with
// the article details' numbers resolved in one query. The operationId of
// each is its line number.
func importOperations(ctx context.Context, s ports.Store, mode ImportMode, lines []ImportLine) ([]BatchOperation, error) {
	numbers := make([]string, 0, len(lines))
	for _, l := range lines {
		if l.Problem == "" {
			numbers = append(numbers, l.ArticleDetailNumber)
		}
	}
	ids, err := s.ArticleDetails().IDsByNumber(ctx, numbers)
	if err != nil {
		return nil, err
	}
	ops := make([]BatchOperation, len(lines))
	for i, l := range lines {
		ops[i].OperationID = []byte(strconv.Itoa(l.Line))
		if l.Problem != "" {
			ops[i].Problem = l.Problem
			continue
		}
		article, ok := ids[l.ArticleDetailNumber]
		if !ok {
			ops[i].Problem = fmt.Sprintf("article detail with number %q does not exist", l.ArticleDetailNumber)
			continue
		}
		at := stock.LocationSpec{Warehouse: &stock.WarehouseSpec{Code: l.WarehouseCode}}
		if l.BinLocationCode != "" {
			at = stock.LocationSpec{BinLocation: &stock.BinLocationSpec{Code: l.BinLocationCode, WarehouseCode: l.WarehouseCode}}
		}
		if mode == ImportSet {
			// A file the export wrote holds what was read, not counted.
			ops[i].Op = stock.Set{ArticleDetailID: article, At: at, Quantity: l.Quantity, Lot: l.Lot, Restore: l.Exported}
		} else {
			ops[i].Op = stock.Change{ArticleDetailID: article, At: at, Quantity: l.Quantity, Lot: l.Lot}
		}
	}
	return ops, nil
}

// skipped tells whether an import passes over line l, whose operation is
// op, leaving it out of the ledger: a line of an exported file that names
// no lot and sets 0 pieces of a lot-tracked product is the export's line of
// a default mapping that holds nothing, which has no lot to set. The
// working set knows which products are lot-tracked.
func skipped(l ImportLine, op stock.Operation, ws *stock.WorkingSet) bool {
	set, ok := op.(stock.Set)
	return ok && l.Exported && set.Lot == nil && set.Quantity == 0 && ws.LotTracked(set.ArticleDetailID)
}

// skipping is the watch of an import: it applies every line but the
// skipped ones, and then watch (nil: none) around the rest.
func skipping(lines []ImportLine, ops []BatchOperation, watch watchOperation) watchOperation {
	return func(i int, ws *stock.WorkingSet, apply func() error) error {
		if skipped(lines[i], ops[i].Op, ws) {
			return nil
		}
		if watch != nil {
			return watch(i, ws, apply)
		}
		return apply()
	}
}

// rejection is the error of an import with failing lines, nil when every
// line succeeded.
func rejection(lines []ImportLine, results []OperationResult) error {
	var failures []errs.LineError
	count := 0
	for i, r := range results {
		if r.Success {
			continue
		}
		count++
		if len(failures) < limit.MaxImportErrors {
			failures = append(failures, errs.LineError{Line: lines[i].Line, Message: r.Message})
		}
	}
	if count == 0 {
		return nil
	}
	msg := fmt.Sprintf("the import was rejected and changed nothing: %d of %d lines failed", count, len(lines))
	if count > limit.MaxImportErrors {
		msg += fmt.Sprintf("; the first %d are listed", limit.MaxImportErrors)
	}
	return errs.InvalidLines(msg, failures...)
}
