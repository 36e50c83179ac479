package application

import (
	"context"

	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ArticleStock is a product with its stock figures.
type ArticleStock struct {
	Article *catalog.ArticleDetail
	stock.Figures
}

// ArticleDetail reads one product with its stock figures.
func (a *App) ArticleDetail(ctx context.Context, id int64) (v ArticleStock, err error) {
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		if v.Article, err = s.ArticleDetails().Get(ctx, id); err != nil {
			return err
		}
		warehouses, err := s.Stock().ArticleStock(ctx, id)
		if err != nil {
			return err
		}
		outstanding, err := s.Orders().Outstanding(ctx, id)
		if err != nil {
			return err
		}
		v.Figures = stock.FiguresOf(warehouses, outstanding)
		return nil
	})
	return v, err
}

// ArticleDetails reads one page of products.
func (a *App) ArticleDetails(ctx context.Context, q ports.ListQuery) (p ports.Page[*catalog.ArticleDetail], err error) {
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.ArticleDetails().List(ctx, q)
		return err
	})
	return p, err
}
