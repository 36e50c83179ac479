package application

import (
	"context"
	"errors"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ImportLinePreview is what one line of an import would do.
type ImportLinePreview struct {
	Line    int
	Success bool
	// Message says why the line would fail; Code, Property and Subject
	// say which rule it breaks and what it concerns, for an interface
	// that tells it in its own words.
	Message  string
	Code     errs.Code
	Property string
	Subject  errs.Subject
	// Before and After are the article detail's stock at the line's location
	// (the bin location, or the whole warehouse when the line names none)
	// just before and just after the line; Located tells whether they are
	// known, which they are not when the line names nothing that exists.
	Before, After int
	Located       bool
	// Skipped: the line is one of an exported file that the import passes
	// over (a lot-tracked product's default mapping that holds nothing).
	Skipped bool
}

// ImportPreview is what an import would do, line by line.
type ImportPreview struct {
	Lines []ImportLinePreview
	// Failed counts the failing lines: the import applies only when it is 0.
	Failed int
}

// errPreviewDone rolls back the transaction of a preview.
var errPreviewDone = errors.New("preview done")

// PreviewStockImport runs an import as ImportStock would, in a transaction
// that is always rolled back, and tells for each line what it would do:
// the stock before and after it, or why it would fail. It claims no
// idempotency key and writes nothing.
func (a *App) PreviewStockImport(ctx context.Context, user string, mode ImportMode, lines []ImportLine) (ImportPreview, error) {
	if err := permit(ctx, access.WriteStock); err != nil {
		return ImportPreview{}, err
	}
	if err := checkImport(mode, lines); err != nil {
		return ImportPreview{}, err
	}
	var preview ImportPreview
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		ops, err := importOperations(ctx, s, mode, lines)
		if err != nil {
			return err
		}
		preview = ImportPreview{Lines: make([]ImportLinePreview, len(lines))}
		watch := func(i int, ws *stock.WorkingSet, apply func() error) error {
			if skipped(lines[i], ops[i].Op, ws) {
				preview.Lines[i].Skipped = true
				return nil
			}
			p := &preview.Lines[i]
			article, at := operationTarget(ops[i].Op)
			before, located := ws.StockAt(article, at)
			err := apply()
			if located == nil {
				after, _ := ws.StockAt(article, at)
				p.Before, p.After, p.Located = before, after, true
			}
			return err
		}
		_, results, err := runOperations(ctx, s, a.clock.Now(), BatchMeta{User: user}, ops, watch)
		if err != nil {
			return err
		}
		for i, r := range results {
			p := &preview.Lines[i]
			p.Line, p.Success, p.Message = lines[i].Line, r.Success, r.Message
			p.Code, p.Property, p.Subject = r.Code, r.Property, r.Subject
			if !r.Success {
				preview.Failed++
			}
		}
		return errPreviewDone
	})
	if errors.Is(err, errPreviewDone) {
		err = nil
	}
	return preview, err
}

// operationTarget is the article detail and location of an import line's
// operation.
func operationTarget(op stock.Operation) (int64, stock.LocationSpec) {
	switch o := op.(type) {
	case stock.Set:
		return o.ArticleDetailID, o.At
	case stock.Change:
		return o.ArticleDetailID, o.At
	}
	return 0, stock.LocationSpec{}
}
