package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"

	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ReturnRequest is a return shipment as the client sends it. To is where
// restocked pieces go; nil means the default return-shipment warehouse.
type ReturnRequest struct {
	Lines   []order.ReturnLine
	To      *stock.LocationSpec
	Restock bool
}

// RenderCreated turns the id of a created resource into the response body
// that is sent, and stored for replay.
type RenderCreated func(id int64) ([]byte, error)

// ReturnOrder takes pieces of an order back, restocked or not, and stores
// the return. With an idempotency key in meta (optional), the rules of
// the batches apply: the same request again replays the response, another
// request with the key is a conflict.
func (a *App) ReturnOrder(ctx context.Context, meta BatchMeta, ref OrderRef, req ReturnRequest, render RenderCreated) (BatchOutcome, error) {
	if err := permit(ctx, access.ManageOrders); err != nil {
		return BatchOutcome{}, err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CauseReturns, IdempotencyKey: meta.Key})
	return a.idempotent(ctx, meta, writesItself(func(ctx context.Context, s ports.Store, now time.Time) ([]byte, error) {
		o, err := ref.load(ctx, s.Orders())
		if err != nil {
			return nil, err
		}
		var def int64
		if req.Restock && req.To == nil {
			if def, err = defaultReturnWarehouse(ctx, s); err != nil {
				return nil, err
			}
		}
		op := &order.ReturnShipment{Order: o, Lines: req.Lines, Now: now, User: meta.User}
		if err := op.RestockTo(req.Restock, req.To, def); err != nil {
			return nil, err
		}
		if op.To != nil {
			details := make([]int64, len(req.Lines))
			for i, l := range req.Lines {
				details[i] = l.OrderDetailID
			}
			if op.ShippedLots, err = s.Ledger().ShippedLots(ctx, details); err != nil {
				return nil, err
			}
		}
		if err := applyOne(ctx, s, now, op, stock.Reference{IdempotencyKey: meta.Key, User: meta.User}, o); err != nil {
			return nil, err
		}
		if err := s.Returns().Add(ctx, op.Result); err != nil {
			return nil, err
		}
		return render(op.Result.ID)
	}))
}

// defaultReturnWarehouse is the id of the default return-shipment
// warehouse, 0 when there is none.
func defaultReturnWarehouse(ctx context.Context, s ports.Store) (int64, error) {
	_, def, err := s.Warehouses().Defaults(ctx)
	if err != nil || def == nil {
		return 0, err
	}
	return def.ID(), nil
}

// Return reads one return shipment.
func (a *App) Return(ctx context.Context, id int64) (r *order.Return, err error) {
	if err := permit(ctx, access.ReadOrders); err != nil {
		return r, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		r, err = s.Returns().Get(ctx, id)
		return err
	})
	return r, err
}

// Returns reads one page of return shipments.
func (a *App) Returns(ctx context.Context, q ports.ListQuery) (p ports.Page[*order.Return], err error) {
	if err := permit(ctx, access.ReadOrders); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.Returns().List(ctx, q)
		return err
	})
	return p, err
}
