package application

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/access"
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
	Lot           *stock.LotSpec
}

// ShipOrderDetails ships single positions, each from its own location. Each
// operation succeeds or fails alone; no status mail is sent.
func (a *App) ShipOrderDetails(ctx context.Context, meta BatchMeta, ops []DetailShipment, render RenderBatch) (BatchOutcome, error) {
	if err := permit(ctx, access.ShipOrders); err != nil {
		return BatchOutcome{}, err
	}
	return a.runBatch(ctx, meta, len(ops), render, func(ctx context.Context, s ports.Store, now time.Time) ([]OperationResult, func() error, error) {
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
			return nil, nil, err
		}
		orderOf := make(map[int64]*order.Order, len(detailIDs))
		for _, o := range orders {
			for _, d := range o.Details() {
				orderOf[d.ID()] = o
			}
		}
		batch := make([]BatchOperation, len(ops))
		for i, op := range ops {
			batch[i] = BatchOperation{OperationID: op.OperationID, Problem: op.Problem, Op: order.DetailShipment{
				Order: orderOf[op.OrderDetailID], DetailID: op.OrderDetailID, Quantity: op.Quantity, From: op.From, Lot: op.Lot,
			}}
		}
		results, saveStock, err := applyOperations(ctx, s, now, meta, batch)
		if err != nil {
			return nil, nil, err
		}
		shipped := map[*order.Order]bool{}
		for i, r := range results {
			if r.Success {
				shipped[orderOf[ops[i].OrderDetailID]] = true
			}
		}
		var touched []*order.Order
		for _, o := range orders {
			if shipped[o] {
				touched = append(touched, o)
			}
		}
		return results, func() error {
			if err := saveStock(); err != nil {
				return err
			}
			return s.Orders().Save(ctx, touched...)
		}, nil
	})
}
