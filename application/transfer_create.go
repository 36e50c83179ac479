package application

import (
	"context"
	"fmt"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
)

// TransferRequest is a transfer as a client sends it: the transfer's
// fields, and its warehouses by id or code.
type TransferRequest struct {
	transfer.NewTransfer
	Source      stock.WarehouseSpec
	Destination stock.WarehouseSpec
}

// CreateTransfer stores an Open transfer; nothing moves yet. Its
// warehouses and every line's article detail must exist, and a line that
// names a lot must be of a lot-tracked product.
func (a *App) CreateTransfer(ctx context.Context, req TransferRequest) (int64, error) {
	if err := permit(ctx, access.ManageTransfers); err != nil {
		return 0, err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CauseTransfersUpdate})
	var id int64
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		p := req.NewTransfer
		var bad []errs.FieldError
		for _, w := range []struct {
			property string
			spec     stock.WarehouseSpec
			id       *int64
		}{{"source", req.Source, &p.SourceWarehouseID}, {"destination", req.Destination, &p.DestinationWarehouseID}} {
			found, err := warehouseOf(ctx, s, w.spec)
			if e, ok := errs.As(err); ok && e.Kind == errs.Invalid {
				for _, f := range e.Fields {
					bad = append(bad, errs.FieldError{Property: w.property, Message: f.Message})
				}
				// A placeholder keeps New from reporting the same
				// warehouse again.
				*w.id = -1
				continue
			} else if err != nil {
				return err
			}
			*w.id = found
		}
		unresolved := p.SourceWarehouseID < 0 || p.DestinationWarehouseID < 0
		if unresolved {
			p.SourceWarehouseID, p.DestinationWarehouseID = 1, 2
		}
		t, err := transfer.New(p, a.clock.Now())
		if err != nil || unresolved {
			if e, ok := errs.As(err); ok {
				bad = append(bad, e.Fields...)
			} else if err != nil {
				return err
			}
			return errs.InvalidFields(bad...)
		}
		repo := s.Transfers()
		doc := newDocument{
			id: t.ID(), idTaken: repo.IDTaken, errIDTaken: transfer.ErrIDTaken,
			number: t.Number(), numberTaken: repo.NumberTaken, errNumber: transfer.ErrNumberTaken,
			items: "lines", itemIDsTaken: repo.LineIDsTaken, errItemIDTaken: transfer.ErrLineIDTaken,
		}
		for _, l := range t.Lines() {
			doc.itemIDs, doc.articleIDs = append(doc.itemIDs, l.ID()), append(doc.articleIDs, l.ArticleDetailID())
		}
		if err := doc.check(ctx, s); err != nil {
			return err
		}
		if err := checkLotsTracked(ctx, s, t); err != nil {
			return err
		}
		if err := repo.Add(ctx, t); err != nil {
			return err
		}
		id = t.ID()
		return nil
	})
	return id, err
}

// checkLotsTracked refuses a line that names a lot of a product that is
// not lot-tracked.
func checkLotsTracked(ctx context.Context, s ports.Store, t *transfer.Transfer) error {
	var ids []any
	for _, l := range t.Lines() {
		if l.Lot() != "" {
			ids = append(ids, l.ArticleDetailID())
		}
	}
	if len(ids) == 0 {
		return nil
	}
	p, err := s.ArticleDetails().List(ctx, ports.ListQuery{Limit: len(ids),
		Filters: []ports.Filter{{Property: "articleDetail.id", Expression: ports.ExprIn, Values: ids}}})
	if err != nil {
		return err
	}
	tracked := map[int64]bool{}
	for _, a := range p.Items {
		tracked[a.ID()] = a.LotTracked()
	}
	var bad []errs.FieldError
	for i, l := range t.Lines() {
		if l.Lot() != "" && !tracked[l.ArticleDetailID()] {
			bad = append(bad, errs.FieldError{Property: fmt.Sprintf("lines[%d].lot", i),
				Message: fmt.Sprintf("article detail %d is not lot-tracked: leave out lot", l.ArticleDetailID())})
		}
	}
	if len(bad) > 0 {
		return errs.InvalidFields(bad...).Breaks(stock.LotNotTracked)
	}
	return nil
}
