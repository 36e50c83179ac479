package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ExportStock hands every mapping to each, ordered by warehouse code, bin
// location code and article detail number, or only those of the warehouse
// with code warehouseCode when it is not empty (an unknown code is Invalid,
// reported before each is called at all). It streams: each sees one row at
// a time.
func (a *App) ExportStock(ctx context.Context, warehouseCode string, each func(ports.StockExportRow) error) error {
	if err := permit(ctx, access.ReadStock); err != nil {
		return err
	}
	handedOut := false
	return a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		if handedOut {
			// A read that a replica failed runs again on the primary;
			// rows already handed out cannot be taken back.
			return errs.E(errs.Unavailable, "the stock export broke off; ask again")
		}
		var warehouseID int64
		if warehouseCode != "" {
			p, err := s.Warehouses().List(ctx, ports.ListQuery{Limit: 1, Filters: []ports.Filter{
				{Property: "warehouse.code", Expression: ports.ExprEqual, Values: []any{warehouseCode}},
			}})
			if err != nil {
				return err
			}
			if len(p.Items) == 0 {
				return errs.Invalidf("warehouse with code %q does not exist", warehouseCode).On("warehouse").Breaks(stock.UnknownWarehouse)
			}
			warehouseID = p.Items[0].ID()
		}
		return s.Stock().EachMapping(ctx, warehouseID, func(row ports.StockExportRow) error {
			handedOut = true
			return each(row)
		})
	})
}
