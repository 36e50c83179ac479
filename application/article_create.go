package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/ports"
)

// CreateArticleDetail stores a product the shop pushes in, with the shop's
// id when it gives one, and its reorder point (0: none).
func (a *App) CreateArticleDetail(ctx context.Context, id int64, number, name string, reorderPoint int) (int64, error) {
	if err := permit(ctx, access.ManageArticles); err != nil {
		return 0, err
	}
	art, err := catalog.NewArticleDetail(id, number, name)
	if err != nil {
		return 0, err
	}
	if err := art.SetReorderPoint(reorderPoint); err != nil {
		return 0, err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		repo := s.ArticleDetails()
		if art.ID() != 0 {
			taken, err := repo.IDTaken(ctx, art.ID())
			if err != nil {
				return err
			}
			if taken {
				return catalog.ErrIDTaken(art.ID())
			}
		}
		if err := checkArticleNumber(ctx, repo, art.Number(), art.ID()); err != nil {
			return err
		}
		return repo.Add(ctx, art)
	})
	return art.ID(), err
}

func checkArticleNumber(ctx context.Context, repo ports.ArticleDetailRepository, number string, exceptID int64) error {
	taken, err := repo.NumberTaken(ctx, number, exceptID)
	if err != nil {
		return err
	}
	if taken {
		return catalog.ErrNumberTaken(number)
	}
	return nil
}
