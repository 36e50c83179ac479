package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
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
	if err := permit(ctx, access.ReadStock); err != nil {
		return v, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		art, err := s.ArticleDetails().Get(ctx, id)
		if err != nil {
			return err
		}
		figures, err := articleFigures(ctx, s, []*catalog.ArticleDetail{art})
		if err != nil {
			return err
		}
		v = figures[0]
		return nil
	})
	return v, err
}

// ArticleDetails reads one page of products, each with its stock figures.
func (a *App) ArticleDetails(ctx context.Context, q ports.ListQuery) (p ports.Page[ArticleStock], err error) {
	if err := permit(ctx, access.ReadStock); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		page, err := s.ArticleDetails().List(ctx, q)
		if err != nil {
			return err
		}
		p.Total = page.Total
		p.Items, err = articleFigures(ctx, s, page.Items)
		return err
	})
	return p, err
}
