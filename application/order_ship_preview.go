package application

import (
	"cmp"
	"context"
	"slices"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// PlannedTake is what shipping an order would take from one bin: so many
// pieces of a product, of one lot when it is lot-tracked.
type PlannedTake struct {
	ArticleDetailID int64
	BinLocationID   int64
	BinCode         string
	Lot             string
	Quantity        int
}

// ShipmentPreview is what shipping the whole order from one warehouse
// would take, bin by bin, as the stock stands when it is read: the same
// rules ShipOrder applies (reserved pieces from their bins, the rest by the
// stock-out order), run on a working set that is never saved. An order
// that cannot ship gets the error its shipment would get; one with nothing
// left to ship, no takes. The shipment itself plans again under its locks,
// so what it takes can differ when the stock moves in between.
func (a *App) ShipmentPreview(ctx context.Context, ref OrderRef, from *stock.WarehouseSpec) ([]PlannedTake, error) {
	if err := permit(ctx, access.ReadOrders); err != nil {
		return nil, err
	}
	var takes []PlannedTake
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		o, err := ref.load(ctx, s.Orders())
		if err != nil {
			return err
		}
		if plan, err := o.PlanFullShipment(); err != nil || len(plan) == 0 {
			return err
		}
		spec, err := shipWarehouse(ctx, s, from)
		if err != nil {
			return err
		}
		shipment := order.Shipment{Order: o, From: spec}
		ws, err := s.Stock().Load(ctx, stock.ScopeOf(shipment), a.clock.Now())
		if err != nil {
			return err
		}
		if err := ws.Apply(shipment, stock.Reference{}); err != nil {
			return err
		}
		_, _, entries := ws.Changes()
		takes = plannedTakes(ws, entries)
		return nil
	})
	return takes, err
}

// plannedTakes sums the pieces the entries take out per product, bin and
// lot, in the order of bin code, product and lot.
func plannedTakes(ws *stock.WorkingSet, entries []stock.LedgerEntry) []PlannedTake {
	type key struct {
		article, bin int64
		lot          string
	}
	at := map[key]int{}
	var takes []PlannedTake
	for _, e := range entries {
		if e.Quantity >= 0 {
			continue
		}
		k := key{e.ArticleDetailID, e.BinLocationID, e.LotNumber}
		i, ok := at[k]
		if !ok {
			i = len(takes)
			at[k] = i
			takes = append(takes, PlannedTake{ArticleDetailID: e.ArticleDetailID, BinLocationID: e.BinLocationID,
				BinCode: ws.BinCode(e.BinLocationID), Lot: e.LotNumber})
		}
		takes[i].Quantity -= e.Quantity
	}
	slices.SortFunc(takes, func(x, y PlannedTake) int {
		return cmp.Or(cmp.Compare(x.BinCode, y.BinCode), cmp.Compare(x.ArticleDetailID, y.ArticleDetailID), cmp.Compare(x.Lot, y.Lot))
	})
	return takes
}
