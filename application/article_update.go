package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/ports"
)

// UpdateArticleDetail changes number, name and reorder point; nil leaves one as it is.
func (a *App) UpdateArticleDetail(ctx context.Context, id int64, number, name *string, reorderPoint *int) error {
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
		if number != nil {
			newNumber = *number
		}
		if name != nil {
			newName = *name
		}
		if err := art.Rename(newNumber, newName); err != nil {
			return err
		}
		if reorderPoint != nil {
			if err := art.SetReorderPoint(*reorderPoint); err != nil {
				return err
			}
		}
		if err := checkArticleNumber(ctx, repo, art.Number(), art.ID()); err != nil {
			return err
		}
		return repo.Save(ctx, art)
	})
}
