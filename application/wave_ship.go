package application

import (
	"cmp"
	"context"
	"slices"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// WaveShipment tells which orders of a wave shipped and why the others
// did not.
type WaveShipment struct {
	Shipped    []int64
	NotShipped []WaveNotShipped
}

// WaveNotShipped is an order of a wave left as it was.
type WaveNotShipped struct {
	OrderID int64
	Reason  string
}

// ShipWave ships every order of the wave whose pieces were all picked,
// each as ShipOrder ships it (from the wave's warehouse, all or nothing,
// with its status mail), through the one shipping path (shipGroup); the
// others keep their reservations. Picks only grow, so an order found
// ready stays ready until it ships.
func (a *App) ShipWave(ctx context.Context, waveID int64, user string) (WaveShipment, error) {
	if err := permit(ctx, access.ShipOrders); err != nil {
		return WaveShipment{}, err
	}
	var out WaveShipment
	var ready []int64
	var warehouseID int64
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		out, ready = WaveShipment{}, nil
		w, err := s.Waves().Get(ctx, waveID)
		if err != nil {
			return err
		}
		warehouseID = w.WarehouseID()
		orders, err := s.Orders().GetMany(ctx, w.OrderIDs(), nil)
		if err != nil {
			return err
		}
		for _, o := range orders {
			if ok, why := w.ReadyToShip(o); ok {
				ready = append(ready, o.ID())
			} else {
				out.NotShipped = append(out.NotShipped, WaveNotShipped{OrderID: o.ID(), Reason: why})
			}
		}
		return nil
	})
	if err != nil {
		return WaveShipment{}, err
	}
	from := &stock.WarehouseSpec{ID: warehouseID}
	for start := 0; start < len(ready); start += maxOrderGroup {
		chunk := ready[start:min(start+maxOrderGroup, len(ready))]
		reqs := make([]orderRequest, len(chunk))
		for i, id := range chunk {
			reqs[i] = orderRequest{ctx: ctx, ref: OrderRef{ID: id}, at: from, user: user}
		}
		for i, v := range a.shipGroup(reqs) {
			err := v.err
			if v.alone {
				err = a.shipAlone(reqs[i])
			}
			switch {
			case err == nil:
				out.Shipped = append(out.Shipped, chunk[i])
			case errs.KindOf(err) == errs.Invalid, errs.KindOf(err) == errs.Conflict:
				// A conflict with an open count's lock holds back that
				// order alone, as it fails one operation of a batch.
				out.NotShipped = append(out.NotShipped, WaveNotShipped{OrderID: chunk[i], Reason: err.Error()})
			default:
				return WaveShipment{}, err
			}
		}
	}
	slices.SortFunc(out.NotShipped, func(x, y WaveNotShipped) int { return cmp.Compare(x.OrderID, y.OrderID) })
	return out, nil
}
