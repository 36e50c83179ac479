package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
)

// DeleteArticleDetail removes a product with no stock and nothing left to ship.
func (a *App) DeleteArticleDetail(ctx context.Context, id int64) error {
	if err := permit(ctx, access.ManageArticles); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		if _, err := s.ArticleDetails().Lock(ctx, []int64{id}); err != nil {
			return err
		}
		art, err := s.ArticleDetails().Get(ctx, id)
		if err != nil {
			return err
		}
		hasStock, err := s.Stock().ArticleHasStock(ctx, id)
		if err != nil {
			return err
		}
		_, outstanding, err := s.Figures().StockOf(ctx, []int64{id})
		if err != nil {
			return err
		}
		if err := art.CheckDeletable(hasStock, outstanding[id] > 0); err != nil {
			return err
		}
		if named, err := s.PurchaseOrders().NamesArticle(ctx, id); err != nil || named {
			if err == nil {
				err = purchase.ErrNamesArticle(id)
			}
			return err
		}
		if named, err := s.Transfers().NamesArticle(ctx, id); err != nil || named {
			if err == nil {
				err = transfer.ErrNamesArticle(id)
			}
			return err
		}
		if err := s.Stock().RemoveEmpty(ctx, id); err != nil {
			return err
		}
		return s.ArticleDetails().Delete(ctx, id)
	})
}
