package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ExpireLots records the expiry of every lot that has expired
// (stock.ExpiryCutoff: its best-before day is over, UTC) and is not counted
// yet: its holds are released and its pieces count as expired, in the
// figures and in the lots' expired alike. Each product goes in a
// transaction of its own, under its product lock, which recorded
// stock.changed with cause expiry. A lot is counted once however many
// instances run this at once: the second finds it counted under the lock
// and changes nothing. It tells how many lots it counted.
func (a *App) ExpireLots(ctx context.Context) (int, error) {
	if err := permit(ctx, access.Maintain); err != nil {
		return 0, err
	}
	now := a.clock.Now()
	var articles []int64
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) (err error) {
		articles, err = s.Stock().UncountedExpiry(ctx, stock.ExpiryCutoff(now))
		return err
	})
	if err != nil {
		return 0, err
	}
	counted := 0
	ctx = WithCause(ctx, event.Cause{Type: event.CauseExpiry})
	for _, article := range articles {
		n := 0
		err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
			// Orders before products: the lock order of every shipment.
			holders, err := s.Orders().HoldingLotsOf(ctx, article)
			if err != nil {
				return err
			}
			stockOf, _, err := s.Figures().StockOf(ctx, []int64{article})
			if err != nil {
				return err
			}
			op := &order.Expiry{ArticleDetailID: article, Holders: holders}
			for _, w := range stockOf[article] {
				op.Warehouses = append(op.Warehouses, w.WarehouseID)
			}
			if len(op.Warehouses) == 0 {
				// Lots that hold nothing anywhere are counted all the same:
				// the product is loaded (and locked) through a warehouse.
				def, _, err := s.Warehouses().Defaults(ctx)
				if err != nil || def == nil {
					return err
				}
				op.Warehouses = []int64{def.ID()}
			}
			if err := applyOne(ctx, s, now, op, stock.Reference{}); err != nil {
				return err
			}
			n = len(op.Counted)
			// The orders whose reservations the expiry released are known
			// only once the operation ran.
			return s.Orders().Save(ctx, op.Released...)
		})
		if err != nil {
			return counted, err
		}
		counted += n
	}
	return counted, nil
}
