package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// BatchOperation is one operation of a stock batch, as a domain value.
// Problem is set when the adapter could not read the operation: it then
// fails with that message and Op is ignored.
type BatchOperation struct {
	OperationID []byte
	Problem     string
	Op          stock.Operation
}

// StockBatch runs a batch of stock operations (stock.Set, stock.Change,
// stock.Relocate, or any other stock.Operation) under its idempotency key.
func (a *App) StockBatch(ctx context.Context, meta BatchMeta, ops []BatchOperation, render RenderBatch) (BatchOutcome, error) {
	if err := permit(ctx, access.WriteStock); err != nil {
		return BatchOutcome{}, err
	}
	return a.runBatch(ctx, meta, len(ops), render, func(ctx context.Context, s ports.Store, now time.Time) ([]OperationResult, func() error, error) {
		return applyOperations(ctx, s, now, meta, ops)
	})
}

// applyOperations is the one loop of every batch: load the working set for
// the scope the operations declare, apply them one after another (an
// operation that breaks a rule fails alone and changes nothing; later ones
// see the effects of earlier ones); it returns the results and the save of
// what changed.
func applyOperations(ctx context.Context, s ports.Store, now time.Time, meta BatchMeta, ops []BatchOperation) ([]OperationResult, func() error, error) {
	ws, results, err := runOperations(ctx, s, now, meta, ops, nil)
	if err != nil {
		return nil, nil, err
	}
	return results, func() error { return s.Stock().Save(ctx, ws) }, nil
}

// watchOperation is called instead of applying operation i directly: it
// calls apply (which applies it) and may look at the working set around it,
// as a preview does.
type watchOperation func(i int, ws *stock.WorkingSet, apply func() error) error

// runOperations is applyOperations without the save, for callers that
// decide on the results first (an import saves nothing unless every line
// succeeded). watch may be nil.
func runOperations(ctx context.Context, s ports.Store, now time.Time, meta BatchMeta, ops []BatchOperation, watch watchOperation) (*stock.WorkingSet, []OperationResult, error) {
	declared := make([]stock.Operation, 0, len(ops))
	for _, op := range ops {
		if op.Problem == "" {
			declared = append(declared, op.Op)
		}
	}
	ws, err := s.Stock().Load(ctx, stock.ScopeOf(declared...), now)
	if err != nil {
		return nil, nil, err
	}
	results := make([]OperationResult, len(ops))
	for i, op := range ops {
		if op.Problem != "" {
			results[i] = failed(op.OperationID, errs.Invalidf("%s", op.Problem))
			continue
		}
		ref := stock.Reference{IdempotencyKey: meta.Key, OperationID: string(op.OperationID), User: meta.User}
		apply := func() error { return ws.Apply(op.Op, ref) }
		var err error
		if watch != nil {
			err = watch(i, ws, apply)
		} else {
			err = apply()
		}
		switch {
		case err == nil:
			results[i] = succeeded(op.OperationID)
		case errs.KindOf(err) == errs.Invalid, errs.KindOf(err) == errs.Conflict:
			// A conflict with an open count's lock fails the operation alone.
			results[i] = failed(op.OperationID, err)
		default:
			return nil, nil, err
		}
	}
	return ws, results, nil
}

// applyOne runs a single operation that is the whole request: its error is
// the request's. The orders the operation changed are written together
// with the stock.
func applyOne(ctx context.Context, s ports.Store, now time.Time, op stock.Operation, ref stock.Reference, changed ...*order.Order) error {
	return apply(ctx, s, s.Together, now, op, ref, changed...)
}

// applyLast is applyOne for a use case that ends with it: what it writes
// is the transaction's last (Store.Last), sent with the commit step's.
func applyLast(ctx context.Context, s ports.Store, now time.Time, op stock.Operation, ref stock.Reference, changed ...*order.Order) error {
	return apply(ctx, s, s.Last, now, op, ref, changed...)
}

func apply(ctx context.Context, s ports.Store, writes func(context.Context, func() error) error, now time.Time, op stock.Operation, ref stock.Reference, changed ...*order.Order) error {
	ws, err := s.Stock().Load(ctx, stock.ScopeOf(op), now)
	if err != nil {
		return err
	}
	if err := ws.Apply(op, ref); err != nil {
		return err
	}
	return writes(ctx, func() error {
		if err := s.Stock().Save(ctx, ws); err != nil {
			return err
		}
		return s.Orders().Save(ctx, changed...)
	})
}
