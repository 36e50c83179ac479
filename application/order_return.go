package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"

	"github.com/shopstock/inventory/domain/errs"
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
	return a.idempotent(ctx, meta, func(ctx context.Context, s ports.Store, now time.Time) ([]byte, error) {
		o, err := ref.load(ctx, s.Orders())
		if err != nil {
			return nil, err
		}
		if !req.Restock && req.To != nil {
			return nil, errs.Invalidf("warehouse and binLocation say where restocked pieces go: leave them out when restock is false")
		}
		var to *stock.LocationSpec
		if req.Restock {
			if to, err = returnLocation(ctx, s, req.To); err != nil {
				return nil, err
			}
		}
		op := &order.ReturnShipment{Order: o, Lines: req.Lines, To: to, Now: now, User: meta.User}
		if err := applyOne(ctx, s, now, op, stock.Reference{IdempotencyKey: meta.Key, User: meta.User}); err != nil {
			return nil, err
		}
		if err := s.Orders().Save(ctx, o); err != nil {
			return nil, err
		}
		if err := s.Returns().Add(ctx, op.Result); err != nil {
			return nil, err
		}
		return render(op.Result.ID)
	})
}

// returnLocation is where restocked pieces go: the given location, else
// the default return-shipment warehouse.
func returnLocation(ctx context.Context, s ports.Store, given *stock.LocationSpec) (*stock.LocationSpec, error) {
	if given != nil {
		return given, given.Validate("")
	}
	_, def, err := s.Warehouses().Defaults(ctx)
	if err != nil {
		return nil, err
	}
	if def == nil {
		return nil, errs.Invalidf("there is no default return-shipment warehouse to restock into: create a warehouse, name a location or send restock false")
	}
	return &stock.LocationSpec{Warehouse: &stock.WarehouseSpec{ID: def.ID()}}, nil
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
