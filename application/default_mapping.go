package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// SetDefaultBinLocation makes (or stops making) a bin location the
// product's default in its warehouse.
func (a *App) SetDefaultBinLocation(ctx context.Context, binLocationID, articleDetailID int64, isDefault bool) error {
	if err := permit(ctx, access.WriteStock); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		// Both are named in the path: naming nothing is a 404, not a rule.
		if _, err := s.BinLocations().Get(ctx, binLocationID); err != nil {
			return err
		}
		found, err := s.ArticleDetails().Lock(ctx, []int64{articleDetailID})
		if err != nil {
			return err
		}
		if !found[articleDetailID] {
			return errs.NotFoundf("article detail %d not found", articleDetailID)
		}
		op := stock.SetDefault{ArticleDetailID: articleDetailID, BinLocationID: binLocationID, Default: isDefault}
		return applyLast(ctx, s, a.clock.Now(), op, stock.Reference{})
	})
}
