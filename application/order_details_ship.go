package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// DetailShipment is one operation of an order-detail shipping batch.
// Problem is set when the adapter could not read the operation: it then
// fails with that message.
type DetailShipment struct {
	OperationID   []byte
	Problem       string
	OrderDetailID int64
	Quantity      int
	From          stock.LocationSpec
}

// ShipOrderDetails ships single positions, each from its own location. Each
// operation succeeds or fails alone; no status mail is sent.
func (a *App) ShipOrderDetails(ctx context.Context, meta BatchMeta, ops []DetailShipment, render RenderBatch) (BatchOutcome, error) {
	return a.runBatch(ctx, meta, len(ops), render, func(ctx context.Context, s ports.Store, now time.Time) ([]OperationResult, error) {
		detailIDs := make([]int64, 0, len(ops))
		for _, op := range ops {
			if op.Problem == "" && op.OrderDetailID > 0 {
				detailIDs = append(detailIDs, op.OrderDetailID)
			}
		}
		// Orders first, in id order, then the products: the lock order of
		// every shipment.
		orders, err := s.Orders().ByDetailIDs(ctx, detailIDs)
		if err != nil {
			return nil, err
		}
		orderOf := make(map[int64]*order.Order, len(detailIDs))
		for _, o := range orders {
			for _, d := range o.Details() {
				orderOf[d.ID()] = o
			}
		}
		needs := make([]locationNeed, 0, len(ops))
		for _, op := range ops {
			if o := orderOf[op.OrderDetailID]; o != nil && op.Problem == "" {
				d, _ := o.Detail(op.OrderDetailID)
				needs = append(needs, locationNeed{article: d.ArticleDetailID(), spec: op.From})
			}
		}
		ss, err := openStock(ctx, s, now, needs)
		if err != nil {
			return nil, err
		}

		changed := map[*order.Order]bool{}
		results := make([]OperationResult, len(ops))
		for i, op := range ops {
			err := shipDetail(ss, orderOf, op, meta, changed)
			switch {
			case err == nil:
				results[i] = succeeded(op.OperationID)
			case errs.KindOf(err) == errs.Invalid:
				results[i] = failed(op.OperationID, err)
			default:
				return nil, err
			}
		}
		if err := ss.save(ctx, s); err != nil {
			return nil, err
		}
		var touched []*order.Order
		for _, o := range orders {
			if changed[o] {
				touched = append(touched, o)
			}
		}
		return results, s.Orders().Save(ctx, touched...)
	})
}

// shipDetail runs one operation. The order's rules are checked before stock
// moves and the shipment is recorded after, so a failing operation changes
// neither.
func shipDetail(ss *stockSession, orderOf map[int64]*order.Order, op DetailShipment, meta BatchMeta, changed map[*order.Order]bool) error {
	if op.Problem != "" {
		return errs.Invalidf("%s", op.Problem)
	}
	if op.OrderDetailID <= 0 {
		return errs.Invalidf("orderDetailId must be a positive integer")
	}
	o := orderOf[op.OrderDetailID]
	if o == nil {
		return errs.Invalidf("order detail %d does not exist", op.OrderDetailID)
	}
	if err := o.CanShipDetail(op.OrderDetailID, op.Quantity); err != nil {
		return err
	}
	d, _ := o.Detail(op.OrderDetailID)
	from, err := ss.locate(d.ArticleDetailID(), op.From, "")
	if err != nil {
		return err
	}
	ref := stock.Reference{
		IdempotencyKey: meta.Key, OperationID: string(op.OperationID),
		OrderID: o.ID(), OrderDetailID: op.OrderDetailID, User: meta.User,
	}
	if err := ss.inv.Ship(d.ArticleDetailID(), from, op.Quantity, ref); err != nil {
		return err
	}
	if err := o.ShipDetail(op.OrderDetailID, op.Quantity); err != nil {
		// CanShipDetail accepted it a moment ago: the stock already moved,
		// so this is a fault of the service, and the batch must not commit.
		return errs.Wrap(errs.Internal, err, "order detail shipment refused after its stock moved")
	}
	changed[o] = true
	return nil
}
