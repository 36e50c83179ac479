package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// ArticleDetailChange is what an update sets; nil leaves a property as it is.
type ArticleDetailChange struct {
	Number, Name *string
	ReorderPoint *int
	EAN          *string
	LotTracked   *bool
}

// UpdateArticleDetail changes number, name and reorder point; nil leaves one as it is.
func (a *App) UpdateArticleDetail(ctx context.Context, id int64, number, name *string, reorderPoint *int) error {
	return a.UpdateArticleDetailWith(ctx, id, ArticleDetailChange{Number: number, Name: name, ReorderPoint: reorderPoint})
}

// UpdateArticleDetailWith changes any of the properties the shop sets.
func (a *App) UpdateArticleDetailWith(ctx context.Context, id int64, c ArticleDetailChange) error {
	if err := permit(ctx, access.ManageArticles); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		repo := s.ArticleDetails()
		art, err := repo.Get(ctx, id)
		if err != nil {
			return err
		}
		newNumber, newName := art.Number(), art.Name()
		if c.Number != nil {
			newNumber = *c.Number
		}
		if c.Name != nil {
			newName = *c.Name
		}
		if err := art.Rename(newNumber, newName); err != nil {
			return err
		}
		if c.ReorderPoint != nil {
			if err := art.SetReorderPoint(*c.ReorderPoint); err != nil {
				return err
			}
		}
		if c.EAN != nil {
			if err := art.SetEAN(*c.EAN); err != nil {
				return err
			}
		}
		if c.LotTracked != nil {
			if err := setLotTracked(ctx, s, art, *c.LotTracked); err != nil {
				return err
			}
		}
		if err := checkArticleNumber(ctx, repo, art.Number(), art.ID()); err != nil {
			return err
		}
		if err := checkArticleEAN(ctx, repo, art); err != nil {
			return err
		}
		return repo.Save(ctx, art)
	})
}

// setLotTracked changes whether the product's stock is kept per lot, as
// its stock and reservations in all warehouses allow
// (catalog.ArticleDetail.SetLotTracked). The product is locked (Get inside
// Write), so no stock writer changes them before this commits.
func setLotTracked(ctx context.Context, s ports.Store, art *catalog.ArticleDetail, tracked bool) error {
	stocks, _, err := s.Figures().StockOf(ctx, []int64{art.ID()})
	if err != nil {
		return err
	}
	f := stock.FiguresOf(stocks[art.ID()], 0)
	// Pieces on the road between warehouses are stock too: they arrive in
	// the lot they left with, or in none.
	inTransit, err := s.Transfers().InTransitOf(ctx, []int64{art.ID()})
	if err != nil {
		return err
	}
	return art.SetLotTracked(tracked, f.PhysicalStock+inTransit[art.ID()], f.ReservedStock)
}
