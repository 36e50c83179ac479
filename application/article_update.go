package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// ArticleDetailChange is what an update sets; nil leaves a property as it is.
type ArticleDetailChange struct {
	Number, Name *string
	ReorderPoint *int
	EAN          *string
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
		if err := checkArticleNumber(ctx, repo, art.Number(), art.ID()); err != nil {
			return err
		}
		if err := checkArticleEAN(ctx, repo, art); err != nil {
			return err
		}
		return repo.Save(ctx, art)
	})
}
