package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// StockOperation is one operation of a stock batch. Problem is set when
// the adapter could not read the operation: it then fails with that message.
type StockOperation struct {
	OperationID     []byte
	Problem         string
	ArticleDetailID int64
	Quantity        int
	All             bool               // relocate: move everything unreserved
	At              stock.LocationSpec // set, change
	From, To        stock.LocationSpec // relocate
}

type stockAction func(ss *stockSession, op StockOperation, ref stock.Reference) error

// SetStock sets absolute quantities: a stocktake per operation.
func (a *App) SetStock(ctx context.Context, meta BatchMeta, ops []StockOperation, render RenderBatch) (BatchOutcome, error) {
	return a.stockBatch(ctx, meta, ops, render, atLocation((*stock.Inventory).Set))
}

// ChangeStock adds or removes stock.
func (a *App) ChangeStock(ctx context.Context, meta BatchMeta, ops []StockOperation, render RenderBatch) (BatchOutcome, error) {
	return a.stockBatch(ctx, meta, ops, render, atLocation((*stock.Inventory).Change))
}

// atLocation runs an inventory method on the one location an operation names.
func atLocation(apply func(inv *stock.Inventory, article int64, at stock.Location, quantity int, ref stock.Reference) error) stockAction {
	return func(ss *stockSession, op StockOperation, ref stock.Reference) error {
		at, err := ss.locate(op.ArticleDetailID, op.At, "")
		if err != nil {
			return err
		}
		return apply(ss.inv, op.ArticleDetailID, at, op.Quantity, ref)
	}
}

// RelocateStock moves stock from one location to another.
func (a *App) RelocateStock(ctx context.Context, meta BatchMeta, ops []StockOperation, render RenderBatch) (BatchOutcome, error) {
	return a.stockBatch(ctx, meta, ops, render, func(ss *stockSession, op StockOperation, ref stock.Reference) error {
		from, err := ss.locate(op.ArticleDetailID, op.From, "source")
		if err != nil {
			return err
		}
		to, err := ss.locate(op.ArticleDetailID, op.To, "destination")
		if err != nil {
			return err
		}
		_, err = ss.inv.Relocate(op.ArticleDetailID, from, to, op.Quantity, op.All, ref)
		return err
	})
}

func (a *App) stockBatch(ctx context.Context, meta BatchMeta, ops []StockOperation, render RenderBatch, act stockAction) (BatchOutcome, error) {
	return a.runBatch(ctx, meta, len(ops), render, func(ctx context.Context, s ports.Store, now time.Time) ([]OperationResult, error) {
		needs := make([]locationNeed, 0, len(ops)*2)
		for _, op := range ops {
			if op.Problem != "" {
				continue
			}
			for _, spec := range []stock.LocationSpec{op.At, op.From, op.To} {
				if spec.Warehouse != nil || spec.BinLocation != nil {
					needs = append(needs, locationNeed{article: op.ArticleDetailID, spec: spec})
				}
			}
		}
		ss, err := openStock(ctx, s, now, needs)
		if err != nil {
			return nil, err
		}
		results := make([]OperationResult, len(ops))
		for i, op := range ops {
			if op.Problem != "" {
				results[i] = failed(op.OperationID, errs.Invalidf("%s", op.Problem))
				continue
			}
			ref := stock.Reference{IdempotencyKey: meta.Key, OperationID: string(op.OperationID), User: meta.User}
			if err := act(ss, op, ref); err != nil {
				if errs.KindOf(err) != errs.Invalid {
					return nil, err
				}
				results[i] = failed(op.OperationID, err)
				continue
			}
			results[i] = succeeded(op.OperationID)
		}
		return results, ss.save(ctx, s)
	})
}
