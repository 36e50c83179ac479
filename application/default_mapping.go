package application

import (
	"context"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// SetDefaultBinLocation makes (or stops making) a bin location the
// product's default in its warehouse.
func (a *App) SetDefaultBinLocation(ctx context.Context, binLocationID, articleDetailID int64, isDefault bool) error {
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		b, err := s.BinLocations().Get(ctx, binLocationID)
		if err != nil {
			return err
		}
		found, err := s.ArticleDetails().Lock(ctx, []int64{articleDetailID})
		if err != nil {
			return err
		}
		if !found[articleDetailID] {
			return errs.NotFoundf("article detail %d not found", articleDetailID)
		}
		mappings, bins, err := s.Stock().LockMappings(ctx, ports.MappingWants{
			InWarehouse: []ports.ArticleWarehouse{{ArticleDetailID: articleDetailID, WarehouseID: b.WarehouseID()}},
		})
		if err != nil {
			return err
		}
		bin := stock.Bin{ID: b.ID(), WarehouseID: b.WarehouseID(), Code: b.Code(), IsNull: b.IsNull()}
		inv := stock.NewInventory(append(bins, bin), mappings, a.clock.Now())
		if err := inv.SetDefault(articleDetailID, bin, isDefault); err != nil {
			return err
		}
		upserted, removed, _ := inv.Changes()
		return s.Stock().Apply(ctx, upserted, removed)
	})
}
